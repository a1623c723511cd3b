"""Nothing on a card sheet prints within 5 mm of the paper's edge, on A4 and on Letter.

Home printers cannot print the outer few millimetres. On Letter, three poker cards leave
6.35 mm at the top and bottom, and the label, the crop marks and the scale bar used to sit
1.4 mm from the edge. This test prints the sheets and looks at the pixels.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from decklore.compiler import compile_pack
from decklore.compiler.printing.card_pdf import cards_pdf
from decklore.compiler.printing.layout import MIN_MARGIN, sheet_layout
from decklore.compiler.printing.sheets import PrintOptions

ROOT = Path(__file__).resolve().parent.parent
DPI = 150
MM_PER_PX = 25.4 / DPI

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                   reason="pdftoppm (poppler-utils) is not installed")


def _grey(pdf: Path, page: int, folder: Path) -> tuple[int, int, bytes]:
    stem = folder / f"p{page}"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", str(page), "-l", str(page),
                    str(pdf), str(stem)], check=True)
    (image,) = folder.glob(f"p{page}*.pgm")
    data = image.read_bytes()
    image.unlink()
    _, size, _, pixels = data.split(b"\n", 3)
    width, height = (int(v) for v in size.split())
    return width, height, pixels


@needs_poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_label_marks_and_scale_bar_keep_5_mm_from_the_edge(paper: str, tmp_path: Path) -> None:
    tables = compile_pack(ROOT / "tests" / "packs" / "mini").tables
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(cards_pdf(tables, PrintOptions(paper=paper)))
    width, height, pixels = _grey(pdf, 1, tmp_path)  # a face page: label, marks and bar
    edge = int(MIN_MARGIN / MM_PER_PX) - 1  # pixels wholly inside the keep-out
    inked = [(x, y) for y in range(height) for x in range(width)
             if (x < edge or x >= width - edge or y < edge or y >= height - edge)
             and pixels[y * width + x] < 245]
    assert inked == [], f"{len(inked)} pixels within {MIN_MARGIN:g} mm, first {inked[:3]}"
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "print at 100%" in text
    layout = sheet_layout(paper, "poker")
    bar = layout.scale_bar()
    assert max(bar.w, bar.h) == 50.0
    # the bar is drawn where the layout says: dark at its middle
    x, y = bar.x + bar.w / 2, bar.y + bar.h / 2
    assert pixels[round(y / MM_PER_PX) * width + round(x / MM_PER_PX)] < 100
    marks = layout.crop_marks()
    assert len(marks) == 16  # every cut line marked at both ends, even on Letter
