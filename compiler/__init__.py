"""The decklore compiler: packs of YAML cards and rules in, canonical runtime tables out.

The pipeline reads from the folders: ``load`` (strict located YAML, JSON Schema checks,
pack.yaml, symbol notation, card rows) -> ``rules`` (parse, resolve, type-check, lower to
the IR) -> ``checks`` (pack-wide passes) -> ``emit`` (canonical, sealed tables), driven by
``pipeline.compile_pack`` with ``cache`` and ``result`` in front of it (a cache hit
loads no stage). Beside the pipeline: ``mods``
(packs that extend packs), ``printing`` (sheets from the tables) and ``tools`` (scaffold,
diff, scenarios). ``diagnostics`` is shared by every stage.

Every name below loads its module on first use, so ``import decklore.compiler`` is cheap
and a command imports only the stages it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decklore.compiler.build_output import staged_folder
    from decklore.compiler.cache import TableCache, default_cache_dir
    from decklore.compiler.diagnostics import (
        Diagnostic,
        Diagnostics,
        PackError,
        Severity,
        SourceCache,
        Span,
        render_all,
    )
    from decklore.compiler.diagnostics import to_json as diagnostics_to_json
    from decklore.compiler.emit import COMPILER_VERSION, canonical_bytes, write_atomic
    from decklore.compiler.pipeline import compile_pack
    from decklore.compiler.result import CompileResult, cached_compile, display_path

_EXPORTS = {
    "staged_folder": ("build_output", "staged_folder"),
    "COMPILER_VERSION": ("emit", "COMPILER_VERSION"),
    "CompileResult": ("result", "CompileResult"),
    "Diagnostic": ("diagnostics", "Diagnostic"),
    "Diagnostics": ("diagnostics", "Diagnostics"),
    "PackError": ("diagnostics", "PackError"),
    "Severity": ("diagnostics", "Severity"),
    "SourceCache": ("diagnostics", "SourceCache"),
    "Span": ("diagnostics", "Span"),
    "TableCache": ("cache", "TableCache"),
    "cached_compile": ("result", "cached_compile"),
    "canonical_bytes": ("emit", "canonical_bytes"),
    "compile_pack": ("pipeline", "compile_pack"),
    "default_cache_dir": ("cache", "default_cache_dir"),
    "diagnostics_to_json": ("diagnostics", "to_json"),
    "display_path": ("result", "display_path"),
    "render_all": ("diagnostics", "render_all"),
    "write_atomic": ("emit", "write_atomic"),
}
__all__ = [
    "COMPILER_VERSION",
    "CompileResult",
    "Diagnostic",
    "Diagnostics",
    "PackError",
    "Severity",
    "SourceCache",
    "Span",
    "TableCache",
    "cached_compile",
    "canonical_bytes",
    "compile_pack",
    "default_cache_dir",
    "diagnostics_to_json",
    "display_path",
    "render_all",
    "staged_folder",
    "write_atomic",
]


def lazy_getattr(package: str, exports: Mapping[str, tuple[str, str]],
                 namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` (PEP 562) of a facade ``package`` whose public names are
    ``name: (module, attribute)``: load the module on first use, keep the value. Every
    stage's ``__init__`` takes its ``__getattr__`` from here."""

    def __getattr__(name: str) -> Any:
        try:
            module, attribute = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(import_module(f"{package}.{module}"), attribute)
        namespace[name] = value
        return value

    return __getattr__


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
