"""Load compiled tables with the standard library only, and expose them read-only.

This is the contract between compiler and runtime: a JSON document with a
``format_version`` this module understands and a ``content_hash`` it verifies.  The runtime
never imports the compiler, YAML, Lark, jsonschema or Jinja, so tables can be shipped and
played without the pack sources.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

SUPPORTED_FORMAT_VERSIONS = (1,)


class TablesError(Exception):
    """The file is not tables this runtime can use; the message says why and what to do."""


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


class Card(Mapping[str, Any]):
    """One card's row, read-only: core fields, the pack's declared fields, and its origin."""

    __slots__ = ("_row",)

    def __init__(self, row: Mapping[str, Any]) -> None:
        self._row = row

    def __getitem__(self, key: str) -> Any:
        return self._row[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._row)

    def __len__(self) -> int:
        return len(self._row)

    @property
    def id(self) -> str:
        return str(self._row["id"])

    @property
    def name(self) -> str:
        return str(self._row["name"])

    @property
    def origin(self) -> str:
        """Where the card is defined, as ``pack/file:line`` for messages."""
        o = self._row["origin"]
        return f"{o['file']}:{o['line']}"

    def __repr__(self) -> str:
        return f"Card({self.id!r})"


class Tables:
    """A loaded, verified set of tables."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.cards: tuple[Card, ...] = tuple(Card(row) for row in raw["cards"])
        self._by_id = {card.id: card for card in self.cards}
        self.decks: tuple[Mapping[str, Any], ...] = tuple(raw["decks"])
        self.symbols: tuple[Mapping[str, Any], ...] = tuple(raw["symbols"])

    @property
    def format_version(self) -> int:
        return int(self.raw["format_version"])

    @property
    def content_hash(self) -> str:
        return str(self.raw["content_hash"])

    @property
    def pack(self) -> Mapping[str, Any]:
        pack: Mapping[str, Any] = self.raw["pack"]
        return pack

    def card(self, card_id: str) -> Card:
        try:
            return self._by_id[card_id]
        except KeyError:
            raise KeyError(f"no card {card_id!r} in pack {self.pack['id']!r}") from None

    def deck_cards(self, deck_id: str) -> tuple[Card, ...]:
        for deck in self.decks:
            if deck["id"] == deck_id:
                return tuple(self._by_id[c] for c in deck["cards"])
        raise KeyError(f"no deck {deck_id!r} in pack {self.pack['id']!r}")


def _canonical(obj: Any) -> bytes:
    return (json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            + "\n").encode("utf-8")


def loads_tables(data: bytes | str, *, verify: bool = True) -> Tables:
    """Tables from JSON text; checks the format version and, unless told not to, the hash."""
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise TablesError(f"not a tables file: invalid JSON ({exc})") from None
    if not isinstance(raw, dict) or "format_version" not in raw:
        raise TablesError("not a tables file: no format_version; compile the pack with "
                          "'decklore compile'")
    version = raw["format_version"]
    if version not in SUPPORTED_FORMAT_VERSIONS:
        raise TablesError(f"tables have format version {version}, this decklore reads "
                          f"{', '.join(map(str, SUPPORTED_FORMAT_VERSIONS))}; recompile the "
                          "pack with this decklore")
    if verify:
        body = {k: v for k, v in raw.items() if k != "content_hash"}
        expected = "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()
        if raw.get("content_hash") != expected:
            raise TablesError("tables content hash does not match: the file was changed after "
                              "it was compiled; recompile the pack")
    return Tables(_freeze(raw))


def load_tables(path: Path | str, *, verify: bool = True) -> Tables:
    """Load tables from a file written by ``decklore compile``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise TablesError(f"cannot read tables {path}: {exc.strerror}") from None
    return loads_tables(data, verify=verify)
