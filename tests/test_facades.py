"""The compiler's stages are reached through their package facades, which load lazily."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FACADES = ["decklore.compiler", *(f"decklore.compiler.{p}"
                                  for p in ("load", "rules", "mods", "printing", "tools"))]


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def test_the_cli_imports_the_compiler_only_through_facades() -> None:
    deep = [f"{path.relative_to(ROOT)}:{line}: {module}"
            for path in sorted((ROOT / "cli").glob("*.py"))
            for line, module in _imported_modules(path)
            if module.startswith("decklore.compiler") and module not in FACADES]
    assert not deep, "import the stage's facade instead:\n" + "\n".join(deep)


@pytest.mark.parametrize("facade", FACADES)
def test_every_facade_name_loads_and_none_is_shadowed_by_a_module(facade: str) -> None:
    package = importlib.import_module(facade)
    exports: dict[str, tuple[str, str]] = package._EXPORTS
    assert sorted(exports) == sorted(package.__all__)
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)}
    # A submodule, once imported, becomes an attribute of its package and would hide a
    # facade name spelled the same.
    assert not modules & set(exports), f"{facade} exports names of its own modules"
    for name, (module, attribute) in exports.items():
        source = importlib.import_module(f"{facade}.{module}")
        assert getattr(package, name) is getattr(source, attribute)
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_importing_the_compiler_loads_no_stage() -> None:
    code = ("import sys, decklore.compiler; "
            "print(sorted(m for m in sys.modules if m.startswith('decklore.compiler.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_the_cache_key_covers_every_stage_of_the_compiler() -> None:
    """The stages live in subpackages: a change to any of them must miss the table cache."""
    from decklore.compiler.cache import toolchain_files

    names = {name for name, _ in toolchain_files()}
    for module in ("rules/check.py", "load/decks.py", "mods/layering.py", "emit.py"):
        assert f"decklore.compiler/{module}" in names
    assert "decklore.grammar/rules.lark" in names


def test_every_pack_wide_check_runs_from_the_ordered_tuple() -> None:
    """A check written but left out of ``PASSES`` would never run: the tuple names them all,
    each once, and the pipeline runs nothing else by hand."""
    import inspect

    from decklore.compiler import checks, pipeline

    written = [f for name, f in vars(checks).items()
               if name.startswith("check_") and inspect.isfunction(f)]
    assert sorted(f.__name__ for f in checks.PASSES) == sorted(f.__name__ for f in written)
    assert "checks.check_" not in inspect.getsource(pipeline)
