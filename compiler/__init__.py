"""The decklore compiler: packs of YAML cards and rules in, canonical runtime tables out.

The pipeline, one module per stage: ``yaml_loader`` (strict, located YAML) ->
``schema_check`` (JSON Schema, errors at YAML positions) -> ``manifest`` (pack.yaml) ->
``symbol_notation`` (Lark) and ``decks`` (card rows) -> ``checks`` (pack-wide) ->
``emit`` (canonical JSON), driven by ``pipeline.compile_pack``.
"""

from __future__ import annotations

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
from decklore.compiler.pipeline import COMPILER_VERSION, CompileResult, compile_pack

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
