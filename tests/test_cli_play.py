"""Playing as a human in the terminal: commands at the prompt, quitting, saving, exit codes.

Each test drives ``decklore play`` with an input script, as a player at the keyboard would.
"""

from __future__ import annotations

import json
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
