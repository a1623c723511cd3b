# ruff: noqa: E501 -- expected texts hold whole rendered lines, which are as long as they are.
"""The card face's slots have generic names, and a pack says what goes in each.

Era of Kingdoms printed its level as a cost coin and its requirements and VP in a small
grey table; its fields now go to slots made for them (a rank badge, icon-and-number needs
under the name, a points badge, a foot note), with the pack's words and icons. The slots
once named after ERA (cost2_lock, title_lock, stars) still load, with a warning, and
``decklore migrate`` renames them.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import render_all
from decklore.compiler.printing.sheets import PrintOptions, render

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "packs" / "mini"


@pytest.fixture(scope="module")
def eok_cards() -> str:
    return render(compile_pack(ROOT / "cards" / "era-of-kingdoms").tables, "cards", "html",
                  PrintOptions())


def _face(html: str, name: str) -> str:
    """The first face of the card called ``name``."""
    starts = [m.start() for m in re.finditer(r'<div class="face', html)]
    for index, begin in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(html)
        if re.search(rf'<div class="title"[^>]*>{re.escape(name)}\b', html[begin:end]):
            return html[begin:end]
    raise AssertionError(f"no face of {name}")


def test_kingdoms_faces_give_level_needs_and_points_their_own_badges(eok_cards: str) -> None:
    # Deep Mine: level 3, needs 2 food and 1 wood, 2 VP (decks/advanced.yaml).
    face = _face(eok_cards, "Deep Mine")
    assert '<span class="cost"' not in face  # the level is no cost coin any more
    assert re.search(r'<span class="rank" title="Level"><small>Level</small><b>3</b>', face)
    needs = re.findall(r'<span class="need" title="Needs (\w+)">.*?<b>(\d+)</b>', face, re.S)
    assert needs == [("food", "2"), ("wood", "1")]
    assert '<span class="caption">Needs</span>' in face
    assert re.search(r'<span class="points" title="VP">(?:<span class="icon".*?</span>)?'
                     r'<b>2</b><small>VP</small>', face)
    table = re.search(r'<table class="fields">.*?</table>', face, re.S)
    assert table is not None and "VP" not in table.group(0) and "Needs" not in table.group(0)


def test_kingdoms_faces_and_list_say_how_many_copies_go_out_with_two(eok_cards: str) -> None:
    """cut_for_two: 'Copies taken out of the Basic deck in a two-player game'; Field has
    cut_for_two 2 (decks/basic.yaml), so its face and its list row say 2."""
    face = _face(eok_cards, "Field")
    assert '<span class="footnote"> · Out with 2 players: <b>2</b></span>' in face
    tables = compile_pack(ROOT / "cards" / "era-of-kingdoms").tables
    text = render(tables, "list", "md", PrintOptions())
    header = next(line for line in text.splitlines() if line.startswith("| Card |")
                  and "Out with 2 players" in line)
    column = header.split("|").index(" Out with 2 players ")
    row = next(line for line in text.splitlines() if line.startswith("| Field |"))
    assert row.split("|")[column].strip() == "2"
    assert "Out with 2 players" in render(tables, "list", "html", PrintOptions())


def test_a_level_left_at_its_default_still_shows(eok_cards: str) -> None:
    """A rank says what the card is (a level 1 land), unlike a 0 VP or no need."""
    face = _face(eok_cards, "Field")
    assert "<small>Level</small><b>1</b>" in face
    assert '<span class="points"' not in face and '<div class="needs">' not in face


@pytest.fixture
def mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(MINI, tmp_path / "mini")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DECKLORE_PACK_PATH", raising=False)
    return tmp_path / "mini"


def _declare(pack: Path, old: str, new: str) -> None:
    manifest = pack / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new), encoding="utf-8")


def test_an_old_face_slot_name_loads_with_a_warning_and_migrate_renames_it(mini: Path) -> None:
    _declare(mini, "  gate: {type: lock, description: Lock on the card.}",
             "  gate: {type: lock, description: Lock on the card., face: title_lock}")
    result = compile_pack(Path("mini"))
    assert render_all(result.warnings, SourceCache()) == """\
mini/pack.yaml:26:60: warning[W173]: card field 'gate': face slot 'title_lock' is now called 'title_mark'
  26 |   gate: {type: lock, description: Lock on the card., face: title_lock}
     |                                                            ^^^^^^^^^^
  hint: write 'face: title_mark' (decklore migrate PACK does it)
1 warning."""
    assert {f["name"]: f["face"] for f in result.tables["card_fields"]}["gate"] == "title_mark"
    # Migration rewrites block-style face lines (the form the bundled packs use).
    _declare(mini, "  lore: {type: text, description: Extra words.}",
             "  lore:\n    type: text\n    description: Extra words.\n    face: stars  # kept")
    outcome = CliRunner().invoke(cli, ["migrate", "mini"])
    assert "changed pack.yaml: face stars → pips" in outcome.output, outcome.output
    assert "    face: pips  # kept\n" in (mini / "pack.yaml").read_text(encoding="utf-8")


def test_a_face_icon_must_be_a_declared_symbol(mini: Path) -> None:
    _declare(mini, "  elite: {type: bool, description: Marks the best cards., default: false}",
             "  elite: {type: int, description: Marks the best cards., face: pips, icon: star}")
    with pytest.raises(PackError) as caught:
        compile_pack(Path("mini"))
    assert render_all(caught.value.diagnostics, SourceCache()) == """\
mini/pack.yaml:31:76: error[E173]: card field 'elite' draws icon 'star', which is not a declared symbol
  31 |   elite: {type: int, description: Marks the best cards., face: pips, icon: star}
     |                                                                            ^^^^
  hint: name a symbol under symbols
1 error."""


def test_the_built_in_face_names_no_game() -> None:
    """The template is every game's: no slot, class or word from one game's cards."""
    source = (ROOT / "compiler" / "printing" / "templates" / "_face.html.j2").read_text(
        encoding="utf-8")
    for word in ("cost2_lock", "title_lock", "stars", "star_icon", "conflict"):
        assert word not in source
