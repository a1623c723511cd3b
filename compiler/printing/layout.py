"""Sheet geometry in millimetres: where each card, crop mark and scale bar goes on a page.

Templates only place the boxes computed here, so every position is unit-tested with exact
numbers and the printed size does not depend on a browser's layout.  A layout that does
not fit its paper is refused with the numbers, never shrunk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "euro": (59.0, 92.0),
    "mini": (44.45, 63.5),
}
BLEEDS: dict[str, float] = {"none": 0.0, "3mm": 3.0, "1/8in": 3.175}

MARK_CLEARANCE = 1.0
"""Crop marks stop this far from any card, so a slightly off cut never shows them."""
MIN_MARK_CLEARANCE = 0.5
"""The clearance in a margin too thin for the full one outside the edge's keep-out (the
top and bottom of three poker cards on Letter leave 1.35 mm)."""
MIN_MARK_LENGTH = 0.5
MARK_LENGTH = 4.0
MARK_WIDTH_PT = 0.5
"""Crop mark stroke width in points (at least 0.4 pt, so printers do not drop it)."""
SCALE_BAR = 50.0
MIN_MARGIN = 5.0
"""Space kept free at the paper's edges, where home printers cannot print."""


class LayoutError(ValueError):
    """A layout that cannot be printed, with the numbers that show why."""


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on the page, in millimetres from the top-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line segment on the page, in millimetres."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class SheetLayout:
    """A paper, a card size and a grid; everything else is computed from them."""

    paper: tuple[float, float]
    card: tuple[float, float]
    cols: int
    rows: int
    gap: float = 0.0
    landscape_cards: bool = False
    paper_name: str = "custom"
    card_name: str = "custom"
    _checked: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.cols < 1 or self.rows < 1:
            raise LayoutError(f"a sheet needs at least one row and one column "
                              f"(got {self.cols}×{self.rows})")
        width, height = self.paper
        need_w = self.grid_width + 2 * MIN_MARGIN
        need_h = self.grid_height + 2 * MIN_MARGIN
        if need_w > width + 1e-9 or need_h > height + 1e-9:
            raise LayoutError(
                f"{self.cols}×{self.rows} cards of {self.card[0]:g}×{self.card[1]:g} mm "
                f"with {self.gap:g} mm gaps need {need_w:.2f}×{need_h:.2f} mm (with "
                f"{MIN_MARGIN:g} mm margins), but the paper is {width:g}×{height:g} mm; "
                "use fewer rows or columns, or a smaller card")

    @property
    def grid_width(self) -> float:
        return self.cols * self.card[0] + (self.cols - 1) * self.gap

    @property
    def grid_height(self) -> float:
        return self.rows * self.card[1] + (self.rows - 1) * self.gap

    @property
    def margin_x(self) -> float:
        return round((self.paper[0] - self.grid_width) / 2, 4)

    @property
    def margin_y(self) -> float:
        return round((self.paper[1] - self.grid_height) / 2, 4)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def card_box(self, col: int, row: int) -> Box:
        x = self.margin_x + col * (self.card[0] + self.gap)
        y = self.margin_y + row * (self.card[1] + self.gap)
        return Box(round(x, 4), round(y, 4), self.card[0], self.card[1])

    def face_boxes(self) -> list[Box]:
        """Card positions on a face page, row by row, left to right."""
        return [self.card_box(c, r) for r in range(self.rows) for c in range(self.cols)]

    def back_boxes(self, duplex: str = "long", offset: tuple[float, float] = (0.0, 0.0)
                   ) -> list[Box]:
        """Where the back of each face slot prints, so the two sides meet after duplexing.

        Long-edge duplex flips the sheet about its vertical axis (columns mirror);
        short-edge about its horizontal axis (rows mirror).  The offset corrects a
        printer's drift between the two sides.
        """
        out: list[Box] = []
        for r in range(self.rows):
            for c in range(self.cols):
                col = self.cols - 1 - c if duplex == "long" else c
                row = self.rows - 1 - r if duplex == "short" else r
                box = self.card_box(col, row)
                out.append(Box(round(box.x + offset[0], 4), round(box.y + offset[1], 4),
                               box.w, box.h))
        return out

    def cut_positions(self) -> tuple[list[float], list[float]]:
        """The x positions of vertical cuts and the y positions of horizontal cuts."""
        xs: list[float] = []
        ys: list[float] = []
        for c in range(self.cols):
            box = self.card_box(c, 0)
            for x in (box.x, box.right):
                if not xs or abs(xs[-1] - x) > 1e-6:
                    xs.append(round(x, 4))
        for r in range(self.rows):
            box = self.card_box(0, r)
            for y in (box.y, box.bottom):
                if not ys or abs(ys[-1] - y) > 1e-6:
                    ys.append(round(y, 4))
        return xs, ys

    @staticmethod
    def _mark_span(margin: float) -> tuple[float, float]:
        """(clearance, length) of the crop marks in a margin of ``margin`` mm: they keep
        MIN_MARGIN from the paper's edge (home printers cannot print there); length 0
        when no mark fits."""
        room = margin - MIN_MARGIN
        clearance = MARK_CLEARANCE if room >= MARK_CLEARANCE + 2.0 else MIN_MARK_CLEARANCE
        length = min(MARK_LENGTH, room - clearance)
        return clearance, (round(length, 4) if length >= MIN_MARK_LENGTH else 0.0)

    def crop_marks(self) -> list[Line]:
        """Cut guides in the margins only, each stopping short of the cards and keeping
        MIN_MARGIN from the paper's edge."""
        xs, ys = self.cut_positions()
        top, bottom = self.margin_y, self.margin_y + self.grid_height
        left, right = self.margin_x, self.margin_x + self.grid_width
        clear_y, length_y = self._mark_span(self.margin_y)
        clear_x, length_x = self._mark_span(self.margin_x)
        marks: list[Line] = []
        if length_y > 0:
            for x in xs:
                marks.append(Line(x, round(top - clear_y - length_y, 4), x,
                                  round(top - clear_y, 4)))
                marks.append(Line(x, round(bottom + clear_y, 4), x,
                                  round(bottom + clear_y + length_y, 4)))
        if length_x > 0:
            for y in ys:
                marks.append(Line(round(left - clear_x - length_x, 4), y,
                                  round(left - clear_x, 4), y))
                marks.append(Line(round(right + clear_x, 4), y,
                                  round(right + clear_x + length_x, 4), y))
        return marks

    def scale_bar(self) -> Box:
        """A 50 mm bar (1 mm thick), clear of cards and marks and MIN_MARGIN from the edge.

        Under the crop marks of the bottom margin when it is deep enough (A4); else
        upright in the right margin, beyond the marks there (Letter's top and bottom
        margins are 6.35 mm: nothing but a short mark fits outside the edge's keep-out).
        """
        clear_y, length_y = self._mark_span(self.margin_y)
        below = clear_y + length_y + 1.0
        if self.margin_y - below - 1.0 >= MIN_MARGIN - 1e-9:
            return Box(round((self.paper[0] - SCALE_BAR) / 2, 4),
                       round(self.margin_y + self.grid_height + below, 4), SCALE_BAR, 1.0)
        clear_x, length_x = self._mark_span(self.margin_x)
        x = self.margin_x + self.grid_width + clear_x + length_x + 1.0
        if x + 1.0 <= self.paper[0] - MIN_MARGIN + 1e-9 and self.paper[1] >= SCALE_BAR + 10:
            return Box(round(x, 4), round((self.paper[1] - SCALE_BAR) / 2, 4), 1.0, SCALE_BAR)
        raise LayoutError(f"no room for the {SCALE_BAR:g} mm scale bar {MIN_MARGIN:g} mm from "
                          f"the paper's edge in {self.margin_x:.2f} × {self.margin_y:.2f} mm "
                          "margins; use fewer rows or columns")

    def label_box(self) -> Box:
        """Room for "print at 100%": in the top margin, above the scale bar's stretch, or,
        when the bar stands in the right margin, upright in the left one (a box taller
        than wide: the sheet turns its text a quarter)."""
        bar = self.scale_bar()
        height = 2.5
        if bar.h > bar.w:
            length = min(120.0, self.paper[1] - 2 * MIN_MARGIN)
            return Box(MIN_MARGIN, round((self.paper[1] - length) / 2, 4), height, length)
        y = max((self.margin_y - MARK_CLEARANCE) / 2 - height / 2, MIN_MARGIN)
        clear, length = self._mark_span(self.margin_y)
        if y + height > self.margin_y - clear - length + 1e-9:  # it would touch the marks
            length = min(120.0, self.paper[1] - 2 * MIN_MARGIN)
            return Box(MIN_MARGIN, round((self.paper[1] - length) / 2, 4), height, length)
        return Box(bar.x, round(y, 4), bar.w, height)


def sheet_layout(paper: str = "a4", card: str = "poker", *, cols: int | None = None,
                 rows: int | None = None, custom_card: tuple[float, float] | None = None,
                 gap: float = 0.0) -> SheetLayout:
    """A layout from names, with as many cards per page as fit when no grid is given."""
    if paper not in PAPERS:
        raise LayoutError(f"unknown paper '{paper}'; use one of: {', '.join(PAPERS)}")
    if custom_card is not None:
        size = custom_card
        card = "custom"
    elif card in CARD_SIZES:
        size = CARD_SIZES[card]
    else:
        raise LayoutError(f"unknown card size '{card}'; use one of: "
                          f"{', '.join(CARD_SIZES)} or custom")
    if size[0] <= 0 or size[1] <= 0:
        raise LayoutError(f"a card must have a positive size (got {size[0]:g}×{size[1]:g} mm)")
    width, height = PAPERS[paper]
    fit_cols = int((width - 2 * MIN_MARGIN + gap) // (size[0] + gap))
    fit_rows = int((height - 2 * MIN_MARGIN + gap) // (size[1] + gap))
    return SheetLayout((width, height), size, cols or max(fit_cols, 1),
                       rows or max(fit_rows, 1), gap, paper_name=paper, card_name=card)


@dataclass(frozen=True, slots=True)
class PrintShopLayout:
    """One card a page, the page the card's size plus bleed on every side (real bleed).

    Print shops trim each page to the card; the art runs into the bleed so a slightly off
    cut shows no white edge, and text stays inside the safe zone.
    """

    card: tuple[float, float]
    bleed: float = 3.0
    safe: float = 3.0

    @property
    def page(self) -> tuple[float, float]:
        return (round(self.card[0] + 2 * self.bleed, 4), round(self.card[1] + 2 * self.bleed, 4))

    @property
    def trim(self) -> Box:
        return Box(self.bleed, self.bleed, self.card[0], self.card[1])

    @property
    def safe_box(self) -> Box:
        inset = self.bleed + self.safe
        return Box(inset, inset, round(self.card[0] - 2 * self.safe, 4),
                   round(self.card[1] - 2 * self.safe, 4))
