"""Printed sheets: golden HTML/Markdown/CSV, and PDFs measured from rendered pixels."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import compile_pack
from decklore.compiler.printing.layout import sheet_layout
from decklore.compiler.printing.pdf import html_to_pdf
from decklore.compiler.printing.sheets import PrintOptions, render, rich_text

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "sheets"
MINI = ROOT / "tests" / "packs" / "mini"
DPI = 300
MM_PER_PX = 25.4 / DPI
TOLERANCE_MM = 0.2

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                   reason="poppler-utils (pdftoppm, pdfinfo) not installed")


@pytest.fixture(scope="module")
def mini_tables() -> dict[str, Any]:
    return compile_pack(MINI).tables


@pytest.mark.parametrize(("sheet", "fmt"), [
    ("cards", "html"), ("list", "html"), ("list", "md"), ("list", "csv"),
    ("legend", "html"), ("legend", "md"), ("reference", "html"), ("reference", "md"),
])
def test_golden_sheets(mini_tables: dict[str, Any], sheet: str, fmt: str,
                       update_golden: bool) -> None:
    text = render(mini_tables, sheet, fmt, PrintOptions())
    path = GOLDEN / f"mini-{sheet}.{fmt}"
    if update_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("sheet", "fmt"), [
    ("list", "md"), ("legend", "md"), ("legend", "html")])
def test_golden_era_of_kingdoms_sheets(sheet: str, fmt: str, update_golden: bool) -> None:
    """The second bundled game's printed data: every card and its symbols (no ERA-only marks
    in its legend), reviewed as text when the pack changes. Its player reference and guide
    are checked by tests/test_player_reference.py, golden files there being for a small
    pack only."""
    tables = compile_pack(ROOT / "cards" / "era-of-kingdoms").tables
    text = render(tables, sheet, fmt, PrintOptions())
    path = GOLDEN / f"era-of-kingdoms-{sheet}.{fmt}"
    if update_golden:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    if sheet == "legend" and fmt == "html":
        assert "Arrow up" not in text and "Dash" not in text


def test_the_turn_guide_lists_each_phase_with_what_its_player_is_asked() -> None:
    """Options of a menu are lines; what an answer leads to, and questions another player is
    asked (the Shadow Kingdom's events fall to the solo player), are not; a phase that asks
    nothing says what it does; steps are lines of their phase."""
    from decklore.compiler.printing.turn_guide import turn_guide

    kingdoms = turn_guide(compile_pack(ROOT / "cards" / "era-of-kingdoms").tables["rules"])
    assert kingdoms is not None
    phases = {p.title: p for p in kingdoms.phases}
    assert list(phases) == ["Actions", "Discard", "Upgrade", "Draw"]  # numbered once, by the card
    assert phases["Actions"].asks[-1] == "End the action phase"
    assert "Card to play" not in phases["Actions"].asks
    assert phases["Draw"].asks == ("Advanced cards to draw", "Intermediate cards to draw")
    assert phases["Upgrade"].asks == () and len(phases["Upgrade"].notes) == 2
    era = turn_guide(compile_pack(ROOT / "cards" / "era").tables["rules"])
    assert era is not None
    steps = {p.title: p.asks for p in era.phases}["Card committing"]
    assert steps[0] == "Commit cards to the build pile"
    assert turn_guide(None) is None
    assert turn_guide(compile_pack(MINI).tables["rules"]) is None  # its turn has no phases


def test_markdown_sheets_are_not_html_escaped() -> None:
    tables = compile_pack(ROOT / "cards" / "era-of-kingdoms").tables
    text = render(tables, "list", "md", PrintOptions())
    assert "King's Arms" in text and "&#39;" not in text


def test_card_text_tokens_become_icons_and_text_is_escaped(
        mini_tables: dict[str, Any]) -> None:
    from decklore.compiler.printing.sheets import _Icons

    html = str(rich_text("Hit <b>{sword}</b> & {nothing}", _Icons.of(mini_tables)))
    assert html.startswith("Hit &lt;b&gt;<span class=\"icon\" title=\"Sword\"><svg")
    assert html.endswith("&lt;/b&gt; &amp; {nothing}")


def test_templates_run_sandboxed_and_strict(mini_tables: dict[str, Any]) -> None:
    from decklore.compiler.printing.sandbox import SheetError

    hostile = {"legend.html.j2": "{{ pack.__class__.__mro__ }}"}
    with pytest.raises(SheetError) as error:
        render(mini_tables, "legend", "html", PrintOptions(), hostile)
    assert str(error.value) == ("templates/legend.html.j2:1:1: error[E146]: not allowed: "
                                "access to attribute '__class__' of 'dict' object is unsafe.")
    with pytest.raises(SheetError) as error:
        render(mini_tables, "legend", "html", PrintOptions(), {"legend.html.j2": "{{ nope }}"})
    assert str(error.value) == ("templates/legend.html.j2:1:1: error[E146]: undefined value: "
                                "'nope' is undefined")


def test_a_pack_template_replaces_the_built_in_one(tmp_path: Path) -> None:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    (pack / "templates").mkdir()
    (pack / "templates" / "legend.md.j2").write_text("custom {{ pack.name }}\n",
                                                     encoding="utf-8")
    tables = compile_pack(pack).tables
    assert tables["templates"] == {"legend.md.j2": "custom {{ pack.name }}\n"}
    assert render(tables, "legend", "md", PrintOptions(), tables["templates"]) == "custom Mini\n"


def test_every_card_copy_is_printed(mini_tables: dict[str, Any]) -> None:
    html = render(mini_tables, "cards", "html", PrintOptions(duplex="none"))
    copies = sum(c["copies"] for c in mini_tables["cards"])
    assert html.count('<div class="slot"') == copies


def test_backs_are_on_their_own_pages(mini_tables: dict[str, Any]) -> None:
    html = render(mini_tables, "cards", "html", PrintOptions())
    assert html.count('class="page page-face"') == 1
    assert html.count('class="page page-back"') == 1
    back_page = html.split('class="page page-back"')[1]
    assert 'class="mark' not in back_page  # no crop marks on backs


# --- PDFs, measured ----------------------------------------------------------------------


def _pdfinfo(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return dict(line.split(":", 1) for line in out.stdout.splitlines() if ":" in line)


def _page_pixels(pdf: Path, page: int, tmp_path: Path) -> tuple[int, int, bytes]:
    """A page as 8-bit grey pixels (PGM), at DPI."""
    stem = tmp_path / f"page{page}"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", str(page), "-l", str(page),
                    str(pdf), str(stem)], check=True)
    (image,) = tmp_path.glob(f"page{page}*.pgm")
    data = image.read_bytes()
    header, rest = data.split(b"\n", 1)
    assert header == b"P5"
    size, rest = rest.split(b"\n", 1)
    width, height = (int(v) for v in size.split())
    _, pixels = rest.split(b"\n", 1)
    image.unlink()
    return width, height, pixels


def _dark_runs(values: list[int], threshold: int = 128) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    start = None
    for i, v in enumerate(values):
        if v < threshold and start is None:
            start = i
        elif v >= threshold and start is not None:
            runs.append((start, i - 1))
            start = None
    if start is not None:
        runs.append((start, len(values) - 1))
    return runs


def _mm(px: float) -> float:
    return px * MM_PER_PX


@pytest.fixture(scope="module")
def mini_pdf(tmp_path_factory: pytest.TempPathFactory, mini_tables: dict[str, Any]) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "cards.pdf"
    path.write_bytes(html_to_pdf(render(mini_tables, "cards", "html", PrintOptions())))
    return path


@needs_poppler
def test_pdf_page_size_and_count(mini_pdf: Path) -> None:
    info = _pdfinfo(mini_pdf)
    assert info["Pages"].strip() == "2"  # one face page, one back page
    assert info["Page size"].strip().startswith("595.276 x 841.89 pts")


@needs_poppler
def test_pdf_letter_page_size(mini_tables: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "letter.pdf"
    path.write_bytes(html_to_pdf(render(mini_tables, "cards", "html",
                                        PrintOptions(paper="letter", duplex="none"))))
    info = _pdfinfo(path)
    assert info["Pages"].strip() == "1"
    assert info["Page size"].strip().startswith("612 x 792 pts")


@needs_poppler
def test_pdf_card_edges_are_where_the_layout_says(mini_pdf: Path, tmp_path: Path) -> None:
    layout = sheet_layout("a4", "poker")
    width, _, pixels = _page_pixels(mini_pdf, 1, tmp_path)
    first = layout.face_boxes()[0]
    row_y = round((first.y + first.h / 2) / MM_PER_PX)
    row = list(pixels[row_y * width:(row_y + 1) * width])
    runs = _dark_runs(row)
    assert abs(_mm(runs[0][0]) - first.x) <= TOLERANCE_MM  # left edge of the first card
    last = layout.face_boxes()[2]
    assert abs(_mm(runs[-1][1] + 1) - last.right) <= TOLERANCE_MM  # right edge of the third
    column_x = round((first.x + first.w / 2) / MM_PER_PX)
    column = [pixels[y * width + column_x] for y in range(len(pixels) // width)]
    top = next(s for s, _ in _dark_runs(column) if _mm(s) > first.y - 1.0)
    assert abs(_mm(top) - first.y) <= TOLERANCE_MM


@needs_poppler
def test_pdf_crop_marks_are_in_the_margin_and_thick_enough(mini_pdf: Path,
                                                           tmp_path: Path) -> None:
    layout = sheet_layout("a4", "poker")
    width, _, pixels = _page_pixels(mini_pdf, 1, tmp_path)
    mark = layout.crop_marks()[0]  # a vertical mark above the first cut line
    y = round(((mark.y1 + mark.y2) / 2) / MM_PER_PX)
    row = list(pixels[y * width:(y + 1) * width])
    centres = [_mm((a + b + 1) / 2) for a, b in _dark_runs(row, threshold=160)]
    xs, _ = layout.cut_positions()
    for x in xs:
        assert any(abs(c - x) <= TOLERANCE_MM for c in centres), (x, centres)
    clear_y = round((layout.margin_y - 0.5) / MM_PER_PX)  # inside the 1 mm clearance
    clear_row = list(pixels[clear_y * width:(clear_y + 1) * width])
    assert _dark_runs(clear_row, threshold=160) == []


@needs_poppler
def test_pdf_back_page_has_no_crop_marks(mini_pdf: Path, tmp_path: Path) -> None:
    layout = sheet_layout("a4", "poker")
    width, _, pixels = _page_pixels(mini_pdf, 2, tmp_path)
    mark = layout.crop_marks()[0]
    y = round(((mark.y1 + mark.y2) / 2) / MM_PER_PX)
    assert _dark_runs(list(pixels[y * width:(y + 1) * width]), threshold=160) == []


@needs_poppler
def test_print_shop_pdf_has_real_bleed(mini_tables: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "shop.pdf"
    path.write_bytes(html_to_pdf(render(mini_tables, "cards", "html",
                                        PrintOptions(print_shop=True))))
    out = subprocess.run(["pdfinfo", "-box", str(path)], capture_output=True, text=True,
                         check=True).stdout
    boxes = {line.split(":")[0].strip(): [float(v) for v in line.split(":")[1].split()]
             for line in out.splitlines() if line.strip().endswith(tuple("0123456789"))
             and line.split(":")[0].strip() in ("MediaBox", "TrimBox", "BleedBox")}
    pt = 72 / 25.4
    media, trim = boxes["MediaBox"], boxes["TrimBox"]
    assert media[2] - media[0] == pytest.approx((63.5 + 6) * pt, abs=0.2)
    assert trim[2] - trim[0] == pytest.approx(63.5 * pt, abs=0.2)
    assert trim[0] - media[0] == pytest.approx(3 * pt, abs=0.2)


def test_print_command_writes_html_and_refuses_bad_layouts(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "list.md"
    result = runner.invoke(cli, ["print", str(MINI), "--sheet", "list", "--format", "md",
                                 "-o", str(out), "--no-cache"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("# Mini: card list")
    bad = runner.invoke(cli, ["print", str(MINI), "--sheet", "cards", "--format", "html",
                              "--card-size", "200x300", "-o", str(tmp_path / "x.html"),
                              "--no-cache"])
    assert bad.exit_code == 1
    assert "need" in bad.output and "but the paper is 210×297 mm" in bad.output
    wrong = runner.invoke(cli, ["print", str(MINI), "--sheet", "cards", "--format", "csv"])
    assert wrong.exit_code == 2


def test_pdf_engine_fetches_nothing_from_disk_or_network(tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not an image")
    html = (f'<html><body><img src="{secret.as_uri()}"><img src="http://127.0.0.1:9/x.png">'
            '<p>ok</p></body></html>')
    assert html_to_pdf(html).startswith(b"%PDF")  # refused quietly, the page still prints


@needs_poppler
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")
def test_chromium_engine_prints_the_same_page_size(mini_tables: dict[str, Any],
                                                   tmp_path: Path) -> None:
    path = tmp_path / "chromium.pdf"
    path.write_bytes(html_to_pdf(render(mini_tables, "cards", "html",
                                        PrintOptions(duplex="none")), "chromium"))
    info = _pdfinfo(path)
    assert info["Pages"].strip() == "1"
    width, height = (float(v) for v in info["Page size"].split("pts")[0].split(" x "))
    assert width == pytest.approx(595.276, abs=0.5)  # Chromium rounds to 1/100 inch
    assert height == pytest.approx(841.89, abs=0.5)


def test_a_pack_stylesheet_replaces_the_built_in_one(mini_tables: dict[str, Any]) -> None:
    css = {"sheet.css": "h1 { color: teal; }", "theme-standard.css": ":root { --ink: #123456; }"}
    html = render(mini_tables, "legend", "html", PrintOptions(), css)
    assert "h1 { color: teal; }" in html and "--ink: #123456" in html
    assert ".legend" not in html.split("<body")[0]  # the built-in sheet.css is not there


@pytest.mark.parametrize("text", [
    "<img src=\"file:///etc/passwd\">", "<div onclick=\"x()\">", "a { background: url(http://x) }",
    "@import 'evil.css';", "<a href=\"javascript:alert(1)\">", "</style><script>x</script>",
    "<iframe>", "<link rel=stylesheet href=x.css>",
])
def test_unsafe_pack_templates_are_refused(tmp_path: Path, text: str) -> None:
    from decklore.compiler.printing.sandbox import SheetError

    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    (pack / "templates").mkdir()
    (pack / "templates" / "sheet.css").write_text(text + "\n", encoding="utf-8")
    tables = compile_pack(pack).tables  # judged on what it renders, not on its source
    with pytest.raises(SheetError) as error:
        render(tables, "legend", "html", PrintOptions(), tables["templates"])
    assert error.value.code == "E144"
    assert error.value.file == "templates/sheet.css"


def test_safe_pack_templates_pass(tmp_path: Path) -> None:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    (pack / "templates").mkdir()
    (pack / "templates" / "sheet.css").write_text(
        "h1 { background: url(data:image/png;base64,AAAA) }\n.on-top { color: red }\n",
        encoding="utf-8")
    (pack / "templates" / "legend.html.j2").write_text(
        '<style>{{ base_css }}</style><a href="#top" class="x">{{ pack.name }}</a>\n',
        encoding="utf-8")
    tables = compile_pack(pack).tables
    assert set(tables["templates"]) == {"sheet.css", "legend.html.j2"}
    assert '<a href="#top"' in render(tables, "legend", "html", PrintOptions(),
                                      tables["templates"])


@needs_poppler
def test_pdf_backs_bleed_past_the_outer_cut_lines(mini_pdf: Path, tmp_path: Path) -> None:
    """Duplex printing is never in perfect register: the back colour runs 2.5 mm past the
    cut, and stops before the crop-mark margin."""
    from decklore.compiler.printing.sheets import BACK_BLEED

    layout = sheet_layout("a4", "poker")
    width, _, pixels = _page_pixels(mini_pdf, 2, tmp_path)
    box = min(layout.back_boxes(), key=lambda b: b.x)
    y = round((box.y + box.h / 2) / MM_PER_PX)

    def grey(x_mm: float) -> int:
        return pixels[y * width + round(x_mm / MM_PER_PX)]

    assert grey(box.x - BACK_BLEED + 0.5) < 200  # coloured just inside the bleed
    assert grey(box.x - BACK_BLEED - 1.0) > 250  # white paper beyond it


def test_era_backs_do_not_tell_the_era_deck() -> None:
    """Conflict cards are shuffled into the other player's draw pile: every Era deck's back
    must read the same, or the blind commit and the setup race are given away."""
    tables = compile_pack(ROOT / "cards" / "era").tables
    html = render(tables, "cards", "html", PrintOptions())
    backs = {re.sub(r"\s+", "", b) for b in
             re.findall(r'<div class="back(?: longname)?">.*?</div>\s*</div>\s*</div>', html, re.S)}
    assert len(backs) == 2  # the Era decks' back, and the bonus deck's (never in a pile)
    for deck in ("Ancient Era", "Medieval Era", "Industrial Era", "Atomic Era"):
        assert all(deck not in back for back in backs)


@needs_poppler
def test_faces_laid_out_once_print_the_same_pages(mini_tables: dict[str, Any], mini_pdf: Path,
                                                  tmp_path: Path) -> None:
    """The fast card PDF (each distinct face and back laid out once, then placed) gives the
    pages the whole-sheet HTML gives, pixel for pixel at 300 dpi within anti-aliasing."""
    from decklore.compiler.printing.card_pdf import cards_pdf, sheet_pdf

    fast = tmp_path / "fast.pdf"
    fast.write_bytes(cards_pdf(mini_tables, PrintOptions()))
    assert _pdfinfo(fast)["Pages"] == _pdfinfo(mini_pdf)["Pages"]
    for page in (1, 2):
        _, _, slow_pixels = _page_pixels(mini_pdf, page, tmp_path)
        _, _, fast_pixels = _page_pixels(fast, page, tmp_path)
        assert len(fast_pixels) == len(slow_pixels)
        differ = sum(1 for a, b in zip(slow_pixels, fast_pixels, strict=True) if abs(a - b) > 64)
        assert differ < len(slow_pixels) // 10_000, (page, differ)
    html = render(mini_tables, "cards", "html", PrintOptions())
    overridden = sheet_pdf(mini_tables, "cards", html, PrintOptions(),
                           overrides={"cards.html.j2": "x"})
    assert overridden == html_to_pdf(html)  # a pack's own sheet template prints as written


@needs_poppler
def test_a_list_with_placed_icons_prints_the_same_pages(mini_tables: dict[str, Any],
                                                         tmp_path: Path) -> None:
    """The card list's icons are drawn once and placed at markers (``marked_pdf``): the
    pages are those of the sheet with its icons inline, at 300 dpi within anti-aliasing."""
    from decklore.compiler.printing.card_pdf import marked_pdf, sheet_pdf

    html = render(mini_tables, "list", "html", PrintOptions())
    assert html.count("<svg") > 5
    inline, placed = tmp_path / "inline.pdf", tmp_path / "placed.pdf"
    inline.write_bytes(html_to_pdf(html))
    placed.write_bytes(sheet_pdf(mini_tables, "list", html, PrintOptions()))
    assert placed.read_bytes() == marked_pdf(mini_tables, html)
    assert _pdfinfo(placed)["Pages"] == _pdfinfo(inline)["Pages"]
    _, _, want = _page_pixels(inline, 1, tmp_path)
    _, _, got = _page_pixels(placed, 1, tmp_path)
    assert len(got) == len(want)
    differ = sum(1 for a, b in zip(want, got, strict=True) if abs(a - b) > 64)
    assert differ < len(want) // 10_000, differ
    from pypdf import PdfReader

    page = PdfReader(placed).pages[0]
    forms = page["/Resources"]["/XObject"]
    assert any(str(name).startswith("/DeckloreIcon") for name in forms)  # placed, not inline


def test_print_shop_panel_outline_is_inside_the_safe_zone(mini_tables: dict[str, Any]) -> None:
    """A print shop's cut may wander up to the safe margin: the panel's outline must lie
    inside it, or some cards are cut through their frame."""
    options = PrintOptions(print_shop=True)
    html = render(mini_tables, "cards", "html", options)
    inset = float(re.search(r"\.face \.inner \{ position: absolute; inset: ([0-9.]+)mm",
                            html).group(1))  # type: ignore[union-attr]
    assert inset > options.safe


def test_legend_has_a_card_anatomy_panel_from_the_face_declarations() -> None:
    tables = compile_pack(ROOT / "cards" / "era").tables
    text = render(tables, "legend", "md", PrintOptions())
    labels = {f["face"]: f["label"] for f in tables["card_fields"] if f.get("face")}
    assert f"| Circle at the top left | {labels['cost']}" in text
    assert f"| Badge at the bottom right | {labels['defense']}" in text
    assert f"| Down the side of the symbols | {labels['pips']}" in text


def test_faces_name_their_slots_in_the_packs_words(mini_tables: dict[str, Any]) -> None:
    """The built-in face template is every game's: ERA's 'conflict stars' is ERA's label,
    not the template's; each slot's hover title is the pack's label for its field."""
    html = render(mini_tables, "cards", "html", PrintOptions())
    templates = ROOT / "compiler" / "printing" / "templates"
    source = (templates / "_face.html.j2").read_text(encoding="utf-8")
    assert "conflict" not in source.lower()
    era = compile_pack(ROOT / "cards" / "era").tables
    labels = {f["face"]: f["label"] for f in era["card_fields"] if f.get("face")}
    era_html = render(era, "cards", "html", PrintOptions())
    assert f'title="{labels["pips"]}: ' in era_html and f'title="{labels["cost"]}"' in era_html
    assert 'title="cost"' not in html or "cost" not in {
        f.get("face") for f in mini_tables["card_fields"]}
