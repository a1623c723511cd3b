"""Theme colours written into a sheet's CSS for the PDF engine (``css_vars``): exactly the
properties that have one value everywhere, and the same PDF as with the ``var()``s."""

from __future__ import annotations

from pathlib import Path

import pytest

from decklore.compiler import compile_pack
from decklore.compiler.printing.css_vars import inline_root_properties
from decklore.compiler.printing.pdf import weasyprint_document
from decklore.compiler.printing.sheets import PrintOptions, render

MINI = Path(__file__).resolve().parent / "packs" / "mini"


def _page(css: str, body: str = "") -> str:
    return f"<html><head><style>{css}</style></head><body>{body}</body></html>"


def test_a_root_property_is_written_out_where_it_is_used() -> None:
    html = _page(":root { --ink: #111; --rule: 1px solid var(--ink); }\n"
                 "p { color: var(--ink); border: var( --rule ); }")
    assert inline_root_properties(html) == _page(
        ":root { --ink: #111; --rule: 1px solid #111; }\n"
        "p { color: #111; border: 1px solid #111; }")


def test_what_can_differ_between_elements_is_left_to_the_engine() -> None:
    css = (":root { --edge: red; --ink: #111; --soft: var(--edge); --fall: var(--no, blue);"
           " --loud: red !important; --a: var(--b); --b: var(--a); }\n"
           ".card { background: var(--edge); color: var(--soft); outline: var(--fall); "
           "border-color: var(--loud); fill: var(--a); }")
    body = '<div class="card" style="--edge: blue">var(--ink) stays in text</div>'
    assert inline_root_properties(_page(css, body)) == _page(css, body)


def test_a_style_attribute_gets_the_value_too_and_text_keeps_its_words() -> None:
    body = '<p style="color: var(--ink)">var(--ink)</p>'
    assert inline_root_properties(_page(":root { --ink: #111 }", body)) == _page(
        ":root { --ink: #111 }", '<p style="color: #111">var(--ink)</p>')


def test_a_property_declared_twice_stays() -> None:
    css = ":root { --ink: #111 } @media print { :root { --ink: #000 } } p { color: var(--ink) }"
    assert inline_root_properties(_page(css)) == _page(css)


@pytest.mark.parametrize("sheet", ["cards", "list", "legend", "reference"])
def test_written_out_the_sheet_prints_the_same_bytes(sheet: str) -> None:
    """Not a single byte of the PDF changes: WeasyPrint computes the same values."""
    tables = compile_pack(MINI).tables
    html = render(tables, sheet, "html", PrintOptions())
    assert "var(--" in html
    assert inline_root_properties(html) != html
    kept = weasyprint_document(html, theme_written_out=False).write_pdf()
    assert weasyprint_document(html).write_pdf() == kept
