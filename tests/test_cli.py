"""The command line, in process: exit codes, where output goes, and what gets written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import decklore.compiler
from decklore import cli
from decklore.runtime import load_tables

Files = dict[str, "str | bytes | None"]
BROKEN_DECK = """\
deck: {id: one, name: One}
cards:
  - {id: a, name: A, cots: 1}
"""


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path / ".cache"))
    return tmp_path


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_validate_ok(in_tmp: Path, mini_pack: Path) -> None:
    result = run("validate", "mini")
    assert result.exit_code == 0, result.output
    assert result.stdout == "mini 0.1.0: ok (1 decks, 4 cards, 7 with copies)\n"
    assert result.stderr == ""


def test_validate_broken(in_tmp: Path, write_pack: Callable[[Path, Files], Path]) -> None:
    write_pack(in_tmp, {"decks/one.yaml": BROKEN_DECK})
    result = run("validate", "mini")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == """\
mini/decks/one.yaml:3:22: error[E100]: unknown key 'cots' in cards[0]
   3 |   - {id: a, name: A, cots: 1}
     |                      ^^^^
  hint: did you mean 'cost'?
1 error.
"""


def test_validate_broken_json(in_tmp: Path, write_pack: Callable[[Path, Files], Path]) -> None:
    write_pack(in_tmp, {"decks/one.yaml": BROKEN_DECK})
    result = run("validate", "mini", "--json")
    assert result.exit_code == 1
    assert result.stderr == ""
    (only,) = json.loads(result.stdout)["diagnostics"]
    assert set(only) == {"severity", "code", "message", "hint", "file", "line", "column",
                         "end_line", "end_column", "notes"}
    assert (only["code"], only["file"], only["line"], only["column"]) == (
        "E100", "mini/decks/one.yaml", 3, 22)


def test_validate_ok_json_lists_no_diagnostics(in_tmp: Path, mini_pack: Path) -> None:
    result = run("validate", "mini", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"diagnostics": []}


def test_warnings_go_to_stderr_and_strict_fails(
    in_tmp: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    write_pack(in_tmp, {"decks/one.yaml": mini_text("decks/one.yaml").replace("key(A)",
                                                                              "key(B)")})
    result = run("validate", "mini", "--no-cache")
    assert result.exit_code == 0
    assert "warning[W160]" in result.stderr and "warning[W161]" in result.stderr
    assert result.stderr.endswith("2 warnings.\n")
    assert result.stdout.startswith("mini 0.1.0: ok")
    strict = run("validate", "mini", "--strict")
    assert strict.exit_code == 1
    assert "error[W160]" in strict.stderr and strict.stderr.endswith("2 errors.\n")


def test_compile_writes_tables(in_tmp: Path, mini_pack: Path) -> None:
    result = run("compile", "mini", "-o", "out/tables.json")
    assert result.exit_code == 0, result.output
    data = (in_tmp / "out" / "tables.json").read_bytes()
    assert result.stdout == f"wrote out/tables.json ({len(data):,} bytes)\n"
    assert load_tables(in_tmp / "out" / "tables.json").pack["id"] == "mini"
    again = run("compile", "mini", "-o", "again.json")
    assert again.stdout.endswith(", from cache)\n")
    assert (in_tmp / "again.json").read_bytes() == data


def test_compile_json_format_prints_only_json(in_tmp: Path, mini_pack: Path) -> None:
    result = run("compile", "mini", "-o", "t.json", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"diagnostics": []}


def test_build_writes_into_a_folder_named_for_the_pack(in_tmp: Path, mini_pack: Path) -> None:
    result = run("build", "mini", "-o", "dist", "--no-sheets")
    assert result.exit_code == 0, result.output
    target = in_tmp / "dist" / "mini" / "tables.json"
    assert target.is_file()
    assert result.stdout == ("built Mini 0.1.0: 1 decks, 4 cards (7 with copies)\n"
                             "  dist/mini/tables.json\n")


def test_build_writes_every_sheet(in_tmp: Path, mini_pack: Path) -> None:
    result = run("build", "mini", "-o", "dist")
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (in_tmp / "dist" / "mini").iterdir())
    assert written == sorted([
        "tables.json", "cards.pdf", "cards.html", "list.pdf", "list.html", "list.md",
        "list.csv", "reference.pdf", "reference.html", "reference.md", "legend.pdf",
        "legend.html", "legend.md"])
    assert (in_tmp / "dist" / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")


def test_build_makes_the_same_pdfs_with_any_number_of_jobs(in_tmp: Path,
                                                           mini_pack: Path) -> None:
    """The PDFs are made side by side in worker processes; each is made as it would be
    alone, so the bytes do not depend on the number of workers."""
    outputs = []
    for jobs in ("1", "3"):
        result = run("build", "mini", "-o", f"dist{jobs}", "--jobs", jobs)
        assert result.exit_code == 0, result.output
        folder = in_tmp / f"dist{jobs}" / "mini"
        outputs.append({p.name: p.read_bytes() for p in folder.iterdir()})
        assert result.stdout.splitlines()[1:4] == [
            f"  dist{jobs}/mini/tables.json", f"  dist{jobs}/mini/cards.pdf",
            f"  dist{jobs}/mini/cards.html"]
    assert outputs[0] == outputs[1]


def test_a_pdf_failing_in_a_worker_fails_the_build_and_writes_nothing(
        in_tmp: Path, mini_pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from decklore.compiler.printing import PdfError, card_pdf

    made = card_pdf.sheet_pdf

    def failing(tables: dict[str, object], sheet: str, *args: object) -> bytes:
        if sheet == "list":
            raise PdfError("the list would not print")
        return made(tables, sheet, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(card_pdf, "sheet_pdf", failing)  # forked workers inherit it
    result = run("build", "mini", "-o", "dist", "--jobs", "2")
    assert result.exit_code == 1
    assert result.stderr == "error: the list would not print\n"
    assert list((in_tmp / "dist").iterdir()) == []  # no sheet, no staging folder


def test_build_broken_writes_nothing(in_tmp: Path,
                                    write_pack: Callable[[Path, Files], Path]) -> None:
    write_pack(in_tmp, {"decks/one.yaml": BROKEN_DECK})
    result = run("build", "mini", "-o", "dist")
    assert result.exit_code == 1
    assert not (in_tmp / "dist").exists()


def test_schema_writes_every_schema_in_both_drafts(in_tmp: Path) -> None:
    result = run("schema", "-o", "schemas")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (in_tmp / "schemas").iterdir())
    assert names == sorted(f"{n}{suffix}" for n in ("pack", "deck", "tables", "rules-ir",
                                                    "scenario", "patch", "save")
                           for suffix in (".schema.json", ".draft-07.schema.json"))
    assert result.stdout.count("wrote ") == 14
    draft7 = json.loads((in_tmp / "schemas" / "deck.draft-07.schema.json").read_text("utf-8"))
    assert "definitions" in draft7 and "$defs" not in draft7


def test_schema_closed_over_a_pack(in_tmp: Path, mini_pack: Path) -> None:
    result = run("schema", "-o", "schemas", "--pack", "mini")
    assert result.exit_code == 0, result.output
    assert len(list((in_tmp / "schemas").iterdir())) == 14
    deck = json.loads((in_tmp / "schemas" / "deck.schema.json").read_text("utf-8"))
    card = deck["$defs"]["card"]
    assert card["properties"]["kind"]["enum"] == ["unit", "event"]
    assert "upgrades_from" in card["properties"]
    assert card["additionalProperties"] is False


def test_schema_with_a_broken_pack(in_tmp: Path,
                                   write_pack: Callable[[Path, Files], Path]) -> None:
    write_pack(in_tmp, {"pack.yaml": "format: 1\n"})
    result = run("schema", "-o", "schemas", "--pack", "mini")
    assert result.exit_code == 1
    assert "error[E102]" in result.stderr
    assert not (in_tmp / "schemas").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("compile", "mini"),  # -o is required
        ("validate",),
        ("validate", "mini", "--format", "xml"),
        ("frobnicate",),
    ],
)
def test_usage_errors_exit_2(in_tmp: Path, args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Usage:" in result.stderr


def test_missing_pack_folder_is_invalid_input(in_tmp: Path) -> None:
    result = run("validate", "./nope")
    assert result.exit_code == 1
    assert "error[E020]: no pack.yaml in this folder" in result.stderr


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == "decklore, version 0.1.0\n"


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in ("validate", "compile", "build", "schema"):
        assert command in result.stdout


def test_internal_error_exits_3_with_a_traceback(
    in_tmp: Path, mini_pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(decklore.compiler, "compile_pack", boom)
    result = run("validate", "mini", "--no-cache")
    assert result.exit_code == 3
    assert "this is a bug in decklore" in result.stderr
    assert "RuntimeError: kaboom" in result.stderr
