"""The packs bundled with decklore (ERA first), shipped as package data."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

BUNDLED = ("era", "renaissance", "era-of-kingdoms", "era-of-kingdoms-trade-route",
           "era-deck-race", "rise-of-empires", "embers-of-empire")


def bundled_pack(name: str) -> Path | None:
    """The folder of a bundled pack, when decklore is installed as a regular package."""
    root = files(__package__) / name
    if name not in BUNDLED or not root.is_dir():
        return None
    with as_file(root) as path:
        folder = Path(path)
    # A development install (pip install -e, strict mode) links each file to the source
    # tree; the pack's real folder is where its manifest really lives, and reading it
    # there keeps every path inside the pack.
    manifest = folder / "pack.yaml"
    if manifest.is_symlink():
        return manifest.resolve().parent
    return folder


def bundled_root() -> Path | None:
    """The folder holding the bundled packs (for finding the packs a mod builds on)."""
    era = bundled_pack(BUNDLED[0])
    return None if era is None else era.parent
