"""Board sheets: a board the pack declares (``boards:`` in pack.yaml) drawn as SVG from its
data, tiled across pages when larger than one.

A board's spaces are the cards of one kind, each drawn as a labelled box at the position
the pack gives, with the fields it names as ``shows``; a ``cards`` field (``links``) joins
them with lines, so a map's borders are the same data the rules read. A board larger than a
page's printable area is cut into tiles that overlap by OVERLAP millimetres; crosses drawn in
each overlap land on the same spot of the board on both pages, to line the pages up.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from decklore.compiler.printing.layout import PAPERS, LayoutError

BOARD_MARGIN = 10.0
"""Page margin (mm) around a board tile: twice the 5 mm home printers cannot print."""
LABEL_ROOM = 7.0
"""Room (mm) at the top of each page for the board's name and the tile's place."""
OVERLAP = 12.0
"""How much (mm) neighbouring tiles share, where the alignment crosses print."""
SPACE_SIZE = (40.0, 24.0)
MARK_RADIUS = 4.0
"""Half the size (mm) of an alignment cross."""
MARK_STEP = 60.0
"""About how far apart (mm) alignment crosses are along an overlap."""


@dataclass(frozen=True)
class Tiling:
    """How a board of ``size`` mm is cut into pages of ``area`` mm (the printable area)."""

    size: tuple[float, float]
    area: tuple[float, float]
    overlap: float = OVERLAP

    def _count(self, board: float, room: float) -> int:
        if board <= room + 1e-9:
            return 1
        return math.ceil((board - self.overlap) / (room - self.overlap) - 1e-9)

    @property
    def cols(self) -> int:
        return self._count(self.size[0], self.area[0])

    @property
    def rows(self) -> int:
        return self._count(self.size[1], self.area[1])

    @property
    def step(self) -> tuple[float, float]:
        return self.area[0] - self.overlap, self.area[1] - self.overlap

    def origin(self, col: int, row: int) -> tuple[float, float]:
        """The board point (mm) at a tile's top left corner; a board smaller than one page
        is centred on it."""
        x = col * self.step[0] if self.cols > 1 else (self.size[0] - self.area[0]) / 2
        y = row * self.step[1] if self.rows > 1 else (self.size[1] - self.area[1]) / 2
        return round(x, 4), round(y, 4)

    def seams(self) -> tuple[list[float], list[float]]:
        """The middle lines of the overlaps, across (x) and down (y), in board mm."""
        xs = [round((c + 1) * self.step[0] + self.overlap / 2, 4) for c in range(self.cols - 1)]
        ys = [round((r + 1) * self.step[1] + self.overlap / 2, 4) for r in range(self.rows - 1)]
        return xs, ys

    def marks(self, avoid: tuple[tuple[float, float, float, float], ...] = ()
              ) -> list[tuple[float, float]]:
        """Where the alignment crosses go (board mm): along every seam, every MARK_STEP or
        so, so each overlap holds at least two; each moved along its seam to the nearest
        spot clear of the ``avoid`` boxes (x, y, w, h: the spaces), so none hides a label."""
        xs, ys = self.seams()
        out: list[tuple[float, float]] = []

        def clear(x: float, y: float) -> bool:
            room = MARK_RADIUS + 1.0
            return all(not (bx - room < x < bx + bw + room and by - room < y < by + bh + room)
                       for bx, by, bw, bh in avoid)

        def along(length: float, at: Callable[[float], tuple[float, float]]) -> None:
            n = max(2, round(length / MARK_STEP))
            for i in range(n):
                want = length * (i + 0.5) / n
                # candidates outwards from the wanted spot, 1 mm apart, within its share
                for shift in sorted(range(-int(length / n / 2), int(length / n / 2) + 1),
                                    key=abs):
                    point = at(min(max(want + shift, MARK_RADIUS), length - MARK_RADIUS))
                    if clear(*point):
                        out.append((round(point[0], 4), round(point[1], 4)))
                        break
                else:
                    out.append(at(round(want, 4)))

        def down(x: float) -> Callable[[float], tuple[float, float]]:
            return lambda t: (x, t)

        def across(y: float) -> Callable[[float], tuple[float, float]]:
            return lambda t: (t, y)

        for x in xs:
            along(self.size[1], down(x))
        for y in ys:
            along(self.size[0], across(y))
        return out


def tiling_for(board: dict[str, Any], paper: str) -> tuple[Tiling, bool]:
    """The tiling with the fewer pages, portrait or landscape (portrait on a tie), and
    whether the pages are landscape."""
    width, height = PAPERS[paper]
    size = (float(board["size"][0]), float(board["size"][1]))
    best: tuple[Tiling, bool] | None = None
    for landscape in (False, True):
        w, h = (height, width) if landscape else (width, height)
        area = (w - 2 * BOARD_MARGIN, h - 2 * BOARD_MARGIN - LABEL_ROOM)
        tiling = Tiling(size, area)
        if best is None or tiling.cols * tiling.rows < best[0].cols * best[0].rows:
            best = (tiling, landscape)
    assert best is not None
    return best


def _field_text(spec: dict[str, Any], value: Any) -> str | None:
    """A shown field as players read it: "Food 1", "Water"; None when left at default."""
    if value in (None, False, "", []) or value == spec.get("default"):
        return None
    if value is True:
        return str(spec["label"])
    return f"{spec['label']} {value}"


def _wrap(items: list[str], width: float, font: float) -> list[str]:
    """Items joined with " · " into lines that fit ``width`` mm at ``font`` mm text (a
    character of DejaVu Sans is about 0.56 em wide, a little over its mean)."""
    per_line = max(8, int(width / (font * 0.56)))
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= per_line:
            lines[-1] += " · " + item
        else:
            lines.append(item)
    return lines


def board_view(board: dict[str, Any], tables: dict[str, Any]) -> dict[str, Any]:
    """The board's spaces and links, in board millimetres."""
    fields = {f["name"]: f for f in tables["card_fields"]}
    kinds = {k["id"]: k for k in tables["card_kinds"]}
    by_local = {c["id"].split(":")[-1]: c for c in tables["cards"]}
    sw, sh = (float(v) for v in board.get("space_size") or SPACE_SIZE)
    spaces = []
    centre: dict[str, tuple[float, float]] = {}
    for key, (x, y) in board["positions"].items():
        card = by_local.get(key.split(":")[-1])
        if card is None:
            continue
        centre[card["id"]] = (float(x), float(y))
        shown = [t for name in board.get("shows") or () if name in fields
                 if (t := _field_text(fields[name], card.get(name))) is not None]
        font = min(3.0, sh / 8)
        title = min(4.2, sh / 5.5)
        lines = _wrap(shown, sw - 3, font)
        # A space grows downwards and upwards alike to hold all its lines, never clips them.
        h = max(sh, title + 4.0 + len(lines) * font * 1.3)
        spaces.append({"name": card["name"], "x": round(x - sw / 2, 3), "y": round(y - h / 2, 3),
                       "w": sw, "h": round(h, 3), "cx": x, "cy": y,
                       "border": kinds.get(card["kind"], {}).get("border") or "#444444",
                       "title_size": round(title, 2), "font": round(font, 2), "lines": lines})
    links: list[tuple[float, float, float, float]] = []
    seen: set[tuple[str, str]] = set()
    name = board.get("links")
    for cid, (x1, y1) in centre.items():
        card = next(c for c in tables["cards"] if c["id"] == cid)
        for other in (card.get(name) or []) if name else []:
            pair = (min(cid, other), max(cid, other))
            if other in centre and pair not in seen:
                seen.add(pair)
                links.append((x1, y1, *centre[other]))
    return {"id": board["id"], "name": board["name"], "size": board["size"],
            "spaces": spaces, "links": links, "rows": [], "notes": []}


ROW_LABEL = 40.0
"""Width (mm) of a board row's label column."""
ROW_CELL = 10.0
"""Width (mm) of one space of a board row; its circle or square is 8.5 mm across (a track
of 0 to 20 fits a landscape page of A4 or Letter)."""
ROW_HEIGHT = 15.0
ROW_TITLE = 14.0
"""Room (mm) at the top of a board of rows for its title."""
NOTE_LINE = 4.5


def rows_view(board: dict[str, Any]) -> dict[str, Any]:
    """A board of rows in board millimetres: each row's label and its numbered spaces, the
    board as wide as its longest row unless the pack gives a size."""
    notes = list(board.get("notes") or [])
    top = ROW_TITLE + NOTE_LINE * len(notes)
    rows = []
    for index, row in enumerate(board["rows"]):
        y = top + index * ROW_HEIGHT
        numbers = list(row["numbers"]) if "numbers" in row else [
            int(row.get("first", 0)) + i for i in range(int(row["count"]))]
        cells = [{"cx": round(ROW_LABEL + (i + 0.5) * ROW_CELL, 3),
                  "cy": round(y + ROW_HEIGHT / 2, 3), "number": number}
                 for i, number in enumerate(numbers)]
        rows.append({"label": row["label"], "note": row.get("note", ""), "y": y,
                     "shape": row.get("shape", "round"), "cells": cells})
    longest = max(len(row["cells"]) for row in rows)
    natural = (ROW_LABEL + longest * ROW_CELL + 6.0, top + len(rows) * ROW_HEIGHT + 6.0)
    size = board.get("size") or natural
    return {"id": board["id"], "name": board["name"], "size": [float(v) for v in size],
            "notes": notes, "rows": rows, "cell": ROW_CELL, "spaces": [], "links": []}


def render_board(tables: dict[str, Any], options: Any,
                 overrides: dict[str, str] | None = None) -> str:
    """Every board of the pack, tile by tile, as HTML with one SVG a page."""
    from decklore.compiler.printing.sheets import _styles, environment

    boards = tables.get("boards") or []
    if not boards:
        raise ValueError("this pack declares no boards to print")
    pages = []
    for board in boards:
        view = rows_view(board) if "rows" in board else board_view(board, tables)
        tiling, landscape = tiling_for(view, options.paper)
        if tiling.area[0] <= 2 * tiling.overlap or tiling.area[1] <= 2 * tiling.overlap:
            raise LayoutError(f"board '{board['id']}' cannot be tiled on {options.paper} "
                              "paper")
        paper = PAPERS[options.paper]
        page_size = (paper[1], paper[0]) if landscape else paper
        total = tiling.cols * tiling.rows
        boxes = tuple((sp["x"], sp["y"], sp["w"], sp["h"]) for sp in view["spaces"])
        marks = tiling.marks(boxes) if total > 1 else []
        for row in range(tiling.rows):
            for col in range(tiling.cols):
                x, y = tiling.origin(col, row)
                number = row * tiling.cols + col + 1
                where = (f"sheet {number} of {total} (row {row + 1}, column {col + 1}); "
                         "trim along the dashed line where another sheet joins, lay it over "
                         "the neighbour's edge and match the crosses" if total > 1 else
                         "one sheet")
                pages.append({"board": view, "x": x, "y": y, "page": page_size,
                              "tiled": total > 1,
                              "area": tiling.area, "where": where,
                              "marks": marks})
    return environment(overrides).get_template("board.html.j2").render(
        pack=tables["pack"], pages=pages, margin=BOARD_MARGIN, label_room=LABEL_ROOM,
        **_styles(options.theme, overrides))
