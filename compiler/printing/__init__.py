"""Printing: card sheets, punch-out tokens, boards, card lists, turn references, guides and
legends rendered from the compiled tables with Jinja, and their PDFs.

The names below are the stage's public interface; each loads its module on first use, so
importing the facade costs nothing and the stages may import one another without cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.compiler import lazy_getattr

if TYPE_CHECKING:
    from decklore.compiler.printing.batch import PdfJob, default_jobs, make_pdfs
    from decklore.compiler.printing.card_pdf import sheet_pdf
    from decklore.compiler.printing.faces import FaceRenderer
    from decklore.compiler.printing.layout import BLEEDS, LayoutError
    from decklore.compiler.printing.pdf import PdfError, chromium_path, html_to_pdf
    from decklore.compiler.printing.punchouts import has_tokens
    from decklore.compiler.printing.report import ReportError, render_comparison, render_report
    from decklore.compiler.printing.sandbox import SheetError
    from decklore.compiler.printing.sheets import (
        FORMATS,
        SHEETS,
        PrintOptions,
        list_rows,
        render,
        render_changelog,
    )
    from decklore.compiler.printing.turn_guide import turn_guide as make_turn_guide

_EXPORTS = {
    "sheet_pdf": ("card_pdf", "sheet_pdf"),
    "PdfJob": ("batch", "PdfJob"),
    "default_jobs": ("batch", "default_jobs"),
    "make_pdfs": ("batch", "make_pdfs"),
    "FaceRenderer": ("faces", "FaceRenderer"),
    "ReportError": ("report", "ReportError"),
    "render_report": ("report", "render_report"),
    "render_comparison": ("report", "render_comparison"),
    "SheetError": ("sandbox", "SheetError"),
    "list_rows": ("sheets", "list_rows"),
    "BLEEDS": ("layout", "BLEEDS"),
    "FORMATS": ("sheets", "FORMATS"),
    "LayoutError": ("layout", "LayoutError"),
    "PdfError": ("pdf", "PdfError"),
    "PrintOptions": ("sheets", "PrintOptions"),
    "SHEETS": ("sheets", "SHEETS"),
    "chromium_path": ("pdf", "chromium_path"),
    "html_to_pdf": ("pdf", "html_to_pdf"),
    "has_tokens": ("punchouts", "has_tokens"),
    "render": ("sheets", "render"),
    "render_changelog": ("sheets", "render_changelog"),
    "make_turn_guide": ("turn_guide", "turn_guide"),
}
__all__ = [
    "BLEEDS",
    "FORMATS",
    "SHEETS",
    "FaceRenderer",
    "LayoutError",
    "PdfError",
    "PdfJob",
    "PrintOptions",
    "ReportError",
    "SheetError",
    "chromium_path",
    "default_jobs",
    "has_tokens",
    "html_to_pdf",
    "list_rows",
    "make_pdfs",
    "make_turn_guide",
    "render",
    "render_changelog",
    "render_comparison",
    "render_report",
    "sheet_pdf",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
