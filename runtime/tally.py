"""The figures of a balance report, gathered one game at a time in constant memory.

A ``Tally`` sees each game once (from a live run or a results file) and keeps only counts,
so a report over a million games costs what one over a hundred does. Every rate comes with
its 95% Wilson interval, and per-card figures compare the players who played a card with
those who did not, so a designer can tell signal from noise. Bands a pack declares under
``balance: bands:`` in pack.yaml turn figures outside them into warnings.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from decklore.runtime.results import GameRecord

TURN_BUCKETS = 12


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate: sound even near 0% and 100%."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    denominator = 1 + z * z / games
    middle = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, middle - spread), min(1.0, middle + spread)


def rate(wins: int, games: int) -> dict[str, Any]:
    """Wins, games, the rate and its 95% interval, rounded for reports."""
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": round(wins / games, 4) if games else 0.0,
            "ci95": [round(low, 4), round(high, 4)]}


def difference(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Rate ``b`` minus rate ``a`` with Newcombe's 95% interval (from the two Wilson ones).

    Significant when the interval leaves out 0: the change is then unlikely to be noise.
    """
    p1, p2 = a["rate"], b["rate"]
    l1, u1 = a["ci95"]
    l2, u2 = b["ci95"]
    delta = p2 - p1
    low = delta - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = delta + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    significant = bool(a["games"] and b["games"] and (low > 0 or high < 0))
    return {"delta": round(delta, 4), "ci95": [round(low, 4), round(high, 4)],
            "significant": significant}


@dataclass
class _Card:
    games_played: int = 0      # games in which a seat played it, counted once per seat
    wins_played: int = 0
    plays: int = 0
    turns: Counter[int] = field(default_factory=Counter)  # turn of each seat's first play


@dataclass
class Tally:
    """Counts over games; ``add`` one record at a time, then ``figures``."""

    players: int
    games: int = 0
    seat_wins: Counter[int] = field(default_factory=Counter)
    deck_games: Counter[str] = field(default_factory=Counter)
    deck_wins: Counter[str] = field(default_factory=Counter)
    agent_games: Counter[str] = field(default_factory=Counter)
    agent_wins: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    no_winner: Counter[str] = field(default_factory=Counter)
    shared: int = 0
    budget_hits: int = 0
    decisions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    seat_games: int = 0
    cards: dict[str, _Card] = field(default_factory=lambda: defaultdict(_Card))
    raw_reasons: Counter[str] = field(default_factory=Counter)
    no_winner_reasons: Counter[str] = field(default_factory=Counter)
    first_error: dict[str, Any] | None = None
    digest: Any = field(default_factory=hashlib.sha256)

    def add(self, r: GameRecord) -> None:
        self.games += 1
        self.digest.update(json.dumps(r.to_json(), sort_keys=True).encode())
        self.raw_reasons[r.reason] += 1
        seats = len(r.agents)
        self.players = max(self.players, seats)
        self.seat_games += seats
        winners = set(r.winners)
        for seat in winners:
            self.seat_wins[seat] += 1
        for seat, deck in enumerate(r.decks):
            self.deck_games[deck] += 1
            self.deck_wins[deck] += seat in winners
        for seat, agent in enumerate(r.agents):
            self.agent_games[agent] += 1
            self.agent_wins[agent] += seat in winners
        ended = not r.budget_hit and r.error is None
        if ended:
            self.lengths[r.turns] += 1
        if not winners:
            self.no_winner_reasons[r.reason] += 1
        cause = "step budget" if r.budget_hit else "rules error" if r.error else r.reason
        self.reasons[cause] += 1
        if not winners:
            self.no_winner[cause] += 1
        elif len(winners) > 1:
            self.shared += 1
        self.budget_hits += r.budget_hit
        if r.error and not r.budget_hit:
            self.errors[r.error] += 1
            if self.first_error is None:
                self.first_error = {"game": r.index, "seed": r.seed, "error": r.error}
        self.decisions += r.decisions
        played: dict[str, set[int]] = defaultdict(set)
        for card, seat, times, first in r.plays:
            entry = self.cards[card]
            entry.plays += times
            entry.turns[first] += 1
            played[card].add(seat)
        for card, by in played.items():
            entry = self.cards[card]
            entry.games_played += len(by)
            entry.wins_played += len(by & winners)

    def _wins(self) -> dict[str, Any]:
        """Win rates by seat, deck and agent, and the average length: the summary's and the
        report's shared figures."""
        n = self.games
        ended = sum(self.lengths.values())
        return {
            "wins_by_seat": {str(s + 1): rate(self.seat_wins[s], n)
                             for s in range(self.players)},
            "wins_by_deck": {d: rate(self.deck_wins[d], self.deck_games[d])
                             for d in sorted(self.deck_games)},
            "wins_by_agent": {a: rate(self.agent_wins[a], self.agent_games[a])
                              for a in sorted(self.agent_games)},
            "average_turns": round(sum(k * v for k, v in self.lengths.items()) / ended, 2)
            if ended else 0.0,
        }

    def summary(self) -> dict[str, Any]:
        """The summary ``decklore simulate`` prints: wins by seat, deck and agent, turns,
        how games ended, budget hits and rules errors, and one hash over every game."""
        n = self.games
        turns = sorted(self.lengths)
        return {
            "games": n,
            "players": self.players,
            **self._wins(),
            "no_winner": sum(self.no_winner_reasons.values()),
            "no_winner_by_cause": dict(sorted(self.no_winner_reasons.items(),
                                              key=lambda kv: (-kv[1], kv[0]))),
            "shared_wins": self.shared,
            "turns_range": [turns[0], turns[-1]] if turns else [0, 0],
            "average_decisions": round(self.decisions / n, 1) if n else 0.0,
            "reasons": dict(sorted(self.raw_reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
            "step_budget_hit": self.budget_hits,
            "rules_errors": sorted(self.errors),
            "first_rules_error": self.first_error,
            "results_hash": self.digest.hexdigest()[:16],
        }

    def figures(self, bands: Mapping[str, Any] | None = None,
                names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Every figure of the report as plain data (deterministic: sorted, rounded)."""
        n, seats = self.games, self.players
        names = names or {}
        total_wins = sum(self.seat_wins.values())
        out: dict[str, Any] = {
            "games": n,
            "players": seats,
            **self._wins(),
            "seat_one": {**rate(self.seat_wins[0], n),
                             "fair": round(1 / seats, 4) if seats else 0.0},
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "reasons": dict(sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
            "no_winner": dict(sorted(self.no_winner.items())),
            "shared_wins": self.shared,
            "step_budget_hit": self.budget_hits,
            "rules_errors": dict(sorted(self.errors.items())),
            "average_decisions": round(self.decisions / n, 1) if n else 0.0,
            "total_wins": total_wins,
        }
        out["cards"] = self._cards(names, total_wins)
        out["warnings"] = band_warnings(out, bands or {})
        return out

    def _cards(self, names: Mapping[str, str], total_wins: int) -> list[dict[str, Any]]:
        rows = []
        for card in sorted(self.cards):
            entry = self.cards[card]
            played = rate(entry.wins_played, entry.games_played)
            others_games = self.seat_games - entry.games_played
            others = rate(total_wins - entry.wins_played, others_games)
            rows.append({
                "card": card,
                "name": names.get(card, card),
                "plays": entry.plays,
                "play_rate": round(entry.games_played / self.seat_games, 4)
                if self.seat_games else 0.0,
                "first_turn": round(sum(t * c for t, c in entry.turns.items())
                                    / entry.games_played, 2) if entry.games_played else 0.0,
                "win_when_played": played,
                "win_otherwise": others,
                "gap": difference(others, played),
            })
        return rows


def tally(records: Iterable[GameRecord], players: int) -> Tally:
    """A tally of every record, in one pass."""
    t = Tally(players)
    for record in records:
        t.add(record)
    return t


def band_warnings(f: Mapping[str, Any], bands: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A warning for each figure outside a band the pack declares.

    ``certain`` says whether the whole 95% interval lies outside the band (the figure is
    then out of band beyond doubt) or only the estimate does (more games would tell).
    """
    found: list[dict[str, Any]] = []

    def check(what: str, entry: Mapping[str, Any], band: Any) -> None:
        low, high = band
        value = entry["rate"]
        if entry["games"] and not low <= value <= high:
            ci_low, ci_high = entry["ci95"]
            found.append({"figure": what, "value": value, "band": [low, high],
                          "ci95": [ci_low, ci_high],
                          "certain": ci_high < low or ci_low > high})

    for seat, entry in f["wins_by_seat"].items():
        if "seat_win_rate" in bands:
            check(f"Player {seat} wins", entry, bands["seat_win_rate"])
    for deck, entry in f["wins_by_deck"].items():
        if "deck_win_rate" in bands:
            check(f"Deck {deck} wins", entry, bands["deck_win_rate"])
    if "card_win_rate" in bands:
        for row in f["cards"]:
            check(f"Players of {row['name']} win", row["win_when_played"],
                  bands["card_win_rate"])
    if "average_turns" in bands and f["average_turns"]:
        low, high = bands["average_turns"]
        if not low <= f["average_turns"] <= high:
            found.append({"figure": "Average game length in turns",
                          "value": f["average_turns"], "band": [low, high], "ci95": None,
                          "certain": False})
    return found


def compare(before: Mapping[str, Any], after: Mapping[str, Any], min_games: int = 20,
            deck_names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Each figure both runs have, before and after, with the change and its interval.

    Seats, decks (by ``deck_names``) and agents (when they differ) come first; then the
    cards both packs played in at least ``min_games`` seat-games, the changes beyond noise
    first. A card only one pack has is left out: there is nothing to compare it with.
    """
    rows: list[dict[str, Any]] = []

    def row(figure: str, a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
        rows.append({"figure": figure, "before": a, "after": b, "change": difference(a, b)})

    names = deck_names or {}
    for group, label in (("wins_by_seat", "Player {} wins"), ("wins_by_deck", "{} wins"),
                         ("wins_by_agent", "Agent {} wins")):
        shared = sorted(set(before[group]) & set(after[group]))
        if group == "wins_by_agent" and len(shared) < 2:
            continue  # one agent in every seat: its rate says nothing the seats don't
        for key in shared:
            row(label.format(names.get(key, key) if group == "wins_by_deck" else key),
                before[group][key], after[group][key])
    cards_a = {c["card"]: c for c in before["cards"]}
    cards_b = {c["card"]: c for c in after["cards"]}
    card_rows = []
    for card in sorted(set(cards_a) & set(cards_b)):
        a, b = cards_a[card]["win_when_played"], cards_b[card]["win_when_played"]
        if a["games"] >= min_games and b["games"] >= min_games:
            card_rows.append({"figure": f"Players of {cards_b[card]['name']} win", "before": a,
                              "after": b, "change": difference(a, b)})
    card_rows.sort(key=lambda r: (not r["change"]["significant"], -abs(r["change"]["delta"]),
                                  r["figure"]))
    return rows + card_rows
