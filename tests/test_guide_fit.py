"""The turn guide's cards hold all their text, on their page, for every bundled pack.

ERA's guide cards used to be a fixed half page with the overflow hidden, which cut off its
"How to win" box. These tests lay the guide out with WeasyPrint and measure it: each card
lies whole on one page, everything inside a card lies inside its border, there are as many
cards as seats, and the PDF's text holds each box's last line.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from decklore.compiler import compile_pack
from decklore.compiler.printing.pdf import weasyprint_document
from decklore.compiler.printing.sheets import PrintOptions, guide_fit, render

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p.name for p in (ROOT / "cards").iterdir() if (p / "pack.yaml").exists())
PX_MM = 25.4 / 96  # CSS px to mm
SLACK = 0.05  # mm: rounding in the layout


def _guides(document: Any) -> list[tuple[int, Any]]:
    """Every laid-out guide card, with the index of its page."""
    out = []
    for index, page in enumerate(document.pages):
        for box in page._page_box.descendants():
            element = box.element
            if (box.element_tag == "section" and element is not None
                    and element.get("class") == "guide"):
                out.append((index, box))
    return out


def _bottom(box: Any) -> float:
    return float(box.position_y + box.margin_height())


def _words(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("pack", PACKS)
def test_every_guide_card_holds_its_text_on_its_page(pack: str) -> None:
    tables = compile_pack(ROOT / "cards" / pack).tables
    if not (tables.get("rules") or {}).get("flow"):
        pytest.skip("no rules to make a guide of")
    html = render(tables, "guide", "html", PrintOptions())
    document = weasyprint_document(html)
    copies = max(1, (tables["pack"].get("players") or {}).get("max", 1))
    guides = _guides(document)
    assert len(guides) == copies  # a card split over two pages would count twice
    per_page = max(len([g for g in guides if g[0] == i]) for i in range(len(document.pages)))
    assert len(document.pages) == -(-copies // per_page)
    for index, guide in guides:
        page = document.pages[index]
        assert _bottom(guide) * PX_MM <= page.height * PX_MM + SLACK
        limit = guide.position_y + guide.border_height()
        deepest = max(_bottom(box) for box in guide.descendants() if box is not guide)
        assert deepest * PX_MM <= limit * PX_MM + SLACK, (
            f"{pack}: the guide's content runs {(deepest - limit) * PX_MM:.1f} mm past "
            "the card's border")

    from pypdf import PdfReader

    text = _words("".join(p.extract_text() for p in PdfReader(io.BytesIO(
        document.write_pdf())).pages))
    lines = re.findall(r"<(?:p|li)>(.*?)</(?:p|li)>", html.split('<section class="guide"')[1],
                       re.S)
    last = re.sub(r"<[^>]+>", "", lines[-1])  # the goal box's last line (or the last step)
    assert text.count(_words(last.replace("&#39;", "'"))) == copies


def test_a_guide_too_long_for_a_quarter_page_gets_two_full_height_cards_a_page() -> None:
    """Four cards a page when each fits a quarter of it; else two cards a page, each a
    full column tall, with the text as large as fits that column."""
    short = {"phases": [{"title": "Draw", "does_plain": ["Draw 2 cards."], "asks_plain": []}],
             "goal_plain": ["WIN: have 10 gold."]}
    fit = guide_fit(short, 4)
    assert (fit.per_page, fit.font) == (4, 10.5)  # as large as fits the quarter
    long = {"phases": [{"title": f"Phase {n}", "does_plain": ["Do this and that. " * 12],
                        "asks_plain": ["A choice to make"] * 4} for n in range(6)],
            "goal_plain": ["WIN: at once when you have at least 15 progress tokens. " * 3]}
    fit = guide_fit(long, 4)
    assert fit.per_page == 2 and fit.height > 250 and fit.font < 10.5
    assert guide_fit(long, 1).per_page == 1
