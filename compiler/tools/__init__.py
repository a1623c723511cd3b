"""Designer tools beside the pipeline: new packs and mods from the starter, table diffs, and
the scenario runner (the one compiler module that drives the runtime).

The names below are the stage's public interface; each loads its module on first use, so
importing the facade costs nothing and the stages may import one another without cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.compiler import lazy_getattr

if TYPE_CHECKING:
    from decklore.compiler.tools.diff import diff_tables
    from decklore.compiler.tools.diff import to_text as diff_to_text
    from decklore.compiler.tools.scaffold import ScaffoldError, new_mod, new_pack, pack_id
    from decklore.compiler.tools.scenarios import (
        ScenarioError,
        compiled_tables,
        find_scenarios,
        run_file,
    )

_EXPORTS = {
    "ScaffoldError": ("scaffold", "ScaffoldError"),
    "ScenarioError": ("scenarios", "ScenarioError"),
    "compiled_tables": ("scenarios", "compiled_tables"),
    "diff_tables": ("diff", "diff_tables"),
    "diff_to_text": ("diff", "to_text"),
    "find_scenarios": ("scenarios", "find_scenarios"),
    "new_mod": ("scaffold", "new_mod"),
    "new_pack": ("scaffold", "new_pack"),
    "pack_id": ("scaffold", "pack_id"),
    "run_file": ("scenarios", "run_file"),
}
__all__ = [
    "ScaffoldError",
    "ScenarioError",
    "compiled_tables",
    "diff_tables",
    "diff_to_text",
    "find_scenarios",
    "new_mod",
    "new_pack",
    "pack_id",
    "run_file",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
