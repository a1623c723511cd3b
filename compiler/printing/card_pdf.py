"""Fast print-and-play PDFs: each distinct card face is laid out once, then placed.

WeasyPrint lays out every box of a page, so a sheet of 209 cards and 209 backs costs 418
card layouts although ERA has 106 distinct faces and one back for all its Era decks.
Here WeasyPrint draws each distinct face and back once, on a card-sized page, and the
sheet frame (crop marks, labels, the backs' bleed) once; pypdf then turns every face page
into a form XObject and draws it at each of its places with one ``Do`` (benchmark:
benchmarks/print_speed.py, which prints both ways side by side). The pages are the same
as ``html_to_pdf(render_cards(...))`` gives, to the rounding of a transform.
"""

from __future__ import annotations

import io
from typing import Any

from decklore.compiler.printing.pdf import html_to_pdf
from decklore.compiler.printing.sheets import CardSheetParts, PrintOptions, card_sheet_parts

_PT = 72 / 25.4  # PDF points per millimetre


def sheet_pdf(tables: dict[str, Any], sheet: str, html: str, options: PrintOptions,
              engine: str = "weasyprint", overrides: dict[str, str] | None = None) -> bytes:
    """The PDF of a rendered sheet: card sheets by the fast path when it applies (WeasyPrint,
    print-and-play, the built-in sheet template), anything else from its HTML."""
    if (sheet == "cards" and engine == "weasyprint" and not options.print_shop
            and "cards.html.j2" not in (overrides or {}) and _have_pypdf()):
        return cards_pdf(tables, options, overrides)
    return html_to_pdf(html, engine)


def _have_pypdf() -> bool:
    """pypdf is a dependency; an install without it still prints, the slower way."""
    try:
        import pypdf  # noqa: F401
    except ImportError:
        return False
    return True


def cards_pdf(tables: dict[str, Any], options: PrintOptions,
              overrides: dict[str, str] | None = None) -> bytes:
    """The print-and-play card sheets as PDF, each distinct face laid out once."""
    return assemble(card_sheet_parts(tables, options, overrides))


def assemble(parts: CardSheetParts) -> bytes:
    """Place the faces of ``parts`` on its frame pages."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        FloatObject,
        NameObject,
    )

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(html_to_pdf(parts.frame_html))))
    forms = []
    width, card_height = parts.card[0] * _PT, parts.card[1] * _PT
    for page in PdfReader(io.BytesIO(html_to_pdf(parts.faces_html))).pages:
        contents = page.get_contents()
        form = DecodedStreamObject()
        form.set_data(contents.get_data() if contents is not None else b"")
        resources = page.get("/Resources")
        top = float(page.mediabox.top)
        form.update({
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            # The card is the top of the page: the box clips away the room below it.
            NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (
                0, top - card_height, width, top)]),
            NameObject("/Matrix"): ArrayObject([FloatObject(v) for v in (
                1, 0, 0, 1, 0, card_height - top)]),
            NameObject("/Resources"): resources.get_object().clone(writer)
            if resources is not None else DictionaryObject(),
        })
        forms.append(writer._add_object(form.flate_encode()))
    height = parts.paper[1] * _PT
    for page, placed in zip(writer.pages, parts.placements, strict=False):
        if not placed:
            continue
        resources = page.get("/Resources")
        resources = resources.get_object() if resources is not None else DictionaryObject()
        xobjects = resources.get("/XObject")
        xobjects = xobjects.get_object() if xobjects is not None else DictionaryObject()
        ops = []
        for face, box in placed:
            name = f"/DeckloreFace{face}"  # one name per face: pages may share resources
            xobjects[NameObject(name)] = forms[face]
            x, y = box.x * _PT, height - (box.y + box.h) * _PT
            ops.append(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {name} Do Q")
        resources[NameObject("/XObject")] = xobjects
        page[NameObject("/Resources")] = resources
        # The frame's own drawing may leave a transform set: wrap it in q ... Q first.
        opening = DecodedStreamObject()
        opening.set_data(b"q\n")
        stream = DecodedStreamObject()
        stream.set_data(("Q\n" + "\n".join(ops) + "\n").encode("ascii"))
        contents = page.get("/Contents")
        existing = contents.get_object() if contents is not None else None
        parts_list = list(existing) if isinstance(existing, ArrayObject) else (
            [contents] if contents is not None else [])
        page[NameObject("/Contents")] = ArrayObject([
            writer._add_object(opening), *parts_list, writer._add_object(stream)])
    writer.compress_identical_objects()  # faces share fonts: keep one copy of each
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
