"""Turn sheet HTML into PDF with a real layout engine: WeasyPrint, or headless Chromium.

WeasyPrint is the default: it installs from PyPI and honours ``@page`` sizes and bleed.
Chromium (``--engine chromium``) is used when it is installed, for comparison.  Both are
given the HTML as a file in a private temporary folder, and nothing outside it is read.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ENGINES = ("weasyprint", "chromium")


class PdfError(RuntimeError):
    """A PDF could not be made; the message says what is missing and how to get it."""


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


MAX_HTML_CHARS = 16 * 1024 * 1024
"""The largest sheet made into a PDF: ERA's card sheet is under 1 Mi characters and takes
about fifteen seconds, so this bounds a hostile sheet to minutes, not hours."""


def html_to_pdf(html: str, engine: str = "weasyprint") -> bytes:
    """The PDF of one HTML sheet."""
    if len(html) > MAX_HTML_CHARS:
        raise PdfError(f"the sheet is {len(html):,} characters of HTML, more than the "
                       f"{MAX_HTML_CHARS:,} a PDF is made from; print it as HTML, or with "
                       "fewer cards")
    if engine == "weasyprint":
        return _weasyprint(html)
    if engine == "chromium":
        return _chromium(html)
    raise PdfError(f"unknown PDF engine '{engine}'; use one of: {', '.join(ENGINES)}")


def _fetcher() -> object:
    """A URL fetcher that serves only ``data:`` URLs.

    Sheets are self-contained (icons are inline), so refusing every other scheme keeps an
    untrusted pack's template from reading local files or reaching the network.
    """
    from weasyprint import urls

    if hasattr(urls, "URLFetcher"):  # WeasyPrint 66 and newer
        return urls.URLFetcher(allowed_protocols={"data"})

    def fetch(url: str, timeout: int = 10, ssl_context: object = None) -> object:
        if url.startswith("data:"):
            return urls.default_url_fetcher(url)
        raise ValueError(f"sheets may not load external resources ({url[:60]})")

    return fetch


def _weasyprint(html: str) -> bytes:
    data: bytes = weasyprint_document(html).write_pdf()
    return data


def weasyprint_document(html: str, theme_written_out: bool = True) -> Any:
    """The sheet laid out by WeasyPrint (its pages say where each element with an id went).

    The theme's colours are written into the CSS first (``css_vars``): the same pages,
    laid out faster; ``theme_written_out=False`` is for the test that shows they are."""
    if len(html) > MAX_HTML_CHARS:
        raise PdfError(f"the sheet is {len(html):,} characters of HTML, more than the "
                       f"{MAX_HTML_CHARS:,} a PDF is made from; print it as HTML, or with "
                       "fewer cards")
    try:
        import weasyprint
    except ImportError as exc:  # pragma: no cover - weasyprint is a dependency
        raise PdfError(f"WeasyPrint is not available ({exc}); install decklore's "
                       "dependencies, or use --engine chromium") from None
    if theme_written_out:
        from decklore.compiler.printing.css_vars import inline_root_properties

        html = inline_root_properties(html)
    return weasyprint.HTML(string=html, url_fetcher=_fetcher(),
                           base_url="about:blank").render()


def _chromium(html: str) -> bytes:
    browser = chromium_path()
    if browser is None:
        raise PdfError("headless Chromium is not installed (on Debian: apt-get install "
                       "chromium); use the default engine, WeasyPrint")
    with tempfile.TemporaryDirectory(prefix="decklore-pdf-") as folder:
        source = Path(folder) / "sheet.html"
        target = Path(folder) / "sheet.pdf"
        source.write_text(html, encoding="utf-8")
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", f"--user-data-dir={folder}/profile",
                   "--no-pdf-header-footer", f"--print-to-pdf={target}", source.as_uri()]
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=300)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            raise PdfError(f"Chromium could not print the sheet: {exc}") from None
        return target.read_bytes()
