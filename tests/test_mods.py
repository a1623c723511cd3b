"""Mods: packs that extend packs. Load order, each operation, each error, provenance, and the
bundled example mod end to end."""

# ruff: noqa: E501 -- expected texts hold whole rendered lines, which are as long as they are.

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from decklore import cli
from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import render_all

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "packs" / "mini"


@pytest.fixture
def packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the mini pack in it, as the working folder."""
    shutil.copytree(MINI, tmp_path / "mini")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DECKLORE_PACK_PATH", raising=False)
    return tmp_path


def mod(root: Path, folder: str, manifest: str, files: dict[str, str] | None = None) -> Path:
    pack = root / folder
    pack.mkdir()
    (pack / "pack.yaml").write_text("format: 2\n" + manifest, encoding="utf-8")
    for rel, text in (files or {}).items():
        (pack / rel).parent.mkdir(parents=True, exist_ok=True)
        (pack / rel).write_text(text, encoding="utf-8")
    return pack


def errors(pack: str) -> str:
    with pytest.raises(PackError) as caught:
        compile_pack(Path(pack))
    return render_all(caught.value.diagnostics, SourceCache())


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def tables(pack: str) -> dict:
    return compile_pack(Path(pack)).tables


PATCH = "patches: [patches/p.yaml]\n"


# --- load order ------------------------------------------------------------------------------

def test_the_load_order_comes_from_the_manifests(packs: Path) -> None:
    mod(packs, "zeta", "id: zeta\nname: Z\nversion: 1.0.0\nextends: mini\n")
    mod(packs, "alpha", "id: alpha\nname: A\nversion: 1.0.0\nextends: mini\n")
    mod(packs, "top", "id: top\nname: T\nversion: 2.0.0\nextends: mini\n"
        "requires: [{id: zeta}, {id: alpha, version: '>=1, <2'}]\n"
        "optional: [{id: absent}]\n")
    result = run("order", "top")
    assert result.exit_code == 0, result.output
    assert result.output == (
        "1. mini 0.1.0  mini\n"
        "2. alpha 1.0.0  alpha  (after mini)\n"
        "3. zeta 1.0.0  zeta  (after mini)\n"
        "4. top 2.0.0  top  (after alpha, mini, zeta)\n")
    assert [p["id"] for p in tables("top")["packs"]] == ["mini", "alpha", "zeta", "top"]


def test_load_after_orders_without_requiring(packs: Path) -> None:
    mod(packs, "b", "id: b\nname: B\nversion: 1.0.0\nextends: mini\nload_after: [c]\n")
    mod(packs, "c", "id: c\nname: C\nversion: 1.0.0\nextends: mini\n")
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: b}, {id: c}]\n")
    assert [p["id"] for p in tables("top")["packs"]] == ["mini", "c", "b", "top"]


def test_a_missing_pack_is_an_error_at_the_relation(packs: Path) -> None:
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: minni}]\n")
    assert errors("top") == """\
top/pack.yaml:6:12: error[E161]: pack 'minni' is not found
   6 | requires: [{id: minni}]
     |            ^^^^^^^^^^^
  hint: did you mean 'mini'?
1 error."""


def test_a_version_out_of_range_names_both_places(packs: Path) -> None:
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: mini, version: '>=1.0'}]\n")
    assert errors("top") == """\
top/pack.yaml:6:12: error[E162]: pack 'top' needs mini >=1.0, but mini is version 0.1.0
   6 | requires: [{id: mini, version: '>=1.0'}]
     |            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  note: mini/pack.yaml:5:10: the version found
  hint: update mini, or widen the range
1 error."""


def test_conflicting_packs_cannot_load_together(packs: Path) -> None:
    mod(packs, "other", "id: other\nname: O\nversion: 1.0.0\nextends: mini\n")
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: other}]\n"
        "conflicts: [{id: other, reason: both change the coin}]\n")
    assert "error[E163]: pack 'top' conflicts with 'other', which is loaded too: both " \
           "change the coin" in errors("top")


def test_a_cycle_is_reported_with_its_path(packs: Path) -> None:
    mod(packs, "a", "id: a\nname: A\nversion: 1.0.0\nextends: mini\nrequires: [{id: b}]\n")
    mod(packs, "b", "id: b\nname: B\nversion: 1.0.0\nextends: mini\nrequires: [{id: a}]\n")
    text = errors("a")
    assert "error[E164]: the packs need each other in a circle: a → b → a" in text


# --- declarations ----------------------------------------------------------------------------

def test_a_mod_adds_symbols_and_decks_with_its_own_prefix(packs: Path) -> None:
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "symbols:\n  - {id: gem, name: Gem, kind: resource, icon: gem.svg, meaning: Shines.}\n"
        "decks: [decks/more.yaml]\n", {
            "gem.svg": (MINI / "icons" / "coin.svg").read_text(),
            "decks/more.yaml": "deck: {id: more, name: More, tags: [main]}\ncards:\n"
                               "  - {id: miner, name: Miner, symbols: 'gem, coin', "
                               "upgrades_from: 'mini:squire'}\n"
                               "  - {id: raid, name: Raid, kind: event}\n"
                               "  - {id: feint, name: Feint, kind: event}\n"})
    t = tables("top")
    miner = next(c for c in t["cards"] if c["id"] == "top:miner")
    assert [s["symbol"] for s in miner["symbols"]] == ["top:gem", "mini:coin"]
    assert miner["origin"] == {"pack": "top", "file": "decks/more.yaml", "line": 3}
    assert {s["id"] for s in t["symbols"]} >= {"mini:coin", "top:gem"}


def test_a_symbol_two_packs_declare_shows_both(packs: Path) -> None:
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "symbols:\n  - {id: coin, name: Coin, kind: resource, icon: c.svg, meaning: Again.}\n",
        {"c.svg": (MINI / "icons" / "coin.svg").read_text()})
    assert errors("top") == """\
top/pack.yaml:7:10: error[E165]: symbol 'coin' is declared by both mini and top
   7 |   - {id: coin, name: Coin, kind: resource, icon: c.svg, meaning: Again.}
     |          ^^^^
  note: mini/pack.yaml:9:10: declared by mini here
  hint: a mod adds new symbols; to change mini's, use a patch or a 'replaces' file
1 error."""


# --- patches ---------------------------------------------------------------------------------

def patched(packs: Path, patch: str, extra: str = "") -> Path:
    return mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n" + PATCH
               + extra, {"patches/p.yaml": patch})


def card(t: dict, card_id: str) -> dict:
    return next(c for c in t["cards"] if c["id"] == card_id)


def test_set_unset_add_and_remove(packs: Path) -> None:
    patched(packs, """\
patches:
  - card: mini:squire
    set: {cost: 2, symbols: "2 coin", guard: shield 3}
    unset: [upgrade]
    add: {tags: [cheap]}
    note: More coin.
  - remove_card: mini:smith
""")
    t = tables("top")
    squire = card(t, "mini:squire")
    assert (squire["cost"], squire["upgrade"], squire["tags"]) == (2, None, ["cheap"])
    assert squire["symbols"][0]["count"] == 2
    assert squire["guard"] == {"symbol": "mini:shield", "value": 3, "per_stacked": 0}
    assert squire["changes"] == [{"pack": "top", "file": "patches/p.yaml", "line": 2,
                                  "set": ["cost", "guard", "symbols"], "unset": ["upgrade"],
                                  "add": ["tags"], "note": "More coin."}]
    assert "mini:smith" not in {c["id"] for c in t["cards"]}
    assert t["decks"][0]["cards"] == ["mini:squire", "mini:knight", "mini:ambush"]


def test_a_patch_on_a_missing_card_is_an_error_unless_optional(packs: Path) -> None:
    patched(packs, "patches:\n  - card: mini:squier\n    set: {cost: 2}\n"
                   "  - card: mini:gone\n    optional: true\n    set: {cost: 9}\n")
    assert errors("top") == """\
top/patches/p.yaml:2:11: error[E166]: patch targets no card 'mini:squier'
   2 |   - card: mini:squier
     |           ^^^^^^^^^^^
  hint: did you mean 'mini:squire'?
1 error."""


def test_an_optional_file_with_a_missing_target_changes_nothing(packs: Path) -> None:
    patched(packs, "optional: true\npatches:\n  - card: mini:squire\n    set: {cost: 5}\n"
                   "  - card: other:thing\n    set: {cost: 2}\n")
    result = compile_pack(Path("top"))
    assert card(result.tables, "mini:squire")["cost"] == 1
    assert [w.code for w in result.warnings] == ["W172"]


def test_a_bad_value_points_at_the_patch(packs: Path) -> None:
    patched(packs, "patches:\n  - card: mini:squire\n    set: {cost: 99}\n")
    assert errors("top").startswith(
        "top/patches/p.yaml:3:17: error[E104]: cost must be at most 9 (it is 99)")


def test_a_bad_notation_points_at_the_patch(packs: Path) -> None:
    patched(packs, "patches:\n  - card: mini:squire\n    set: {symbols: 'coin, swrod'}\n")
    assert errors("top") == """\
top/patches/p.yaml:3:27: error[E131]: unknown symbol 'swrod'
   3 |     set: {symbols: 'coin, swrod'}
     |                           ^^^^^
  hint: did you mean 'sword'?
1 error."""


def test_removing_a_card_others_refer_to_is_an_error(packs: Path) -> None:
    patched(packs, "patches:\n  - remove_card: mini:squire\n")
    assert "error[E167]: cannot remove 'mini:squire': mini:knight still refer to it" \
        in errors("top")


def test_a_patch_must_name_one_target_by_full_id(packs: Path) -> None:
    patched(packs, "patches:\n  - card: squire\n    set: {cost: 2}\n"
                   "  - card: mini:squire\n    deck: mini:one\n")
    text = errors("top")
    assert "error[E168]: write the full id, with its pack: 'top:squire'" in text
    assert "error[E168]: a patch names exactly one of card, deck, remove_card and " \
           "remove_deck (this one names 2)" in text


def test_rival_mods_setting_a_field_differently_are_warned_unless_acknowledged(
        packs: Path) -> None:
    for name, cost in (("red", 2), ("blue", 3)):
        mod(packs, name, f"id: {name}\nname: {name}\nversion: 1.0.0\nextends: mini\n" + PATCH,
            {"patches/p.yaml": f"patches:\n  - card: mini:squire\n    set: {{cost: {cost}}}\n"})
    mod(packs, "both", "id: both\nname: Both\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: red}, {id: blue}]\n")
    result = compile_pack(Path("both"))
    assert [w.code for w in result.warnings] == ["W171"]
    assert result.warnings[0].message == ("blue and red both set cost of mini:squire, "
                                          "differently, and neither loads after the other")
    assert card(result.tables, "mini:squire")["cost"] == 2  # red loads after blue, by id
    manifest = packs / "red" / "pack.yaml"
    manifest.write_text(manifest.read_text() + "acknowledge: [blue]\n")
    assert compile_pack(Path("both")).warnings == []


# --- templates -------------------------------------------------------------------------------

def test_cards_extend_abstract_templates(packs: Path) -> None:
    deck = (MINI / "decks" / "one.yaml").read_text().replace(
        "cards:\n", "cards:\n  - {id: base-unit, abstract: true, kind: unit, cost: 2, "
        "symbols: coin, copies: 2}\n  - {id: guard, name: Guard, extends: base-unit, cost: 3}\n")
    (packs / "mini" / "decks" / "one.yaml").write_text(deck)
    t = tables("mini")
    guard = card(t, "mini:guard")
    assert (guard["cost"], guard["copies"], guard["kind"]) == (3, 2, "unit")
    assert "mini:base-unit" not in {c["id"] for c in t["cards"]}


def test_a_missing_template_is_an_error(packs: Path) -> None:
    deck = (MINI / "decks" / "one.yaml").read_text().replace(
        "cards:\n", "cards:\n  - {id: guard, name: Guard, extends: base}\n")
    (packs / "mini" / "decks" / "one.yaml").write_text(deck)
    assert "error[E139]: card 'guard': no template 'mini:base'" in errors("mini")


# --- the bundled example mod -----------------------------------------------------------------

RENAISSANCE = ROOT / "cards" / "renaissance"


def test_the_example_mod_compiles_with_its_changes() -> None:
    t = compile_pack(RENAISSANCE).tables
    assert [p["id"] for p in t["packs"]] == ["era", "era-renaissance"]
    assert card(t, "era:pyramid")["cost"] == 4
    assert card(t, "era:mongol-horde")["defense"]["value"] == 5
    assert t["rules"]["consts"]["progress_to_win"] == {"op": "int", "value": 12}
    deck = next(d for d in t["decks"] if d["id"] == "era-renaissance:renaissance")
    conflict = sum(card(t, c)["copies"] for c in deck["cards"]
                   if card(t, c)["kind"] == "conflict")
    assert conflict == 10


def test_the_example_mod_diff_lists_exactly_its_changes() -> None:
    result = run("diff", str(ROOT / "cards" / "era"), str(RENAISSANCE), "--json")
    assert result.exit_code == 0, result.output
    sections = json.loads(result.stdout)["sections"]
    cards = sections["cards"]
    assert sorted(c["id"] for c in cards if c["change"] == "changed") == [
        "era:mongol-horde", "era:pyramid"]
    assert [c for c in cards if c["change"] == "removed"] == []
    added = [c["id"] for c in cards if c["change"] == "added"]
    assert added and all(c.startswith("era-renaissance:") for c in added)
    assert [d["id"] for d in sections["decks"]] == ["era-renaissance:renaissance"]
    assert [r["id"] for r in sections["rules"]] == ["constant progress_to_win"]
    assert not any(sections[k] for k in ("symbols", "card kinds", "card fields"))


def test_the_example_mod_plays() -> None:
    result = run("simulate", str(RENAISSANCE), "-n", "4", "--agents", "greedy", "--decks",
                 "renaissance,medieval", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["step_budget_hit"] == 0 and not summary["rules_errors"]


def test_explain_shows_the_mod_that_changed_a_field() -> None:
    result = run("explain", str(RENAISSANCE), "era:pyramid")
    assert result.exit_code == 0, result.output
    assert "set by era-renaissance:patches/rebalance.yaml:4 — At 5 the Pyramid" in result.output


def test_a_new_mod_validates_as_it_is(packs: Path) -> None:
    result = run("new", "mod", "Gold Rush", "--extends", "mini")
    assert result.exit_code == 0, result.output
    assert run("validate", "gold-rush").exit_code == 0
    assert (packs / "gold-rush" / "schemas" / "patch.draft-07.schema.json").is_file()


# --- rules -----------------------------------------------------------------------------------

ERA = ROOT / "cards" / "era"


@pytest.fixture
def era_mods(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DECKLORE_PACK_PATH", str(ERA.parent))
    return tmp_path


def test_a_replaces_file_swaps_a_phase_by_name(era_mods: Path) -> None:
    mod(era_mods, "peace", "id: peace\nname: Peace\nversion: 1.0.0\nextends: era\n"
        "replaces: [rules/peace.rules]\n",
        {"rules/peace.rules": 'phase conflict "No conflict":\n  log "Peace reigns"\n'})
    t = tables("peace")
    turn = t["rules"]["flow"][1]["children"][0]
    phases = [(c["name"], c["label"]) for c in turn["children"]]
    assert phases[-1] == ("conflict", "No conflict")
    assert len(phases) == 6
    assert turn["children"][-1]["body"][0]["at"] == "rules/peace.rules:2"
    result = run("simulate", "peace", "-n", "2", "--agents", "greedy", "--json")
    assert json.loads(result.stdout)["reasons"] == {"Reached the progress goal": 2}


def test_a_replacement_that_names_nothing_is_an_error(era_mods: Path) -> None:
    mod(era_mods, "typo", "id: typo\nname: Typo\nversion: 1.0.0\nextends: era\n"
        "replaces: [rules/short.rules]\n", {"rules/short.rules": "const progress_to_wn = 12\n"})
    assert errors("typo") == """\
typo/rules/short.rules:1:1: error[R160]: replaces nothing: no constant 'progress_to_wn' in the packs below
   1 | const progress_to_wn = 12
     | ^
  hint: did you mean 'progress_to_win'?
1 error."""


def test_adding_a_name_that_exists_shows_both(era_mods: Path) -> None:
    mod(era_mods, "twice", "id: twice\nname: Twice\nversion: 1.0.0\nextends: era\n"
        "rules: [rules/more.rules]\n", {"rules/more.rules": "const progress_to_win = 12\n"})
    text = errors("twice")
    assert "twice/rules/more.rules:1:1: error[R100]: 'progress_to_win' is already declared" \
        in text
    assert "rules/state.rules:" in text and "declared here" in text


# --- versions: renamed ids -------------------------------------------------------------------

def test_a_saved_game_loads_after_a_card_is_renamed(tmp_path: Path) -> None:
    from decklore.runtime import Game, loads_tables
    from decklore.runtime.state import StateError

    pack = tmp_path / "era"
    shutil.copytree(ERA, pack)
    before = loads_tables(compile_pack(pack).data)
    game = Game.new(before, 2, 5, ["era:medieval", "era:ancient"])
    game.apply(0)
    saved = game.to_json()
    deck = pack / "decks" / "medieval.yaml"
    deck.write_text(deck.read_text().replace("id: hamlet\n", "id: village\n"))
    manifest = pack / "pack.yaml"
    text = manifest.read_text()
    after = loads_tables(compile_pack(pack).data)
    with pytest.raises(StateError, match="this game has card 'era:hamlet', which the pack no "
                                         "longer has; declare its new id under 'renamed'"):
        Game.from_json(after, saved)
    manifest.write_text(text + "renamed: {hamlet: village}\n")
    after = loads_tables(compile_pack(pack).data)
    assert after.raw["renamed"] == {"era:hamlet": "era:village"}
    resumed = Game.from_json(after, saved)
    assert "era:village" in {c["card"] for c in resumed.state.cards}
    resumed.apply(0)
    rules = pack / "rules" / "state.rules"
    rules.write_text(rules.read_text().replace("const progress_to_win = 15",
                                               "const progress_to_win = 14"))
    changed = loads_tables(compile_pack(pack).data)
    with pytest.raises(StateError, match="saved with other rules"):
        Game.from_json(changed, saved)


# --- the exact text of the remaining codes ---------------------------------------------------

def warnings_of(pack: str) -> str:
    return render_all(compile_pack(Path(pack)).warnings, SourceCache())


def test_e160_a_pack_that_needs_itself(packs: Path) -> None:
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: top}]\n")
    assert errors("top") == """\
top/pack.yaml:6:12: error[E160]: pack 'top' cannot need itself
   6 | requires: [{id: top}]
     |            ^^^^^^^^^
  hint: remove this entry
1 error."""


def test_w170_two_folders_with_one_pack(packs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = packs / "elsewhere"
    other.mkdir()
    shutil.copytree(MINI, other / "mini-copy")
    monkeypatch.setenv("DECKLORE_PACK_PATH", str(other))
    mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n")
    assert warnings_of("top") == """\
top/pack.yaml:5:10: warning[W170]: two folders hold pack 'mini'; using mini
   5 | extends: mini
     |          ^^^^
  hint: the other is elsewhere/mini-copy: remove one, or change the order of DECKLORE_PACK_PATH
1 warning."""


def test_w171_rival_mods_text(packs: Path) -> None:
    for name, cost in (("red", 2), ("blue", 3)):
        mod(packs, name, f"id: {name}\nname: {name}\nversion: 1.0.0\nextends: mini\n" + PATCH,
            {"patches/p.yaml": f"patches:\n  - card: mini:squire\n    set: {{cost: {cost}}}\n"})
    mod(packs, "both", "id: both\nname: Both\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: red}, {id: blue}]\n")
    assert warnings_of("both") == """\
red/patches/p.yaml:3:17: warning[W171]: blue and red both set cost of mini:squire, differently, and neither loads after the other
   3 |     set: {cost: 2}
     |                 ^
  note: blue/patches/p.yaml:3:17: blue sets it here
  hint: red wins by pack id; if that is meant, add 'blue' to red's acknowledge list, or order them with load_after
1 warning."""


def test_w172_optional_patch_file_text(packs: Path) -> None:
    patched(packs, "optional: true\npatches:\n  - card: other:thing\n    set: {cost: 2}\n")
    assert warnings_of("top") == """\
top/patches/p.yaml:3:11: warning[W172]: patch file skipped: 'other:thing' is not loaded
   3 |   - card: other:thing
     |           ^^^^^^^^^^^
  hint: the file is optional, so it changes nothing when one of its targets is missing
1 warning."""


def test_the_changelog_sheet_of_the_example_mod(tmp_path: Path) -> None:
    out = tmp_path / "changelog.html"
    result = run("diff", str(ROOT / "cards" / "era"), str(RENAISSANCE), "--format", "html",
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert "ERA: Renaissance" in html and "from era 1.0.0 to era-renaissance 1.0.0" in html
    assert "<b>Pyramid</b>" in html and "At 5 the Pyramid was rarely worth" in html
    assert "military 6" in html and "military 5" in html


def test_a_log_replays_after_a_card_is_renamed(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ERA, tmp_path / "era")
    played = run("play", "era", "--players", "greedy,greedy", "--seed", "3", "--decks",
                 "medieval,ancient", "--log", "game.log")
    assert played.exit_code == 0, played.output
    deck = tmp_path / "era" / "decks" / "medieval.yaml"
    deck.write_text(deck.read_text().replace("id: hamlet\n", "id: village\n"))
    manifest = tmp_path / "era" / "pack.yaml"
    manifest.write_text(manifest.read_text() + "renamed: {hamlet: village}\n")
    result = CliRunner().invoke(cli, ["replay", "game.log", "--pack", "era"])
    assert result.exit_code == 0, result.output
    assert "reproduced:" in result.output


def test_the_example_mod_prints(tmp_path: Path) -> None:
    out = tmp_path / "list.md"
    result = run("print", str(RENAISSANCE), "--sheet", "list", "--format", "md", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "Printing Press" in text and "Hamlet" in text  # the mod's cards and the base's



# --- formats: migrate ----------------------------------------------------------------------------

def test_a_format_1_pack_cannot_use_mod_keys_until_migrated(packs: Path) -> None:
    top = mod(packs, "top", "id: top\nname: T\nversion: 1.0.0\nextends: mini\n")
    manifest = top / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("format: 2", "format: 1  # old"))
    assert errors("top") == """\
top/pack.yaml:5:1: error[E129]: 'extends' needs pack format 2, and this pack says format 1
   5 | extends: mini
     | ^^^^^^^
  hint: run 'decklore migrate PACK' to move the pack to format 2
1 error."""
    check = run("migrate", "top", "--check")
    assert (check.exit_code, check.output) == (1, "would change pack.yaml: format 1 → 2\n")
    result = run("migrate", "top")
    assert result.exit_code == 0, result.output
    assert result.output == "changed pack.yaml: format 1 → 2\ntop: migrated, and it validates\n"
    assert manifest.read_text().splitlines()[0] == "format: 2  # old"
    assert run("migrate", "top").output == "top: already in the current format\n"


def test_format_1_packs_still_compile_unchanged(packs: Path) -> None:
    assert "\nformat: 1\n" in (packs / "mini" / "pack.yaml").read_text()
    assert compile_pack(Path("mini")).tables["pack"]["id"] == "mini"


def test_migrate_refuses_a_format_it_cannot_start_from(packs: Path) -> None:
    manifest = packs / "mini" / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("format: 1", "format: 0"))
    result = run("migrate", "mini")
    assert (result.exit_code, result.output) == (
        1, "error: pack.yaml says format 0; formats start at 1\n")


def test_a_mod_that_only_replaces_rules_is_checked(era_mods: Path) -> None:
    mod(era_mods, "only", "id: only\nname: Only\nversion: 1.0.0\nextends: era\n"
        "replaces: [rules/typo.rules]\n", {"rules/typo.rules": "const progress_to_wn = 12\n"})
    assert "error[R160]: replaces nothing" in errors("only")


def test_cached_warnings_keep_their_notes(packs: Path, tmp_path: Path) -> None:
    from decklore.compiler import TableCache

    for name, cost in (("red", 2), ("blue", 3)):
        mod(packs, name, f"id: {name}\nname: {name}\nversion: 1.0.0\nextends: mini\n" + PATCH,
            {"patches/p.yaml": f"patches:\n  - card: mini:squire\n    set: {{cost: {cost}}}\n"})
    mod(packs, "both", "id: both\nname: Both\nversion: 1.0.0\nextends: mini\n"
        "requires: [{id: red}, {id: blue}]\n")
    cache = TableCache(tmp_path / "cache")
    fresh = compile_pack(Path("both"), cache=cache)
    cached = compile_pack(Path("both"), cache=cache)
    assert cached.from_cache and cached.warnings[0].notes
    assert render_all(cached.warnings, SourceCache()) == render_all(fresh.warnings,
                                                                    SourceCache())
