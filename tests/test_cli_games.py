"""The commands that run games: test, simulate, play, replay."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from decklore import cli

ROOT = Path(__file__).resolve().parent.parent
ERA = ROOT / "cards" / "era"


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


# --- decklore test ----------------------------------------------------------------------------

def test_test_runs_every_scenario_of_a_folder() -> None:
    result = run("test", str(ERA / "scenarios"), "-q")
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("passed, 0 failed")


def _scenario(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


BASE = f"""\
name: Temple and Pyramid
pack: {ERA.as_posix()}
decks: [ancient, medieval]
start:
  at: point_earning
  player: 1
  zones:
    play:
      1: [temple, pyramid]
script:
  - until: resource_gathering
"""


def test_a_failed_check_is_reported_at_its_line(in_tmp: Path) -> None:
    _scenario(in_tmp, "wrong.yaml", BASE + "  - expect:\n      counters:\n"
              "        progress_tokens: {1: 4}\n")
    result = run("test", "wrong.yaml")
    assert result.exit_code == 1
    assert result.output == (
        "FAIL  wrong.yaml  Temple and Pyramid\n"
        "  wrong.yaml:14:30: Progress tokens of Player 1: expected 4, got 3\n"
        "0 passed, 1 failed\n")


def test_a_malformed_scenario_is_an_error_with_its_place(in_tmp: Path) -> None:
    _scenario(in_tmp, "bad.yaml", BASE.replace("[temple, pyramid]", "[temple, pyramdi]")
              + "  - expect: {winner: 1}\n")
    result = run("test", "bad.yaml")
    assert result.exit_code == 1
    assert "bad.yaml:9:19: error[S100]: no card 'pyramdi' in era (did you mean 'pyramid'?)" \
        in result.output
    assert result.output.strip().endswith("0 passed, 0 failed, 1 could not run")


def test_a_scenario_that_breaks_the_schema_lists_every_problem(in_tmp: Path) -> None:
    _scenario(in_tmp, "bad.yaml", BASE.replace("  player: 1\n", "  player: one\n")
              .replace("until:", "untill:"))
    result = run("test", "bad.yaml")
    assert result.exit_code == 1
    assert "bad.yaml:6:11: error[E1" in result.output
    assert "bad.yaml:11:5: error[E100]: unknown key 'untill' in script[0]" in result.output


def test_a_choice_that_matches_nothing_shows_what_is_offered(in_tmp: Path) -> None:
    text = BASE.replace("point_earning", "card_dealing").replace(
        "  - until: resource_gathering\n", "  - choose: seventeen\n")
    _scenario(in_tmp, "choice.yaml", text)
    result = run("test", "choice.yaml")
    assert result.exit_code == 1
    assert "choice.yaml:11:5: no action matches 'seventeen'; Player 1 is asked 'Cards to " \
           "commit to the build pile'" in result.output
    assert "    0: Cards to commit to the build pile: 0" in result.output


# --- decklore simulate --------------------------------------------------------------------------

def test_simulate_summarises_wins_with_intervals() -> None:
    result = run("simulate", str(ERA), "-n", "6", "--seed", "3", "--agents", "greedy,random",
                 "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 6 and summary["agents"] == ["greedy", "random"]
    seats = summary["wins_by_seat"]
    won = sum(s["wins"] for s in seats.values()) - summary["shared_wins"]  # ERA has no ties
    assert won + summary["no_winner"] == 6
    assert sum(summary["no_winner_by_cause"].values()) == summary["no_winner"]
    low, high = seats["1"]["ci95"]
    assert 0 <= low <= seats["1"]["rate"] <= high <= 1
    assert set(summary["wins_by_deck"]) <= {"era:ancient", "era:medieval", "era:industrial",
                                            "era:atomic"}


def test_simulate_is_the_same_with_two_jobs() -> None:
    one = json.loads(run("simulate", str(ERA), "-n", "4", "--json").stdout)
    two = json.loads(run("simulate", str(ERA), "-n", "4", "--json", "-j", "2").stdout)
    assert one["results_hash"] == two["results_hash"]


def test_simulate_refuses_an_unknown_agent() -> None:
    result = run("simulate", str(ERA), "-n", "1", "--agents", "clever")
    assert result.exit_code == 2
    assert "no agent 'clever'; agents: random, greedy" in result.output


def test_simulate_text_summary() -> None:
    result = run("simulate", str(ERA), "-n", "3", "--agents", "greedy")
    assert result.exit_code == 0, result.output
    for words in ("Wins by seat", "Wins by deck", "average turns", "without a winner: "):
        assert words in result.output


# --- decklore play and replay -----------------------------------------------------------------

def test_play_against_agents_saves_and_logs_and_the_log_replays(in_tmp: Path) -> None:
    result = run("play", str(ERA), "--players", "human,random", "--seed", "7", "--decks",
                 "ancient,medieval", "--save", "game.json", "--log", "game.log",
                 stdin="0\n0\n0\nq\n")
    assert result.exit_code == 0, result.output
    assert "Cards to commit to the build pile" in result.output
    assert "saved to game.json" in result.output
    saved = json.loads((in_tmp / "game.json").read_text())
    assert saved["info"]["decisions"] >= 3
    replayed = run("replay", "game.log", "--pack", str(ERA))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.startswith("reproduced: ")
    resumed = run("play", str(ERA), "--load", "game.json", "--players", "human,random",
                  stdin="q\n")
    assert resumed.exit_code == 0, resumed.output


def test_replay_finds_the_first_event_that_differs(in_tmp: Path) -> None:
    run("play", str(ERA), "--players", "greedy,random", "--seed", "2", "--log", "game.log")
    lines = (in_tmp / "game.log").read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith('["counter"'))
    event = json.loads(lines[index])
    event[-1] += 1
    lines[index] = json.dumps(event, separators=(",", ":"))
    (in_tmp / "game.log").write_text("\n".join(lines) + "\n")
    result = run("replay", "game.log", "--pack", str(ERA))
    assert result.exit_code == 1
    assert f"game.log:{index + 1}: differs" in result.output


def test_play_takes_its_agents_by_the_name_simulate_uses(in_tmp: Path) -> None:
    """``--agents`` (simulate's name for the list) works for play too: the same game."""
    for flag, log in (("--players", "a.log"), ("--agents", "b.log")):
        result = run("play", str(ERA), flag, "greedy,random", "--seed", "2", "--log", log)
        assert result.exit_code == 0, result.output
    assert (in_tmp / "a.log").read_bytes() == (in_tmp / "b.log").read_bytes()


def test_replay_refuses_a_file_that_is_not_a_log(in_tmp: Path) -> None:
    (in_tmp / "notes.log").write_text("hello\n")
    result = run("replay", "notes.log")
    assert result.exit_code == 1
    assert "notes.log:1: not a log line (JSON expected)" in result.output


def test_play_refuses_a_deck_that_cannot_be_chosen(in_tmp: Path) -> None:
    result = run("play", str(ERA), "--players", "random,random", "--decks", "ancient,bonus")
    assert result.exit_code == 1
    assert "deck 'era:bonus' is not tagged 'era', so it cannot be chosen to play" \
        in result.output


def test_play_a_copy_of_the_pack(in_tmp: Path) -> None:
    shutil.copytree(ERA, in_tmp / "mine")
    result = run("play", "mine", "--players", "greedy,random", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert "Player 1 won: Reached the progress goal" in result.output


def test_replay_refuses_a_damaged_start_event(in_tmp: Path) -> None:
    (in_tmp / "short.log").write_text('["start"]\n')
    result = run("replay", "short.log")
    assert result.exit_code == 1
    assert "short.log:1: the start event is damaged" in result.output


def test_every_problem_of_a_position_is_reported_in_one_run(in_tmp: Path) -> None:
    _scenario(in_tmp, "bad.yaml", BASE.replace("point_earning", "nowhere").replace(
        "      1: [temple, pyramid]\n", "      1: [temple, pyramdi]\n      3: [hamlet]\n"
        "    pley: {1: [hamlet]}\n"))
    result = run("test", "bad.yaml")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "error[S100]" in line]
    assert [line.split(": error")[0] for line in lines] == [
        "bad.yaml:5:7", "bad.yaml:9:19", "bad.yaml:10:7", "bad.yaml:11:5"]
    assert "no card 'pyramdi' in era (did you mean 'pyramid'?)" in lines[1]
    assert "seat 3 does not exist: this game has 2 seats" in lines[2]
    assert "no zone 'pley' in the rules (did you mean 'play'?)" in lines[3]


def test_the_play_table_names_kept_cards_only_to_their_owner() -> None:
    import io

    from rich.console import Console

    from decklore import play as play_module
    from decklore.compiler.tools.scenarios import compiled_tables
    from decklore.runtime import Game

    game = Game.new(compiled_tables(ERA), 2, 3, ["era:ancient", "era:medieval"])
    cards = game.state.cards
    architect = next(i for i, c in enumerate(cards) if c["card"] == "era:architect")
    temple = next(i for i, c in enumerate(cards) if c["card"] == "era:temple")
    game.move(architect, "play", 0, face_up=True)
    game.tuck(temple, architect)
    game.reveal(temple, 0)
    rows = []
    for viewer in (0, 1):
        out = io.StringIO()
        play_module._show(Console(file=out, width=120), game, viewer, len(game.state.log))
        rows.append(next(line for line in out.getvalue().splitlines() if "Cards in play" in line))
    assert "Architect [Temple]" in rows[0]
    assert "Architect [1 face down]" in rows[1] and "Temple" not in rows[1]


def test_simulate_writes_logs_that_replay(in_tmp: Path) -> None:
    result = run("simulate", str(ERA), "-n", "2", "--agents", "greedy", "--logs", "logs")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (in_tmp / "logs").iterdir()) == ["game-00000.log",
                                                                   "game-00001.log"]
    replayed = run("replay", "logs/game-00001.log", "--pack", str(ERA))
    assert replayed.exit_code == 0, replayed.output
