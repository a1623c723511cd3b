"""Hostile inputs of every other kind: templates, icons, scenario files, CLI values, files.

Each property test feeds generated hostile input and accepts only success or a located
error: never an internal error (exit 3), never a hang (each example has a deadline and the
sandbox its budgets), never a file from outside the pack in the output.  The plain tests
pin the cases an attack suite found: FIFOs, read-only and misplaced outputs, absurd card
sizes, an empty agent list, half-written builds.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decklore import cli
from decklore.compiler import PackError, compile_pack
from decklore.compiler.printing.sandbox import SheetError
from decklore.compiler.printing.sanitize import IconError, check_html, check_icon
from decklore.compiler.printing.sheets import PrintOptions, render

TESTS = Path(__file__).resolve().parent
MINI = TESTS / "packs" / "mini"
ERA = TESTS.parent / "cards" / "era"
SECRET = "root:x:0:0:decklore-secret"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@cache
def mini_tables() -> dict[str, Any]:
    return compile_pack(MINI).tables


# --- templates: a property test ---------------------------------------------------------------

_FRAGMENTS = st.sampled_from([
    "{{ pack.name }}", "<p>", "</p>", "<h1>x</h1>", "{% include '/etc/passwd' %}",
    "{% include '../pack.yaml' %}", "{% import 'x/../../etc/hosts' as h %}",
    "{% extends '/etc/passwd' %}", "{% include name %}", "{% set name = '/etc/passwd' %}",
    "<scr{{ '' }}ipt>", "{{ ('<scr' ~ 'ipt>')|safe }}", "<svg/onload=alert(1)>",
    "<img src='&#104;ttp://x'>", "<a href='&#106;avascript:x'>", "<div srcset='x 1x'>",
    "<style>@\\69mport 'x';</style>", "<style>a{background:\\75rl(http://x)}</style>",
    "<meta http-equiv=refresh content='0;url=http://x'>", "<form action=http://x>",
    "<!-- x -->", "<![CDATA[ x ]]>", "<?php x ?>", "{{ pack.__class__ }}", "{{ [].append(1) }}",
    "{{ nope }}", "{% if %}", "{{ 'x' * 10**9 }}", "{{ '%*d'|format(10**9, 1) }}",
    "{{ range(10**9)|list }}", "{% for i in range(9999) %}{% for j in range(9999) %}"
    "{% endfor %}{% endfor %}", "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
    "{{ 'ab'|center(10**8) }}", "{{ '{:>999999999}'.format(1) }}", "{{ 10**10**10 }}",
    "<span class='x' title='ok'>", "<table><tr><td>1</td></tr></table>", "{{ symbols|length }}",
    "<style>h1 { color: red }</style>", "{% for s in symbols %}{{ s.icon }}{% endfor %}",
])


@settings(max_examples=80, deadline=15_000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_FRAGMENTS, min_size=1, max_size=5))
def test_hostile_templates_render_safely_or_fail_located(parts: list[str]) -> None:
    template = "\n".join(parts) + "\n"
    try:
        html = render(mini_tables(), "legend", "html", PrintOptions(),
                      {"legend.html.j2": template})
    except SheetError as exc:
        assert exc.code in ("E144", "E146", "E147")
        assert exc.file.startswith(("templates/", "decklore:templates/"))
        assert exc.line >= 1
        return
    assert check_html(html) == []  # what passes is within the allow-list
    assert "root:x:0:0" not in html


def test_the_loader_never_reads_a_path(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    for name in (str(secret), f"../{secret.name}", f"{tmp_path.name}/../secret.txt",
                 "../../../../../../" + str(secret).lstrip("/"), "sheet.css/../x"):
        with pytest.raises(SheetError) as error:
            render(mini_tables(), "legend", "html", PrintOptions(),
                   {"legend.html.j2": f"{{% include {json.dumps(name)} %}}"})
        assert error.value.code == "E146"


# --- icons: a property test -------------------------------------------------------------------

_ICON_PARTS = st.sampled_from([
    '<circle cx="5" cy="5" r="4" fill="#123456"/>', '<path d="M0 0L10 10"/>',
    "<script>alert(1)</script>", '<a href="http://x"><rect width="1" height="1"/></a>',
    '<use href="#a"/>', '<use href="http://x/y.svg#a"/>', '<rect onclick="x()"/>',
    "<style>@import 'x';</style>", '<rect style="fill:url(http://x)"/>',
    '<rect fill="\\75rl(http://x)"/>', '<rect fill="url(#g)"/>', "<foreignObject/>",
    "<![CDATA[ </svg><script>x</script> ]]>", "<?xml-stylesheet href='x'?>",
    '<image href="data:image/png;base64,AA"/>', "&amp;", "&lt;script&gt;", "<g>", "</g>",
    '<text x="1" y="2">A &amp; B</text>', '<set attributeName="href" to="javascript:x"/>',
    '<animate attributeName="onload"/>', '<rect xlink:href="javascript:x" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"/>',
])


@settings(max_examples=150, deadline=5_000)
@given(st.lists(_ICON_PARTS, max_size=5), st.sampled_from([
    "", '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>']))
def test_icons_are_refused_unless_plain_svg(parts: list[str], prologue: str) -> None:
    text = (prologue + '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
            + "".join(parts) + "</svg>")
    try:
        check_icon(text)
    except IconError as exc:
        assert str(exc) and exc.line >= 1
        return
    assert not prologue
    assert check_html(f"<span>{text}</span>") == []  # an accepted icon passes in a sheet too


# --- scenario files: a property test ---------------------------------------------------------

SCENARIO = (ERA / "scenarios" / "a_card_dealing_1.yaml").read_text(encoding="utf-8")
_YAML_VALUES = st.sampled_from(["", "~", "-1", "99999999999999999999", "x", "[]", "{}",
                                "[a, b]", "era:nothing", "*a", "&a x", "!!python/object x",
                                "1.5", "'", "{{", "\t", "null", "- - -", "999"])


@settings(max_examples=25, deadline=30_000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10 ** 6), _YAML_VALUES), min_size=1, max_size=3))
def test_damaged_scenarios_pass_fail_or_explain(edits: list[tuple[int, str]]) -> None:
    lines = SCENARIO.split("\n")
    for pick, value in edits:
        index = pick % len(lines)
        head, colon, _ = lines[index].partition(":")
        lines[index] = f"{head}: {value}" if colon else value
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        Path("case.yaml").write_text("\n".join(lines).replace("pack: ..", f"pack: {ERA}"),
                                     encoding="utf-8")
        result = run("test", "case.yaml")
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output


# --- CLI values -------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "expected"), [
    (["simulate", "era", "-n", "1", "--agents", ""], "name at least one agent"),
    (["simulate", "era", "-n", "1", "--agents", " , "], "name at least one agent"),
    (["play", "era", "--players", ""], "name one agent per seat"),
    (["print", "mini", "--card-size", "nan"], "use one of poker, bridge"),
    (["print", "mini", "--card-size", "nanxnan"], "must each be from 20 to 300 mm"),
    (["print", "mini", "--card-size", "1x1"], "must each be from 20 to 300 mm (got 1x1)"),
    (["print", "mini", "--card-size", "infx90"], "must each be from 20 to 300 mm"),
    (["print", "mini", "--card-size", "0x-5"], "must each be from 20 to 300 mm"),
    (["print", "mini", "--back-offset", "nan,0"], "write the offset as X,Y in mm"),
    (["print", "mini", "--back-offset", "1e9,0"], "write the offset as X,Y in mm"),
    (["simulate", "era", "-n", "1", "--budget", "99999999999"], "--budget"),
])
def test_absurd_cli_values_are_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             args: list[str], expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "mini")
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert expected in result.output


@settings(max_examples=60, deadline=10_000)
@given(st.text(alphabet="0123456789x.,-+einfa ", max_size=12))
def test_any_card_size_is_used_or_refused(value: str) -> None:
    result = run("print", str(MINI), "--sheet", "list", "--format", "md", "--card-size", value,
                 "-o", os.devnull, "--no-cache")
    assert result.exit_code in (0, 1, 2), result.output


# --- the file system --------------------------------------------------------------------------


def _finishes(action: Callable[[], Any], seconds: float = 60) -> Any:
    """Run ``action`` in a thread; fail (rather than hang the suite) if it blocks."""
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(_outcome(action)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "blocked"
    return out[0]


def _outcome(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except Exception as exc:
        return exc


@pytest.mark.parametrize("fifo", ["pack.yaml", "decks/one.yaml", "templates/list.html.j2",
                                  "icons/coin.svg"])
def test_a_fifo_in_a_pack_never_blocks(tmp_path: Path, fifo: str) -> None:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    (pack / fifo).parent.mkdir(exist_ok=True)
    (pack / fifo).unlink(missing_ok=True)
    os.mkfifo(pack / fifo)
    outcome = _finishes(lambda: compile_pack(pack))
    assert isinstance(outcome, PackError)
    assert [d.code for d in outcome.diagnostics][:1] in (["E020"], ["E140"])


def test_the_cache_key_never_reads_what_the_pack_does_not_use(tmp_path: Path) -> None:
    from decklore.compiler.cache import pack_key

    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    with open(pack / "huge.bin", "wb") as handle:  # sparse: 5 GB claimed, nothing written
        handle.truncate(5 * 1024 ** 3)
    os.mkfifo(pack / "pipe")
    (pack / "outside").symlink_to("/dev/zero")
    first = _finishes(lambda: pack_key(pack))
    assert isinstance(first, str)
    (pack / "decks" / "one.yaml").write_text(
        (MINI / "decks" / "one.yaml").read_text() + "\n", encoding="utf-8")
    assert pack_key(pack) != first


def test_unreadable_and_misplaced_files_are_errors_with_the_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "mini")
    Path("afile").write_text("x", encoding="utf-8")
    result = run("compile", "mini", "-o", "afile/tables.json", "--no-cache")
    assert result.exit_code == 1
    assert result.stderr == "error: afile: a file is in the way where a folder is needed\n"
    result = run("build", "mini", "-o", "afile/out", "--no-sheets", "--no-cache")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: afile")
    assert run("build", "mini", "-o", "afile", "--no-sheets").exit_code == 2  # click says
    Path("folder.json").mkdir()
    result = run("diff", "folder.json", "mini")
    assert result.exit_code == 1
    assert "internal error" not in result.output

    from decklore.compiler import build_output

    def refuse(*_: Any, **__: Any) -> str:
        raise PermissionError(13, "Permission denied", "out/.mini.building-1")

    monkeypatch.setattr(build_output.tempfile, "mkdtemp", refuse)
    result = run("build", "mini", "-o", "out", "--no-sheets", "--no-cache")
    assert result.exit_code == 1
    assert result.stderr == "error: out/.mini.building-1: permission denied\n"


def test_a_save_or_log_that_is_not_a_file_is_an_error(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo("game.json")
    result = _finishes(lambda: run("play", str(ERA), "--players", "random,random", "--load",
                                   "game.json"))
    assert result.exit_code == 1
    assert "game.json: cannot read the saved game: not a regular file" in result.stderr
    Path("game.log").write_bytes(b"\xff")
    result = run("replay", "game.log", "--pack", str(ERA))
    assert result.exit_code == 1 and "not valid UTF-8" in result.stderr


@pytest.mark.parametrize(("before", "expected"), [
    ('{"not": "tables"}', "not decklore tables: at the top level"),
    ("[1, 2]", "not decklore tables: at the top level"),
    ("[" * 5000 + "]" * 5000, "not decklore tables: the JSON nests deeper than 64 levels"),
    ('{"pack": {"id": 1}}', "not decklore tables"),
])
def test_diff_refuses_what_is_not_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         before: str, expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path("old.json").write_text(before, encoding="utf-8")
    result = run("diff", "old.json", str(MINI))
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"error: old.json: {expected}")


def test_diff_of_partial_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    tables = compile_pack(MINI).tables
    del tables["cards"]
    Path("old.json").write_text(json.dumps(tables), encoding="utf-8")
    result = run("diff", "old.json", str(MINI))
    assert result.exit_code == 1
    assert "not decklore tables" in result.stderr and "cards" in result.stderr


# --- a build is whole or not at all -----------------------------------------------------------


def test_a_failing_sheet_keeps_the_previous_build(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "mini")
    assert run("build", "mini", "--no-sheets", "--no-cache").exit_code == 0
    before = {p.name: p.read_bytes() for p in Path("build/mini").iterdir()}
    Path("mini/templates").mkdir()
    Path("mini/templates/list.md.j2").write_text("{{ nope }}\n", encoding="utf-8")
    result = run("build", "mini", "--no-cache", "--engine", "weasyprint")
    assert result.exit_code == 1
    assert "mini/templates/list.md.j2:1:1: error[E146]: undefined value" in result.stderr
    assert {p.name: p.read_bytes() for p in Path("build/mini").iterdir()} == before
    assert sorted(p.name for p in Path("build").iterdir()) == ["mini"]  # nothing left over


def test_leftovers_of_a_killed_build_are_removed(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    dead = 2 ** 22 + 12345  # above Linux's default pid_max: no such process
    (tmp_path / "build" / f".mini.building-{dead}-abcd").mkdir(parents=True)
    (tmp_path / "build" / f".mini.building-{dead}-abcd" / "cards.pdf").write_bytes(b"half")
    alive = tmp_path / "build" / f".mini.building-{os.getppid()}-efgh"
    alive.mkdir()
    (tmp_path / "build" / "mini").mkdir()
    stale = tmp_path / "build" / "mini" / f".tables.json.{dead}.xyz.tmp"
    stale.write_bytes(b"half")
    result = run("build", str(MINI), "--no-sheets", "--no-cache")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "build").iterdir())
    assert names == [alive.name, "mini"]  # a build still running elsewhere is left alone
    assert sorted(p.name for p in (tmp_path / "build" / "mini").iterdir()) == ["tables.json"]
    from decklore.compiler import write_atomic

    stale.write_bytes(b"half")
    write_atomic(tmp_path / "build" / "mini" / "tables.json", b"{}")
    assert not stale.exists()


def test_a_sheet_too_large_for_a_pdf_is_refused_before_the_layout_engine() -> None:
    from decklore.compiler.printing.pdf import MAX_HTML_CHARS, PdfError, html_to_pdf

    with pytest.raises(PdfError, match="more than the 16,777,216 a PDF is made from"):
        html_to_pdf("<p>" + "x" * MAX_HTML_CHARS + "</p>")


def test_writing_to_a_device_leaves_the_device_in_place() -> None:
    """``-o /dev/null`` writes to the device: an atomic rename over it would replace the
    machine's /dev/null with a plain file."""
    import stat as stat_module

    from decklore.compiler import write_atomic

    write_atomic(Path(os.devnull), b"discarded\n")
    assert stat_module.S_ISCHR(os.stat(os.devnull).st_mode)
