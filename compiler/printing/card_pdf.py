"""Fast PDFs: what repeats is laid out or drawn once, then placed.

WeasyPrint lays out every box of a page, so a sheet of 209 cards and 209 backs costs 418
card layouts although ERA has 106 distinct faces and one back for all its Era decks.
Here WeasyPrint draws each distinct face and back once, on a card-sized page, and each
distinct frame page (crop marks, labels, the backs' bleed) once; pypdf then turns every
such page into a form XObject and draws it at each of its places with one ``Do``
(benchmark: benchmarks/print_speed.py, which prints the ways side by side). Icons are
drawn the same way: the faces hold an empty marker where each icon goes, WeasyPrint
says where it laid each marker out (its page's anchors), and each symbol's SVG, drawn
once, is placed there, instead of WeasyPrint parsing and drawing 600 inline SVGs. The
pages are the same as ``html_to_pdf(render_cards(...))`` gives, to the rounding of a
transform (tests/test_sheets.py compares them at 300 dpi).

Other sheets full of icons (the card list draws about 600) get the icon half of this:
``marked_pdf`` swaps each inline icon for a marker, lets WeasyPrint lay the sheet out, and
draws each symbol's icon once and places it at every marker."""

from __future__ import annotations

import base64
import io
import re
from typing import Any

from pypdf.generic import DecodedStreamObject, FloatObject

from decklore.compiler.printing.pdf import html_to_pdf
from decklore.compiler.printing.sheets import (
    ICON_MARK,
    CardSheetParts,
    PrintOptions,
    card_sheet_parts,
)

MARKED_SHEETS = frozenset({"list"})
"""Sheets whose icons ``marked_pdf`` draws. The card list has hundreds (ERA: 593, and the
sheet takes a quarter less time); the reference and the guide have a few dozen, where
drawing them inline is as fast. No icon on the list is dimmed by CSS (the legend's locked
symbols are), which a placed icon would not follow."""
_MARKER_CSS = ("<style>.icon > .decklore-icon { display: block; width: 100%; height: 100%; }"
               "</style>")

_PT = 72 / 25.4  # PDF points per millimetre


def sheet_pdf(tables: dict[str, Any], sheet: str, html: str, options: PrintOptions,
              engine: str = "weasyprint", overrides: dict[str, str] | None = None) -> bytes:
    """The PDF of a rendered sheet: card sheets by the fast path when it applies (WeasyPrint,
    print-and-play, the built-in sheet template), anything else from its HTML."""
    if (sheet == "cards" and engine == "weasyprint" and not options.print_shop
            and "cards.html.j2" not in (overrides or {}) and _have_pypdf()):
        return cards_pdf(tables, options, overrides)
    if (sheet in MARKED_SHEETS and engine == "weasyprint"
            and f"{sheet}.html.j2" not in (overrides or {}) and _have_pypdf()):
        return marked_pdf(tables, html)
    return html_to_pdf(html, engine)


def marked_pdf(tables: dict[str, Any], html: str) -> bytes:
    """A sheet's PDF with each inline symbol icon drawn once and placed at its markers."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    from decklore.compiler.printing.pdf import weasyprint_document

    svgs = {str(row["id"]): str(row["icon_svg"]) for row in tables["symbols"]}
    symbol_of: dict[str, str] = {}
    for symbol, svg in svgs.items():
        symbol_of.setdefault(svg, symbol)
    if not symbol_of or "</head>" not in html:
        return html_to_pdf(html)
    marks: list[tuple[str, bool]] = []

    def number(match: re.Match[str]) -> str:
        marks.append((symbol_of[match.group(0)], False))
        return f'<i class="{ICON_MARK}" id="{ICON_MARK}-{len(marks) - 1}"></i>'

    # Longest first, so an icon whose drawing contains another's is matched whole.
    pattern = re.compile("|".join(re.escape(svg) for svg in
                                  sorted(symbol_of, key=len, reverse=True)))
    marked = pattern.sub(number, html)
    if not marks:
        return html_to_pdf(html)
    document = weasyprint_document(marked.replace("</head>", _MARKER_CSS + "</head>", 1))
    anchors = [dict(page.anchors) for page in document.pages]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(document.write_pdf())))
    icons = _icons(writer, sorted({symbol for symbol, _ in marks}), svgs)
    for page, page_marks in zip(writer.pages, anchors, strict=True):
        extra, names = _icon_ops(page_marks, marks, float(page.mediabox.top))
        if not names:
            continue
        contents = page.get_contents()
        data = contents.get_data() if contents is not None else b""
        # The page's drawing may leave a transform set: the icons draw after restoring it.
        stream = DecodedStreamObject()
        stream.set_data(b"q\n" + data + b"\nQ\n" + extra.encode("ascii") + b"\n")
        resources = page.get("/Resources")
        resources = DictionaryObject(resources.get_object()) if resources is not None \
            else DictionaryObject()
        resources[NameObject("/XObject")] = _extended(
            resources.get("/XObject"),
            {f"/DeckloreIcon{index}": icons[symbol] for index, symbol in names})
        page[NameObject("/Resources")] = resources
        page[NameObject("/Contents")] = writer._add_object(stream.flate_encode())
    writer.compress_identical_objects()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


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
    """Draw the sheets of ``parts``: each page is its frame page, then the faces on it."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject

    writer = PdfWriter()
    frames = [_form(writer, page) for page in PdfReader(io.BytesIO(html_to_pdf(
        parts.frame_html))).pages]
    faces_pdf, anchors = _faces(parts.faces_html)
    icons = _icons(writer, sorted({symbol for symbol, _ in parts.icons}),
                   parts.icon_svgs) if parts.icons else {}
    dim = writer._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/ExtGState"),
        NameObject("/ca"): FloatObject(0.5), NameObject("/CA"): FloatObject(0.5)}))
    forms = []
    card_height = parts.card[1] * _PT
    for page, marks in zip(PdfReader(io.BytesIO(faces_pdf)).pages, anchors, strict=True):
        top = float(page.mediabox.top)
        extra, names = _icon_ops(marks, parts.icons, top)
        # The card is the top of the page: the box clips away the room below it.
        forms.append(_form(writer, page, (0, top - card_height, parts.card[0] * _PT, top),
                           (1, 0, 0, 1, 0, card_height - top), extra,
                           {f"/DeckloreIcon{icons_index}": icons[symbol]
                            for icons_index, symbol in names}, dim))
    width, height = parts.paper[0] * _PT, parts.paper[1] * _PT
    for frame, placed in zip(parts.frame_of, parts.placements, strict=True):
        page = writer.add_blank_page(width, height)
        xobjects = DictionaryObject({NameObject("/DeckloreFrame"): frames[frame]})
        ops = ["q /DeckloreFrame Do Q"]
        for face, box in placed:
            name = f"/DeckloreFace{face}"
            xobjects[NameObject(name)] = forms[face]
            x, y = box.x * _PT, height - (box.y + box.h) * _PT
            ops.append(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {name} Do Q")
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/XObject"): xobjects})
        stream = DecodedStreamObject()
        stream.set_data(("\n".join(ops) + "\n").encode("ascii"))
        page[NameObject("/Contents")] = ArrayObject([writer._add_object(stream.flate_encode())])
    writer.compress_identical_objects()  # faces share fonts: keep one copy of each
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _faces(html: str) -> tuple[bytes, list[dict[str, tuple[float, float, float, float]]]]:
    """The faces' PDF, and on each page where each icon marker was laid out (CSS px)."""
    from decklore.compiler.printing.pdf import weasyprint_document

    document = weasyprint_document(html)
    return document.write_pdf(), [dict(page.anchors) for page in document.pages]


def _icons(writer: Any, used: list[str], svgs: dict[str, str]) -> dict[str, Any]:
    """Each symbol of ``used``, drawn once as a form one unit square (its page's size)."""
    pages = "".join(f'<div class="i"><img src="data:image/svg+xml;base64,'
                    f'{base64.b64encode(svgs[s].encode("utf-8")).decode("ascii")}" '
                    'alt=""></div>' for s in used)
    html = ("<!DOCTYPE html><html><head><style>@page { size: 10mm 10mm; margin: 0 } "
            "html, body { margin: 0 } .i { width: 10mm; height: 10mm; break-after: page } "
            ".i img { display: block; width: 100%; height: 100% }</style></head><body>"
            f"{pages}</body></html>")
    from pypdf import PdfReader
    from pypdf.generic import DictionaryObject, NameObject

    out = {}
    for symbol, page in zip(used, PdfReader(io.BytesIO(html_to_pdf(html))).pages,
                            strict=True):
        side = float(page.mediabox.width)
        form = _form(writer, page, (0, 0, side, side), (1 / side, 0, 0, 1 / side, 0, 0))
        # A transparency group: a dimmed icon's alpha applies to the icon as a whole (the
        # icon's drawing sets its own alpha, which would undo the dimming otherwise).
        form.get_object()[NameObject("/Group")] = DictionaryObject({
            NameObject("/Type"): NameObject("/Group"),
            NameObject("/S"): NameObject("/Transparency")})
        out[symbol] = form
    return out


def _icon_ops(marks: dict[str, tuple[float, float, float, float]],
              icons: list[tuple[str, bool]], top: float) -> tuple[str, list[tuple[int, str]]]:
    """The drawing of a face page's icons at their markers, and the icon forms it names.

    A marker's anchor is its box's top-left and bottom-right corners after the transforms
    of the boxes around it, in CSS px from the page's top left; a landscape card turns its
    panel a quarter, so the corners say how the icon turns too (by their signs)."""
    ops: list[str] = []
    names: dict[str, int] = {}
    for anchor, (x1, y1, x2, y2) in marks.items():
        if not anchor.startswith(ICON_MARK + "-"):
            continue
        symbol, dimmed = icons[int(anchor.rsplit("-", 1)[1])]
        index = names.setdefault(symbol, len(names))
        dx, dy = x2 - x1, y2 - y1
        # The icon's right (u) and down (v) directions on the page, and its box's size.
        u, v, w, h = {(True, True): ((1, 0), (0, 1), dx, dy),
                      (True, False): ((0, -1), (1, 0), -dy, dx),
                      (False, True): ((0, 1), (-1, 0), dy, -dx),
                      (False, False): ((-1, 0), (0, -1), -dx, -dy)}[(dx >= 0, dy >= 0)]
        side = min(w, h)  # the icon keeps its shape, centred in its box
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        tx = cx - side / 2 * (u[0] + v[0])
        ty = cy - side / 2 * (u[1] + v[1])
        k = 0.75 * side  # CSS px to points
        a, b = k * u[0], -k * u[1]
        c, d = -k * v[0], k * v[1]
        e = 0.75 * (tx + side * v[0])
        f = top - 0.75 * (ty + side * v[1])
        state = "/DeckloreDim gs " if dimmed else ""
        ops.append(f"q {state}{a:.4f} {b:.4f} {c:.4f} {d:.4f} {e:.3f} {f:.3f} cm "
                   f"/DeckloreIcon{index} Do Q")
    return "\n".join(ops), [(i, s) for s, i in names.items()]


def _form(writer: Any, page: Any, bbox: tuple[float, ...] | None = None,
          matrix: tuple[float, ...] = (1, 0, 0, 1, 0, 0), extra: str = "",
          xobjects: dict[str, Any] | None = None, dim: Any = None) -> Any:
    """A PDF page as a form XObject of ``writer`` (drawn with one ``Do`` wherever it goes),
    with ``extra`` drawing after the page's own (which may leave a transform set)."""
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject

    contents = page.get_contents()
    data = contents.get_data() if contents is not None else b""
    if extra:
        data = b"q\n" + data + b"\nQ\n" + extra.encode("ascii") + b"\n"
    form = DecodedStreamObject()
    form.set_data(data)
    box = bbox if bbox is not None else (0, 0, float(page.mediabox.width),
                                         float(page.mediabox.height))
    resources = page.get("/Resources")
    # A clone is made once per writer: pages of one document that share a resource
    # dictionary share its clone, so the names added here go into copies of it.
    resources = DictionaryObject(resources.get_object().clone(writer)) \
        if resources is not None else DictionaryObject()
    if xobjects:
        resources[NameObject("/XObject")] = _extended(resources.get("/XObject"), xobjects)
    if dim is not None and "DeckloreDim gs" in extra:
        resources[NameObject("/ExtGState")] = _extended(resources.get("/ExtGState"),
                                                        {"/DeckloreDim": dim})
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(v) for v in box]),
        NameObject("/Matrix"): ArrayObject([FloatObject(v) for v in matrix]),
        NameObject("/Resources"): resources,
    })
    return writer._add_object(form.flate_encode())


def _extended(entries: Any, more: dict[str, Any]) -> Any:
    """A new PDF dictionary with the entries of ``entries`` (if any) and ``more``."""
    from pypdf.generic import DictionaryObject, NameObject

    out = DictionaryObject(entries.get_object() if entries is not None else {})
    for name, ref in more.items():
        out[NameObject(name)] = ref
    return out
