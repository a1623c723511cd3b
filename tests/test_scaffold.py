"""``decklore new pack``: a starting point that validates, formats and compiles as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import compile_pack
from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.rules.format import format_program
from decklore.compiler.rules.parser import parse_rules
from decklore.compiler.tools.scaffold import ScaffoldError, new_pack, pack_id


@pytest.mark.parametrize(("name", "ident"), [
    ("Iron & Steam", "iron-steam"), ("ERA 2", "era-2"), ("  Tiny  ", "tiny"),
    ("1830", "pack-1830"),
])
def test_pack_ids_from_names(name: str, ident: str) -> None:
    assert pack_id(name) == ident


def test_new_pack_compiles_with_no_diagnostics(tmp_path: Path) -> None:
    written = new_pack("Iron & Steam", tmp_path / "iron")
    assert tmp_path / "iron" / "pack.yaml" in written
    result = compile_pack(tmp_path / "iron", warnings_as_errors=True)
    assert result.warnings == []
    assert result.tables["pack"]["id"] == "iron-steam"
    assert result.tables["pack"]["name"] == "Iron & Steam"
    assert result.tables["rules"]["flow"]


def test_new_pack_rules_are_in_canonical_form(tmp_path: Path) -> None:
    new_pack("Tiny", tmp_path / "tiny")
    path = tmp_path / "tiny" / "rules" / "game.rules"
    text = path.read_text(encoding="utf-8")
    diags = Diagnostics()
    assert format_program(parse_rules(text, str(path), diags)) == text
    assert not diags.items


def test_every_file_has_a_working_schema_line(tmp_path: Path) -> None:
    new_pack("Tiny", tmp_path / "tiny")
    for name in ("pack.yaml", "decks/starter.yaml"):
        first = (tmp_path / "tiny" / name).read_text(encoding="utf-8").splitlines()[0]
        schema = first.split("$schema=")[1]
        assert (tmp_path / "tiny" / name).parent.joinpath(schema).resolve().is_file()


def test_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ScaffoldError, match="already exists and is not empty"):
        new_pack("Busy", tmp_path / "busy")
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["keep.txt"]


def test_new_pack_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(cli, ["new", "pack", "Harbour Lords"])
    assert result.exit_code == 0, result.output
    assert "wrote a new pack 'harbour-lords' in harbour-lords/" in result.output
    checked = runner.invoke(cli, ["validate", "harbour-lords", "--strict", "--no-cache"])
    assert checked.exit_code == 0, checked.output
    again = runner.invoke(cli, ["new", "pack", "Harbour Lords"])
    assert again.exit_code == 1


def test_the_new_pack_is_a_small_real_game(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Choices to make, a winner most games, and an end well before the last round."""
    import json

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["new", "pack", "Iron & Steam"]).exit_code == 0
    result = runner.invoke(cli, ["simulate", "iron-steam", "-n", "40", "--agents",
                                 "greedy,random", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["average_decisions"] >= 10
    assert summary["no_winner"] == 0 and summary["shared_wins"] < 4
    assert summary["reasons"].get("Reached the star goal", 0) >= 30
    assert 6 <= summary["average_turns"] < 24  # 12 rounds of 2 turns is the longest game
