"""The strength benchmark spreads a long table over runs: chunks add up to the whole run.

A table of 200 games a pairing takes hours on a shared machine, so the benchmark appends
each game to a results file, skips the games the file holds, and prints the table of the
file on demand. These check that two chunks give the table one run gives (games, wins,
draws; the seconds differ from run to run) and that a game recorded twice counts once.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "strength.py"
RUN = ["--packs", "era", "--pairings", "greedy-random", "--games", "3"]


def _table(output: str) -> list[list[str]]:
    """The rows of a printed table without their timings (the last columns)."""
    rows = [line.split() for line in output.splitlines() if " v " in line]
    return [fields[:10] for fields in rows if fields[3].isdigit()]


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=True)
    return done.stdout


def test_chunks_of_a_run_add_up_to_the_whole_run(tmp_path: Path) -> None:
    whole = _table(_run(*RUN))
    out = tmp_path / "results.jsonl"
    first = _table(_run(*RUN, "--chunk", "2", "--out", str(out)))
    assert first[0][3] == "2"  # the first chunk played two games of three
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    second = _table(_run(*RUN, "--chunk", "2", "--out", str(out)))
    assert second == whole
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3  # one new game, not two
    _run(*RUN, "--out", str(out))  # nothing left to play: the file is unchanged
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    assert _table(_run("--report", str(out))) == whole
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join([*lines, lines[0]]) + "\n", encoding="utf-8")
    assert _table(_run("--report", str(out))) == whole  # a game recorded twice counts once
    part = tmp_path / "part.jsonl"
    part.write_text(lines[0] + "\n", encoding="utf-8")
    out.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    assert _table(_run("--report", str(out), str(part))) == whole  # files add up


def _module() -> Any:
    spec = importlib.util.spec_from_file_location("strength_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_with_more_players_the_agent_has_one_seat_going_round_the_table(
        monkeypatch: Any) -> None:
    strength = _module()
    assert [strength.seating(2, i) for i in range(4)] == [0, 1, 0, 1]  # as it always was
    assert [strength.seating(3, i) for i in range(6)] == [0, 1, 2, 0, 1, 2]
    made: list[list[str]] = []
    real = strength.make_agent

    def recording(name: str, seed: int, raw: Any) -> Any:
        if not made or len(made[-1]) == 3:
            made.append([])
        made[-1].append(name)
        return real("random", seed, raw)

    monkeypatch.setattr(strength, "make_agent", recording)
    for index in range(3):
        strength.play(("era", 3, "greedy", "random", 3, index))
    assert made == [["greedy", "random", "random"], ["random", "greedy", "random"],
                    ["random", "random", "greedy"]]


def test_games_of_more_players_recorded_before_the_seating_was_fixed_are_left_out() -> None:
    strength = _module()
    game = {"pack": "era", "agent": "greedy", "opponent": "random", "seed": 3, "index": 1,
            "won": True, "drawn": False, "unfinished": False, "seconds": [1.0, 1.0],
            "decisions": [1, 1], "cpu": [1.0, 1.0]}
    lines = [json.dumps({**game, "players": 3}), json.dumps({**game, "players": 2}),
             json.dumps({**game, "players": 4, "seat": 1})]
    assert sorted(job[1] for job in strength.read_records(lines)) == [2, 4]


def test_the_table_says_when_its_games_span_versions_of_the_rules() -> None:
    strength = _module()
    played = strength.play(("era", 2, "greedy", "random", 3, 0))
    assert played.rules.startswith("sha256:")
    job = ("era", 2, "greedy", "random", 3, 0)
    one = strength.record(job, played)
    assert json.loads(one)["rules"] == played.rules
    older = json.loads(one)
    del older["rules"]
    older["index"] = 1
    other = {**json.loads(one), "index": 2, "rules": "sha256:" + "0" * 64}
    same = strength.report(strength.read_records([one]))
    assert "played on" not in same
    mixed = strength.report(strength.read_records([one, json.dumps(older),
                                                   json.dumps(other)]))
    assert mixed.splitlines()[-1] == \
        "  played on 2 versions of the rules, 1 game from before versions were recorded"
