"""How much of the code's typing says ``Any``: the share of annotations that contain it.

mypy --strict checks only what annotations state; an annotation with ``Any`` in it (such as
``dict[str, Any]``, the shape of every IR node today) switches checking off for what flows
through it.  This counts, per folder, every annotation the source writes (parameters,
``*args``/``**kwargs``, return types, annotated assignments and fields) and how many contain
``Any``: directly, or through a module-level alias that does (``IR = dict[str, Any]``).
It also counts the spelled-out ``dict[str, Any]``.  Run before and after a typing change:

    python benchmarks/any_share.py [compiler runtime ...]

A folder is one of the repository's (``compiler``) or any path, such as an older checkout's.
"""

from __future__ import annotations

import argparse
import ast
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _names(node: ast.AST) -> set[str]:
    """Every name an annotation mentions (``typing.Any`` counts as ``Any``); string
    annotations are parsed first."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                with warnings.catch_warnings():  # a Literal["1.5x"] is text, not a type
                    warnings.simplefilter("ignore", SyntaxWarning)
                    found |= _names(ast.parse(sub.value, mode="eval"))
            except SyntaxError:
                continue
    return found


def _annotations(tree: ast.Module) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            every += [a for a in (args.vararg, args.kwarg) if a is not None]
            yield from (a.annotation for a in every if a.annotation is not None)
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def _any_aliases(tree: ast.Module) -> set[str]:
    """Module-level names bound to a type that contains ``Any`` (``IR = dict[str, Any]``,
    ``type IR = ...``), followed through aliases of aliases."""
    aliases: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in tree.body:
            target: str | None = None
            value: ast.AST | None = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name):
                target, value = node.targets[0].id, node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                    node.value is not None and "TypeAlias" in _names(node.annotation):
                target, value = node.target.id, node.value
            if target is None or value is None or target in aliases:
                continue
            if _names(value) & ({"Any"} | aliases):
                aliases.add(target)
                changed = True
    return aliases


@dataclass
class Count:
    """Annotations of one folder, and how many of them contain ``Any``."""

    files: int = 0
    annotations: int = 0
    direct: int = 0
    via_alias: int = 0
    dict_str_any: int = 0

    def row(self, name: str) -> str:
        total = max(self.annotations, 1)
        return (f"{name:<10} {self.files:>5} {self.annotations:>12} "
                f"{self.direct:>6} {100 * self.direct / total:>6.1f}% "
                f"{self.direct + self.via_alias:>6} "
                f"{100 * (self.direct + self.via_alias) / total:>6.1f}% "
                f"{self.dict_str_any:>14}")


def count(folder: Path) -> Count:
    out = Count()
    for path in sorted(folder.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
        aliases = _any_aliases(tree)
        out.files += 1
        out.dict_str_any += source.count("dict[str, Any]")
        for annotation in _annotations(tree):
            out.annotations += 1
            names = _names(annotation)
            if "Any" in names:
                out.direct += 1
            elif names & aliases:
                out.via_alias += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", default=["compiler", "runtime"],
                        help="folders of this repository (compiler) or any path")
    folders = parser.parse_args().folders
    print(f"{'folder':<10} {'files':>5} {'annotations':>12} {'Any':>6} {'share':>7} "
          f"{'+alias':>6} {'share':>7} {'dict[str, Any]':>14}")
    for name in folders:
        folder = Path(name) if Path(name).is_dir() else ROOT / name
        print(count(folder).row(folder.name))


if __name__ == "__main__":
    main()
