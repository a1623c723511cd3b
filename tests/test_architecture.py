"""The promises of the layout: runtime/ stands alone and names no game, imports go one way
(cli -> compiler -> runtime), and the README's commands are real."""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RUNTIME = ("yaml", "lark", "jsonschema", "fastjsonschema", "jinja2",
                        "decklore.compiler", "compiler")


# --- which part may import which ----------------------------------------------------------

LAYERS = {"cli": "decklore", "compiler": "decklore.compiler", "runtime": "decklore.runtime",
          "grammar": "decklore.grammar", "schema": "decklore.schema", "web": "decklore.web"}
"""Each source folder and the package it is installed as (setup.py)."""


def _module_of(path: Path) -> str:
    """The dotted name a source file is imported as: ``compiler/x/y.py`` is
    ``decklore.compiler.x.y``."""
    rel = path.relative_to(ROOT)
    parts = [LAYERS[rel.parts[0]], *rel.parts[1:-1]]
    if rel.stem != "__init__":
        parts.append(rel.stem)
    return ".".join(parts)


def imported_names(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every name a source imports, as an absolute dotted name with its line: relative
    imports are resolved against ``module``, and ``from X import Y`` gives X.Y (Y may be a
    submodule or a name in X; either way X is loaded)."""
    found: list[tuple[int, str]] = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _is_under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _is_cli(name: str) -> bool:
    """Whether a name is the CLI's: the CLI is installed as the ``decklore`` package itself."""
    parts = name.split(".")
    return parts[0] == "decklore" and (
        len(parts) == 1 or parts[1] not in {"compiler", "runtime", "grammar", "schema", "cards",
                                            "web", "integrations"})


def import_errors(module: str, source: str, is_package: bool = False) -> list[str]:
    """What a module imports against the allowed directions: cli -> compiler -> runtime.

    The runtime imports only the standard library and itself; the compiler never imports the
    CLI, and only its scenario runner (a module named ``scenarios``, wherever it sits) may
    import the runtime, to play the scenarios it checks.
    """
    errors: list[str] = []
    basename = module.rpartition(".")[2]
    for line, name in imported_names(source, module, is_package):
        if _is_under(module, "decklore.runtime"):
            if name.partition(".")[0] not in sys.stdlib_module_names and not _is_under(
                    name, "decklore.runtime"):
                errors.append(f"{module}:{line}: the runtime imports {name}")
        elif _is_under(module, "decklore.compiler"):
            if _is_cli(name):
                errors.append(f"{module}:{line}: the compiler imports the CLI ({name})")
            if _is_under(name, "decklore.runtime") and basename != "scenarios":
                errors.append(f"{module}:{line}: only the scenario runner may import the "
                              f"runtime ({name})")
        elif _is_under(module, "decklore.web") and _is_cli(name):
            # The CLI imports the web table, never the other way.
            errors.append(f"{module}:{line}: the web table imports the CLI ({name})")
    return errors


SOURCES = sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_the_allowed_directions(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert import_errors(_module_of(path), source, path.name == "__init__.py") == []


@pytest.mark.parametrize(("module", "source", "error"), [
    ("decklore.runtime.game", "import yaml\n",
     "decklore.runtime.game:1: the runtime imports yaml"),
    ("decklore.runtime.game", "from decklore.compiler import compile_pack\n",
     "decklore.runtime.game:1: the runtime imports decklore.compiler.compile_pack"),
    ("decklore.runtime.game", "from ..schema import load_schema\n",
     "decklore.runtime.game:1: the runtime imports decklore.schema.load_schema"),
    ("decklore.runtime.game", "from decklore import cli\n",
     "decklore.runtime.game:1: the runtime imports decklore.cli"),
    ("decklore.compiler.pipeline", "from decklore.cli import main\n",
     "decklore.compiler.pipeline:1: the compiler imports the CLI (decklore.cli.main)"),
    ("decklore.compiler.pipeline", "import decklore\n",
     "decklore.compiler.pipeline:1: the compiler imports the CLI (decklore)"),
    ("decklore.compiler.pipeline", "from decklore.runtime.game import Game\n",
     "decklore.compiler.pipeline:1: only the scenario runner may import the runtime "
     "(decklore.runtime.game.Game)"),
    ("decklore.web.app", "from decklore.play import _decks\n",
     "decklore.web.app:1: the web table imports the CLI (decklore.play._decks)"),
    ("decklore.compiler.rules.lower", "from ...runtime import game\n",
     "decklore.compiler.rules.lower:1: only the scenario runner may import the runtime "
     "(decklore.runtime.game)"),
])
def test_a_wrong_import_direction_fails(module: str, source: str, error: str) -> None:
    assert error in import_errors(module, source)


def test_the_scenario_runner_may_import_the_runtime_wherever_it_sits() -> None:
    source = "from decklore.runtime.game import Game\nfrom ..runtime import state\n"
    assert import_errors("decklore.compiler.tools.scenarios", source) == []
    assert import_errors("decklore.compiler.tools.scenarios", source) == []
    assert import_errors("decklore.runtime.game", "import json\nfrom . import state\n") == []


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


# --- the runtime names no game -----------------------------------------------------------

ENGLISH = {
    "actions": "the engine's legal actions (Game.legal_actions), a pack's counter in EoK",
    "base": "the bottom card of a stack; an EoK symbol",
    "block": "a block of statements, and its frame kind in saves (runtime.frames); an ERA "
             "symbol",
    "event": "log events; a card kind of EoK",
    "field": "dataclasses.field and the IR's card-field op; an EoK card",
    "have": "English in error messages; an EoK definition",
    "key": "sort keys and dictionary keys; an ERA symbol",
    "lock": "the pack format's lock field type; an ERA symbol",
    "middle": "the middle of a confidence interval (simulate); an EoK definition",
    "play": "the verb, and the 'decklore play' command, in messages; an ERA zone",
    "own": "whether a card is the player's own (symbols); an EoK definition",
    "playable": "a deck that can be chosen to play (tables); an EoK definition",
    "remove": "list.remove; an EoK action",
    "search": "a search through the flow tree (flows.flow_path); an ERA card",
    "stream": "the random generator's PCG stream; an EoK card",
    "winners": "the result's winners, the engine's own record; an EoK definition",
    "discard": "set.discard (determinize); an ERA zone",
    "matches": "English in error messages (agents); a deck-race definition",
    "pick": "the frame of a random choice being made, kept in saves; an ERA definition",
    "placed": "blocks placed on a unit (symbols, saves); an ERA definition",
    "removed": "symbols a mark takes off a unit (symbols.Unit); a deck-race zone",
    "use": "English in error messages ('use opponents'); a deck-race action",
    "without": "English in error messages ('calls itself without end'); an ERA definition",
}
"""English words the runtime uses in their own sense that a bundled pack also happens to
declare as a name, each with what it means in the runtime and where a pack declares it.
Kept short on purpose: a name that is only here because the runtime borrowed a game's word
belongs in the pack, not on this list."""


def _language_words() -> set[str]:
    """The rules language's and the tables format's own words: its keywords (the grammar's
    literal words), builtins, events, periods, options and card properties, and every key and
    enum value of the tables and rules IR schemas.  A pack may declare one as a name (a
    phase called 'draw', a flow 'turn'), and the runtime may use it: it is the language's."""
    from decklore.compiler.rules import builtins as lang

    words = set(re.findall(r'"([a-z_]+)"', (ROOT / "grammar" / "rules.lark").read_text("utf-8")))
    words |= set(lang.BUILTINS) | set(lang.EVENTS) | set(lang.PERIODS) | set(lang.FLOW_NESTING)
    words |= set(lang.ZONE_OPTIONS) | set(lang.COUNTER_OPTIONS) | set(lang.FLAG_OPTIONS)
    words |= set(lang.CARD_PROPERTIES)

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    words.update(value)
                if key in ("enum", "const"):
                    words.update(v for v in (value if isinstance(value, list) else [value])
                                 if isinstance(v, str))
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for name in ("tables", "rules-ir"):
        collect(json.loads((ROOT / "schema" / f"{name}.schema.json").read_text("utf-8")))
    return words


def _declared_names(tables: dict[str, Any]) -> dict[str, str]:
    """Every name a pack declares, and what it is: zones, counters, flags, flow blocks
    (phases, steps, ...), constants, definitions, actions, card names and ids, deck ids,
    symbol ids, card kinds and fields, and the pack's id."""
    pack = tables["pack"]["id"]
    found: dict[str, str] = {pack: "pack"}

    def add(name: str, what: str) -> None:
        found.setdefault(name.split(":")[-1], f"{pack}: {what}")

    for table, what in (("cards", "card id"), ("decks", "deck id"), ("symbols", "symbol"),
                        ("card_kinds", "card kind")):
        for row in tables[table]:
            add(row["id"], what)
    for row in tables["cards"]:
        add(row["name"], "card name")
    for spec in tables["card_fields"]:
        add(spec["name"], "card field")
    rules = tables["rules"] or {}
    for part in ("zones", "counters", "flags"):
        for spec in rules.get(part, ()):
            add(spec["name"], part[:-1])
    for part in ("consts", "defines", "actions"):
        for name in rules.get(part, {}):
            add(name, part[:-1])
    flows = list(rules.get("flow", ()))
    while flows:
        flow = flows.pop()
        add(flow["name"], flow["kind"])
        flows += flow["children"]
    return found


def _bundled_names() -> dict[str, str]:
    from decklore.compiler import compile_pack

    names: dict[str, str] = {}
    for pack in sorted((ROOT / "cards").glob("*/pack.yaml")):
        for name, what in _declared_names(compile_pack(pack.parent).tables).items():
            names.setdefault(name, what)
    allowed = _language_words() | set(ENGLISH)
    return {name: what for name, what in names.items() if name.lower() not in allowed}


def game_names_in(source: str, names: dict[str, str]) -> list[str]:
    """The declared names that runtime code (its identifiers and string literals, not its
    comments or docstrings) spells out, each with what declares it."""
    text = " ".join(_code_words(source)).lower()
    return sorted(f"{name} ({what})" for name, what in names.items()
                  if re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", text))


@pytest.fixture(scope="module")
def bundled_names() -> dict[str, str]:
    return _bundled_names()


@pytest.mark.parametrize("path", sorted((ROOT / "runtime").rglob("*.py")), ids=lambda p: p.name)
def test_runtime_source_names_nothing_from_the_bundled_packs(
        path: Path, bundled_names: dict[str, str]) -> None:
    """The runtime knows no game: no name any bundled pack declares is in its code."""
    hits = game_names_in(path.read_text(encoding="utf-8"), bundled_names)
    assert hits == [], f"{path.name} names what a pack declares: {hits}"


def test_the_game_name_check_sees_a_planted_name(bundled_names: dict[str, str]) -> None:
    """A copy of a runtime module with ERA's names planted in code fails; the same names in
    a comment or a docstring do not."""
    source = (ROOT / "runtime" / "state.py").read_text(encoding="utf-8")
    assert game_names_in(source, bundled_names) == []
    prose = source + ('\n\ndef helper() -> None:\n    """Like conflict_pile in ERA."""\n'
                      "    # card_committing is a phase of ERA\n")
    assert game_names_in(prose, bundled_names) == []
    as_string = source + '\nPILE = "conflict_pile"\n'
    assert game_names_in(as_string, bundled_names) == ["conflict_pile (era: zone)"]
    as_name = source + "\n\ndef card_committing() -> None:\n    pass\n"
    assert game_names_in(as_name, bundled_names) == ["card_committing (era: phase)"]
    card = source + '\nFAVOURITE = "Granary"\n'
    assert game_names_in(card, bundled_names) == ["Granary (era-of-kingdoms: card name)",
                                                  "granary (era-of-kingdoms: card id)"]


def test_every_kind_of_declared_name_is_collected() -> None:
    from decklore.compiler import compile_pack

    kinds = {what.split(": ")[-1] for what in
             _declared_names(compile_pack(ROOT / "cards" / "era").tables).values()}
    assert {"zone", "counter", "flag", "const", "define", "action", "phase", "turn",
            "card id", "card name", "deck id", "symbol", "card kind", "pack"} <= kinds


def _code_words(source: str) -> list[str]:
    """The identifiers and string literals of a module: its code, not its prose.

    Comments and docstrings (a module's, a class's, a function's, and the string after an
    assignment that documents it) are English for people and may well name a game to explain
    something; a name in code or in a string the program uses is what would tie the runtime
    to one game.
    """
    tree = ast.parse(source)
    prose: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str):
            prose.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    text_tokens = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    out = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME or (
                token.type in text_tokens and token.start[0] not in prose):
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
