"""Golden files: whole compiler output for whole packs, compared byte for byte.

Cases are discovered: ``tests/packs/mini`` and every pack folder under ``tests/golden/``.
A pack that compiles is compared with ``tests/golden/<case>.tables.json`` (the canonical
bytes); a pack that does not is compared with ``tests/golden/<case>.diagnostics.txt`` (the
rendered diagnostics).  Run ``pytest --update-golden`` to rewrite them, then review the diff.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import render_all

TESTS = Path(__file__).resolve().parent
GOLDEN = TESTS / "golden"
CASES = {"mini": TESTS / "packs" / "mini"} | {
    folder.name: folder for folder in sorted(GOLDEN.iterdir())
    if folder.is_dir() and (folder / "pack.yaml").is_file()
}


def _output(case: str, source: Path, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bytes]:
    """Compile a copy of the pack, named by its case, from its parent folder."""
    shutil.copytree(source, tmp_path / case)
    monkeypatch.chdir(tmp_path)
    try:
        result = compile_pack(case)
    except PackError as error:
        text = render_all(error.diagnostics, SourceCache()) + "\n"
        return GOLDEN / f"{case}.diagnostics.txt", text.encode("utf-8")
    return GOLDEN / f"{case}.tables.json", result.data


def _readable(path: Path, data: bytes) -> str:
    if path.suffix == ".json":
        return json.dumps(json.loads(data), indent=1, sort_keys=True, ensure_ascii=False)
    return data.decode("utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                update_golden: bool) -> None:
    expected_path, actual = _output(case, CASES[case], tmp_path, monkeypatch)
    if update_golden:
        expected_path.write_bytes(actual)
        return
    assert expected_path.is_file(), (
        f"no golden file {expected_path.name}; run 'pytest --update-golden' and review it")
    expected = expected_path.read_bytes()
    # Compare readable forms first so a failure shows a useful diff, then the exact bytes.
    assert _readable(expected_path, actual) == _readable(expected_path, expected)
    assert actual == expected


def test_the_expected_kinds_of_golden_file_exist() -> None:
    assert (GOLDEN / "mini.tables.json").is_file()
    assert (GOLDEN / "broken.diagnostics.txt").is_file()
    stale = [p.name for p in GOLDEN.iterdir() if p.is_file()
             and p.name.split(".")[0] not in CASES]
    assert stale == [], "golden files without a case"


def test_broken_golden_pack_has_errors_in_several_files() -> None:
    text = (GOLDEN / "broken.diagnostics.txt").read_text(encoding="utf-8")
    files = {line.split(":")[0] for line in text.splitlines() if "error[" in line}
    assert files == {"broken/pack.yaml", "broken/decks/first.yaml", "broken/decks/second.yaml"}
