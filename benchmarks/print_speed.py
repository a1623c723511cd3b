"""How fast each PDF engine prints the ERA card sheets (every card with its copies).

Prints, measured side by side in one run: the cards (with copies), the PDF pages, and the
seconds per 100 cards for WeasyPrint and, when it is installed, headless Chromium.

    python benchmarks/print_speed.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from decklore.compiler import compile_pack
from decklore.compiler.pdf import chromium_path, html_to_pdf
from decklore.compiler.sheets import PrintOptions, render

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    tables = compile_pack(ROOT / "cards" / "era").tables
    cards = sum(c["copies"] for c in tables["cards"])
    start = time.perf_counter()
    html = render(tables, "cards", "html", PrintOptions())
    render_s = time.perf_counter() - start
    print(f"{cards} cards with copies; HTML rendered in {render_s:.2f} s")
    print(f"{'engine':>11} {'seconds':>8} {'s / 100 cards':>14} {'PDF bytes':>10}")
    engines = ["weasyprint"] + (["chromium"] if chromium_path() else [])
    for engine in engines:
        best = float("inf")
        size = 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            size = len(html_to_pdf(html, engine))
            best = min(best, time.perf_counter() - start)
        print(f"{engine:>11} {best:>8.2f} {100 * best / cards:>14.2f} {size:>10,}")
    if "chromium" not in engines:
        print("   chromium  not installed (Debian: apt-get install chromium)")


if __name__ == "__main__":
    main()
