"""Rules lowered to IR: small programs compiled against the mini pack, compared with golden IR.

Each ``tests/golden/rules/<case>.rules`` is added to a copy of the mini pack and compiled; the
``rules`` table is compared with ``<case>.ir.json`` (sorted keys, one space of indent, so
diffs are readable).  Run ``pytest --update-golden`` to rewrite them, then review the diff.
The ``other`` pack, which uses every construct, must compile with no diagnostic at all.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import compile_pack

TESTS = Path(__file__).resolve().parent
MINI = TESTS / "packs" / "mini"
OTHER = TESTS / "packs" / "other"
GOLDEN = TESTS / "golden" / "rules"
CASES = sorted(path.stem for path in GOLDEN.glob("*.rules"))


def _canonical(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _compile_rules(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    root = tmp_path / case
    pack = root / "mini"
    shutil.copytree(MINI, pack)
    (pack / "rules").mkdir()
    shutil.copy(GOLDEN / f"{case}.rules", pack / "rules" / f"{case}.rules")
    manifest = (MINI / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(manifest + f"rules: [rules/{case}.rules]\n",
                                    encoding="utf-8")
    monkeypatch.chdir(root)
    result = compile_pack("mini")
    assert [w.message for w in result.warnings] == []
    return result.tables["rules"]


@pytest.mark.parametrize("case", CASES)
def test_rules_ir(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  update_golden: bool) -> None:
    actual = _canonical(_compile_rules(case, tmp_path, monkeypatch))
    expected_path = GOLDEN / f"{case}.ir.json"
    if update_golden:
        expected_path.write_text(actual, encoding="utf-8")
        return
    assert expected_path.is_file(), (
        f"no golden file {expected_path.name}; run 'pytest --update-golden' and review it")
    assert actual == expected_path.read_text(encoding="utf-8")


def test_golden_rules_cases_are_paired() -> None:
    assert len(CASES) >= 4
    ir_files = sorted(path.name.removesuffix(".ir.json") for path in GOLDEN.glob("*.ir.json"))
    assert ir_files == CASES


def test_every_row_points_back_to_its_line(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _compile_rules("triggers_outcomes", tmp_path, monkeypatch)
    lines = (GOLDEN / "triggers_outcomes.rules").read_text(encoding="utf-8").splitlines()
    places = [row["at"] for row in rules["zones"] + rules["triggers"] + rules["outcomes"]]
    assert places and all(at.startswith("rules/triggers_outcomes.rules:") for at in places)
    starts = [lines[int(at.rpartition(":")[2]) - 1].split()[0] for at in places]
    assert starts == ["zone"] * 3 + ["when"] * 4 + ["win", "lose", "eliminate"]
    assert rules["files"] == ["rules/triggers_outcomes.rules"]


def test_symbols_are_qualified_and_kinds_are_not(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    symbols = json.dumps(_compile_rules("aggregates_defines", tmp_path, monkeypatch))
    assert '{"op": "symbol", "id": "mini:sword"}' in symbols
    kinds = json.dumps(_compile_rules("triggers_outcomes", tmp_path, monkeypatch))
    assert '{"op": "kind", "id": "unit"}' in kinds


def test_a_pack_without_rules_has_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(MINI, tmp_path / "mini")
    monkeypatch.chdir(tmp_path)
    assert compile_pack("mini").tables["rules"] is None


# --- the 'other' pack: every construct, no names from ERA ----------------------------------


def test_the_other_pack_validates_strictly_with_no_diagnostics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(OTHER, tmp_path / "other")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["validate", "other", "--strict", "--no-cache"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "other 0.1.0: ok (1 decks, 4 cards, 7 with copies)\n"


def test_the_other_pack_lowers_every_part_of_the_ir(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(OTHER, tmp_path / "other")
    monkeypatch.chdir(tmp_path)
    result = compile_pack("other")
    assert result.warnings == []
    rules = result.tables["rules"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("op", "do"):
                if isinstance(node.get(key), str):
                    found.add(f"{key}:{node[key]}")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(rules)
    statements = {"move", "draw", "shuffle", "reveal", "destroy", "stack", "tuck", "gain",
                  "spend", "set", "clear", "pay", "let", "call", "end", "fail", "log", "if",
                  "for_each", "repeat", "repeat_while", "repeat_until_pass", "may", "choose",
                  "choose_number", "choose_one"}
    ops = {"int", "text", "bool", "none", "local", "me", "const", "define", "zone", "symbol",
           "kind", "call", "counter", "flag", "field", "member", "not", "neg", "and", "or",
           "eq", "ne", "lt", "le", "gt", "ge", "add", "sub", "mul", "div", "mod", "if", "agg"}
    assert sorted({f"do:{s}" for s in statements} - found) == []
    assert sorted({f"op:{o}" for o in ops} - found) == []
    assert [f["kind"] for f in rules["flow"]] == ["setup", "game"]
    assert {t["event"] for t in rules["triggers"]} == {
        "destroyed", "played", "stacked", "tucked", "drawn", "revealed", "turn_start",
        "turn_end"}
