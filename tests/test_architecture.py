"""The promises of the layout: runtime/ stands alone, and the README's commands are real."""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RUNTIME = ("yaml", "lark", "jsonschema", "fastjsonschema", "jinja2",
                        "decklore.compiler", "compiler")


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "runtime").rglob("*.py")), ids=lambda p: p.name)
def test_runtime_source_imports_no_compiler_side_library(path: Path) -> None:
    bad = [f"{path.name}:{line}: {name}" for line, name in _imports(path)
           if any(name == f or name.startswith(f + ".") for f in FORBIDDEN_IN_RUNTIME)]
    assert not bad, "runtime/ must not import compiler-side libraries:\n" + "\n".join(bad)


def test_importing_runtime_loads_no_compiler_side_module() -> None:
    code = (
        "import sys, decklore.runtime\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN_IN_RUNTIME[:5]!r} "
        "or m.startswith('decklore.compiler')]\n"
        "print(','.join(sorted(bad)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT / "tests")
    assert out.stdout.strip() == ""


ENGINE_WORDS = {
    "stack",   # the rules language's statement, and a unit's cards
    "base",    # the bottom card of a stack
    "event",   # log events and trigger events
    "field",   # the IR's card-field operation (and dataclasses.field)
    "lock",    # lock fields and lock letters, a field type of the pack format
    "stream",  # the random generator's PCG stream
}
"""Words of the language and the engine's own model that packs also use as ids (Era of
Kingdoms has a Field card, ERA a lock symbol); any other pack id in runtime code fails."""


def test_runtime_source_names_nothing_from_the_bundled_packs() -> None:
    """The runtime knows no game: no card, deck, symbol or kind id of a bundled pack."""
    from decklore.compiler import compile_pack

    names: set[str] = set()
    for pack in sorted((ROOT / "cards").glob("*/pack.yaml")):
        tables = compile_pack(pack.parent).tables
        for table in ("cards", "decks", "symbols", "card_kinds"):
            for row in tables[table]:
                names.add(row["id"].split(":")[-1])
        names.update(f["name"] for f in tables["card_fields"])
        names.add(tables["pack"]["id"])
    # Words of the tables format itself (its JSON Schema's keys) are the runtime's contract,
    # not game names, even when a pack happens to use one as an id (ERA's 'lock' field).
    format_words: set[str] = set()

    def keys(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    format_words.update(value)
                keys(value)
        elif isinstance(node, list):
            for value in node:
                keys(value)

    keys(json.loads((ROOT / "schema" / "tables.schema.json").read_text(encoding="utf-8")))
    words = {n for n in names if len(n) > 3} - format_words - ENGINE_WORDS
    for path in sorted((ROOT / "runtime").rglob("*.py")):
        text = " ".join(_code_words(path)).lower()
        hits = sorted(w for w in words if re.search(rf"\b{re.escape(w)}\b", text))
        assert not hits, f"{path.name} names game-specific ids: {hits}"


def _code_words(path: Path) -> list[str]:
    """The identifiers and string literals of a module: its code, not its prose.

    Comments and docstrings are English for people and may well say 'a flow block' or
    'a game in progress'; a name in code or in a string the program uses is what would tie
    the runtime to one game.
    """
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(body[0].value.lineno)
    text_tokens = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    out = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME or (
                token.type in text_tokens and token.start[0] not in docstrings):
            out.append(token.string)
    return out


def test_readme_quick_start_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(python -m pip install[^\n]*)\n```", readme)
    assert len(commands) == 2, "README's quick start has exactly two commands"
    build, test = commands
    assert "decklore build cards/era" in build
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci, ".ci/run must run the README's test command verbatim"


def test_no_folder_shadows_the_installed_package() -> None:
    assert not (ROOT / "decklore").exists()


def test_ci_proves_the_base_interpreter_lacks_the_dependencies() -> None:
    """CI says whether its base python3 is as bare as a fresh machine's, before it starts."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    probe = ci.find('python3 -c "import lark"')
    assert probe != -1, ".ci/run must check that the base python3 cannot import lark"
    assert probe < ci.index("python3 -m venv"), "the check comes before the environment"
    assert "cannot prove" in ci[probe:ci.index("python3 -m venv")]
    assert "--system-site-packages" not in ci


def test_no_built_artefact_is_tracked() -> None:
    """Wheels, archives, bytecode and build output are made, never committed."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    artefacts = [name for name in listed.stdout.splitlines()
                 if name.endswith((".whl", ".tar.gz", ".pyc", ".egg"))
                 or name.split("/")[0] in ("build", "dist") or "__pycache__/" in name]
    assert not artefacts, f"built files are tracked by git: {artefacts}"


def test_the_version_is_defined_once() -> None:
    """pyproject.toml holds the version; the command and the tables read it from there."""
    import tomllib

    from click.testing import CliRunner

    from decklore import cli
    from decklore.compiler import COMPILER_VERSION

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["version"]
    assert version == COMPILER_VERSION
    assert CliRunner().invoke(cli, ["--version"]).output == f"decklore, version {version}\n"
    pattern = re.compile(r"^\s*(__version__|\w*VERSION)\s*=\s*['\"]\d", re.MULTILINE)
    for folder in ("cli", "compiler", "runtime"):
        for path in (ROOT / folder).rglob("*.py"):
            found = pattern.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(ROOT)} defines a version: {found}"
