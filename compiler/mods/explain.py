"""Where a compiled card's values come from: the file and line that set each field, and
every mod that changed it since, in load order (``decklore explain PACK CARD``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, suggest
from decklore.compiler.load.yaml_loader import LocatedDict, load_file
from decklore.compiler.mods.packs import load_order
from decklore.compiler.pipeline import compile_pack, display_path

HIDDEN = ("origin", "changes")


class ExplainError(Exception):
    """The card cannot be explained: the message says why."""


def explain(pack: Path, card_id: str) -> dict[str, Any]:
    """Each field of the card with its value and its history, as plain data."""
    shown = display_path(pack)
    tables = compile_pack(pack).tables
    cards = {c["id"]: c for c in tables["cards"]}
    if ":" not in card_id:
        card_id = f"{tables['pack']['id']}:{card_id}"
        if card_id not in cards:
            short = card_id.split(":", 1)[1]
            matches = [c for c in cards if c.split(":", 1)[1] == short]
            if len(matches) == 1:
                card_id = matches[0]
    card = cards.get(card_id)
    if card is None:
        hint = suggest(card_id, cards)
        raise ExplainError(f"no card '{card_id}' in {tables['pack']['id']}"
                           + (f" ({hint})" if hint else ""))
    diags = Diagnostics()
    layers = load_order(pack, shown, diags) or []
    folders = {layer.id: layer.folder for layer in layers}
    origin = card["origin"]
    lines = _field_lines(folders.get(origin["pack"], pack), origin["file"],
                         card_id.split(":", 1)[1])
    fields = []
    for name, value in card.items():
        if name in HIDDEN:
            continue
        line = lines.get(name, lines.get("id") if name == "deck" else None)
        history = [{"pack": origin["pack"], "file": origin["file"],
                    "line": line if line is not None else origin["line"],
                    "how": "written" if line is not None else "default"}]
        for change in card.get("changes", []):
            for verb in ("set", "unset", "add", "remove"):
                if name in change.get(verb, []):
                    history.append({"pack": change["pack"], "file": change["file"],
                                    "line": change["line"], "how": verb,
                                    **({"note": change["note"]} if "note" in change else {})})
        fields.append({"field": name, "value": value, "history": history})
    return {"card": card_id, "name": card["name"], "deck": card["deck"], "fields": fields,
            "packs": [p["id"] for p in tables["packs"]]}


def _field_lines(folder: Path, rel: str, short_id: str) -> dict[str, int]:
    """The line of each key of the card in its deck file (template keys included)."""
    data = load_file(folder / rel, rel, Diagnostics()).data
    if not isinstance(data, LocatedDict):
        return {}
    for raw in data.get("cards") or []:
        if isinstance(raw, LocatedDict) and raw.get("id") == short_id:
            return {key: pos[0] for key, pos in raw.key_pos.items()}
    return {}


def to_text(report: dict[str, Any]) -> str:
    out = [f"{report['card']} — {report['name']} (deck {report['deck']}; packs "
           f"{', '.join(report['packs'])})"]
    width = max(len(f["field"]) for f in report["fields"])
    for entry in report["fields"]:
        value = json.dumps(entry["value"], ensure_ascii=False)
        if len(value) > 60:
            value = value[:57] + "..."
        steps = []
        for step in entry["history"]:
            place = f"{step['pack']}:{step['file']}:{step['line']}"
            if step["how"] == "default":
                place = f"default ({step['pack']}:{step['file']}:{step['line']})"
            elif step["how"] != "written":
                place = f"{step['how']} by {place}"
                if step.get("note"):
                    place += f" — {step['note']}"
            steps.append(place)
        out.append(f"  {entry['field']:<{width}}  {value}")
        out.append(f"  {'':<{width}}    " + " → ".join(steps))
    return "\n".join(out) + "\n"
