"""What changed between two compiled packs: cards, decks, symbols and rules, field by field.

``decklore diff A B`` compares two packs (folders or tables files).  Only meaning counts:
where a row came from (``origin``, ``at``) and the content hash are left out, so moving a
card to another line of its file is no change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

IGNORED = {"origin", "at", "content_hash", "compiler", "changes"}
"""Where a row came from and which mods touched it: provenance, not meaning."""


@dataclass
class Change:
    """One added, removed or changed item, with its field changes."""

    kind: str  # "added", "removed" or "changed"
    id: str
    label: str
    fields: list[tuple[str, Any, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"change": self.kind, "id": self.id, "label": self.label,
                "fields": [{"field": f, "before": a, "after": b} for f, a, b in self.fields]}


@dataclass
class PackDiff:
    """The changes between two packs, by section."""

    before: str
    after: str
    sections: dict[str, list[Change]]

    @property
    def empty(self) -> bool:
        return not any(self.sections.values())

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before, "after": self.after,
                "sections": {name: [c.to_json() for c in changes]
                             for name, changes in self.sections.items()}}


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def notation(entries: list[dict[str, Any]]) -> str:
    """A card's symbol list written back in symbol notation, for readable diffs."""
    parts: list[str] = []
    dash = False
    for e in entries:
        if e["per_stacked"] and not dash:
            parts.append("-")
            dash = True
        name = e["symbol"].split(":")[-1]
        if e["argument"]:
            name += f"({e['argument'].split(':')[-1]})"
        if e["lock"]:
            name += f"[{e['lock']}]"
        if e["to"] != "self" and not (e["argument"] and not e["key"]):
            name += f" -> {e['to']}"
        parts.append(f"{e['count']} {name}" if e["count"] > 1 else name)
    text = ", ".join(parts)
    return text.replace(", -, ", " - ").replace(", -", " -").replace("-, ", "- ")


def _show(name: str, value: Any) -> Any:
    if name == "symbols" and isinstance(value, list):
        return notation(value)
    if isinstance(value, dict) and {"symbol", "value", "per_stacked"} <= value.keys():
        text = str(value["symbol"]).split(":")[-1]  # a symbol_value field: 'ruin 2 +3'
        if value["value"] is not None:
            text += f" {value['value']}"
        if value["per_stacked"]:
            text += f" +{value['per_stacked']}"
        return text
    return value


def _rows(before: list[dict[str, Any]], after: list[dict[str, Any]], key: str,
          label: str) -> list[Change]:
    old = {row[key]: _clean(row) for row in before}
    new = {row[key]: _clean(row) for row in after}
    changes: list[Change] = []
    for ident in sorted(new.keys() - old.keys()):
        changes.append(Change("added", ident, str(new[ident].get(label, ident))))
    for ident in sorted(old.keys() - new.keys()):
        changes.append(Change("removed", ident, str(old[ident].get(label, ident))))
    for ident in sorted(old.keys() & new.keys()):
        a, b = old[ident], new[ident]
        fields = [(name, _show(name, a.get(name)), _show(name, b.get(name)))
                  for name in sorted(a.keys() | b.keys()) if a.get(name) != b.get(name)]
        if fields:
            changes.append(Change("changed", ident, str(b.get(label, ident)), fields))
    return changes


def _named(before: dict[str, Any], after: dict[str, Any], what: str) -> list[Change]:
    rows_a = [{"name": k, **({"value": v} if not isinstance(v, dict) else v)}
              for k, v in before.items()]
    rows_b = [{"name": k, **({"value": v} if not isinstance(v, dict) else v)}
              for k, v in after.items()]
    return [Change(c.kind, f"{what} {c.id}", c.label if c.label != c.id else "", c.fields)
            for c in _rows(rows_a, rows_b, "name", "label")]


def _rules(a: dict[str, Any] | None, b: dict[str, Any] | None) -> list[Change]:
    a, b = a or {}, b or {}
    changes: list[Change] = []
    for key in ("zones", "counters", "flags"):
        changes += [Change(c.kind, f"{key[:-1]} {c.id}", c.label, c.fields)
                    for c in _rows(a.get(key, []), b.get(key, []), "name", "label")]
    for key, what in (("consts", "constant"), ("defines", "definition"),
                      ("actions", "action")):
        changes += _named(a.get(key, {}), b.get(key, {}), what)
    for key in ("flow", "triggers", "outcomes", "score", "tiebreak"):
        if _clean(a.get(key)) != _clean(b.get(key)):
            changes.append(Change("changed", key, key, [(key, "…", "…")]))
    return changes


def diff_tables(before: dict[str, Any], after: dict[str, Any]) -> PackDiff:
    """Every difference in meaning between two sets of tables."""
    def name(t: dict[str, Any]) -> str:
        return f"{t['pack']['id']} {t['pack']['version']}"

    return PackDiff(name(before), name(after), {
        "cards": _rows(before["cards"], after["cards"], "id", "name"),
        "decks": _rows(before["decks"], after["decks"], "id", "name"),
        "symbols": _rows(before["symbols"], after["symbols"], "id", "name"),
        "card kinds": _rows(before["card_kinds"], after["card_kinds"], "id", "name"),
        "card fields": _rows(before["card_fields"], after["card_fields"], "name", "label"),
        "rules": _rules(before.get("rules"), after.get("rules")),
    })


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, list) and len(str(value)) > 60:
        return f"[{len(value)} items]"
    text = str(value)
    return text if len(text) <= 70 else text[:67] + "..."


def _id_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def to_text(diff: PackDiff) -> str:
    """The diff for people: a count per section, then one line per item and field."""
    if diff.empty:
        return f"{diff.before} → {diff.after}: no changes\n"
    lines = [f"{diff.before} → {diff.after}"]
    mark = {"added": "+", "removed": "-", "changed": "~"}
    for section, changes in diff.sections.items():
        if not changes:
            continue
        counts = {k: sum(1 for c in changes if c.kind == k)
                  for k in ("added", "removed", "changed")}
        lines.append(f"{section}: " + ", ".join(f"{n} {k}" for k, n in counts.items() if n))
        for change in changes:
            label = f" ({change.label})" if change.label and change.label != change.id else ""
            lines.append(f"  {mark[change.kind]} {change.id}{label}")
            for name, old, new in change.fields:
                if _id_list(old) and _id_list(new):  # a deck's cards: what came and went
                    gone = [x for x in old if x not in new]
                    came = [x for x in new if x not in old]
                    moved = "" if gone or came else " (order changed)"
                    lines.append(f"      {name}: " + "; ".join(
                        [*(f"+{x}" for x in came), *(f"-{x}" for x in gone)]) + moved)
                else:
                    lines.append(f"      {name}: {_value(old)} → {_value(new)}")
    return "\n".join(lines) + "\n"
