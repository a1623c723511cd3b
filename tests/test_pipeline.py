"""The facade end to end: mini pack in, canonical sealed tables out, cached and atomic."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from decklore import cli
from decklore.compiler import PackError, TableCache, canonical_bytes, compile_pack
from decklore.runtime import Card, TablesError, load_tables, loads_tables
from decklore.schema import load_schema, registry

Files = dict[str, "str | bytes | None"]


def test_mini_pack_compiles(mini_pack: Path) -> None:
    result = compile_pack(mini_pack)
    assert result.warnings == []
    assert not result.from_cache
    tables = result.tables
    assert tables["pack"]["id"] == "mini"
    assert [d["id"] for d in tables["decks"]] == ["mini:one"]
    assert [c["id"] for c in tables["cards"]] == ["mini:squire", "mini:knight", "mini:smith",
                                                  "mini:ambush"]
    assert result.summary == {"id": "mini", "name": "Mini", "version": "0.1.0", "decks": 1,
                              "cards": 4, "copies": 7}


def test_card_rows_resolve_notation_defaults_and_references(mini_pack: Path) -> None:
    cards = {c["id"]: c for c in compile_pack(mini_pack).tables["cards"]}
    squire, knight, smith, ambush = (cards[f"mini:{n}"]
                                     for n in ("squire", "knight", "smith", "ambush"))
    assert squire["symbols"] == [
        {"symbol": "mini:coin", "count": 1, "argument": None, "key": False, "lock": None,
         "to": "self", "per_stacked": False},
        {"symbol": "mini:sword", "count": 1, "argument": None, "key": False, "lock": None,
         "to": "self", "per_stacked": True},
    ]
    assert squire["guard"] == {"symbol": "mini:shield", "value": 2, "per_stacked": 1}
    assert squire["origin"] == {"pack": "mini", "file": "decks/one.yaml", "line": 6}
    assert knight["upgrades_from"] == "mini:squire"
    assert knight["symbols"][1]["lock"] == "A"
    assert knight["needs"][0]["count"] == 2
    assert smith["kind"] == "unit"  # the first declared kind is the default
    assert smith["era"] == "late" and knight["era"] == "early"  # declared default applied
    assert smith["symbols"][0] == {"symbol": "mini:key", "count": 1, "argument": "A",
                                   "key": True, "lock": None, "to": "opponent",
                                   "per_stacked": False}
    assert ambush["symbols"][0]["argument"] == "mini:coin"
    assert ambush["symbols"][0]["to"] == "opponent"  # the block symbol's default receiver
    assert ambush["cost"] == 0 and ambush["gate"] is None and ambush["elite"] is False


def test_compiling_twice_gives_identical_bytes(
    mini_pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = compile_pack(mini_pack).data
    monkeypatch.chdir(mini_pack.parent)
    assert compile_pack("mini").data == first  # the folder's name in messages is not in tables
    assert compile_pack("./mini/").data == first


def test_tables_are_canonical_json(mini_pack: Path) -> None:
    data = compile_pack(mini_pack).data
    assert data.endswith(b"}\n") and data.count(b"\n") == 1
    assert canonical_bytes(json.loads(data)) == data


def test_content_hash_verifies(mini_pack: Path) -> None:
    result = compile_pack(mini_pack)
    tables = loads_tables(result.data)
    assert tables.content_hash == result.tables["content_hash"]
    assert tables.content_hash.startswith("sha256:")
    assert tables.format_version == 1
    assert tables.pack["id"] == "mini"


def _tampered(data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    raw = json.loads(data)
    change(raw)
    return canonical_bytes(raw)


def test_tampered_tables_are_refused(mini_pack: Path) -> None:
    data = compile_pack(mini_pack).data

    def rename(raw: dict[str, Any]) -> None:
        raw["cards"][0]["name"] = "Cheater"

    tampered = _tampered(data, rename)
    with pytest.raises(TablesError, match="content hash does not match"):
        loads_tables(tampered)
    assert loads_tables(tampered, verify=False).card("mini:squire").name == "Cheater"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json", "invalid JSON"),
        (b"[1, 2]", "no format_version"),
        (b'{"format_version": 99}', "format version 99"),
    ],
)
def test_non_tables_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(TablesError, match=message):
        loads_tables(data)


def test_load_tables_from_a_file(mini_pack: Path, tmp_path: Path) -> None:
    path = tmp_path / "tables.json"
    path.write_bytes(compile_pack(mini_pack).data)
    assert load_tables(path).card("mini:knight").origin == "decks/one.yaml:15"
    with pytest.raises(TablesError, match="cannot read tables"):
        load_tables(tmp_path / "missing.json")


def test_runtime_card_views_are_read_only(mini_pack: Path) -> None:
    tables = loads_tables(compile_pack(mini_pack).data)
    card = tables.card("mini:squire")
    assert isinstance(card, Card)
    assert (card.id, card.name, card.origin) == ("mini:squire", "Squire", "decks/one.yaml:6")
    with pytest.raises(TypeError):
        card["name"] = "Changed"  # type: ignore[index]
    with pytest.raises(TypeError):
        card["symbols"][0]["count"] = 5
    with pytest.raises(AttributeError):
        card["symbols"].append({})
    with pytest.raises(TypeError):
        card["guard"]["value"] = 9
    with pytest.raises(AttributeError):
        card.extra = 1  # type: ignore[attr-defined]
    assert card["name"] == "Squire"


def test_runtime_lookups(mini_pack: Path) -> None:
    tables = loads_tables(compile_pack(mini_pack).data)
    assert [c.id for c in tables.deck_cards("mini:one")] == [c.id for c in tables.cards]
    assert len(tables.symbols) == 5
    with pytest.raises(KeyError, match="no card 'mini:nobody' in pack 'mini'"):
        tables.card("mini:nobody")
    with pytest.raises(KeyError, match="no deck"):
        tables.deck_cards("mini:two")


def test_tables_validate_against_the_tables_schema(mini_pack: Path) -> None:
    schema = load_schema("tables")
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, registry=registry())
    assert list(validator.iter_errors(compile_pack(mini_pack).tables)) == []
    with_rules = compile_pack(Path(__file__).parent / "packs" / "other").tables
    assert with_rules["rules"] is not None
    assert list(validator.iter_errors(with_rules)) == []


def _no_floats(value: Any) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(_no_floats(v) for v in value.values())
    if isinstance(value, list):
        return all(_no_floats(v) for v in value)
    return True


def test_mini_tables_hold_no_floats(mini_pack: Path) -> None:
    assert _no_floats(compile_pack(mini_pack).tables)


def test_whole_number_written_as_float_is_refused_or_made_int(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    deck = mini_text("decks/one.yaml").replace("    cost: 3\n", "    cost: 2.0\n")
    pack = write_pack(tmp_path, {"decks/one.yaml": deck.replace("copies: 2", "copies: 2.0")})
    try:
        result = compile_pack(pack)
    except PackError as error:
        assert {d.code for d in error.diagnostics} == {"E101"}
        return
    assert _no_floats(result.tables)


# --- cache ----------------------------------------------------------------------------------


def test_second_compile_comes_from_the_cache(mini_pack: Path, tmp_path: Path) -> None:
    cache = TableCache(tmp_path / "cache")
    first = compile_pack(mini_pack, cache=cache)
    second = compile_pack(mini_pack, cache=cache)
    assert (first.from_cache, second.from_cache) == (False, True)
    assert second.data == first.data
    assert second.summary == first.summary
    assert second.tables == first.tables


def test_changing_one_file_misses_the_cache(mini_pack: Path, tmp_path: Path) -> None:
    cache = TableCache(tmp_path / "cache")
    first = compile_pack(mini_pack, cache=cache)
    deck = mini_pack / "decks" / "one.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Deck One", "Deck Uno"),
                    encoding="utf-8")
    second = compile_pack(mini_pack, cache=cache)
    assert not second.from_cache
    assert second.data != first.data
    assert second.tables["decks"][0]["name"] == "Deck Uno"
    assert compile_pack(mini_pack, cache=cache).from_cache


def test_an_added_file_misses_the_cache(mini_pack: Path, tmp_path: Path) -> None:
    cache = TableCache(tmp_path / "cache")
    compile_pack(mini_pack, cache=cache)
    (mini_pack / "notes.md").write_text("# notes\n", encoding="utf-8")
    assert not compile_pack(mini_pack, cache=cache).from_cache


def test_cached_warnings_equal_fresh_ones(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    deck = mini_text("decks/one.yaml").replace("key(A)", "key(B)")
    pack = write_pack(tmp_path, {"decks/one.yaml": deck})
    cache = TableCache(tmp_path / "cache")
    fresh = compile_pack(pack, cache=cache)
    cached = compile_pack(pack, cache=cache)
    assert cached.from_cache
    assert [w.code for w in fresh.warnings] == ["W160", "W161"]
    assert cached.warnings == fresh.warnings
    with pytest.raises(PackError) as info:
        compile_pack(pack, cache=cache, warnings_as_errors=True)
    assert [(d.severity.value, d.code) for d in info.value.diagnostics] == [
        ("error", "W160"), ("error", "W161")]


def test_cached_warnings_name_the_path_given_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str],
) -> None:
    deck = mini_text("decks/one.yaml").replace("key(A)", "key(B)")
    pack = write_pack(tmp_path, {"decks/one.yaml": deck})
    cache = TableCache(tmp_path / "cache")
    monkeypatch.chdir(tmp_path)
    compile_pack("mini", cache=cache)
    again = compile_pack(pack, cache=cache)  # the same pack, named by its absolute path
    assert again.warnings[0].span.file == f"{pack.as_posix()}/decks/one.yaml"


def test_damaged_cache_entry_is_ignored(mini_pack: Path, tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    cache = TableCache(cache_dir)
    first = compile_pack(mini_pack, cache=cache)
    for entry in cache_dir.iterdir():
        if entry.name.endswith(".meta.json"):
            entry.write_text("{not json", encoding="utf-8")
    again = compile_pack(mini_pack, cache=cache)
    assert not again.from_cache
    assert again.data == first.data
    assert compile_pack(mini_pack, cache=cache).from_cache


def test_broken_pack_is_not_cached(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path]
) -> None:
    pack = write_pack(tmp_path, {"decks/one.yaml": "deck: {id: one}\n"})
    cache_dir = tmp_path / "cache"
    for _ in range(2):
        with pytest.raises(PackError):
            compile_pack(pack, cache=TableCache(cache_dir))
    assert not cache_dir.exists() or list(cache_dir.iterdir()) == []


# --- atomic output --------------------------------------------------------------------------


def test_compile_of_a_broken_pack_leaves_the_old_output_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_pack: Callable[[Path, Files], Path]
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out.json"
    runner = CliRunner()
    ok = runner.invoke(cli, ["compile", str(write_pack(tmp_path, {})), "-o", str(out),
                             "--no-cache"])
    assert ok.exit_code == 0, ok.output
    before = out.read_bytes()
    write_pack(tmp_path, {"decks/one.yaml": "deck: {id: one}\n"})
    bad = runner.invoke(cli, ["compile", "mini", "-o", str(out), "--no-cache"])
    assert bad.exit_code == 1
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini", "out.json"]  # no temp files


def test_written_tables_are_ordinary_files(tmp_path: Path) -> None:
    import os

    from decklore.compiler import write_atomic

    target = tmp_path / "out" / "tables.json"
    write_atomic(target, b"{}\n")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    assert [p.name for p in target.parent.iterdir()] == ["tables.json"]  # no temp file left


def test_a_compile_pauses_the_cycle_collector_and_restores_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector is off while a pack compiles, back on after, even after errors."""
    import gc

    from decklore.compiler import pipeline

    seen: list[bool] = []
    real = pipeline.build_tables

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "build_tables", spy)
    era = Path(__file__).resolve().parent.parent / "cards" / "era"
    compile_pack(era)
    assert seen == [False] and gc.isenabled()
    with pytest.raises(PackError):
        compile_pack(tmp_path)  # no pack.yaml
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that paused it keeps it paused
        compile_pack(era)
        assert not gc.isenabled()
    finally:
        gc.enable()
