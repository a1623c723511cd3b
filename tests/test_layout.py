"""Sheet geometry, with exact numbers: where cards, backs, crop marks and the scale bar go."""

from __future__ import annotations

import pytest

from decklore.compiler.printing.layout import (
    MARK_CLEARANCE,
    MARK_WIDTH_PT,
    MIN_MARGIN,
    MIN_MARK_CLEARANCE,
    Box,
    LayoutError,
    PrintShopLayout,
    sheet_layout,
)


def test_a4_poker_is_three_by_three_centred() -> None:
    layout = sheet_layout("a4", "poker")
    assert (layout.cols, layout.rows) == (3, 3)
    assert (layout.margin_x, layout.margin_y) == (9.75, 15.15)
    boxes = layout.face_boxes()
    assert boxes[0] == Box(9.75, 15.15, 63.5, 88.9)
    assert boxes[4] == Box(73.25, 104.05, 63.5, 88.9)
    assert boxes[8] == Box(136.75, 192.95, 63.5, 88.9)
    assert boxes[8].right == pytest.approx(200.25)
    assert boxes[8].bottom == pytest.approx(281.85)


def test_letter_poker_is_three_by_three_centred() -> None:
    layout = sheet_layout("letter", "poker")
    assert (layout.cols, layout.rows) == (3, 3)
    assert (layout.margin_x, layout.margin_y) == (12.7, 6.35)
    assert layout.face_boxes()[0] == Box(12.7, 6.35, 63.5, 88.9)


@pytest.mark.parametrize(("card", "grid"), [
    ("bridge", (3, 3)), ("tarot", (2, 2)), ("euro", (3, 3)), ("mini", (4, 4)),
])
def test_every_named_card_size_fits_a4(card: str, grid: tuple[int, int]) -> None:
    layout = sheet_layout("a4", card)
    assert (layout.cols, layout.rows) == grid
    for box in layout.face_boxes():
        assert box.x >= 5 and box.y >= 5 and box.right <= 205 and box.bottom <= 292


def test_custom_card_size() -> None:
    layout = sheet_layout("a4", "custom", custom_card=(60.0, 90.0))
    assert layout.card == (60.0, 90.0)
    assert (layout.cols, layout.rows) == (3, 3)


def test_long_edge_backs_mirror_the_columns() -> None:
    layout = sheet_layout("a4", "poker")
    faces, backs = layout.face_boxes(), layout.back_boxes("long")
    assert backs[0] == faces[2] and backs[2] == faces[0] and backs[1] == faces[1]
    assert backs[3] == faces[5]


def test_short_edge_backs_mirror_the_rows() -> None:
    layout = sheet_layout("a4", "poker")
    faces, backs = layout.face_boxes(), layout.back_boxes("short")
    assert backs[0] == faces[6] and backs[6] == faces[0] and backs[4] == faces[4]


def test_back_offset_moves_every_back() -> None:
    layout = sheet_layout("a4", "poker")
    backs = layout.back_boxes("long", (0.5, -0.25))
    assert backs[0] == Box(137.25, 14.9, 63.5, 88.9)


def test_crop_marks_stay_in_the_margins_clear_of_the_cards() -> None:
    for paper in ("a4", "letter"):
        layout = sheet_layout(paper, "poker")
        marks = layout.crop_marks()
        assert len(marks) == 2 * 4 + 2 * 4  # 4 cut lines each way, marks at both ends
        boxes = layout.face_boxes()
        for mark in marks:
            # clear of the edge, where home printers cannot print
            assert min(mark.x1, mark.x2) >= MIN_MARGIN - 1e-9
            assert max(mark.x1, mark.x2) <= layout.paper[0] - MIN_MARGIN + 1e-9
            assert min(mark.y1, mark.y2) >= MIN_MARGIN - 1e-9
            assert max(mark.y1, mark.y2) <= layout.paper[1] - MIN_MARGIN + 1e-9
            # never inside a card or closer than the clearance (the smaller one in a
            # margin too thin for the full one: Letter's 6.35 mm)
            clear = MIN_MARK_CLEARANCE - 1e-9
            for box in boxes:
                inside_x = box.x - clear < mark.x1 < box.right + clear \
                    and box.x - clear < mark.x2 < box.right + clear
                inside_y = box.y - clear < max(mark.y1, mark.y2) and \
                    min(mark.y1, mark.y2) < box.bottom + clear
                assert not (inside_x and inside_y), (paper, mark, box)
    assert MARK_WIDTH_PT >= 0.4


def test_a4_crop_marks_exact() -> None:
    marks = sheet_layout("a4", "poker").crop_marks()
    xs = sorted({m.x1 for m in marks if m.x1 == m.x2})
    assert xs == [9.75, 73.25, 136.75, 200.25]
    top = [m for m in marks if m.x1 == m.x2 and m.y2 < 20]
    assert {(m.y1, m.y2) for m in top} == {(10.15, 14.15)}


def test_scale_bar_is_50mm_and_clear_of_cards_and_marks() -> None:
    for paper in ("a4", "letter"):
        for card in ("poker", "bridge", "tarot", "euro", "mini"):
            layout = sheet_layout(paper, card)
            bar = layout.scale_bar()
            assert max(bar.w, bar.h) == 50.0 and min(bar.w, bar.h) == 1.0
            assert bar.x >= MIN_MARGIN and bar.right <= layout.paper[0] - MIN_MARGIN
            assert bar.y >= MIN_MARGIN and bar.bottom <= layout.paper[1] - MIN_MARGIN
            for box in layout.face_boxes():
                assert bar.bottom <= box.y - MARK_CLEARANCE + 1e-9 or \
                    bar.y >= box.bottom + MARK_CLEARANCE - 1e-9 or \
                    bar.x >= box.right + MARK_CLEARANCE - 1e-9
            for mark in layout.crop_marks():
                crosses_x = bar.x <= mark.x1 <= bar.right or bar.x <= mark.x2 <= bar.right
                crosses_y = bar.y <= max(mark.y1, mark.y2) and min(mark.y1, mark.y2) <= \
                    bar.bottom
                assert not (crosses_x and crosses_y), (paper, card, bar, mark)


def test_a4_scale_bar_exact() -> None:
    assert sheet_layout("a4", "poker").scale_bar() == Box(80.0, 287.85, 50.0, 1.0)


def test_letter_puts_bar_and_label_upright_in_the_side_margins() -> None:
    """Letter's 6.35 mm top and bottom margins hold only a short mark outside the 5 mm
    keep-out: the bar stands beyond the right marks, the label in the left margin."""
    layout = sheet_layout("letter", "poker")
    assert layout.scale_bar() == Box(209.2, 114.7, 1.0, 50.0)
    assert layout.label_box() == Box(5.0, 79.7, 2.5, 120.0)
    top = [m for m in layout.crop_marks() if m.x1 == m.x2 and m.y2 < 10]
    assert {(m.y1, m.y2) for m in top} == {(5.0, 5.85)}


def test_layout_that_does_not_fit_is_refused_with_numbers() -> None:
    with pytest.raises(LayoutError) as error:
        sheet_layout("a4", "tarot", cols=3, rows=3)
    assert str(error.value) == (
        "3×3 cards of 70×120 mm with 0 mm gaps need 220.00×370.00 mm (with 5 mm margins), "
        "but the paper is 210×297 mm; use fewer rows or columns, or a smaller card")


def test_unknown_names_are_refused() -> None:
    with pytest.raises(LayoutError, match="unknown paper 'a3'"):
        sheet_layout("a3", "poker")
    with pytest.raises(LayoutError, match="unknown card size 'jumbo'"):
        sheet_layout("a4", "jumbo")


def test_print_shop_page_is_card_plus_bleed() -> None:
    shop = PrintShopLayout((63.5, 88.9), bleed=3.0, safe=3.0)
    assert shop.page == (69.5, 94.9)
    assert shop.trim == Box(3.0, 3.0, 63.5, 88.9)
    assert shop.safe_box == Box(6.0, 6.0, 57.5, 82.9)
    eighth = PrintShopLayout((63.5, 88.9), bleed=3.175)
    assert eighth.page == (69.85, 95.25)


def test_cli_knows_the_same_names_as_the_layout() -> None:
    from decklore import BLEEDS as CLI_BLEEDS
    from decklore import CARD_SIZES as CLI_CARD_SIZES
    from decklore import PAPERS as CLI_PAPERS
    from decklore.compiler.printing.layout import BLEEDS, CARD_SIZES, PAPERS

    assert tuple(PAPERS) == CLI_PAPERS
    assert tuple(CARD_SIZES) == CLI_CARD_SIZES
    assert tuple(b for b in BLEEDS if b != "none") == CLI_BLEEDS
