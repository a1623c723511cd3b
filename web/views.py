"""HTML for the web table: pages and the fragments htmx swaps in, from the table's views.

A seat's fragment is rendered from ``Table.seat_view`` alone (what that seat may know) plus
the pack's public data: zone and counter labels and the faces of the cards the seat sees,
drawn by the printed sheets' template. The designer's fragment is rendered from
``Table.designer_view`` and is never mixed into a seat's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from decklore.compiler.printing import FaceRenderer
from decklore.web.table import Table

_ENV = Environment(loader=PackageLoader("decklore.web", "templates"),
                   autoescape=select_autoescape(default=True, default_for_string=True),
                   trim_blocks=True, lstrip_blocks=True)


def outcome_text(result: dict[str, Any] | None) -> str:
    """How a game ended, in words: one winner, a shared win, or nobody."""
    if not result:
        return ""
    seats = [f"Player {w + 1}" for w in result.get("winners", [])]
    reason = result.get("reason", "")
    if not seats:
        return f"Nobody won: {reason}"
    if len(seats) == 1:
        return f"{seats[0]} won: {reason}"
    return f"{', '.join(seats[:-1])} and {seats[-1]} share the win: {reason}"


def button_texts(heading: str | None, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each action with the words its button shows: its description without the heading
    it repeats. The engine describes every option in full ("Card to build: Temple"), for
    a log or a text view where it stands alone; on the page the question is written once
    above the buttons, so the button says "Temple". The full description stays as the
    button's title."""
    prefix = f"{heading}: " if heading else None
    out = []
    for action in actions:
        text = action["description"]
        if prefix and text.startswith(prefix) and len(text) > len(prefix):
            text = text[len(prefix):]
        out.append({**action, "text": text})
    return out


class Views:
    """Renders one table's pages; keeps the faces of its pack, redrawn after a reload."""

    def __init__(self, table: Table, delay: float) -> None:
        self.table = table
        self.delay = delay
        self._faces: FaceRenderer | None = None
        self._faces_of: object = None

    def faces(self) -> FaceRenderer:
        if self._faces is None or self._faces_of is not self.table.tables:
            raw = _thaw(self.table.tables.raw)
            self._faces = FaceRenderer(raw, overrides=raw.get("templates") or None)
            self._faces_of = self.table.tables
        return self._faces

    def _pack_labels(self) -> dict[str, Any]:
        """The pack's public words: zone, counter, flag and phase labels, spaced zones."""
        program = self.table.game.program
        spaced = {space: (base, number + 1) for base, spaces in program.spaced.items()
                  for number, space in enumerate(spaces)}
        boards = {base: program.zones[spaces[0]]["label"].rsplit(" ", 1)[0]
                  for base, spaces in program.spaced.items() if spaces}
        return {"zones": {n: s["label"] for n, s in program.zones.items()},
                "per": {n: s["per"] for n, s in program.zones.items()},
                "spaced": spaced, "boards": boards,
                "counters": {n: s["label"] for n, s in program.counters.items()},
                "flags": {n: s["label"] for n, s in program.flags.items()},
                "phases": {f.name: f.label for f in program.flows},
                "symbols": {s["id"]: s["name"] for s in self.table.tables.raw["symbols"]},
                "decks": {d["id"]: d["name"] for d in self.table.tables.raw["decks"]}}

    def page(self, title: str, body: Markup) -> str:
        faces = self.faces()
        return _ENV.get_template("page.html.j2").render(
            title=title, body=body, face_css=faces.css(),
            card_w=f"{faces.size[0]:.2f}mm", card_h=f"{faces.size[1]:.2f}mm")

    def seat_fragment(self, seat: int, mode: str = "seat") -> str:
        """The table as seat ``seat`` (0 for the first) sees it."""
        view = self.table.seat_view(seat)
        ids = sorted(_card_ids(view["observation"]["zones"]))
        labels = self._pack_labels()
        decision = view["observation"].get("decision") or {}
        return _ENV.get_template("seat.html.j2").render(
            v=view, o=view["observation"], labels=labels,
            buttons=button_texts(decision.get("label"), view["actions"]),
            places=_places(view["observation"], labels, seat),
            faces=self.faces().faces(ids), mode=mode, delay_ms=int(self.delay * 1000),
            outcome=outcome_text(view["result"]), pack=self.table.tables.pack,
            can_save=self.table.save_path is not None, seats=self.table.seats)

    def handover_fragment(self, seat: int, version: int) -> str:
        """Hot seat: the screen between two players, showing nobody's cards."""
        return _ENV.get_template("handover.html.j2").render(seat=seat + 1, version=version)

    def designer_fragment(self) -> str:
        view = self.table.designer_view()
        step = view.get("step") or {}
        return _ENV.get_template("designer.html.j2").render(
            d=view, buttons=button_texts(step.get("label"), view["actions"]),
            outcome=outcome_text(view["result"]), pack_path=str(self.table.pack),
            labels=self._pack_labels())

    def index(self) -> str:
        return _ENV.get_template("index.html.j2").render(
            pack=self.table.tables.pack, seats=self.table.seats,
            humans=self.table.humans())


def _thaw(value: Any) -> Any:
    """The runtime's read-only tables as the plain dicts and lists the printing code reads
    (a mapping proxy is no dict to it, and would print as one)."""
    if isinstance(value, Mapping):
        return {key: _thaw(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thaw(inner) for inner in value]
    return value


def _places(obs: dict[str, Any], labels: dict[str, Any], seat: int) -> dict[str, Any]:
    """The observation's zones laid out for the page: each player's zones (the viewer's
    first) with their boards of spaces, then the zones all players share. A card stacked on
    another is drawn once, in its stack."""
    players: list[dict[str, Any]] = [
        {"seat": p + 1, "zones": [], "boards": {}} for p in range(len(obs["players"]))]
    shared: list[dict[str, Any]] = []
    for name, cards in obs["zones"].items():
        lists = cards if labels["per"][name] == "player" else [cards]
        for owner, held in enumerate(lists):
            held = _unstacked(held)
            space = labels["spaced"].get(name)
            if labels["per"][name] != "player":
                if held:
                    shared.append({"label": labels["zones"][name], "cards": held})
                continue
            if space is not None:
                base, number = space
                board = players[owner]["boards"].setdefault(
                    base, {"label": labels["boards"][base], "spaces": []})
                board["spaces"].append({"number": number, "cards": held})
            elif held:
                players[owner]["zones"].append({"label": labels["zones"][name],
                                                "cards": held})
    for player in players:
        player["boards"] = [b for b in player["boards"].values()
                            if any(s["cards"] for s in b["spaces"])]
    order = [players[seat], *players[:seat], *players[seat + 1:]]
    return {"players": order, "shared": shared}


def _unstacked(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A zone's cards less those that also lie in another card's stack or under it."""
    inner = {c["instance"] for card in cards for key in ("stack", "under")
             for c in card.get(key, ()) if "instance" in c}
    return [c for c in cards if c.get("instance") is None or c["instance"] not in inner]


def _card_ids(zones: dict[str, Any]) -> set[str]:
    """The ids of every card the observation names: only cards its seat sees have one."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "card" in value:
                found.add(str(value["card"]))
            for key in ("stack", "under"):
                for inner in value.get(key, ()):
                    walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(list(zones.values()))
    return found
