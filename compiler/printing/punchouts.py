"""Punch-out sheets: cards of the kinds a pack marks ``punch_out`` print as small round or
square tokens packed on the page, with their cut lines, instead of full-size cards.

A kind's ``punch_out: {shape, size}`` says how its cards are cut. Tokens of one shape and
size share pages; when a token's deck names a back (``back:``), each face page is followed
by a back page mirrored for duplex, so each back lands behind its face. Geometry is computed
here in millimetres and only placed by the template, as for the card sheets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from decklore.compiler.printing.layout import MIN_MARGIN, PAPERS, Box, LayoutError

TOKEN_GAP = 3.0
"""Space (mm) between two tokens: room to cut each on its own line."""
TOKEN_MARGIN = 10.0
"""The page's margin (mm): twice the 5 mm home printers need, with room for the label."""


def punch_kinds(tables: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The pack's punch-out kinds by id, with their shape and size."""
    return {k["id"]: k["punch_out"] for k in tables["card_kinds"] if k.get("punch_out")}


def has_tokens(tables: dict[str, Any]) -> bool:
    """Whether any card prints as a punch-out (the build then writes the tokens sheet)."""
    kinds = punch_kinds(tables)
    return any(card["kind"] in kinds for card in tables["cards"])


@dataclass(frozen=True)
class TokenLayout:
    """A grid of same-size tokens on one paper, centred, TOKEN_MARGIN from every edge."""

    paper: tuple[float, float]
    size: float
    gap: float = TOKEN_GAP
    margin: float = TOKEN_MARGIN

    def __post_init__(self) -> None:
        if self.size + 2 * self.margin > min(self.paper) + 1e-9:
            raise LayoutError(f"a {self.size:g} mm token does not fit on a "
                              f"{self.paper[0]:g}×{self.paper[1]:g} mm page with "
                              f"{self.margin:g} mm margins; make it smaller")

    @property
    def cols(self) -> int:
        return int((self.paper[0] - 2 * self.margin + self.gap) // (self.size + self.gap))

    @property
    def rows(self) -> int:
        return int((self.paper[1] - 2 * self.margin + self.gap) // (self.size + self.gap))

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def _origin(self) -> tuple[float, float]:
        width = self.cols * self.size + (self.cols - 1) * self.gap
        height = self.rows * self.size + (self.rows - 1) * self.gap
        return (self.paper[0] - width) / 2, (self.paper[1] - height) / 2

    def box(self, index: int, mirrored: bool = False) -> Box:
        """Where token ``index`` of a page goes; ``mirrored`` for the back of a long-edge
        duplex print (the columns swap, so each back lies behind its face)."""
        row, col = divmod(index, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        x0, y0 = self._origin()
        return Box(round(x0 + col * (self.size + self.gap), 4),
                   round(y0 + row * (self.size + self.gap), 4), self.size, self.size)


def token_pages(tables: dict[str, Any], paper: str, duplex: str) -> list[dict[str, Any]]:
    """The pages of the tokens sheet: for each group of one shape and size, its face pages,
    each followed by its back page when any of its tokens has a back and duplex is on."""
    from decklore.compiler.printing.sheets import _Icons, card_view

    kinds = punch_kinds(tables)
    icons = _Icons.of(tables)
    decks = {d["id"]: d for d in tables["decks"]}
    names = {k["id"]: k["name"] for k in tables["card_kinds"]}
    groups: dict[tuple[str, float], list[dict[str, Any]]] = {}
    for deck in tables["decks"]:
        for cid in deck["cards"]:
            card = next(c for c in tables["cards"] if c["id"] == cid)
            spec = kinds.get(card["kind"] or "")
            if spec is None:
                continue
            view = card_view(card, tables, icons)
            view["back"] = deck.get("back")
            groups.setdefault((spec["shape"], float(spec["size"])), []).extend(
                [view] * card["copies"])
    pages: list[dict[str, Any]] = []
    for (shape, size), tokens in groups.items():
        layout = TokenLayout(PAPERS[paper], size)
        if layout.per_page < 1:
            raise LayoutError(f"no {size:g} mm token fits on {paper} paper")
        kind_names = list(dict.fromkeys(names.get(t["kind"], "") for t in tokens))
        title = f"{', '.join(kind_names)}: {shape} punch-outs, {size:g} mm"
        for start in range(0, len(tokens), layout.per_page):
            chunk = tokens[start:start + layout.per_page]
            pages.append({"kind": "face", "shape": shape, "title": title, "size": size,
                          "tokens": [(t, layout.box(i)) for i, t in enumerate(chunk)]})
            if duplex != "none" and any(t["back"] for t in chunk):
                pages.append({"kind": "back", "shape": shape, "title": f"{title} (backs)",
                              "size": size,
                              "tokens": [(t, layout.box(i, mirrored=duplex == "long"))
                                         for i, t in enumerate(chunk) if t["back"]]})
    # Short-edge duplex turns the sheet top to bottom: mirror the rows instead.
    if duplex == "short":
        for page in pages:
            if page["kind"] == "back":
                height = PAPERS[paper][1]
                page["tokens"] = [(t, Box(b.x, round(height - b.bottom, 4), b.w, b.h))
                                  for t, b in page["tokens"]]
    for page in pages:
        page["tokens"] = [(t, b, decks.get(t["deck"], {})) for t, b in page["tokens"]]
    return pages


def render_tokens(tables: dict[str, Any], options: Any,
                  overrides: dict[str, str] | None = None) -> str:
    """The tokens sheet as HTML."""
    from decklore.compiler.printing.sheets import _box_style, _styles, environment

    if not has_tokens(tables):
        raise ValueError("this pack marks no card kind as punch_out, so it has no tokens "
                         "to print")
    pages = token_pages(tables, options.paper, options.duplex)
    for page in pages:
        page["tokens"] = [(t, _box_style(b), b.w, deck) for t, b, deck in page["tokens"]]
    return environment(overrides).get_template("tokens.html.j2").render(
        pack=tables["pack"], pages=pages, paper=PAPERS[options.paper],
        label_top=MIN_MARGIN, **_styles(options.theme, overrides))
