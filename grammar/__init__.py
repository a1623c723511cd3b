"""The Lark grammars of decklore's notations, shipped beside this module.

They are read from this package's folder (decklore is installed as files, never zipped):
importing ``importlib.resources`` for it would cost a compile more than reading them.
"""

from __future__ import annotations

from pathlib import Path


def grammar_text(name: str) -> str:
    """The text of ``<name>.lark`` shipped in this package."""
    return (Path(__file__).parent / f"{name}.lark").read_text(encoding="utf-8")
