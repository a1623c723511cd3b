"""The decklore compiler: packs of YAML cards and rules in, canonical runtime tables out.

The pipeline, one module per stage: ``yaml_loader`` (strict, located YAML) ->
``schema_check`` (JSON Schema, errors at YAML positions) -> ``manifest`` (pack.yaml) ->
``symbol_notation`` (Lark) and ``decks`` (card rows) -> ``checks`` (pack-wide) ->
``emit`` (canonical JSON), driven by ``pipeline.compile_pack``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decklore.compiler.cache import TableCache, default_cache_dir
    from decklore.compiler.diagnostics import (
        Diagnostic,
        Diagnostics,
        PackError,
        Severity,
        SourceCache,
        Span,
    )
    from decklore.compiler.emit import canonical_bytes, write_atomic
    from decklore.compiler.pipeline import COMPILER_VERSION, compile_pack
    from decklore.compiler.result import CompileResult

_HOMES = {
    "TableCache": "cache", "default_cache_dir": "cache", "Diagnostic": "diagnostics",
    "Diagnostics": "diagnostics", "PackError": "diagnostics", "Severity": "diagnostics",
    "SourceCache": "diagnostics", "Span": "diagnostics", "canonical_bytes": "emit",
    "write_atomic": "emit", "COMPILER_VERSION": "pipeline", "compile_pack": "pipeline",
    "CompileResult": "result",
}
"""Where each name of the facade lives.  They are imported when first used, so that a
command needing only the cache (a validate that hits it) does not load the parsers and
checkers."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
    "canonical_bytes",
    "compile_pack",
    "default_cache_dir",
    "write_atomic",
]
