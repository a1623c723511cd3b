"""Punch-out tokens and boards: the geometry with exact numbers, the sheets a pack declaring
them prints (pages, every label in the text, 5 mm margins). The checks of ``boards:`` are
in test_board_diagnostics.py.

The fixture ``tests/packs/tiles`` has a round chip kind whose deck has a back, a square
plate kind without one, a full-size card, and a board of four places wider than a page.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import compile_pack
from decklore.compiler.printing.boards import (
    OVERLAP,
    ROW_CELL,
    ROW_LABEL,
    Tiling,
    board_view,
    rows_view,
    tiling_for,
)
from decklore.compiler.printing.card_pdf import sheet_pdf
from decklore.compiler.printing.layout import MIN_MARGIN, Box
from decklore.compiler.printing.punchouts import TokenLayout, token_pages
from decklore.compiler.printing.sheets import PrintOptions, render, render_cards

ROOT = Path(__file__).resolve().parent.parent
TILES = ROOT / "tests" / "packs" / "tiles"
DPI = 100
needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                   reason="pdftoppm (poppler-utils) is not installed")


def _tables() -> dict:  # type: ignore[type-arg]
    return compile_pack(TILES).tables


# --- geometry ------------------------------------------------------------------------------


def test_token_grid_on_a4_packs_22_mm_tokens_7_by_11_centred() -> None:
    layout = TokenLayout((210.0, 297.0), 22.0)
    # (210 - 20 + 3) // 25 = 7 across, (297 - 20 + 3) // 25 = 11 down
    assert (layout.cols, layout.rows, layout.per_page) == (7, 11, 77)
    width = 7 * 22 + 6 * 3  # 172 mm, so (210 - 172) / 2 = 19 mm each side
    assert layout.box(0) == Box(19.0, (297 - (11 * 22 + 10 * 3)) / 2, 22.0, 22.0)
    # the back of the first token of a row lies behind it after a long-edge flip: last column
    assert layout.box(0, mirrored=True).x == 19.0 + 6 * 25
    assert layout.box(0, mirrored=True).x + 22 == 210 - 19.0
    assert width == 172


def test_a_board_wider_than_a_page_is_cut_into_overlapping_tiles() -> None:
    tiling = Tiling((300.0, 150.0), (190.0, 260.0))
    assert (tiling.cols, tiling.rows) == (2, 1)
    assert tiling.step[0] == 190.0 - OVERLAP
    assert tiling.origin(1, 0)[0] == 190.0 - OVERLAP
    (seam,), rows = tiling.seams()
    assert rows == []
    assert seam == 190.0 - OVERLAP / 2  # the middle of the shared strip
    marks = tiling.marks()
    assert len(marks) >= 2 and all(x == seam for x, _ in marks)
    # each cross lies inside both tiles' windows, so it prints on both pages
    for x, _ in marks:
        assert 0 < x < 190.0 and tiling.origin(1, 0)[0] < x < tiling.origin(1, 0)[0] + 190.0


def test_alignment_crosses_keep_clear_of_the_spaces() -> None:
    tiling = Tiling((300.0, 150.0), (190.0, 260.0))
    seam = tiling.seams()[0][0]
    free = tiling.marks()
    # a space over the first cross's spot: the cross moves along the seam, off the box
    box = (seam - 20.0, free[0][1] - 10.0, 40.0, 20.0)
    moved = tiling.marks((box,))
    assert len(moved) == len(free) and moved[1:] == free[1:]
    x, y = moved[0]
    assert x == seam and not (box[1] - 5.0 < y < box[1] + box[3] + 5.0)


def test_a_board_that_fits_is_one_page_centred() -> None:
    tiling = Tiling((150.0, 100.0), (190.0, 260.0))
    assert (tiling.cols, tiling.rows) == (1, 1)
    assert tiling.origin(0, 0) == (-20.0, -80.0)
    assert tiling.marks() == []


def test_tiling_takes_the_orientation_with_fewer_pages() -> None:
    # 260 × 180 mm: two portrait A4 tiles across, but one landscape page holds it
    tiling, landscape = tiling_for({"size": [260, 180]}, "a4")
    assert landscape and (tiling.cols, tiling.rows) == (1, 1)
    tiling, landscape = tiling_for({"size": [300, 150]}, "a4")
    assert not landscape and (tiling.cols, tiling.rows) == (2, 1)


# --- what the fixture prints ---------------------------------------------------------------


def test_board_view_draws_each_border_once_and_shows_set_fields() -> None:
    view = board_view(_tables()["boards"][0], _tables())
    assert len(view["links"]) == 4  # hilltop-riverbank, hilltop-old_mill, riverbank-seaport,
    # seaport-old_mill; each written on both ends, drawn once
    lines = {s["name"]: s["lines"] for s in view["spaces"]}
    assert lines == {"Hilltop": ["Gold 1"], "Riverbank": [], "Seaport": ["Gold 2 · Harbour"],
                     "Old Mill": []}


def test_a_board_of_rows_is_as_wide_as_its_longest_row() -> None:
    view = rows_view(_tables()["boards"][1])
    assert view["size"] == [ROW_LABEL + 12 * ROW_CELL + 6.0, 14.0 + 4.5 + 2 * 15.0 + 6.0]
    points, seats = view["rows"]
    assert [c["number"] for c in points["cells"]] == list(range(12))
    assert [c["number"] for c in seats["cells"]] == [3, 2, 1]
    assert (points["shape"], seats["shape"]) == ("square", "round")
    assert seats["cells"][0]["cx"] == ROW_LABEL + ROW_CELL / 2


def test_token_pages_group_by_size_and_back_only_decks_with_a_back() -> None:
    pages = token_pages(_tables(), "a4", "long")
    assert [(p["kind"], p["shape"], len(p["tokens"])) for p in pages] == [
        ("face", "round", 63), ("back", "round", 63), ("face", "square", 2)]
    assert pages[1]["tokens"][0][0]["back"] == "Chip back"


def test_the_card_sheet_leaves_punch_outs_to_the_tokens_sheet() -> None:
    html = render_cards(_tables(), PrintOptions())
    assert "Hilltop" in html and "Guide" in html
    assert "Copper" not in html and "Bridge" not in html


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True,
                          text=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines()
                    if line.startswith("Pages:")))


def _ink_near_edge(pdf: Path, folder: Path) -> list[tuple[int, int, int]]:
    """(page, x, y) of dark pixels within MIN_MARGIN of the paper's edge, on every page."""
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", str(pdf), str(folder / "p")],
                   check=True)
    edge = int(MIN_MARGIN / (25.4 / DPI)) - 1
    found = []
    for number, image in enumerate(sorted(folder.glob("p*.pgm")), start=1):
        _, size, _, pixels = image.read_bytes().split(b"\n", 3)
        width, height = (int(v) for v in size.split())
        found += [(number, x, y) for y in range(height) for x in range(width)
                  if (x < edge or x >= width - edge or y < edge or y >= height - edge)
                  and pixels[y * width + x] < 245][:3]
        image.unlink()
    return found


@needs_poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tokens_sheet_pages_labels_and_margins(paper: str, tmp_path: Path) -> None:
    tables = _tables()
    options = PrintOptions(paper=paper)
    pdf = tmp_path / "tokens.pdf"
    pdf.write_bytes(sheet_pdf(tables, "tokens", render(tables, "tokens", "pdf", options),
                              options))
    # chips: a face page and its back page (63 fit one page); plates: one face page
    assert _pages(pdf) == 3
    text = _text(pdf)
    for label in ("Copper", "Silver", "Bridge", "Tower", "Chip back"):
        assert label in text
    assert "Guide" not in text and "Hilltop" not in text
    assert _ink_near_edge(pdf, tmp_path) == []


@needs_poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_sheet_pages_labels_and_margins(paper: str, tmp_path: Path) -> None:
    tables = _tables()
    options = PrintOptions(paper=paper)
    pdf = tmp_path / "board.pdf"
    pdf.write_bytes(sheet_pdf(tables, "board", render(tables, "board", "pdf", options),
                              options))
    # the land, 300 mm wide: two portrait tiles; the score track: one page
    assert _pages(pdf) == 3
    text = _text(pdf)
    for label in ("The Land", "Hilltop", "Riverbank", "Seaport", "Old Mill", "Gold 1",
                  "Harbour", "sheet 2 of 2", "Score track", "Points", "Seats", "11",
                  "Used from this many players", "Move your marker one space"):
        assert label in text
    assert _ink_near_edge(pdf, tmp_path) == []


def test_build_lists_the_tokens_and_board_sheets(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", str(TILES), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    listed = [line.strip().rsplit("/", 1)[-1] for line in result.stdout.splitlines()[1:]]
    for name in ("tokens.pdf", "tokens.html", "board.pdf", "board.html", "cards.pdf"):
        assert name in listed
        assert (tmp_path / "tiles" / name).is_file()


def test_build_of_a_pack_without_tokens_or_boards_writes_neither(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", str(ROOT / "tests" / "packs" / "mini"),
                                          "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "mini" / "tokens.pdf").exists()
    assert not (tmp_path / "mini" / "board.pdf").exists()
