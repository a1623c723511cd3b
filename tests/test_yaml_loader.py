"""The strict YAML loader: YAML 1.2 typing, positions, and every refusal with its code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from decklore.compiler.diagnostics import Diagnostic, Diagnostics, Span
from decklore.compiler.load.yaml_loader import (
    MAX_DEPTH,
    LocatedDict,
    LocatedList,
    load_file,
    load_text,
    span_at,
)


def load(text: str) -> tuple[Any, list[Diagnostic]]:
    diags = Diagnostics()
    data = load_text(text, "f.yaml", diags)
    return data, diags.items


def load_ok(text: str) -> Any:
    data, found = load(text)
    assert found == [], found
    return data


def codes(found: list[Diagnostic]) -> list[str]:
    return [d.code for d in found]


# --- YAML 1.2 core-schema typing ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The YAML 1.1 booleans stay text.
        ("on", "on"), ("off", "off"), ("yes", "yes"), ("no", "no"), ("y", "y"), ("n", "n"),
        ("On", "On"), ("NO", "NO"),
        # Real booleans.
        ("true", True), ("false", False), ("True", True), ("FALSE", False),
        # Leading zeros are decimal, not octal.
        ("012", 12), ("09", 9), ("-7", -7), ("+7", 7), ("0", 0),
        # Sexagesimals and dates stay text.
        ("1:30", "1:30"), ("2024-01-01", "2024-01-01"), ("2024-01-01T10:00:00Z",
                                                         "2024-01-01T10:00:00Z"),
        # 1.2 octal and hex; 1.1 binary and underscores stay text.
        ("0x1F", 31), ("0xff", 255), ("0o17", 15), ("0b11", "0b11"), ("1_000", "1_000"),
        ("-0x1F", "-0x1F"),
        # Floats.
        ("1.5", 1.5), (".5", 0.5), ("1e3", 1000.0), ("-2.5e-1", -0.25),
        # Nulls.
        ("~", None), ("null", None), ("Null", None), ("NULL", None), ("", None),
        # Ordinary words.
        ("hamlet", "hamlet"), ("-x", "-x"), ("1.2.3", "1.2.3"), ("12abc", "12abc"),
    ],
)  # fmt: skip
def test_plain_scalars_are_typed_by_the_yaml_1_2_core_schema(text: str, expected: Any) -> None:
    data = load_ok(f"key: {text}\n")
    assert data["key"] == expected
    assert type(data["key"]) is type(expected)


def test_infinities() -> None:
    data = load_ok("a: .inf\nb: -.Inf\nc: +.INF\n")
    assert data == {"a": float("inf"), "b": float("-inf"), "c": float("inf")}


def test_nan_is_a_float() -> None:
    value = load_ok("a: .nan\n")["a"]
    assert isinstance(value, float) and value != value


@pytest.mark.parametrize("text", ['"12"', "'12'", '"true"', "'~'", '"0x1F"', "|\n  12\n",
                                  ">-\n  no\n"])
def test_quoted_and_block_scalars_are_always_text(text: str) -> None:
    value = load_ok(f"key: {text}")["key"]
    assert isinstance(value, str)
    assert value.strip() == text.strip("'\"|>-\n ").strip()


def test_empty_text_and_comments_load_as_none() -> None:
    assert load_ok("") is None
    assert load_ok("# only a comment\n") is None


def test_explicit_document_markers_are_fine() -> None:
    assert load_ok("---\na: 1\n...\n") == {"a": 1}


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    diags = Diagnostics()
    assert load_file(path, "bom.yaml", diags).data == {"a": 1}
    assert diags.items == []


def test_keys_are_always_text() -> None:
    data = load_ok("1: one\ntrue: yes\nnull: nothing\n")
    assert data == {"1": "one", "true": "yes", "null": "nothing"}


# --- positions ------------------------------------------------------------------------------

POSITIONS = """\
name: Mini
list:
  - a
  - {b: 1}
  - - x
nested:
  deep:
    k: "v"
"""


def test_key_and_value_spans() -> None:
    data = load_ok(POSITIONS)
    assert isinstance(data, LocatedDict)
    assert data.key_span("name") == Span("f.yaml", 1, 1, 1, 5)
    assert data.value_span("name") == Span("f.yaml", 1, 7, 1, 11)
    assert data.key_span("list") == Span("f.yaml", 2, 1, 2, 5)
    assert data.key_span("nested") == Span("f.yaml", 6, 1, 6, 7)
    deep = data["nested"]["deep"]
    assert deep.key_span("k") == Span("f.yaml", 8, 5, 8, 6)
    assert deep.value_span("k") == Span("f.yaml", 8, 8, 8, 11)  # the quotes are included


def test_item_spans() -> None:
    items = load_ok(POSITIONS)["list"]
    assert isinstance(items, LocatedList)
    assert items.item_span(0) == Span("f.yaml", 3, 5, 3, 6)
    assert items.item_span(1) == Span("f.yaml", 4, 5, 4, 11)
    assert (items.item_span(2).line, items.item_span(2).column) == (5, 5)
    assert items.span.line == 3 and items.span.column == 3


def test_container_spans_start_at_their_first_token() -> None:
    data = load_ok(POSITIONS)
    assert (data.span.line, data.span.column) == (1, 1)
    inner = data["list"][1]
    assert isinstance(inner, LocatedDict)
    assert (inner.span.line, inner.span.column) == (4, 5)
    assert inner.key_span("b") == Span("f.yaml", 4, 6, 4, 7)
    assert inner.value_span("b") == Span("f.yaml", 4, 9, 4, 10)


def test_unknown_keys_and_indexes_fall_back_to_the_container() -> None:
    data = load_ok(POSITIONS)
    assert data.key_span("missing") == data.span
    assert data.value_span("missing") == data.span
    assert data["list"].item_span(99) == data["list"].span


def test_span_at_follows_a_json_path() -> None:
    data = load_ok(POSITIONS)
    assert span_at(data, ["list", 1, "b"]) == Span("f.yaml", 4, 9, 4, 10)
    assert span_at(data, ["list", 2, 0]) == Span("f.yaml", 5, 7, 5, 8)
    # A path that leaves the data stops at the deepest known place.
    assert span_at(data, ["nested", "deep", "nope"]) == data["nested"]["deep"].span
    assert span_at(data, []) == data.span
    assert span_at({"plain": "dict"}, ["plain"]) is None


# --- refusals -------------------------------------------------------------------------------


def test_duplicate_key_is_an_error_with_a_note_on_the_first() -> None:
    data, found = load("a: 1\nb: 2\na: 3\n")
    (dup,) = found
    assert dup.code == "E015"
    assert dup.message == "duplicate key 'a'"
    assert dup.span == Span("f.yaml", 3, 1, 3, 2)
    assert dup.notes == ((Span("f.yaml", 1, 1, 1, 2), "first defined here"),)
    assert dup.hint == "remove one of the two; YAML would silently keep the last"
    assert data["a"] == 1  # the first stays, unlike YAML's last-wins


def test_duplicate_keys_in_nested_and_flow_mappings() -> None:
    _, found = load("outer:\n  x: 1\n  x: 2\nflow: {y: 1, y: 2}\n")
    assert [(d.code, d.span.line, d.span.column) for d in found] == [
        ("E015", 3, 3), ("E015", 4, 14)]


def test_anchor_and_alias_are_refused() -> None:
    data, found = load("base: &b {cost: 1}\ncopy: *b\n")
    assert [(d.code, d.message) for d in found] == [
        ("E016", "anchors ('&b') are not allowed in packs"),
        ("E016", "aliases ('*b') are not allowed in packs"),
    ]
    assert found[0].span.line == 1 and found[1].span == Span("f.yaml", 2, 7, 2, 9)
    assert data["copy"] is None  # never expanded


def test_merge_keys_are_refused_too() -> None:
    _, found = load("base: &b {cost: 1}\ncard:\n  <<: *b\n")
    assert codes(found) == ["E016", "E016"]


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("a: !!str 12\n", "!!str"),
        ("a: !custom x\n", "!custom"),
        ("a: !!python/object:os.system x\n", "!!python/object:os.system"),
        ("a: !!map {b: 1}\n", "!!map"),
        ("a: !!seq [1]\n", "!!seq"),
    ],
)
def test_tags_are_refused(text: str, tag: str) -> None:
    _, found = load(text)
    (d,) = found
    assert d.code == "E017"
    assert d.message == f"YAML tags ('{tag}') are not allowed in packs"
    assert (d.span.line, d.span.column) == (1, 4)


def test_non_specific_tag_is_allowed() -> None:
    assert load_ok("a: ! x\n") == {"a": "x"}


def test_non_specific_tag_makes_text() -> None:
    assert load_ok("a: ! 12\n") == {"a": "12"}


@pytest.mark.parametrize(
    "text",
    ["a: 1234567890123456789\n", "a: -1234567890123456789\n", "a: 0x1234567890abcdef123\n",
     "a: 0o1234567012345670123\n"],
)
def test_too_large_numbers_are_refused(text: str) -> None:
    data, found = load(text)
    (d,) = found
    assert d.code == "E014"
    number = text[3:-1]
    assert d.message == f"number '{number}' is too large (more than 18 digits)"
    assert d.span == Span("f.yaml", 1, 4, 1, 4 + len(number))
    assert data == {"a": 0}


def test_eighteen_digits_are_fine() -> None:
    assert load_ok("a: 999999999999999999\n") == {"a": 999_999_999_999_999_999}
    assert load_ok("a: '1234567890123456789'\n") == {"a": "1234567890123456789"}


def test_a_second_document_is_refused() -> None:
    _, found = load("a: 1\n---\nb: 2\n")
    assert codes(found) == ["E011"]
    assert found[0].span == Span("f.yaml", 2, 1, 2, 4)
    assert found[0].message == "a pack file holds one YAML document, this is a second"


def test_a_second_document_does_not_replace_the_first() -> None:
    data, found = load("a: 1\n---\nb: 2\n")
    assert codes(found) == ["E011"]
    assert data == {"a": 1}


@pytest.mark.parametrize(
    ("text", "line", "column", "problem"),
    [
        ("name: Deck: One\n", 1, 11, "mapping values are not allowed in this context"),
        ("a:\n  b: 1\n c: 2\n", 3, 2, "did not find expected key"),
        ("a: [1, 2\n", 2, 1, "did not find expected ',' or ']'"),
        ('a: "open\n', 2, 1, "found unexpected end of stream"),
        ("a: b\n\tc: d\n", 2, 1, "found a tab character that violates indentation"),
        ("- a\nb: 1\n", 2, 1, "did not find expected '-' indicator"),
    ],
)
def test_syntax_errors_have_line_and_column(text: str, line: int, column: int,
                                            problem: str) -> None:
    data, found = load(text)
    assert data is None
    (d,) = found
    assert d.code == "E010"
    assert (d.span.line, d.span.column) == (line, column)
    assert d.message == f"YAML syntax error: {problem}"
    assert d.hint == "check indentation, colons and quotes around this place"


def test_control_characters_are_a_syntax_error() -> None:
    _, found = load("a: b\x07\n")
    assert codes(found) == ["E010"]


def test_control_character_error_points_at_the_character() -> None:
    _, found = load("a: 1\nb: x\x07\n")
    (d,) = found
    assert (d.span.line, d.span.column) == (2, 5)
    assert "<unicode string>" not in d.message and "\n" not in d.message


def test_complex_keys_are_refused() -> None:
    _, found = load("? [a, b]\n: c\n")
    (d,) = found
    assert d.code == "E012"
    assert d.message == "a key must be a plain name, not a mapping or a list"
    assert d.span == Span("f.yaml", 1, 3, 1, 9)


@pytest.mark.parametrize("depth", [MAX_DEPTH, MAX_DEPTH + 1])
def test_flow_nesting_limit(depth: int) -> None:
    data, found = load("[" * depth + "]" * depth + "\n")
    if depth <= MAX_DEPTH:
        assert found == [] and isinstance(data, list)
    else:
        (d,) = found
        assert d.code == "E013"
        assert d.message == "nesting is too deep (more than 64 levels)"
        assert (d.span.line, d.span.column) == (1, depth)
        assert data is None


def test_block_nesting_limit() -> None:
    text = "".join(" " * i + "k:\n" for i in range(MAX_DEPTH + 1)) + " " * 80 + "v\n"
    data, found = load(text)
    assert codes(found) == ["E013"]
    assert (found[0].span.line, found[0].span.column) == (MAX_DEPTH + 1, MAX_DEPTH + 1)
    assert data is None


def test_very_deep_nesting_is_refused() -> None:
    # libyaml may stop this itself (newer releases cap depth); either way it is E013.
    _, found = load("a: " + "[" * 200_000)
    assert codes(found) == ["E013"]


def test_billion_laughs_is_refused() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    data, found = load("\n".join(lines) + "\n")  # returns: aliases are never expanded
    assert set(codes(found)) == {"E016"}
    assert len(found) == 9 + 8 * 9  # every anchor and every alias, and nothing expanded
    assert data["i"] == [None] * 9


# --- reading files --------------------------------------------------------------------------


def test_oversized_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("decklore.compiler.load.yaml_loader.MAX_FILE_BYTES", 10)
    path = tmp_path / "big.yaml"
    path.write_text("a: 123456789\n", encoding="utf-8")
    diags = Diagnostics()
    loaded = load_file(path, "big.yaml", diags)
    assert loaded.data is None
    (d,) = diags.items
    assert d.code == "E002"
    assert d.message == "file is too large (13 bytes; the limit is 10)"
    assert d.span == Span("big.yaml", 1, 1)


def test_non_utf8_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: Café\n".encode("latin-1"))
    diags = Diagnostics()
    assert load_file(path, "latin1.yaml", diags).data is None
    (d,) = diags.items
    assert (d.code, d.message) == ("E003", "file is not valid UTF-8 (byte 9)")
    assert d.hint == "save the file with UTF-8 encoding"


def test_missing_file_cannot_be_read(tmp_path: Path) -> None:
    diags = Diagnostics()
    loaded = load_file(tmp_path / "nope.yaml", "nope.yaml", diags)
    assert loaded.data is None and loaded.text == ""
    (d,) = diags.items
    assert (d.code, d.message) == ("E001", "cannot read file: No such file or directory")


def test_loaded_file_keeps_its_text(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    diags = Diagnostics()
    loaded = load_file(path, "shown/ok.yaml", diags)
    assert (loaded.path, loaded.data, loaded.text) == ("shown/ok.yaml", {"a": 1}, "a: 1\n")
    assert loaded.data.file == "shown/ok.yaml"


@pytest.mark.parametrize(("text", "flagged"), [
    ("a: 2.0\n", True), ("a: [1, 0.0]\n", True), ("a: 1e3\n", True),
    ("a: 0.45\n", False), ("a: .inf\n", False), ("a: .nan\n", False), ("a: '2.0'\n", False),
    ("a: 2\n", False),
])
def test_only_whole_floats_are_flagged(tmp_path: Path, text: str, flagged: bool) -> None:
    """Only a float with a whole value makes a file skip the fast schema gate (the gate
    would take it for an integer); ``seat_win_rate: [0.45, 0.55]`` keeps it."""
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_file(path, "f.yaml", Diagnostics()).has_floats is flagged
