"""Random damage to the mini pack never crashes the compiler: it compiles or it explains.

Each example copies the mini pack into its own temporary folder (hypothesis runs many
examples per test, so the function-scoped ``tmp_path`` cannot be used), damages one or two
files a few times, and compiles.  Anything but a ``CompileResult`` or a ``PackError`` whose
diagnostics all have a file, a line and a code is a bug.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import render_all

MINI = Path(__file__).resolve().parent / "packs" / "mini"
TARGETS = ("pack.yaml", "decks/one.yaml", "icons/key.svg")
ORIGINALS = {rel: (MINI / rel).read_text(encoding="utf-8") for rel in TARGETS}

_values = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "~", "0", "-1", "99999", "1.5", "yes", "A", "a", "[]", "{}", "[a, b]",
                     "coin", "2 coin", "key(A) -> all", "block(coin)", "'quoted'", "\"x\"",
                     "- item", "&a x", "*a", "!!str x", "{id: x}", "..", "icons/../x.svg",
                     "9" * 30, "{sword}", "mini:coin"]),
)


@st.composite
def _damaged(draw: st.DrawFn, text: str) -> str:
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "indent", "value"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "insert":
            joined = "\n".join(lines)
            at = draw(st.integers(0, len(joined)))
            extra = draw(st.text(min_size=1, max_size=6))
            lines = (joined[:at] + extra + joined[at:]).split("\n")
        elif op == "indent":
            shift = draw(st.integers(-4, 4))
            line = lines[i]
            if shift >= 0:
                lines[i] = " " * shift + line
            else:
                lines[i] = line[min(-shift, len(line) - len(line.lstrip(" "))):]
        elif op == "value" and ":" in lines[i]:
            key, _, _ = lines[i].partition(":")
            lines[i] = f"{key}: {draw(_values)}"
    return "\n".join(lines)


@st.composite
def _packs(draw: st.DrawFn) -> dict[str, str]:
    chosen = draw(st.lists(st.sampled_from(TARGETS), min_size=1, max_size=2, unique=True))
    return {rel: draw(_damaged(ORIGINALS[rel])) for rel in chosen}


_CODE = re.compile(r"[EW]\d{3}\Z")


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_packs())
def test_damaged_pack_compiles_or_explains(damage: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "mini"
        shutil.copytree(MINI, pack)
        for rel, text in damage.items():
            (pack / rel).write_text(text, encoding="utf-8")
        try:
            result = compile_pack(pack)
        except PackError as error:
            assert error.diagnostics, "a PackError must carry its diagnostics"
            for d in error.diagnostics:
                assert d.span.file, d
                assert d.span.line >= 1 and d.span.column >= 1, d
                assert _CODE.match(d.code), d
                assert d.message, d
            assert render_all(error.diagnostics, SourceCache())
        else:
            assert result.data.endswith(b"\n")
            assert all(_CODE.match(w.code) for w in result.warnings)


SCENARIO = (Path(__file__).resolve().parent.parent / "cards" / "era" / "scenarios"
            / "b_combined_attack.yaml")


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_damaged(SCENARIO.read_text(encoding="utf-8")))
def test_damaged_scenario_runs_or_explains(text: str) -> None:
    """A broken scenario file is a located error or a located failure, never a crash."""
    from decklore.compiler.tools.scenarios import run_file

    era = SCENARIO.parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenarios" / "damaged.yaml"
        path.parent.mkdir()
        path.write_text(text.replace("pack: ..", f"pack: {era.as_posix()}"), encoding="utf-8")
        try:
            outcome = run_file(path, tables_for=_era_tables)
        except PackError as error:
            assert error.diagnostics
            for d in error.diagnostics:
                assert d.span.file and d.span.line >= 1 and d.message, d
            assert render_all(error.diagnostics, SourceCache())
        else:
            for span, message in outcome.failures:
                assert span.line >= 1 and message


_ERA_TABLES: list[Any] = []


def _era_tables(pack: Path) -> Any:
    """ERA's tables, compiled once for every example (a damaged 'pack:' still gets ERA)."""
    from decklore.compiler.tools.scenarios import compiled_tables

    if not _ERA_TABLES:
        _ERA_TABLES.append(compiled_tables(pack))
    return _ERA_TABLES[0]
