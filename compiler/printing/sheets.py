"""Printable sheets from compiled tables: card sheets, card lists, turn references, legends.

Everything printed comes from the tables (cards, symbols, the rules IR), so a sheet can
never disagree with what the engine runs.  Python prepares plain view data and all
geometry (see ``layout``); Jinja, sandboxed and autoescaping, only places it.  Symbol icons
are the SVG the compiler already checked, inlined as markup.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field, replace
from html import unescape as html_unescape
from typing import Any

from markupsafe import Markup, escape

from decklore.compiler.printing.layout import Box, PrintShopLayout, SheetLayout, sheet_layout
from decklore.compiler.printing.sandbox import (
    SheetSandbox,
    builtin_source,
    check_rendered,
    make_environment,
)
from decklore.compiler.printing.turn_guide import turn_guide
from decklore.compiler.rules.player import PlayerSection, player_reference

SHEETS = ("cards", "list", "reference", "guide", "legend", "tokens", "board")
FORMATS = {"cards": ("html", "pdf"), "list": ("html", "pdf", "md", "csv"),
           "reference": ("html", "pdf", "md"), "guide": ("html", "pdf", "md"),
           "legend": ("html", "pdf", "md"), "tokens": ("html", "pdf"), "board": ("html", "pdf")}
THEMES = ("standard", "ink-saver")
_TOKEN = re.compile(r"\{([a-z][a-z0-9_]*(?::[a-z][a-z0-9_]*)?)\}")
ICON_MARK = "decklore-icon"
"""The class of the empty element that stands for an icon on the fast card sheets."""


@dataclass(frozen=True)
class PrintOptions:
    """How to print: paper, card size, duplex backs, theme and print-shop bleed."""

    paper: str = "a4"
    card_size: str = "poker"
    custom_card: tuple[float, float] | None = None
    duplex: str = "long"  # long, short or none (no back pages)
    back_offset: tuple[float, float] = (0.0, 0.0)
    theme: str = "standard"
    print_shop: bool = False
    bleed: float = 3.0
    safe: float = 3.0
    alignment_page: bool = False
    cols: int | None = None
    rows: int | None = None

    def layout(self) -> SheetLayout:
        return sheet_layout(self.paper, self.card_size, cols=self.cols, rows=self.rows,
                            custom_card=self.custom_card)


_template_source = builtin_source


def environment(overrides: dict[str, str] | None = None) -> SheetSandbox:
    """The sandbox every sheet renders in; a pack's own templates replace built-in ones.

    Names resolve only among the pack's templates and the built-in ones, and rendering runs
    within a time and size budget (see ``sheet_sandbox``).
    """
    return make_environment(overrides)


# --- view data ----------------------------------------------------------------------------


@dataclass
class _Icons:
    """Symbol icons by local and qualified id, as safe markup."""

    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    placeholders: bool = False
    """Draw each icon as an empty marker naming its symbol (``ICON_MARK``), for
    ``card_pdf`` to draw the symbol's icon there once laid out: WeasyPrint parses and
    draws every inline ``<svg>`` anew, which was a third of the time of a card sheet."""

    @classmethod
    def of(cls, tables: dict[str, Any], placeholders: bool = False) -> _Icons:
        icons = cls(placeholders=placeholders)
        for symbol in tables["symbols"]:
            icons.by_id[symbol["id"]] = symbol
            icons.by_id[symbol["id"].split(":")[-1]] = symbol
        return icons

    def svg(self, symbol: str, dim: bool = False) -> Markup:
        """The icon as markup; ``dim`` draws it half transparent (a locked symbol)."""
        row = self.by_id.get(symbol)
        if row is None:
            return Markup("")
        if self.placeholders:  # the icon's own box is the marker: one element, not two
            return Markup(f'<span class="icon {ICON_MARK}{" dim" if dim else ""}" '
                          f'data-symbol="{escape(row["id"])}"></span>')
        # The compiler refused scripts, links and event attributes in icons (paths.read_icon).
        return Markup(f'<span class="icon" title="{escape(row["name"])}">{row["icon_svg"]}'
                      "</span>")

    def name(self, symbol: str) -> str:
        row = self.by_id.get(symbol)
        return str(row["name"]) if row else symbol


def rich_text(text: str, icons: _Icons) -> Markup:
    """Card or rules text, escaped, with ``{symbol}`` tokens drawn as inline icons."""
    out = []
    position = 0
    for match in _TOKEN.finditer(text):
        out.append(escape(text[position:match.start()]))
        token = match.group(1)
        out.append(icons.svg(token) if token in icons.by_id else escape(match.group(0)))
        position = match.end()
    out.append(escape(text[position:]))
    return Markup("").join(out)


def _symbol_items(entries: list[dict[str, Any]], icons: _Icons) -> list[dict[str, Any]]:
    items = []
    for entry in entries:
        target = entry["argument"] if entry["argument"] and not entry["key"] else None
        items.append({
            "icon": icons.svg(entry["symbol"], dim=bool(entry["lock"])),
            "name": icons.name(entry["symbol"]),
            "count": entry["count"],
            "lock": entry["lock"],
            "key": entry["argument"] if entry["key"] else None,
            "target": icons.svg(target) if target else None,
            "target_name": icons.name(target) if target else None,
            "to": entry["to"],
            "per_stacked": entry["per_stacked"],
        })
    return items


def _fields_by_face(tables: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    slots: dict[str, list[dict[str, Any]]] = {}
    for spec in tables["card_fields"]:
        slots.setdefault(spec.get("face", "footer"), []).append(spec)
    return slots


def card_view(card: dict[str, Any], tables: dict[str, Any], icons: _Icons) -> dict[str, Any]:
    """What a card face shows, in template-ready form."""
    slots = _fields_by_face(tables)
    kinds = {k["id"]: k for k in tables["card_kinds"]}
    kind = kinds.get(card["kind"] or "", {})

    hidden = set(kind.get("face_hides") or ())

    def specs(name: str) -> list[dict[str, Any]]:
        return [s for s in slots.get(name, []) if s["name"] not in hidden]

    def slot(name: str) -> Any:
        found = specs(name)
        return card.get(found[0]["name"]) if found else None

    def shown(spec: dict[str, Any]) -> bool:
        # A value the card leaves at its default (no food needed, 0 VP) says nothing.
        value = card.get(spec["name"])
        return value not in (None, False, "", []) and value != spec.get("default")

    def words(spec: dict[str, Any]) -> str:
        return str(spec.get("short") or spec["label"])

    def badge(name: str, always: bool = False) -> dict[str, Any] | None:
        """A badge's view; ``always`` shows a value left at the default (a rank of 1)."""
        found = [s for s in specs(name)
                 if shown(s) or (always and card.get(s["name"]) is not None)]
        if not found:
            return None
        spec = found[0]
        return {"value": card[spec["name"]], "label": words(spec), "title": spec["label"],
                "icon": icons.svg(spec["icon"]) if spec.get("icon") else None}

    def icon_of(name: str, fallback: str) -> Markup | None:
        found = specs(name)
        symbol = found[0].get("icon") if found else None
        symbol = symbol or (fallback if fallback in icons.by_id else None)
        return icons.svg(symbol) if symbol else None

    defense = slot("defense")
    footer = [{"label": spec["label"],
               "value": _card_names(card[spec["name"]], tables) if spec.get("type") == "cards"
               else _plain(card[spec["name"]], icons)}
              for spec in specs("footer") if shown(spec)]
    needs = [{"value": card[spec["name"]], "title": spec["label"],
              "name": icons.name(spec["icon"]) if spec.get("icon") else words(spec),
              "icon": icons.svg(spec["icon"]) if spec.get("icon") else None,
              "label": None if spec.get("icon") else words(spec)}
             for spec in specs("needs") if shown(spec)]
    captions = {str(spec.get("short")) for spec in specs("needs") if spec.get("short")}
    entries = card["symbols"]
    pips = slot("pips") or 0
    marks = {"cost2_mark": slot("cost2_mark"), "title_mark": slot("title_mark")}
    mark_icon = icon_of("title_mark", "lock") or icon_of("cost2_mark", "lock")
    pips_icon = icon_of("pips", "star")
    return {
        "id": card["id"],
        "name": card["name"],
        "kind": card["kind"],
        "kind_name": kind.get("name", ""),
        "border": kind.get("border"),
        "landscape": kind.get("layout") == "landscape",
        "cost": slot("cost"),
        "cost2": slot("cost2"),
        **marks,
        "pips": pips,
        "pips_icon": pips_icon,
        "rank": badge("rank", always=True),
        "needs": needs,
        "needs_label": captions.pop() if len(captions) == 1 and needs else None,
        "points": badge("points"),
        "foot_notes": [{"label": words(spec), "value": _plain(card[spec["name"]], icons)}
                       for spec in specs("foot_note") if shown(spec)],
        # The names of the slots before they had generic ones, for packs' own templates.
        "cost2_lock": marks["cost2_mark"], "title_lock": marks["title_mark"],
        "stars": pips, "star_icon": pips_icon,
        "defense": None if not defense else {
            "icon": icons.svg(defense["symbol"]), "name": icons.name(defense["symbol"]),
            "value": defense["value"], "bonus": defense["per_stacked"]},
        "unique": card["unique"],
        "unique_icon": icons.svg("unique") if "unique" in icons.by_id else None,
        "lock_icon": mark_icon,
        "once": _symbol_items([e for e in entries if not e["per_stacked"]], icons),
        "dash": _symbol_items([e for e in entries if e["per_stacked"]], icons),
        "text": rich_text(card["text"], icons),
        # How long the text reads, for its size on the face: an icon counts as its title,
        # however it is drawn (so the fast card PDF sizes text as the HTML sheet does).
        "text_chars": len(rich_text(card["text"], replace(icons, placeholders=False))
                          .striptags()),
        "flavor": card["flavor"],
        "copies": card["copies"],
        "deck": card["deck"],
        "footer": footer,
        # The pack's own words for each face slot (hover titles, the legend's anatomy).
        "slot_labels": {face: found[0]["label"] for face, found in slots.items()
                        if found and found[0].get("label")},
    }


def _card_names(ids: list[str], tables: dict[str, Any]) -> str:
    """A field naming other cards, as players read it: their names."""
    names = {c["id"]: c["name"] for c in tables["cards"]}
    return ", ".join(names.get(i, i) for i in ids)


def _plain(value: Any, icons: _Icons) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(v.split(":", 1)[-1] for v in value)  # a field naming cards: ids
    if isinstance(value, list):
        return ", ".join(f"{e['count']} {icons.name(e['symbol'])}" for e in value)
    if isinstance(value, dict) and "symbol" in value:
        bonus = f" +{value['per_stacked']}" if value.get("per_stacked") else ""
        return f"{icons.name(value['symbol'])} {value.get('value') or ''}".strip() + bonus
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _decks(tables: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["id"]: d for d in tables["decks"]}


def _ordered_cards(tables: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards of the card sheet, deck by deck: all but those of the kinds the pack prints
    as punch-outs (``punch_out``), which go on the tokens sheet instead."""
    by_id = {c["id"]: c for c in tables["cards"]}
    punched = {k["id"] for k in tables["card_kinds"] if k.get("punch_out")}
    return [by_id[cid] for deck in tables["decks"] for cid in deck["cards"]
            if by_id[cid]["kind"] not in punched]


def _styles(theme: str, overrides: dict[str, str] | None) -> dict[str, Markup]:
    """The theme and shared CSS every sheet embeds; a pack's own files replace them."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme '{theme}'; use one of: {', '.join(THEMES)}")
    extra = overrides or {}

    def source(name: str) -> str:
        return extra[name] if name in extra else _template_source(name)

    return {"theme_css": Markup(source(f"theme-{theme}.css")),
            "base_css": Markup(source("sheet.css"))}


def _box_style(box: Box) -> str:
    return (f"left:{box.x:.3f}mm;top:{box.y:.3f}mm;width:{box.w:.3f}mm;"
            f"height:{box.h:.3f}mm")


def _label_style(box: Box) -> str:
    """A label's box; an upright one (taller than wide) is a line of text turned a quarter
    to the left about its top left corner, which then sits at the box's bottom left."""
    if box.h <= box.w:
        return _box_style(box)
    return (f"left:{box.x:.3f}mm;top:{box.bottom:.3f}mm;width:{box.h:.3f}mm;"
            f"height:{box.w:.3f}mm;transform-origin:0 0;transform:rotate(-90deg)")


BACK_BLEED = 2.5
"""How far (mm) a back's colour runs past its card's cut line on print-and-play sheets."""


def render_cards(tables: dict[str, Any], options: PrintOptions,
                 overrides: dict[str, str] | None = None) -> str:
    """Print-and-play pages: every card with its copies, true size, then mirrored backs."""
    return _cards_html(tables, options, overrides)[0]


def _cards_html(tables: dict[str, Any], options: PrintOptions,
                overrides: dict[str, str] | None = None, frame_only: bool = False
                ) -> tuple[str, list[int]]:
    """The card sheets' HTML, and for each page of the sheets the page of that HTML drawn.

    With ``frame_only`` the pages hold everything but the cards (marks, labels, the backs'
    bleed), for ``card_pdf`` to place each distinct face on; then each distinct frame page
    is drawn once (every full face page looks alike, and so does every full back page)."""
    icons = _Icons.of(tables)
    decks = _decks(tables)
    # A frame draws no card: only how many go on each page matters to it.
    faces: list[dict[str, Any]] = [
        {} if frame_only else card_view(card, tables, icons)
        for card in _ordered_cards(tables) for _ in range(card["copies"])]
    env = environment(overrides)
    if options.print_shop:
        size = options.custom_card or options.layout().card
        shop = PrintShopLayout(size, options.bleed, options.safe)
        html = env.get_template("cards-print-shop.html.j2").render(
            pack=tables["pack"], faces=faces, decks=decks, shop=shop,
            trim=_box_style(shop.trim), safe=_box_style(shop.safe_box),
            **_styles(options.theme, overrides))
        return html, list(range(len(faces)))
    layout = options.layout()
    face_boxes = [_box_style(b) for b in layout.face_boxes()]
    back_rects = layout.back_boxes(options.duplex, options.back_offset)
    back_boxes = [_box_style(b) for b in back_rects]
    # The back's colour runs past each card's cut line, so a duplex print a little off
    # register shows colour, not white paper, at the edges.
    bleeds = [_box_style(Box(b.x - BACK_BLEED, b.y - BACK_BLEED, b.w + 2 * BACK_BLEED,
                             b.h + 2 * BACK_BLEED)) for b in back_rects]
    pages = []
    for start in range(0, len(faces), layout.per_page):
        chunk = faces[start:start + layout.per_page]
        pages.append({"kind": "face", "cards": list(zip(chunk, face_boxes, strict=False)),
                      "bleeds": []})
        if options.duplex != "none":
            pages.append({"kind": "back", "cards": list(zip(chunk, back_boxes, strict=False)),
                          "bleeds": bleeds[:len(chunk)]})
    frame_of = list(range(len(pages)))
    if frame_only:
        distinct: dict[str, int] = {}
        for index, page in enumerate(pages):
            key = repr((page["kind"], page["bleeds"]))
            frame_of[index] = distinct.setdefault(key, len(distinct))
        pages = [next(p for i, p in enumerate(pages) if frame_of[i] == n)
                 for n in range(len(distinct))]
    alignment = options.alignment_page and options.duplex != "none"
    if alignment:
        frame_of += [len(pages), len(pages) + 1]
    marks = [{"x": m.x1, "y": m.y1, "w": m.x2 - m.x1, "h": m.y2 - m.y1}
             for m in layout.crop_marks()]
    html = env.get_template("cards.html.j2").render(
        pack=tables["pack"], pages=pages, decks=decks, layout=layout, marks=marks,
        scale_bar=_box_style(layout.scale_bar()), label=_label_style(layout.label_box()),
        alignment=alignment, align_faces=face_boxes, align_backs=back_boxes,
        frame_only=frame_only, **_styles(options.theme, overrides))
    return html, frame_of


@dataclass(frozen=True)
class CardSheetParts:
    """A print-and-play sheet taken apart: its frame pages, each distinct face and back
    once (one to a page), and which of those goes where on which frame page."""

    frame_html: str
    faces_html: str
    frame_of: list[int]
    """For each page of the sheets, the page of frame_html under its cards."""
    placements: list[list[tuple[int, Box]]]
    """For each frame page, (page of faces_html, box in mm from the top left)."""
    paper: tuple[float, float]
    card: tuple[float, float]
    """The card's size: it fills the top of each page of faces_html."""
    icons: list[tuple[str, bool]] = field(default_factory=list)
    """For each icon marker of faces_html (its id is ``ICON_MARK-<index>``), the symbol
    it stands for and whether it is drawn dimmed."""
    icon_svgs: dict[str, str] = field(default_factory=dict)
    """Each symbol's icon, as SVG."""


def card_sheet_parts(tables: dict[str, Any], options: PrintOptions,
                     overrides: dict[str, str] | None = None) -> CardSheetParts:
    """The parts ``card_pdf`` assembles into the same pages ``render_cards`` draws."""
    icons = _Icons.of(tables, placeholders=True)
    decks = _decks(tables)
    layout = options.layout()
    unique: list[dict[str, Any]] = []
    face_of: list[int] = []  # for each printed copy, its page among the distinct faces
    seen: dict[str, int] = {}
    for card in _ordered_cards(tables):
        view = card_view(card, tables, icons)
        key = repr(sorted((k, str(v)) for k, v in view.items()))
        if key not in seen:
            seen[key] = len(unique)
            unique.append(view)
        face_of += [seen[key]] * card["copies"]
    backs: list[dict[str, Any]] = []
    back_of: list[int] = []
    back_seen: dict[str, int] = {}
    for card in _ordered_cards(tables):
        deck = decks[card["deck"]]
        label = str(deck.get("back", deck["name"]))
        if label not in back_seen:
            back_seen[label] = len(backs)
            backs.append(deck)
        back_of += [len(unique) + back_seen[label]] * card["copies"]
    faces_html = environment(overrides).get_template("cards-faces.html.j2").render(
        pack=tables["pack"], faces=unique, backs=backs, layout=layout,
        **_styles(options.theme, overrides))
    marks: list[tuple[str, bool]] = []

    def number(match: re.Match[str]) -> str:
        marks.append((html_unescape(match.group(2)), bool(match.group(1))))
        return f'<span class="icon" id="{ICON_MARK}-{len(marks) - 1}"'

    faces_html = _MARK.sub(number, faces_html)
    face_boxes = layout.face_boxes()
    back_boxes = layout.back_boxes(options.duplex, options.back_offset)
    placements: list[list[tuple[int, Box]]] = []
    for start in range(0, len(face_of), layout.per_page):
        chunk = range(start, min(start + layout.per_page, len(face_of)))
        placements.append([(face_of[i], box) for i, box in zip(chunk, face_boxes,
                                                                 strict=False)])
        if options.duplex != "none":
            placements.append([(back_of[i], box) for i, box in zip(chunk, back_boxes,
                                                                     strict=False)])
    if options.alignment_page and options.duplex != "none":
        placements += [[], []]
    frame_html, frame_of = _cards_html(tables, options, overrides, frame_only=True)
    return CardSheetParts(frame_html, faces_html, frame_of, placements, layout.paper,
                          layout.card, marks,
                          {row["id"]: str(row["icon_svg"]) for row in tables["symbols"]})


_MARK = re.compile(f'<span class="icon {ICON_MARK}( dim)?" data-symbol="([^"]*)"')


def list_rows(tables: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per card for the card list, in deck order."""
    icons = _Icons.of(tables)
    decks = _decks(tables)
    rows = []
    for card in _ordered_cards(tables):
        view = card_view(card, tables, icons)
        rows.append({**view, "deck_name": decks[card["deck"]]["name"],
                     "symbols_text": _symbols_text(card["symbols"], icons),
                     "text_plain": _plain_text(card["text"], icons),
                     "lock_letters": sorted({e["lock"] for e in card["symbols"] if e["lock"]} |
                                     ({view["title_mark"]} if view["title_mark"] else set())),
                     "key_letters": sorted({e["argument"] for e in card["symbols"] if e["key"]})})
    return rows


def _symbols_text(entries: list[dict[str, Any]], icons: _Icons) -> str:
    parts = []
    dash_done = False
    for entry in entries:
        if entry["per_stacked"] and not dash_done:
            parts.append("–")
            dash_done = True
        name = icons.name(entry["symbol"])
        if entry["key"]:
            name = f"{name} {entry['argument']}"
        elif entry["argument"]:
            name = f"{name} ({icons.name(entry['argument'])})"
        text = f"{entry['count']} {name}" if entry["count"] > 1 else name
        if entry["lock"]:
            text += f" [lock {entry['lock']}]"
        if entry["to"] not in ("self",) and not entry["argument"]:
            text += f" → {entry['to']}"
        parts.append(text)
    return ", ".join(parts)


def render_list(tables: dict[str, Any], fmt: str, theme: str = "standard",
                overrides: dict[str, str] | None = None) -> str:
    """The card list per deck, with totals, as HTML, Markdown or CSV.

    Columns are the pack's own fields under their labels (a Level or a Cost), and a column
    no card of a deck uses is left out, so each game's list reads like its own cards.
    """
    icons = _Icons.of(tables)
    rows = list_rows(tables)
    fields = [spec for spec in tables["card_fields"] if spec.get("face") != "none"]
    if fmt == "csv":
        header = ["deck", "id", "name", "kind", "copies", *(spec["name"] for spec in fields),
                  "locks", "keys", "symbols", "unique", "text"]
        cards = {card["id"]: card for card in tables["cards"]}
        table = [[r["deck_name"], r["id"], r["name"], r["kind"] or "", str(r["copies"]),
                  *(_cell(cards[r["id"]].get(spec["name"]), icons) for spec in fields),
                  " ".join(r["lock_letters"]), " ".join(r["key_letters"]),
                  r["symbols_text"], "yes" if r["unique"] else "",
                  _plain_text(cards[r["id"]]["text"], icons)] for r in rows]
        # A column no card fills, or a second column of one name, only gets in the way.
        keep = [i for i, name in enumerate(header)
                if header.index(name) == i and any(row[i] for row in table)]
        out = io.StringIO()
        out.write("\ufeff")  # a BOM, so spreadsheet apps read the file as UTF-8
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([header[i] for i in keep])
        for row in table:
            writer.writerow([row[i] for i in keep])
        return out.getvalue()
    decks = []
    for deck in tables["decks"]:
        deck_rows = [r for r in rows if r["deck"] == deck["id"]]
        kinds: dict[str, int] = {}
        for r in deck_rows:
            kinds[r["kind_name"] or "cards"] = kinds.get(r["kind_name"] or "cards", 0) + \
                r["copies"]
        # A foot note (Era of Kingdoms' "Out with 2 players") gets a column of its own
        # where a card of the deck has one.
        notes = list(dict.fromkeys(n["label"] for r in deck_rows for n in r["foot_notes"]))
        decks.append({"deck": deck, "rows": deck_rows, "notes": notes,
                      "total": sum(r["copies"] for r in deck_rows), "kinds": kinds})
    template = "list.md.j2" if fmt == "md" else "list.html.j2"
    by_face = _fields_by_face(tables)
    labels: dict[str, Any] = {face: specs[0]["label"] for face, specs in by_face.items()
                              if specs and specs[0].get("label")}
    # The needs share one column under their short label; each foot note has its own.
    labels["needs_short"] = next((str(s["short"]) for s in by_face.get("needs", [])
                                  if s.get("short")), None)
    return environment(overrides).get_template(template).render(
        pack=tables["pack"], decks=decks, labels=labels, **_styles(theme, overrides))


def _cell(value: Any, icons: _Icons) -> str:
    """A field's value as plain text for a CSV cell: empty when the card leaves it empty."""
    if value is None or value == [] or value is False:
        return ""
    if value is True:
        return "yes"
    return _plain(value, icons)


def render_legend(tables: dict[str, Any], fmt: str = "html", theme: str = "standard",
                  overrides: dict[str, str] | None = None) -> str:
    """Every symbol of the pack with its icon and meaning, and the marks its cards use."""
    icons = _Icons.of(tables)
    symbols = [{"id": s["id"].split(":")[-1], "name": s["name"], "kind": s["kind"],
                "meaning": rich_text(s["meaning"], icons), "icon": icons.svg(s["id"])}
               for s in tables["symbols"]]
    printed = [item for card in tables["cards"] for item in card.get("symbols") or ()]
    uses = {"arrow": any(item["to"] != "self" for item in printed),
            "dash": any(item["per_stacked"] for item in printed),
            "lock": any(item["lock"] for item in printed)}
    template = "legend.md.j2" if fmt == "md" else "legend.html.j2"
    return environment(overrides).get_template(template).render(
        pack=tables["pack"], symbols=symbols, uses=uses, anatomy=card_anatomy(tables),
        **_styles(theme, overrides))


_PLACES = {"cost": "Circle at the top left", "cost2": "Small circle beside it",
           "cost2_mark": "Letter on that small circle", "title_mark": "Letter by the name",
           "rank": "Badge at the top right", "needs": "Icons and numbers under the name",
           "pips": "Down the side of the symbols", "defense": "Badge at the bottom right",
           "points": "Number badge at the bottom right", "foot_note": "Beside the copies",
           "footer": "Text box, under the rules"}
"""Where each face slot sits on a card, as the face templates draw it."""


def card_anatomy(tables: dict[str, Any]) -> list[dict[str, str]]:
    """Where each of the pack's card fields prints on a face (its ``face:`` declaration), in
    the order a player's eye meets them: the legend's card-anatomy panel."""
    rows = [{"place": "Top", "what": "Name, and the card's kind"},
            {"place": "Middle", "what": "Symbols the card gives, then its text"}]
    order = list(_PLACES)
    fields = sorted((f for f in tables["card_fields"] if f.get("face", "footer") in _PLACES),
                    key=lambda f: order.index(f.get("face", "footer")))
    for spec in fields:
        face = spec.get("face", "footer")
        rows.append({"place": _PLACES[face],
                     "what": f"{spec['label']}: {spec['description'].rstrip('.')}"
                     if spec.get("description") else spec["label"]})
    rows.append({"place": "Bottom left", "what": "How many copies of the card its deck holds"})
    return rows


def render_reference(tables: dict[str, Any], fmt: str = "html", theme: str = "standard",
                     overrides: dict[str, str] | None = None, paper: str = "a4") -> str:
    """The player reference (``rules_player``): goal, setup, the turn, with icons inline."""
    icons = _Icons.of(tables)
    ref = player_reference(tables)

    def convert(steps: list[Any]) -> list[dict[str, Any]]:
        return [{"text": rich_text(s.text, icons), "plain": _plain_text(s.text, icons),
                 "children": convert(s.children)} for s in steps]

    # The first turn's heading leads the phases; a pack whose eras play other turns
    # heads each of those where it starts.
    later = [p for p in ref.phases if p.heading][1:] if ref is not None else []

    def section(s: PlayerSection) -> dict[str, Any]:
        heading = s.heading if any(s is p for p in later) else None
        return {"title": s.title, "number": s.number, "automatic": s.automatic,
                "heading": heading,
                "steps": convert(s.steps), "notes": [rich_text(n, icons) for n in s.notes],
                "notes_plain": [_plain_text(n, icons) for n in s.notes]}

    view: dict[str, Any] = {"goal": [], "goal_plain": [], "setup": [], "turn_title": "",
                            "turn_order": "", "phases": [], "actions": [], "always": [],
                            "table": None, "notes": [], "notes_plain": [], "terms": [],
                            "terms_plain": []}
    if ref is not None:
        view = {
            "goal": [rich_text(g, icons) for g in ref.goal],
            "goal_plain": [_plain_text(g, icons) for g in ref.goal],
            "setup": convert(ref.setup), "turn_title": ref.turn_title,
            "turn_order": ref.turn_order, "phases": [section(p) for p in ref.phases],
            "actions": [section(a) for a in ref.actions], "always": convert(ref.always),
            "table": ref.table, "notes": [rich_text(n, icons) for n in ref.notes],
            "notes_plain": [_plain_text(n, icons) for n in ref.notes],
            "terms": [(w, rich_text(t, icons)) for w, t in ref.terms],
            "terms_plain": [(w, _plain_text(t, icons)) for w, t in ref.terms]}
    template = "reference.md.j2" if fmt == "md" else "reference.html.j2"
    return environment(overrides).get_template(template).render(
        pack=tables["pack"], ref=view, paper="letter" if paper == "letter" else "A4",
        **_styles(theme, overrides))


def _plain_text(text: str, icons: _Icons) -> str:
    """Rules text for Markdown and plain text: a ``{symbol}`` becomes the symbol's name, and
    no space is left before the punctuation that follows it."""
    out = _TOKEN.sub(lambda m: icons.name(m.group(1)) if m.group(1) in icons.by_id
                     else m.group(0), text)
    return re.sub(r" +([.,;:!?)])", r"\1", out)


def render_guide(tables: dict[str, Any], fmt: str, options: PrintOptions,
                 overrides: dict[str, str] | None = None) -> str:
    """The player turn guide: one card per seat at the chosen card size (see turn_guide)."""
    guide = turn_guide(tables.get("rules"), player_reference(tables))
    if guide is None:
        raise ValueError("this pack's rules have no turn with phases to make a guide of")
    icons = _Icons.of(tables)
    copies = max(1, (tables["pack"].get("players") or {}).get("max", 1))
    view = {"title": guide.title, "goal": [rich_text(g, icons) for g in guide.goal],
            "goal_plain": [_plain_text(g, icons) for g in guide.goal],
            "phases": [{"title": p.title, "asks": [rich_text(a, icons) for a in p.asks],
                        "asks_plain": [_plain_text(a, icons) for a in p.asks],
                        "does": [rich_text(d, icons) for d in p.does or p.notes],
                        "does_plain": [_plain_text(d, icons) for d in p.does or p.notes]}
                       for p in guide.phases]}
    fit = guide_fit(view, copies)
    pages = [list(range(start, min(start + fit.per_page, copies)))
             for start in range(0, copies, fit.per_page)]
    template = "guide.md.j2" if fmt == "md" else "guide.html.j2"
    return environment(overrides).get_template(template).render(
        pack=tables["pack"], guide=view, copies=copies, pages=pages,
        width=f"{fit.width:.1f}", height=f"{fit.height:.1f}", font=f"{fit.font:.2f}",
        **_styles(options.theme, overrides))


@dataclass(frozen=True)
class GuideFit:
    """How the guide cards share a page: their size (mm), text size (pt), cards a page."""

    width: float
    height: float
    font: float
    per_page: int


_GUIDE_HALF_FONTS = (10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.6, 7.2, 6.8, 6.4)
_GUIDE_QUARTER_FONTS = _GUIDE_HALF_FONTS[:_GUIDE_HALF_FONTS.index(7.2) + 1]
"""Text sizes (pt) for four cards a page; below these, two larger cards read better."""
_GUIDE_CHAR = 0.56
"""A character's mean advance in DejaVu Sans, in ems, a little over the real one (about
0.53 for English text), so the estimate errs towards the taller card."""


def guide_fit(view: dict[str, Any], copies: int) -> GuideFit:
    """The layout the guide's text fills best: four cards a page when each fits a quarter
    of it at a readable size, else two (or one), each a full column tall; either way at
    the largest text size that fits.

    The cards are sized to hold their content, never clipped to a fixed box (ERA's cut
    off "How to win"); the estimate only chooses the layout. It counts wrapped lines at a
    generous character width; the card is at least this tall and grows if it is wrong.
    """
    width = (_A4_TEXT[0] - _GUIDE_GAP) / 2 if copies > 1 else _A4_TEXT[0] * 0.62
    half = (_A4_TEXT[1] - _GUIDE_GAP) / 2
    if copies > 2:
        for font in _GUIDE_QUARTER_FONTS:
            if _guide_height(view, width, font) <= half:
                return GuideFit(width, half, font, 4)
    font = next((f for f in _GUIDE_HALF_FONTS if _guide_height(view, width, f) <= _A4_TEXT[1]),
                _GUIDE_HALF_FONTS[-1])
    return GuideFit(width, _A4_TEXT[1], font, min(copies, 2))


def _guide_height(view: dict[str, Any], width: float, font: float) -> float:
    """About how tall (mm) a guide card is at ``font`` points (see guide_fit)."""
    pt = 25.4 / 72
    line = font * 1.25 * pt
    char = font * _GUIDE_CHAR * pt

    def lines(texts: list[str], indent: float) -> int:
        per_line = max(1, int((width - 2 * 3.4 - indent) / char))
        return sum(-(-len(t) // per_line) for t in texts)

    height = 2 * 3.4 + 10.5 * 1.25 * pt + 2.5  # padding, heading and its rule
    for phase in view["phases"]:
        height += line * (1 + lines(phase["does_plain"], 4.0)
                          + lines(phase["asks_plain"], 7.0)) + 1.6
    if view["goal_plain"]:
        height += 2 + 2.4 + 0.925 * line * lines(view["goal_plain"], 4.0) \
            + 0.8 * len(view["goal_plain"])
    return height


_A4_TEXT = (210.0 - 22.0, 297.0 - 20.0 - 26.0)
"""The page inside its margins and the sheet's heading (mm), room left for a pack name
long enough to take two lines (a card taller than the room left goes to the next page)."""
_GUIDE_GAP = 4.0


def render_changelog(diff: Any, tables: dict[str, Any], theme: str = "standard",
                     overrides: dict[str, str] | None = None) -> str:
    """The changes between two packs as a printable sheet (``decklore diff --format``)."""
    from decklore.compiler.tools.diff import _id_list, _value

    marks = {"added": "+", "removed": "−", "changed": "~"}
    notes: dict[str, list[str]] = {}
    for card in tables.get("cards", []):
        notes[card["id"]] = [c["note"] for c in card.get("changes", []) if c.get("note")]
    sections = []
    for title, changes in diff.sections.items():
        if not changes:
            continue
        counts = ", ".join(f"{n} {k}" for k in ("added", "removed", "changed")
                           if (n := sum(1 for c in changes if c.kind == k)))
        entries = []
        for change in changes:
            fields = []
            for name, old, new in change.fields:
                if _id_list(old) and _id_list(new):
                    gone = ", ".join(f"−{x}" for x in old if x not in new) or "—"
                    came = ", ".join(f"+{x}" for x in new if x not in old) or "—"
                    fields.append({"name": name, "before": gone, "after": came})
                else:
                    fields.append({"name": name, "before": _value(old), "after": _value(new)})
            entries.append({"kind": change.kind, "mark": marks[change.kind], "id": change.id,
                            "label": change.label or change.id, "fields": fields,
                            "notes": notes.get(change.id, []) if change.kind == "changed"
                            else []})
        sections.append({"title": title.capitalize(), "counts": counts, "changes": entries})
    total = sum(len(s["changes"]) for s in sections)
    return environment(overrides).get_template("changelog.html.j2").render(
        pack=tables["pack"], before=diff.before, after=diff.after, sections=sections,
        total=total, **_styles(theme, overrides))


def render(tables: dict[str, Any], sheet: str, fmt: str, options: PrintOptions,
           overrides: dict[str, str] | None = None) -> str:
    """One sheet as text (HTML, Markdown or CSV); PDF is made from the HTML (see pdf)."""
    if sheet not in SHEETS:
        raise ValueError(f"unknown sheet '{sheet}'; use one of: {', '.join(SHEETS)}")
    if fmt not in FORMATS[sheet]:
        raise ValueError(f"the {sheet} sheet prints as {', '.join(FORMATS[sheet])}, "
                         f"not {fmt}")
    source_fmt = "html" if fmt == "pdf" else fmt
    if sheet == "cards":
        text = render_cards(tables, options, overrides)
    elif sheet == "list":
        text = render_list(tables, source_fmt, options.theme, overrides)
    elif sheet == "legend":
        text = render_legend(tables, source_fmt, options.theme, overrides)
    elif sheet == "guide":
        text = render_guide(tables, source_fmt, options, overrides)
    elif sheet == "tokens":
        from decklore.compiler.printing.punchouts import render_tokens

        text = render_tokens(tables, options, overrides)
    elif sheet == "board":
        from decklore.compiler.printing.boards import render_board

        text = render_board(tables, options, overrides)
    else:
        text = render_reference(tables, source_fmt, options.theme, overrides, options.paper)
    if overrides and source_fmt == "html":  # the built-in templates are known to pass
        check_rendered(text, f"{sheet}.html.j2", overrides)
    return text
