"""Balance reports: a simulation's figures as a self-contained HTML page (or its PDF).

The figures come from ``decklore.runtime.tally`` (win rates with 95% intervals, game
lengths, how games ended, per-card play and win figures, band warnings). This module draws
them with matplotlib as inline SVG and places them with a Jinja template, like every other
sheet, so a report opens offline and prints. Plots are deterministic: the same figures give
the same bytes (no dates in the SVG, fixed element ids).

matplotlib is an optional dependency (``pip install "decklore[report]"``); without it a
report is refused with that hint rather than drawn badly.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from decklore.compiler.printing.sheets import environment

MAX_CARD_ROWS = 40
MAX_CARD_PLOT = 24


class ReportError(RuntimeError):
    """A report could not be made; the message says what is missing."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ReportError('reports draw their plots with matplotlib: install it with '
                          'pip install "decklore[report]"') from None
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "decklore", "svg.fonttype": "none",
                                "font.size": 9, "axes.spines.top": False,
                                "axes.spines.right": False})
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any) -> Markup:
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    fig.clear()
    _pyplot().close(fig)
    text = out.getvalue()
    # The RDF block names the tool and licence namespaces: nothing a reader needs.
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text[text.index("<svg"):], flags=re.S)
    return Markup(text)


def rate_plot(title: str, rows: Sequence[tuple[str, Mapping[str, Any]]],
              fair: float | None = None) -> Markup:
    """Horizontal bars of win rates with their 95% intervals; a line at the fair share."""
    plt = _pyplot()
    labels = [label for label, _ in rows]
    rates = [entry["rate"] * 100 for _, entry in rows]
    low = [(entry["rate"] - entry["ci95"][0]) * 100 for _, entry in rows]
    high = [(entry["ci95"][1] - entry["rate"]) * 100 for _, entry in rows]
    fig, ax = plt.subplots(figsize=(6.2, 0.3 * len(rows) + 0.8))
    positions = list(range(len(rows)))[::-1]
    ax.barh(positions, rates, xerr=[low, high], color="#6b8fb5", ecolor="#333",
            capsize=3, height=0.6)
    ax.set_yticks(positions, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("wins, % (bars: 95% interval)")
    ax.set_title(title, loc="left", fontsize=10)
    if fair is not None:
        ax.axvline(fair * 100, color="#b55", linestyle="--", linewidth=1)
    return _svg(fig)


def length_plot(lengths: Mapping[str, int]) -> Markup:
    """How many games lasted each number of turns."""
    plt = _pyplot()
    turns = [int(k) for k in lengths]
    fig, ax = plt.subplots(figsize=(6.2, 2.4))
    ax.bar(turns, list(lengths.values()), color="#7aa37a", width=0.9)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("Game length", loc="left", fontsize=10)
    return _svg(fig)


def difference_plot(labels: Sequence[str], changes: Sequence[Mapping[str, Any]], title: str,
                    xlabel: str) -> Markup:
    """Differences of two rates (``tally.difference``) as points with their 95% intervals,
    one row a label; red where the interval leaves out zero."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.2, 0.28 * len(labels) + 0.9))
    positions = list(range(len(labels)))[::-1]
    deltas = [c["delta"] * 100 for c in changes]
    low = [(c["delta"] - c["ci95"][0]) * 100 for c in changes]
    high = [(c["ci95"][1] - c["delta"]) * 100 for c in changes]
    for significant, colour in ((False, "#999999"), (True, "#bb5555")):
        chosen = [i for i, c in enumerate(changes) if c["significant"] == significant]
        if chosen:
            ax.errorbar([deltas[i] for i in chosen], [positions[i] for i in chosen],
                        xerr=[[low[i] for i in chosen], [high[i] for i in chosen]], fmt="o",
                        color=colour, ecolor=colour, capsize=2, markersize=3)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_yticks(positions, list(labels), fontsize=7)
    ax.set_xlabel(xlabel)
    ax.set_title(title, loc="left", fontsize=10)
    return _svg(fig)


def effect_plot(cards: Sequence[Mapping[str, Any]]) -> Markup:
    """Each card's win-rate difference (played minus not played) with its 95% interval."""
    return difference_plot([c["name"] for c in cards], [c["gap"] for c in cards],
                           "Cards and winning",
                           "win rate when played minus otherwise, points (red: beyond noise)")


def _card_rows(figures: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cards worth a designer's look first: beyond-noise effects, then the most played."""
    cards = list(figures["cards"])
    cards.sort(key=lambda c: (not c["gap"]["significant"], -c["plays"], c["name"]))
    return cards[:MAX_CARD_ROWS]


def render_report(figures: Mapping[str, Any], run: Mapping[str, Any],
                  pack: Mapping[str, Any]) -> str:
    """The HTML report of one run: ``run`` says what was played, ``pack`` whose figures."""
    cards = _card_rows(figures)
    seats = [(f"Player {seat}", entry) for seat, entry in figures["wins_by_seat"].items()]
    fair = 1 / figures["players"] if figures["players"] else None
    plots = {
        "seats": rate_plot("Wins by seat", seats, fair),
        "decks": rate_plot("Wins by deck", [(pack.get("decks", {}).get(d, d), e)
                                            for d, e in figures["wins_by_deck"].items()])
        if figures["wins_by_deck"] else None,
        "agents": rate_plot("Wins by agent", list(figures["wins_by_agent"].items()))
        if len(figures["wins_by_agent"]) > 1 else None,
        "lengths": length_plot(figures["lengths"]) if figures["lengths"] else None,
        "cards": effect_plot(cards[:MAX_CARD_PLOT]) if cards else None,
    }
    return environment().get_template("report.html.j2").render(
        pack=pack, run=run, f=figures, plots=plots, cards=cards,
        more_cards=max(0, len(figures["cards"]) - len(cards)))


def change_plot(rows: Sequence[Mapping[str, Any]]) -> Markup:
    """Each figure's change (after minus before) with its 95% interval; red beyond noise."""
    return difference_plot([r["figure"] for r in rows], [r["change"] for r in rows],
                           "What changed", "change in win rate, points (red: beyond noise)")


def render_comparison(rows: Sequence[Mapping[str, Any]], a: Mapping[str, Any],
                      b: Mapping[str, Any], run: Mapping[str, Any]) -> str:
    """The HTML page of ``decklore balance``: each figure before and after, and its change,
    plotted with its interval (the figures beyond noise first among the cards)."""
    plot = change_plot(rows[:MAX_CARD_PLOT]) if rows else None
    return environment().get_template("balance.html.j2").render(rows=rows, a=a, b=b, run=run,
                                                                plot=plot)
