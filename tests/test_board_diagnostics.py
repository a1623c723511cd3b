# ruff: noqa: E501 -- expected texts hold whole rendered lines.
"""The checks of ``boards:`` in pack.yaml, with the exact text of each diagnostic: on the
fixture ``tests/packs/tiles`` (a map board of four places and a board of rows), each test
breaks one thing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import render_all

ROOT = Path(__file__).resolve().parent.parent
TILES = ROOT / "tests" / "packs" / "tiles"


def _broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> str:
    """The diagnostics, as printed, of the fixture with OLD in its pack.yaml made NEW."""
    shutil.copytree(TILES, tmp_path / "tiles")
    monkeypatch.chdir(tmp_path)
    manifest = Path("tiles") / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(PackError) as caught:
        compile_pack(Path("tiles"))
    return render_all(caught.value.diagnostics, SourceCache())


def test_board_of_an_unknown_kind_is_refused(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert _broken(tmp_path, monkeypatch, "spaces: place", "spaces: plaice") == """\
tiles/pack.yaml:27:13: error[E190]: board 'land' has spaces of kind 'plaice', which is not a declared card kind
  27 |     spaces: plaice
     |             ^^^^^^
  hint: did you mean 'place'?
1 error."""


def test_board_links_must_be_a_cards_field(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    first = _broken(tmp_path, monkeypatch, "links: next_to", "links: gold").splitlines()[0]
    assert first == ("tiles/pack.yaml:28:12: error[E191]: board 'land' links spaces by "
                     "'gold', which is of type int, not cards")


def test_every_space_needs_a_position_on_the_board(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    printed = _broken(tmp_path, monkeypatch, "      old_mill: [140, 120]\n",
                      "      old_mil: [140, 120]\n      seaport2: [299, 10]\n")
    firsts = [line for line in printed.splitlines() if "error[" in line]
    assert firsts == [  # all at once, in the order of the file
        "tiles/pack.yaml:31:5: error[E193]: board 'land' gives no position to 1 place "
        "card(s): old_mill",
        "tiles/pack.yaml:35:7: error[E192]: board 'land' places 'old_mil', which is not a "
        "card of kind 'place'",
        "tiles/pack.yaml:36:7: error[E192]: board 'land' places 'seaport2', which is not a "
        "card of kind 'place'"]


def test_a_row_gives_count_or_numbers_not_both(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    printed = _broken(tmp_path, monkeypatch, "numbers: [3, 2, 1]", "numbers: [3, 2, 1], count: 3")
    assert printed.splitlines()[0] == (
        "tiles/pack.yaml:41:9: error[E195]: row 'Seats' of board 'score' gives both count "
        "and numbers")


def test_a_map_board_needs_its_positions(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    printed = _broken(tmp_path, monkeypatch, "    size: [300, 150]\n", "")
    assert printed.splitlines()[0] == (
        "tiles/pack.yaml:25:5: error[E195]: board 'land' has no 'size': a map board needs "
        "spaces, size and positions, a board of rows needs rows")


def test_a_position_off_the_board_is_refused(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    first = _broken(tmp_path, monkeypatch, "seaport: [270, 110]",
                    "seaport: [320, 110]").splitlines()[0]
    assert first == ("tiles/pack.yaml:34:16: error[E194]: board 'land' places 'seaport' at "
                     "320, 110 mm, outside the board's 300 × 150 mm")
