"""The Lark grammars of decklore's notations, read with importlib.resources."""

from __future__ import annotations

from importlib.resources import files


def grammar_text(name: str) -> str:
    """The text of ``<name>.lark`` shipped in this package."""
    return (files(__package__) / f"{name}.lark").read_text(encoding="utf-8")
