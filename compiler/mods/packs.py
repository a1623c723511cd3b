"""Which packs a pack needs, where they are, and the one order they load in.

A mod names its relations in ``pack.yaml``: ``extends`` (the pack it modifies), ``requires``
(with version ranges), ``optional``, ``conflicts`` and ``load_after``.  The load order is
computed from the manifests alone: every pack after the packs it needs, ties broken by pack
id, so the order never depends on file names or on the order folders are listed in.  Cycles,
missing packs, versions out of range and conflicts are errors placed on the relation that
causes them.

Packs are looked for next to the pack being compiled (its parent folder), then in the
folders of ``DECKLORE_PACK_PATH``, then among the packs bundled with decklore.
"""

from __future__ import annotations

import heapq
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.manifest import Manifest, load_manifest
from decklore.compiler.load.yaml_loader import LocatedDict, load_file
from decklore.compiler.result import RELATION_KEYS


@dataclass
class Layer:
    """One pack of a load order: its manifest, its folder, and how messages show it."""

    manifest: Manifest
    folder: Path
    shown: str
    needs: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.manifest.id


def search_folders(root: Path) -> list[Path]:
    """Where packs are looked for, first match first."""
    folders = [root.resolve().parent]
    for entry in os.environ.get("DECKLORE_PACK_PATH", "").split(os.pathsep):
        if entry.strip():
            folders.append(Path(entry).expanduser())
    from decklore.cards import bundled_root

    bundled = bundled_root()
    if bundled is not None:
        folders.append(bundled)
    return folders


def _shown(folder: Path) -> str:
    """A folder as messages show it: relative to the working folder when that is shorter."""
    relative = Path(os.path.relpath(folder, Path.cwd())).as_posix()
    return relative if len(relative) < len(folder.as_posix()) else folder.as_posix()


def index_packs(folders: list[Path]) -> dict[str, list[Path]]:
    """Pack id -> the folders holding a pack with that id, in search order."""
    found: dict[str, list[Path]] = {}
    seen: set[Path] = set()
    for folder in folders:
        if not folder.is_dir():
            continue
        for child in sorted(folder.iterdir()):
            manifest = child / "pack.yaml"
            real = child.resolve()
            if real in seen or not manifest.is_file():
                continue
            seen.add(real)
            scratch = Diagnostics()
            data = load_file(manifest, str(manifest), scratch).data
            if isinstance(data, LocatedDict) and isinstance(data.get("id"), str):
                found.setdefault(data["id"], []).append(child)
    return found


def _version_ok(version: str, wanted: str | None) -> bool | None:
    """Whether a version is in a range; None when either cannot be read."""
    if not wanted or wanted.strip() == "*":
        return True
    try:
        return Version(version) in SpecifierSet(wanted.replace(" ", ""))
    except (InvalidSpecifier, InvalidVersion):
        return None


def _relations(m: Manifest, key: str) -> list[tuple[str, str | None, Span]]:
    raw: Any = m.raw
    items: Any = raw.get(key) or []
    out: list[tuple[str, str | None, Span]] = []
    for index, item in enumerate(items):
        span = items.item_span(index)
        if isinstance(item, str):
            out.append((item, None, span))
        else:
            out.append((item["id"], item.get("version"), span))
    return out


def load_order(root: Path, shown: str, diags: Diagnostics) -> list[Layer] | None:
    """The packs to load for the pack at ``root``, the packs it needs first, it last."""
    top = load_manifest(root, shown, diags)
    if top is None:
        return None
    layers: dict[str, Layer] = {top.id: Layer(top, root, shown)}
    if not _has_relations(top):
        return [layers[top.id]]
    index = index_packs(search_folders(root))
    index.setdefault(top.id, [root])
    pending = [top.id]
    from decklore.cards import bundled_root

    bundled = bundled_root()
    bundled_folder = bundled.resolve() if bundled is not None else None
    while pending:
        layer = layers[pending.pop(0)]
        m = layer.manifest
        wanted: list[tuple[str, str | None, Span, bool]] = []
        if m.extends:
            wanted.append((m.extends, None, m.raw.value_span("extends"), True))
        wanted += [(i, v, s, True) for i, v, s in _relations(m, "requires")]
        wanted += [(i, v, s, False) for i, v, s in _relations(m, "optional")]
        for pack_id, version, span, hard in wanted:
            if pack_id == m.id:
                diags.error("E160", f"pack '{m.id}' cannot need itself", span,
                            "remove this entry")
                continue
            if pack_id not in layers:
                folders = index.get(pack_id)
                if not folders:
                    if hard:
                        diags.error("E161", f"pack '{pack_id}' is not found", span,
                                    suggest(pack_id, index) or "put the pack's folder next "
                                    "to this one, or add its parent folder to "
                                    "DECKLORE_PACK_PATH")
                    continue
                mine = [f for f in folders if f.resolve().parent != bundled_folder]
                if len(mine) > 1:  # a copy of a bundled pack just takes its place
                    folders = mine
                    diags.warning("W170", f"two folders hold pack '{pack_id}'; using "
                                  f"{_shown(folders[0])}", span,
                                  f"the other is {_shown(folders[1])}: remove one, or "
                                  "change the order of DECKLORE_PACK_PATH")
                dep_shown = _shown(folders[0])
                dep = load_manifest(folders[0], dep_shown, diags)
                if dep is None:
                    continue
                if dep.id != pack_id:  # pragma: no cover - the index read the same file
                    continue
                layers[pack_id] = Layer(dep, folders[0], dep_shown)
                pending.append(pack_id)
            found = layers[pack_id].manifest
            ok = _version_ok(found.version, version)
            if ok is None:
                diags.error("E162", f"cannot read the version range '{version}'", span,
                            "write comparisons joined by commas, such as '>=1.0, <2'")
            elif not ok:
                diags.error("E162", f"pack '{m.id}' needs {pack_id} {version}, but "
                            f"{pack_id} is version {found.version}", span,
                            f"update {pack_id}, or widen the range",
                            notes=[(found.raw.value_span("version"), "the version found")])
            if pack_id not in layer.needs:
                layer.needs.append(pack_id)
    for layer in layers.values():
        for pack_id, version, span in _relations(layer.manifest, "conflicts"):
            other = layers.get(pack_id)
            if other is not None and _version_ok(other.manifest.version, version):
                reason = next((item.get("reason") for item in layer.manifest.raw["conflicts"]
                               if not isinstance(item, str) and item["id"] == pack_id), None)
                diags.error("E163", f"pack '{layer.id}' conflicts with '{pack_id}', which is "
                            "loaded too" + (f": {reason}" if reason else ""), span,
                            f"load only one of {layer.id} and {pack_id}",
                            notes=[(other.manifest.raw.value_span("id"), "loaded here")])
        for pack_id, _, _ in _relations(layer.manifest, "load_after"):
            if pack_id in layers and pack_id not in layer.needs:
                layer.needs.append(pack_id)
    if diags.has_errors:
        return None
    return _sort(layers, diags)




def _has_relations(m: Manifest) -> bool:
    raw: Any = m.raw
    return any(raw.get(k) for k in RELATION_KEYS)


def _sort(layers: dict[str, Layer], diags: Diagnostics) -> list[Layer] | None:
    """Kahn's algorithm with a heap: the smallest id among the packs that are ready."""
    waiting = {pid: set(layer.needs) for pid, layer in layers.items()}
    ready = [pid for pid, needs in waiting.items() if not needs]
    heapq.heapify(ready)
    order: list[Layer] = []
    while ready:
        pid = heapq.heappop(ready)
        order.append(layers[pid])
        for other, needs in waiting.items():
            if pid in needs:
                needs.discard(pid)
                if not needs:
                    heapq.heappush(ready, other)
        waiting[pid] = {"-done-"}
    if len(order) == len(layers):
        return order
    ordered = {layer.id for layer in order}
    stuck = sorted(pid for pid in layers if pid not in ordered)
    cycle = _cycle(layers, stuck)
    first = layers[cycle[0]].manifest
    span = _relation_span(first, cycle[1])
    diags.error("E164", "the packs need each other in a circle: " + " → ".join(cycle),
                span, "one of these relations must go (a pack cannot load before itself)",
                notes=[(_relation_span(layers[a].manifest, b), f"{a} needs {b}")
                       for a, b in itertools.pairwise(cycle[1:])])
    return None


def _cycle(layers: dict[str, Layer], stuck: list[str]) -> list[str]:
    start = stuck[0]
    path = [start]
    while True:
        nxt = min(n for n in layers[path[-1]].needs if n in stuck)
        if nxt in path:
            return [*path[path.index(nxt):], nxt]
        path.append(nxt)


def _relation_span(m: Manifest, target: str) -> Span:
    raw: LocatedDict = m.raw
    if raw.get("extends") == target:
        return raw.value_span("extends")
    for key in ("requires", "optional", "load_after"):
        for pid, _, span in _relations(m, key):
            if pid == target:
                return span
    return raw.span
