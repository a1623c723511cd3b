"""Every outcome is told honestly: rules errors fail the run, games without a winner are
counted by cause, shared wins read as shared, and the exit codes are the README's."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from decklore import cli

MINI = Path(__file__).parent / "packs" / "mini"

STATE = """\
zone draw: per_player, ordered, hidden, refill used
zone hand: per_player, owner
zone used: per_player, ordered, public
counter points "Points": per_player, min 0
counter gold "Gold": per_player, min 0
"""


def rules_pack(folder: Path, rules: str) -> Path:
    """The tiny mini pack with these rules: a fixture game made to end one way."""
    pack = folder / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n")
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(STATE + rules)
    return pack


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


SPENDS_TOO_MUCH = "round:\n  turn:\n    spend 2 gold\n"
NEVER_ENDS = "round:\n  turn:\n    gain 1 gold\n"
TIED = "setup:\n  for each p in players():\n    gain 1 points for p\nscore p = p.points\n"


def test_simulate_fails_on_a_rules_error_and_says_where(tmp_path: Path) -> None:
    pack = rules_pack(tmp_path, SPENDS_TOO_MUCH)
    result = run("simulate", str(pack), "-n", "3", "--players", "2")
    assert result.exit_code == 1, result.output
    seed = json.loads(run("simulate", str(pack), "-n", "1", "--players", "2", "--json").stdout
                      )["first_rules_error"]["seed"]
    assert result.stderr.splitlines()[-2:] == [
        f"error: 3 of 3 games stopped on a rules error; the first, game 1 (seed {seed}):",
        "  rules/game.rules:8: Gold would go below 0 (-2); the rules must check before "
        "spending"]
    assert "without a winner: 3 (rules error 3)" in result.stdout


def test_simulate_json_still_exits_1_on_a_rules_error(tmp_path: Path) -> None:
    result = run("simulate", str(rules_pack(tmp_path, SPENDS_TOO_MUCH)), "-n", "2", "--json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["no_winner_by_cause"] == {"rules error": 2}
    assert summary["first_rules_error"]["error"].startswith("rules/game.rules:8: ")


def test_games_without_a_winner_are_counted_by_cause(tmp_path: Path) -> None:
    result = run("simulate", str(rules_pack(tmp_path, NEVER_ENDS)), "-n", "2",
                 "--budget", "1000")
    assert result.exit_code == 0, result.output
    assert "without a winner: 2 (step budget 2)" in result.stdout
    summary = json.loads(run("simulate", str(rules_pack(tmp_path / "b", NEVER_ENDS)), "-n",
                             "2", "--budget", "1000", "--json").stdout)
    assert summary["no_winner"] == 2 and summary["step_budget_hit"] == 2


def test_a_pack_without_decks_prints_no_deck_table(tmp_path: Path) -> None:
    result = run("simulate", str(rules_pack(tmp_path, TIED)), "-n", "2")
    assert result.exit_code == 0, result.output
    assert "Wins by seat" in result.stdout and "Wins by deck" not in result.stdout


def test_a_shared_win_reads_as_shared(tmp_path: Path) -> None:
    pack = rules_pack(tmp_path, TIED)
    result = run("simulate", str(pack), "-n", "2", "--players", "2")
    assert "shared wins: 2 games, each a win for every player who shared it" in result.stdout
    assert "without a winner: 0\n" in result.stdout
    played = run("play", str(pack), "--players", "random,random")
    assert played.exit_code == 0, played.output
    assert "Player 1 and Player 2 share the win:" in played.output


@pytest.mark.parametrize(("players", "message"), [
    ("random,random,random,random", "Mini takes 1 to 3 players"),
    (",", "name one agent per seat"),
])
def test_play_with_a_wrong_player_count_is_a_usage_error(tmp_path: Path, players: str,
                                                         message: str) -> None:
    result = run("play", str(rules_pack(tmp_path, TIED)), "--players", players)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_an_error_in_a_win_condition_names_its_line(tmp_path: Path) -> None:
    """As ERA at three players: 'opponent' in an outcome fails, and says which outcome."""
    pack = rules_pack(tmp_path, NEVER_ENDS + 'win p when opponent(p).points > 5 "Five"\n')
    result = run("simulate", str(pack), "-n", "1", "--players", "3")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "  rules/game.rules:9: 'opponent' needs exactly two players in the game; use "
        "'opponents'")


MARKED = """\
zone table "Table": per_player, public
counter tokens "Tokens": per_card, min 0, until moved
flag spent "Spent": per_card, until moved
setup:
  for each p in players():
    draw 2 from draw(p) to table(p) face up
round:
  turn:
    draw 1 from draw(me) to table(me) face up
    choose card c from table(me) "Card to mark":
      gain 2 tokens on c
      set spent on c
    choose card c from table(me) "Card to look at":
      move c to used(me) face up
win p when p.points >= 1 "One point"
"""


def test_marks_on_cards_show_beside_them_and_go_when_they_go(tmp_path: Path) -> None:
    pack = rules_pack(tmp_path, MARKED)
    (pack / "rules" / "game.rules").write_text(
        STATE.replace("per_player, ordered, hidden, refill used",
                      "per_player, ordered, hidden, deck main, refill used") + MARKED)
    result = run("play", str(pack), "--players", "human,random", "--decks", "one,one",
                 stdin="0\n0\nq\ny\n")
    assert result.exit_code == 0, result.output
    screens = result.output.split("your choice (")
    assert "(Tokens 2, Spent)" not in screens[0]
    assert re.search(r"^Table +\w[\w ]* \(Tokens 2, Spent\)", screens[1], re.MULTILINE)
    moved = re.search(r"^used +(.*)$", screens[2], re.MULTILINE)
    assert moved is not None and "Tokens" not in moved.group(1)  # the marks left with it
