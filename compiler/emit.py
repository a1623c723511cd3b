"""Build the runtime tables from the checked stages and write them as canonical JSON.

``build_tables`` assembles the tables from the merged manifest, the compiled decks and the
rules IR, every row keeping the place it came from; ``seal`` adds the content hash and
encodes them, so the same pack gives the same bytes, anywhere.

Canonical means sorted keys, no insignificant whitespace, UTF-8, a final newline, and no
floats (the schema admits none).  The content hash covers everything but itself, so a
runtime can tell a table that was edited by hand from one the compiler wrote.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only named in annotations: writing tables must not load the stages
    from decklore.compiler.diagnostics import Span
    from decklore.compiler.load.decks import DeckData
    from decklore.compiler.load.manifest import Manifest

TABLES_FORMAT_VERSION = 1
COMPILER_VERSION: str
"""The decklore that writes the tables (from the package metadata: defined once, in
pyproject.toml); ``__getattr__`` gives it."""


@cache
def compiler_version() -> str:
    """``COMPILER_VERSION``, read on first use: importing ``importlib.metadata`` costs more
    than the whole of a validate whose tables are cached, and only writing tables needs it.

    Even then it costs 20 ms of a cold validate (it loads the ``email`` package to read
    one header), so the metadata file is looked up here the way ``importlib.metadata``
    looks it up, and ``importlib.metadata`` answers only where that finds nothing."""
    found = _version_on_path("decklore")
    if found is not None:
        return found
    from importlib.metadata import version

    return version("decklore")


def _normal(name: str) -> str:
    """A distribution name as ``importlib.metadata`` compares them."""
    import re

    return re.sub(r"[-_.]+", "_", name).lower()


def _version_on_path(name: str) -> str | None:
    """The ``Version`` of the first distribution named ``name`` on ``sys.path``, or None.

    As ``importlib.metadata`` searches: path entries in order (the empty one is the current
    folder), in each the first ``NAME-VERSION.dist-info`` or ``NAME[-...].egg-info`` it
    lists; the version is the ``Version:`` header of its ``METADATA`` (or ``PKG-INFO``).  Anything
    unusual (a zip archive on the path, an unreadable file, no header) gives None."""
    import sys

    for entry in sys.path:
        if os.path.isfile(entry):  # a zip archive: left to importlib.metadata
            return None
        try:
            children = os.listdir(entry or ".")
        except OSError:
            continue
        found = [c for c in children if c.lower().endswith((".dist-info", ".egg-info"))
                 and _normal(c.lower().rpartition(".")[0].partition("-")[0]) == name]
        for folder in found:
            for meta in ("METADATA", "PKG-INFO"):
                try:
                    text = Path(entry or ".", folder, meta).read_text(encoding="utf-8")
                except OSError:
                    continue
                for line in text.split("\n"):
                    if not line.strip():
                        return None  # the headers ended without a version
                    if line.startswith("Version:"):
                        return line.removeprefix("Version:").strip() or None
                return None
            return None
    return None


def __getattr__(name: str) -> Any:
    if name == "COMPILER_VERSION":
        return compiler_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def canonical_bytes(obj: Any) -> bytes:
    """The canonical JSON encoding used for tables and their hash."""
    return (json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                       allow_nan=False) + "\n").encode("utf-8")


def content_hash(tables: dict[str, Any]) -> str:
    body = {k: v for k, v in tables.items() if k != "content_hash"}
    return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def seal(tables: dict[str, Any]) -> bytes:
    """Add the content hash and return the canonical bytes to write.

    Equal to ``canonical_bytes(tables)`` after setting ``content_hash``, but each top-level
    value is encoded once, not twice: large packs spend most of emit time encoding.
    """
    encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False).encode
    parts = {k: f"{encode(k)}:{encode(v)}" for k, v in tables.items() if k != "content_hash"}
    body = "{" + ",".join(parts[k] for k in sorted(parts)) + "}\n"
    digest = "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()
    tables["content_hash"] = digest
    parts["content_hash"] = f"{encode('content_hash')}:{encode(digest)}"
    return ("{" + ",".join(parts[k] for k in sorted(parts)) + "}\n").encode("utf-8")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the new one, never half.

    A character device such as ``/dev/null`` is written to, never replaced: renaming a
    temporary file over it would turn the machine's device into a plain file (as root).
    Any other file that is not a regular one is refused."""
    import tempfile  # only a write needs it, and a cached validate writes nothing

    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):  # new, or its folder can't be: below
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISCHR(mode):
            with open(path, "wb") as device:
                device.write(data)
            return
        raise IsADirectoryError(errno.EISDIR, "not a regular file", str(path)) \
            if stat.S_ISDIR(mode) else OSError(errno.EINVAL, "not a regular file", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                               dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files of earlier writes of ``path`` whose process was killed.

    Their names carry the writer's process id (``.NAME.PID.XXXX.tmp``), so a write still
    under way in another process is left alone.
    """
    from decklore.compiler.build_output import pid_alive

    for entry in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        middle = entry.name[len(path.name) + 2:].split(".", 1)[0]
        if middle.isdigit() and not pid_alive(int(middle)) and entry.is_file():
            entry.unlink(missing_ok=True)


def glob_escape(name: str) -> str:
    """``name`` with glob's special characters taken literally."""
    import glob

    return glob.escape(name)


def build_tables(manifest: Manifest, decks: list[DeckData],
                 rules: dict[str, Any] | None = None,
                 layers: list[Any] | None = None) -> dict[str, Any]:
    """The runtime tables: plain data, every row carrying the place it came from."""
    m = manifest

    prefix = m.file.removesuffix("pack.yaml")
    places = [(f"{layer.shown}/", layer.id) for layer in layers or []]

    def origin(span: Span) -> dict[str, Any]:
        for start, pack in places:
            if span.file.startswith(start):
                return {"pack": pack, "file": span.file.removeprefix(start),
                        "line": span.line}
        return {"pack": m.id, "file": span.file.removeprefix(prefix), "line": span.line}

    return {
        "format_version": TABLES_FORMAT_VERSION,
        "compiler": f"decklore {compiler_version()}",
        "pack": {
            "id": m.id,
            "name": m.name,
            "version": m.version,
            "description": " ".join(m.description.split()),
            "players": {"min": m.players[0], "max": m.players[1],
                        **({"automated": {str(k): v for k, v in sorted(m.automated.items())}}
                           if m.automated else {})},
            **m.meta,
        },
        "packs": [{"id": layer.id, "version": layer.manifest.version}
                  for layer in layers] if layers else [{"id": m.id, "version": m.version}],
        "symbols": [
            {
                "id": m.qualify(s.id), "name": s.name, "kind": s.kind, "meaning": s.meaning,
                "argument": s.argument, "receiver": s.receiver, "color": s.color,
                "icon_svg": s.icon, "origin": origin(s.span),
            }
            for s in m.symbols.values()
        ],
        "card_kinds": [
            {k: v for k, v in kind.items() if k != "_span"} | {"origin": origin(kind["_span"])}
            for kind in m.kinds.values()
        ],
        "card_fields": [
            {
                "name": f.name, "type": f.type, "label": f.label, "description": f.description,
                "min": f.min, "max": f.max, "values": list(f.values), "default": f.default,
                "required": f.required, "face": f.face,
            } | ({"icon": f.icon} if f.icon else {}) | ({"short": f.short} if f.short else {})
            for f in m.fields.values()
        ],
        "stacking": m.stacking,
        "deck_rules": [
            {"id": r.id, "description": r.description, "decks_tagged": r.tag, "kind": r.kind,
             "exactly": r.exactly, "min": r.min, "max": r.max}
            for r in m.deck_rules
        ],
        "decks": [d.row for d in decks],
        "cards": [c for d in decks for c in d.cards],
        "rules": rules,
        "ai": _plain_ai(m),
        **({"balance": _plain(m.balance)} if m.balance else {}),
        **({"boards": _plain(m.boards)} if m.boards else {}),
        "renamed": _renamed(layers or [], m),
    }


def _renamed(layers: list[Any], m: Manifest) -> dict[str, str]:
    """Every pack's old ids mapped to their new ones, both qualified by the pack's id."""
    out: dict[str, str] = {}
    for manifest in [layer.manifest for layer in layers] or [m]:
        for old, new in ((manifest.raw or {}).get("renamed") or {}).items():
            out[manifest.qualify(str(old))] = manifest.qualify(str(new))
    return dict(sorted(out.items()))


def _plain(value: Any) -> Any:
    """Loaded YAML (located dicts and lists) as plain JSON data."""
    return json.loads(json.dumps(value))


def _plain_ai(m: Manifest) -> dict[str, Any] | None:
    if not m.ai:
        return None
    weights = m.ai.get("weights") or {}
    out: dict[str, Any] = {}
    for group in ("counters", "zones", "defines"):
        out[group] = dict(sorted((weights.get(group) or {}).items()))
    out["symbols"] = dict(sorted((m.qualify(k), v)
                                 for k, v in (weights.get("symbols") or {}).items()))
    out["opponents"] = weights.get("opponents", 100)
    return {"weights": out}
