"""Start-up: a cache hit of ``decklore validate`` loads no compiler, and Lark's tables are
kept in the user's own cache folder only (issue 16)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from decklore.compiler import lark_cache

ERA = Path(__file__).resolve().parent.parent / "cards" / "era"
HEAVY = ("decklore.compiler.pipeline", "decklore.compiler.rules.check", "lark", "jsonschema",
         "yaml", "fastjsonschema", "referencing", "jinja2", "importlib.metadata",
         "decklore.runtime", "decklore.play", "decklore.balance", "decklore.serve")
"""What a validate whose tables are cached needs none of: the compiler, its libraries, and
the package metadata only written tables name, and the modules of the other commands."""


def _validate(cache: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DECKLORE_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "decklore", "validate",
                           *options, str(ERA)], env=env, capture_output=True, text=True,
                          check=True)


def _imported(run: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()
            if line.startswith("import time:")}


def test_a_cache_hit_imports_no_compiler(tmp_path: Path) -> None:
    first = _validate(tmp_path)
    assert "decklore.compiler.rules.check" in _imported(first)  # a miss compiles
    second = _validate(tmp_path)
    assert second.stdout == first.stdout and "ok (5 decks" in second.stdout
    assert not _imported(second) & set(HEAVY)


def test_a_valid_pack_is_compiled_without_jsonschema(tmp_path: Path) -> None:
    """jsonschema only explains what the fast gate rejected: a valid pack never needs it."""
    first = _validate(tmp_path, "--no-cache")  # the gate is generated, and kept
    second = _validate(tmp_path, "--no-cache")
    for run in (first, second):
        assert "ok (5 decks" in run.stdout
        assert "decklore.compiler.rules.check" in _imported(run)
        assert "jsonschema" not in _imported(run)
    assert list((tmp_path / "schema-gate").iterdir())


def test_parser_tables_are_saved_and_loaded(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    grammar = 'start: WORD+\n%import common.WORD\n%ignore " "\n'
    built = lark_cache.cached_lark("toy", grammar, parser="lalr")
    saved = list((tmp_path / "lark").glob("toy-*.lark"))
    assert len(saved) == 1
    assert (tmp_path / "lark").stat().st_mode & 0o077 == 0
    loaded = lark_cache.cached_lark("toy", grammar, parser="lalr")
    assert loaded.parse("two words") == built.parse("two words")
    other = lark_cache.cached_lark("toy", grammar.replace("WORD+", "WORD WORD"), parser="lalr")
    assert len(list((tmp_path / "lark").glob("toy-*.lark"))) == 2  # a new grammar, a new file
    assert other.parse("two words")


def test_saved_parser_tables_are_loaded_not_built_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved file is loaded as it was written: the next run builds nothing."""
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    grammar = 'start: WORD+\n%import common.WORD\n%ignore " "\n'
    built = lark_cache.cached_lark("toy", grammar, parser="lalr", propagate_positions=True)

    class NoBuilding(lark_cache.Lark):
        def __init__(self, *_: object, **__: object) -> None:
            raise AssertionError("the parser was built again")

    monkeypatch.setattr(lark_cache, "Lark", NoBuilding)
    loaded = lark_cache.cached_lark("toy", grammar, parser="lalr", propagate_positions=True)
    assert loaded.parse("two words") == built.parse("two words")
    assert loaded.parse("a b").meta.end_column == 4


def test_a_damaged_parser_file_is_built_again(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    grammar = 'start: "a"+\n'
    lark_cache.cached_lark("toy", grammar, parser="lalr")
    (saved,) = (tmp_path / "lark").glob("toy-*.lark")
    saved.write_bytes(saved.read_bytes()[:40])
    assert lark_cache.cached_lark("toy", grammar, parser="lalr").parse("aa")
    assert len(saved.read_bytes()) > 40


def test_a_folder_others_may_write_is_not_used(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    (tmp_path / "lark").mkdir()
    (tmp_path / "lark").chmod(0o777)
    parser = lark_cache.cached_lark("toy", 'start: "a"\n', parser="lalr")
    assert parser.parse("a")
    assert not list((tmp_path / "lark").iterdir())


def test_the_other_commands_are_there_when_asked_for() -> None:
    """``play`` and the rest load on first use, and ``--help`` lists them all."""
    listed = subprocess.run([sys.executable, "-m", "decklore", "--help"], capture_output=True,
                            text=True, check=True).stdout
    for name in ("validate", "play", "simulate", "replay", "test", "report", "balance",
                 "serve"):
        assert f"  {name} " in listed, name
    shown = subprocess.run([sys.executable, "-m", "decklore", "simulate", "--help"],
                           capture_output=True, text=True, check=True).stdout
    assert "Usage: decklore simulate" in shown


def _metadata(folder: Path, name: str, version: str) -> None:
    folder.mkdir(parents=True)
    header = "Metadata-Version: 2.1\nName: decklore\n"
    (folder / name).write_text(f"{header}Version: {version}\n\nThe description.\n",
                               encoding="utf-8")


def test_the_compiler_version_is_read_as_importlib_metadata_reads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables name the decklore that wrote them: the cheap read (no ``importlib.metadata``
    import) finds the same distribution as ``importlib.metadata`` on the same path."""
    import importlib.metadata

    from decklore.compiler import emit

    assert emit._version_on_path("decklore") == importlib.metadata.version("decklore")
    _metadata(tmp_path / "a" / "decklore.egg-info", "PKG-INFO", "7.0")
    _metadata(tmp_path / "a" / "decklore-8.0.dist-info", "METADATA", "8.0")
    _metadata(tmp_path / "b" / "decklore-9.0.dist-info", "METADATA", "9.0")
    layouts = ([tmp_path / "missing", tmp_path / "b", tmp_path / "a"],  # first entry wins
               [tmp_path / "a", tmp_path / "b"])  # the first the folder lists
    for path in layouts:
        monkeypatch.setattr(sys, "path", [str(p) for p in path])
        assert emit._version_on_path("decklore") == importlib.metadata.version("decklore")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "b"), str(tmp_path / "a")])
    assert emit._version_on_path("decklore") == "9.0"


def test_a_cold_validate_does_not_import_the_package_metadata(tmp_path: Path) -> None:
    run = _validate(tmp_path, "--no-cache")
    assert "ok (5 decks" in run.stdout
    assert "importlib.metadata" not in _imported(run)
