"""Playing as a human in the terminal: commands at the prompt, quitting, saving, exit codes.

Each test drives ``decklore play`` with an input script, as a player at the keyboard would.
"""

from __future__ import annotations

import json
import re
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


def play(*args: str, stdin: str) -> Result:
    return CliRunner().invoke(cli, ["play", str(ERA), "--players", "human,random", "--seed",
                                    "7", "--decks", "ancient,medieval", *args], input=stdin)


def test_end_of_input_saves_then_exits_130(in_tmp: Path) -> None:
    """Ctrl-D (the input ends) at a prompt is an interruption: saved first, then 130."""
    result = play("--save", "game.json", stdin="0\n")
    assert result.exit_code == 130, result.output
    assert "saved to game.json" in result.output and "interrupted" in result.stderr
    assert json.loads((in_tmp / "game.json").read_text())["info"]["decisions"] >= 1


def test_ctrl_c_at_a_prompt_exits_130(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    def interrupt(*_args: object, **_kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(click, "prompt", interrupt)
    result = play("--save", "game.json", stdin="")
    assert result.exit_code == 130, result.output
    assert (in_tmp / "game.json").is_file()


def test_save_is_offered_only_with_a_file(in_tmp: Path) -> None:
    without = play(stdin="s\nq\ny\n")
    assert "s to save" not in without.output
    assert "saving needs a file: start the game with --save FILE" in without.output
    with_file = play("--save", "game.json", stdin="q\n")
    assert "your choice (number, ? for help, s to save, q to quit)" in with_file.output


def test_quitting_an_unsaved_game_asks_first(in_tmp: Path) -> None:
    kept = play(stdin="q\nn\nq\ny\n")
    assert kept.exit_code == 0, kept.output
    assert kept.output.count("this game is not saved (start with --save FILE to keep it); "
                             "quit anyway? [y/N]") == 2
    saved = play("--save", "game.json", stdin="q\n")
    assert "quit anyway" not in saved.output and "saved to game.json" in saved.output


def test_a_loaded_game_keeps_saving_to_its_file(in_tmp: Path) -> None:
    assert play("--save", "game.json", stdin="0\nq\n").exit_code == 0
    before = json.loads((in_tmp / "game.json").read_text())["info"]["decisions"]
    resumed = CliRunner().invoke(cli, ["play", str(ERA), "--load", "game.json", "--players",
                                       "human,random"], input="0\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert "saved to game.json" in resumed.output
    assert json.loads((in_tmp / "game.json").read_text())["info"]["decisions"] > before


def test_help_and_a_card_face_at_the_prompt(in_tmp: Path) -> None:
    result = play(stdin="?\nc storehouse\nc 0\nc nothing-like-it\nq\ny\n")
    assert result.exit_code == 0, result.output
    assert "c NAME      show a card's face (c NUMBER: the card of that option)" in result.output
    assert ("Storehouse · Normal card · Ancient Era\n"
            "  cost 1 · symbols: Harvest, –, Progress · defense: Military 1 +1 · stars 1\n"
            ) in result.output
    assert "no card is called 'nothing-like-it'" in result.output


KINGDOMS = ROOT / "cards" / "era-of-kingdoms"


def kingdoms(stdin: str) -> Result:
    return CliRunner().invoke(cli, ["play", str(KINGDOMS), "--players", "human,greedy",
                                    "--seed", "3"], input=stdin)


def test_option_numbers_agree_with_board_positions(in_tmp: Path) -> None:
    """Era of Kingdoms asks for a land tile: typing 3 puts the card on tile 3."""
    result = kingdoms("5\n0\n0\n3\nq\ny\n")  # done trading, play a card, Mountain, tile 3
    assert result.exit_code == 0, result.output
    assert "  1 to 8  Land tile [Mountain (your hand)]\n" in result.output
    assert re.search(r"^Land tiles 3 +Mountain ", result.output, re.MULTILINE)


def test_why_a_card_cannot_be_played(in_tmp: Path) -> None:
    result = kingdoms("5\n0\nwhy Walls\nwhy Mountain\nq\ny\n")
    assert ("Walls cannot be chosen for 'Card to play' (rules/playing.rules:31): "
            in " ".join(result.output.split("\n")))
    assert "(here 0 against 2)" in result.output.replace("\n", " ")
    assert "Mountain can be chosen now" in result.output


def test_the_table_names_each_seats_deck_and_marks(in_tmp: Path) -> None:
    result = play(stdin="q\ny\n")
    assert re.search(r"^ +Player 1 \(you\) · Ancient Era +Player 2 · Medieval Era *$",
                     result.output, re.MULTILINE)
    assert re.search(r"^Marks +First player +— *$", result.output, re.MULTILINE)
    assert "Turn 1 · Commit cards to the build pile · you are Player 1" in result.output


def test_agents_alone_are_watched(in_tmp: Path) -> None:
    result = CliRunner().invoke(cli, ["play", str(ERA), "--players", "greedy,random"])
    assert result.exit_code == 0, result.output
    assert "you are Player" not in result.output and " · watching" in result.output
    assert " ·  · " not in result.output


def test_a_long_log_is_folded_and_says_what_it_leaves_out(in_tmp: Path) -> None:
    result = play(stdin="0\n" * 12 + "log\nq\ny\n")
    assert re.search(r"… \d+ earlier lines since your last move \(type log to see them\)",
                     result.output)
    assert "8 cards → your dealt cards" in result.output
    assert "→ your dealt cards\na card → your dealt cards" not in result.output


def test_fold_log_joins_alike_lines() -> None:
    from decklore.play import fold_log

    assert fold_log(["a card → your hand"] * 3 + ["Farm → your hand", "Mill → your hand",
                                                  "a card → Player 2's hand", "Gold 3",
                                                  "Gold 3", "Gold 3", "Turn 2"]) == [
        "Farm, Mill, 3 cards → your hand", "a card → Player 2's hand", "Gold 3 ×3", "Turn 2"]


def test_a_declined_option_and_marks_read_as_english(in_tmp: Path) -> None:
    result = play(stdin="0\n" * 6 + "q\ny\n")
    assert "Don't play this resource card now [" in result.output
    assert "Don't: " not in result.output
    assert "Player 1: Played a card from hand this turn\n" in result.output
    assert " on\n" not in result.output


@pytest.mark.parametrize("pack, players, stdin", [
    (ERA, ["--decks", "ancient,medieval", "--seed", "7"], "2\n" + "0\n" * 14),
    (KINGDOMS, ["--seed", "3"], "5\n0\n0\n3\n2\n1\n" + "0\n" * 8),
])
def test_each_screen_fits_80_by_24(in_tmp: Path, pack: Path, players: list[str],
                                   stdin: str) -> None:
    """From the log to the prompt, every screen of these openings fits 24 lines of 80."""
    result = CliRunner().invoke(cli, ["play", str(pack), "--players", "human,greedy",
                                      *players], input=stdin + "q\ny\n",
                                env={"COLUMNS": "80", "LINES": "24"})
    screens = result.output.split("your choice (")[1:-1]
    assert len(screens) >= 8
    for screen in screens:
        lines = screen.splitlines()[1:]  # the answer typed at the previous prompt, then
        assert len(lines) + 1 <= 24, "\n".join(lines)  # the screen and its prompt line
        assert max(map(len, lines)) <= 80
