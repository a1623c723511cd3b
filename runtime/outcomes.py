"""How a game ends: the pack's outcomes (win, lose, eliminate) and the final score.

Outcomes are checked after every step that changed something, but only those that read
what changed (``runtime/reads.py``): an outcome reads what it read when last checked, and
it did not hold then.  A win ends the game at once; a loss or an elimination takes the
players out, and the game ends when one player (or none) is left.  When the rules run to
their end, or ``end game`` is run, the highest score wins, with the pack's tie-breakers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.runtime.expressions import RulesError
from decklore.runtime.reads import ANY
from decklore.runtime.reads import OUT as OUT_TAG

if TYPE_CHECKING:
    from decklore.runtime.machine import Machine


def check_outcomes(g: Machine) -> None:
    """Check, in file order, the outcomes that read something changed since last time."""
    changed = g.changed
    g.changed = set()
    program = g.program
    if changed is not None and ANY not in program.outcomes_read and changed.isdisjoint(
            program.outcomes_read):
        return  # nothing any outcome reads: as each one's own check below would find
    reads = program.outcome_reads
    live: list[int] | None = None  # who is in, read once until someone goes out
    for index, outcome in enumerate(g.program.outcomes):
        if changed is not None and ANY not in reads[index] and changed.isdisjoint(
                reads[index]):
            continue
        if live is None:
            live = g.live_players()
        try:
            hit = [p for p in live if outcome.when(g, {outcome.var: p})]
        except RulesError as exc:  # an error in a condition points at its outcome
            if exc.at is None:
                exc.at = outcome.at
            raise
        if not hit:
            continue
        if outcome.kind == "win":
            finish(g, hit, outcome.label, outcome.at)
            return
        g.state.info["out"].extend(hit)
        g.touch(OUT_TAG)
        if changed is not None:
            changed.add(OUT_TAG)
        g.log_event("out", hit, outcome.label)
        left = g.live_players()
        if (outcome.kind == "lose" and len(live) == 2) or len(left) <= 1:
            finish(g, left, outcome.label, outcome.at)
            return
        live = left


def finish(g: Machine, winners: list[int], reason: str, at: str | None) -> None:
    """End the game with these winners (none: nobody wins), logged."""
    g.state.info["result"] = {"winners": sorted(winners), "reason": reason, "at": at,
                              "turn": g.state.info["turn"]}
    g.state.pending = None
    g.log_event("end", sorted(winners), reason)


def end_by_score(g: Machine, reason: str) -> None:
    """End the game on the score: the live players with the highest score (then the
    tie-breakers, in order) win; a pack that keeps no score has no winner."""
    score = g.program.score
    live = g.live_players()
    if score is None:
        finish(g, [], f"{reason}; the pack keeps no score, so nobody wins", None)
        return
    var, value = score

    def key(p: int) -> list[int]:
        env = {var: p}
        return [value(g, env), *[t(g, env) for t in g.program.tiebreak]]
    highest = max(key(p) for p in live)
    finish(g, [p for p in live if key(p) == highest], f"{reason}; the highest score wins", None)
