"""How fast the ERA card sheets print (every card with its copies), each way side by side.

Prints, measured in one run: the cards (with copies) and the distinct faces, then for each
way of making the PDF its CPU seconds, seconds per 100 cards and PDF size: WeasyPrint on
the whole sheet's HTML, the default (WeasyPrint laying out each distinct face, back and
frame page once, each icon drawn once and placed: compiler/printing/card_pdf.py) and,
when it is installed, headless Chromium on the HTML (wall-clock seconds: its work is in
another process).  Then the card list with its icons inline and placed, and every PDF
``decklore build`` makes (cards, list, reference, guide, legend) one after the other and
side by side in worker processes (``--jobs``), in wall-clock seconds: the workers' CPU
time is not this process's.

    python benchmarks/print_speed.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from decklore.compiler import compile_pack
from decklore.compiler.printing.batch import PdfJob, default_jobs, make_pdfs
from decklore.compiler.printing.card_pdf import cards_pdf, marked_pdf
from decklore.compiler.printing.pdf import chromium_path, html_to_pdf
from decklore.compiler.printing.sheets import PrintOptions, card_sheet_parts, render

ROOT = Path(__file__).resolve().parent.parent


def _best(run: Callable[[], bytes], repeat: int, clock: Callable[[], float]) -> tuple[float, int]:
    best, size = float("inf"), 0
    for _ in range(repeat):
        start = clock()
        size = len(run())
        best = min(best, clock() - start)
    return best, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    tables = compile_pack(ROOT / "cards" / "era").tables
    cards = sum(c["copies"] for c in tables["cards"])
    options = PrintOptions()
    start = time.perf_counter()
    html = render(tables, "cards", "html", options)
    render_s = time.perf_counter() - start
    distinct = card_sheet_parts(tables, options).faces_html.count('<div class="page">')
    print(f"{cards} cards with copies, {distinct} distinct faces and backs; HTML rendered "
          f"in {render_s:.2f} s")
    print(f"{'way':>28} {'seconds':>8} {'s / 100 cards':>14} {'PDF bytes':>10}")
    ways: list[tuple[str, Callable[[], bytes], Callable[[], float]]] = [
        ("weasyprint, whole sheet", lambda: html_to_pdf(html), time.process_time),
        ("weasyprint, faces once", lambda: cards_pdf(tables, options), time.process_time),
    ]
    if chromium_path():
        ways.append(("chromium (wall clock)", lambda: html_to_pdf(html, "chromium"),
                     time.perf_counter))
    for name, run, clock in ways:
        seconds, size = _best(run, args.repeat, clock)
        print(f"{name:>28} {seconds:>8.2f} {100 * seconds / cards:>14.2f} {size:>10,}")
    if not chromium_path():
        print("   chromium  not installed (Debian: apt-get install chromium)")
    list_html = render(tables, "list", "html", options)
    print("\nthe card list, CPU seconds:")
    for name, run in (("icons inline", lambda: html_to_pdf(list_html)),
                      ("icons placed (default)", lambda: marked_pdf(tables, list_html))):
        seconds, size = _best(run, args.repeat, time.process_time)
        print(f"{name:>28} {seconds:>8.2f} {'':>14} {size:>10,}")
    jobs = [PdfJob(sheet, render(tables, sheet, "html", options))
            for sheet in ("cards", "list", "reference", "guide", "legend")]
    print(f"\nevery PDF of a build ({len(jobs)} sheets), wall-clock seconds:")
    for workers in sorted({1, default_jobs()}):
        def run(workers: int = workers) -> bytes:
            return b"".join(data for _, data in make_pdfs(tables, jobs, options,
                                                          "weasyprint", None, workers))
        seconds, size = _best(run, args.repeat, time.perf_counter)
        print(f"{f'{workers} at a time':>28} {seconds:>8.2f} {'':>14} {size:>10,}")


if __name__ == "__main__":
    main()
