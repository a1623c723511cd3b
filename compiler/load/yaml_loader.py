"""Strict YAML loading: plain Python data that remembers where every key and value came from.

Packs may come from strangers, so this loader is deliberately narrower than YAML:
anchors, aliases and explicit tags are refused (no billion-laughs, no object construction),
duplicate keys are errors, files and nesting are size-limited, and plain scalars are typed
by the YAML 1.2 core schema, so ``on``, ``no``, ``1:30`` and ``2024-01-01`` stay strings.

It reads libyaml's event stream directly rather than composing PyYAML nodes: that is several
times faster than ``CSafeLoader`` and gives every value its line and column for free
(see ``benchmarks/compile_scaling.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from decklore.compiler.diagnostics import Diagnostics, Span
from decklore.compiler.load.safe_io import MAX_FILE_BYTES, FileTooLargeError, read_regular

try:  # libyaml is the fast path; the pure-Python parser gives the same events.
    from yaml._yaml import CParser as _Parser

    HAVE_LIBYAML = True
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader as _Reader
    from yaml.scanner import Scanner as _Scanner

    class _Parser(_Reader, _Scanner, _PyParser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            _Reader.__init__(self, stream)
            _Scanner.__init__(self)
            _PyParser.__init__(self)

    HAVE_LIBYAML = False

"""Largest pack file accepted; a 1,000-card deck file is about 350 KB."""
MAX_DEPTH = 64
MAX_INT_DIGITS = 18
"""Integers longer than this are refused: no game value needs them, and they cost memory."""

# (line, column, end_line, end_column), 1-based: kept as tuples, made into Spans on demand.
Pos = tuple[int, int, int, int]


class LocatedDict(dict[str, Any]):
    """A mapping from YAML that knows the position of itself, each key and each value."""

    __slots__ = ("file", "key_pos", "pos", "value_pos")

    def __init__(self, file: str, pos: Pos) -> None:
        super().__init__()
        self.file = file
        self.pos = pos
        self.key_pos: dict[str, Pos] = {}
        self.value_pos: dict[str, Pos] = {}

    @property
    def span(self) -> Span:
        return Span(self.file, *self.pos)

    def key_span(self, key: str) -> Span:
        return Span(self.file, *self.key_pos.get(key, self.pos))

    def value_span(self, key: str) -> Span:
        return Span(self.file, *self.value_pos.get(key, self.pos))


class LocatedList(list[Any]):
    """A sequence from YAML that knows the position of itself and of each item."""

    __slots__ = ("file", "item_pos", "pos")

    def __init__(self, file: str, pos: Pos) -> None:
        super().__init__()
        self.file = file
        self.pos = pos
        self.item_pos: list[Pos] = []

    @property
    def span(self) -> Span:
        return Span(self.file, *self.pos)

    def item_span(self, index: int) -> Span:
        if 0 <= index < len(self.item_pos):
            return Span(self.file, *self.item_pos[index])
        return self.span


def child_span(container: Any, key: str | int) -> Span | None:
    """The span of ``container[key]`` if the container came from this loader."""
    if isinstance(container, LocatedDict) and isinstance(key, str):
        return container.value_span(key)
    if isinstance(container, LocatedList) and isinstance(key, int):
        return container.item_span(key)
    return None


def span_at(root: Any, path: list[str | int] | tuple[str | int, ...]) -> Span | None:
    """Follow a JSON path from ``root`` and return the deepest position known."""
    node = root
    span = node.span if isinstance(node, LocatedDict | LocatedList) else None
    for step in path:
        here = child_span(node, step)
        if here is None:
            break
        span = here
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return span


_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_SPECIAL: dict[str, Any] = {
    "": None, "~": None, "null": None, "Null": None, "NULL": None,
    "true": True, "True": True, "TRUE": True,
    "false": False, "False": False, "FALSE": False,
    ".inf": float("inf"), ".Inf": float("inf"), ".INF": float("inf"),
    "+.inf": float("inf"), "+.Inf": float("inf"), "+.INF": float("inf"),
    "-.inf": float("-inf"), "-.Inf": float("-inf"), "-.INF": float("-inf"),
    ".nan": float("nan"), ".NaN": float("nan"), ".NAN": float("nan"),
}  # fmt: skip


class _TooBig(Exception):
    pass


def _plain(text: str) -> Any:
    """Type a plain scalar by the YAML 1.2 core schema (never the 1.1 surprises)."""
    if text in _SPECIAL:
        return _SPECIAL[text]
    first = text[0]
    if not (first.isdigit() or first in "+-."):
        return text
    if _INT.match(text):
        if len(text.lstrip("+-")) > MAX_INT_DIGITS:
            raise _TooBig
        return int(text, 10)
    if _OCT.match(text) or _HEX.match(text):
        if len(text) - 2 > MAX_INT_DIGITS:
            raise _TooBig
        return int(text[2:], 8 if text[1] == "o" else 16)
    if _FLOAT.match(text):
        return float(text)
    return text


@dataclass
class LoadedFile:
    """A parsed file: its data (``None`` if unreadable) and its text for error snippets."""

    path: str
    data: Any
    text: str
    read: bool = True
    has_floats: bool = False
    """Whether a float with a whole value (``2.0``) is in the file: the fast schema gate,
    like JSON Schema, counts it as an integer where decklore does not, so such a file skips
    the gate. Other floats (``0.45``) fail an integer in both, and keep the gate."""


def read_text(path: Path, display: str, diags: Diagnostics) -> str | None:
    """Read a pack file as UTF-8, refusing oversized or undecodable files with a diagnostic.

    Only regular files are read (a FIFO or a device named like a pack file is an error, not
    a hang), and the size is checked on the open file before reading.
    """
    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except FileTooLargeError as exc:
        diags.error("E002", f"file is too large ({exc.size:,} bytes; the limit is "
                    f"{MAX_FILE_BYTES:,})", Span(display, 1, 1),
                    "split the cards across several deck files")
        return None
    except OSError as exc:
        diags.error("E001", f"cannot read file: {exc.strerror}", Span(display, 1, 1),
                    "check that the file exists and is readable")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        diags.error("E003", f"file is not valid UTF-8 (byte {exc.start})", Span(display, 1, 1),
                    "save the file with UTF-8 encoding")
        return None


def load_file(path: Path, display: str, diags: Diagnostics) -> LoadedFile:
    """Load one YAML file; problems become diagnostics and the data is ``None``."""
    text = read_text(path, display, diags)
    if text is None:
        return LoadedFile(display, None, "", read=False)
    data, has_floats = _parse(text, display, diags)
    return LoadedFile(display, data, text, has_floats=has_floats)


def load_text(text: str, display: str, diags: Diagnostics) -> Any:
    """Parse YAML text into located data, reporting every strictness violation found."""
    return _parse(text, display, diags)[0]


def _parse(text: str, display: str, diags: Diagnostics) -> tuple[Any, bool]:
    """The located data and whether it holds a whole float (see ``LoadedFile.has_floats``)."""
    builder = _Builder(display, diags)
    try:
        return builder.build(text), builder.floats
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if "nesting depth" in problem:  # newer libyaml stops deep nesting itself
            diags.error("E013", f"nesting is too deep (more than {MAX_DEPTH} levels)",
                        Span(display, line, col), "flatten the structure")
            return None, False
        diags.error("E010", f"YAML syntax error: {problem}", Span(display, line, col),
                    "check indentation, colons and quotes around this place")
        return None, False
    except yaml.reader.ReaderError as exc:  # control characters and the like
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        diags.error("E010", f"YAML syntax error: the control character {char!r} is not allowed",
                    Span(display, line, column), "remove the character, or write it as an "
                    "escape inside double quotes")
        return None, False
    except yaml.YAMLError as exc:
        diags.error("E010", f"YAML syntax error: {exc}", Span(display, 1, 1),
                    "check the file's YAML")
        return None, False



class _Builder:
    """Turns libyaml events into ``LocatedDict``/``LocatedList`` trees, checking as it goes."""

    def __init__(self, file: str, diags: Diagnostics) -> None:
        self.file = file
        self.diags = diags
        self.floats = False

    def _span(self, event: Any) -> Span:
        s, e = event.start_mark, event.end_mark
        return Span(self.file, s.line + 1, s.column + 1, e.line + 1, e.column + 1)

    def build(self, text: str) -> Any:
        parser = _Parser(text)
        get: Any = parser.get_event
        file = self.file
        diags = self.diags
        get()  # StreamStart
        event: Any = get()
        if isinstance(event, yaml.StreamEndEvent):
            return None  # an empty file is an empty document
        root: Any = None
        # A stack of open containers: (container, pending key or None, key position).
        stack: list[list[Any]] = []
        documents = 0
        # The loop runs once per event, 190,000 times for 10,000 cards: the event classes
        # and helpers are local names, and the common events are tested first.
        scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
        mapping_start, sequence_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
        mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
        document_start, document_end = yaml.DocumentStartEvent, yaml.DocumentEndEvent
        special, plain = _SPECIAL, _plain
        while True:
            cls = type(event)
            value: Any
            pos: Pos
            if cls is scalar_event:
                s, e = event.start_mark, event.end_mark
                pos = (s.line + 1, s.column + 1, e.line + 1, e.column + 1)
                tag = event.tag
                if event.anchor is not None or (tag is not None and tag != "!"):
                    self._refuse(event)
                text = event.value
                if event.style or tag == "!":  # YAML 1.2: '! 12' is the text "12"
                    value = text
                elif text in special:
                    value = special[text]
                elif not (text[0].isdigit() or text[0] in "+-."):
                    value = text  # what _plain would say, without the call
                elif text.isascii() and text.isdigit() and len(text) <= MAX_INT_DIGITS:
                    value = int(text)  # likewise, for the commonest number
                else:
                    try:
                        value = plain(text)
                        if type(value) is float and value.is_integer():
                            self.floats = True
                    except _TooBig:
                        diags.error("E014", f"number '{text[:30]}' is too large "
                                    f"(more than {MAX_INT_DIGITS} digits)", self._span(event),
                                    "use a smaller number, or quote it to make it text")
                        value = 0
            elif cls is mapping_start or cls is sequence_start:
                if event.anchor is not None or (event.tag is not None and event.tag != "!"):
                    self._refuse(event)
                s = event.start_mark
                pos = (s.line + 1, s.column + 1, s.line + 1, s.column + 1)
                if len(stack) >= MAX_DEPTH:
                    diags.error("E013", f"nesting is too deep (more than {MAX_DEPTH} levels)",
                                self._span(event), "flatten the structure")
                    return None
                container: Any = (LocatedDict(file, pos) if cls is mapping_start
                                  else LocatedList(file, pos))
                stack.append([container, None, None])
                event = get()
                continue
            elif cls is mapping_end or cls is sequence_end:
                frame = stack.pop()
                value = frame[0]
                e = event.end_mark
                pos = value.pos
                value.pos = (pos[0], pos[1], e.line + 1, e.column + 1)
                pos = value.pos
            elif cls is document_start:
                documents += 1
                if documents == 2:
                    diags.error("E011", "a pack file holds one YAML document, this is a second",
                                self._span(event), "remove the '---' line or split the file")
                event = get()
                continue
            elif cls is document_end:
                event = get()
                continue
            elif cls is yaml.StreamEndEvent:
                break
            elif cls is alias_event:
                self._refuse(event)
                s, e = event.start_mark, event.end_mark
                pos = (s.line + 1, s.column + 1, e.line + 1, e.column + 1)
                value = None
            else:  # pragma: no cover - libyaml emits no other events
                raise AssertionError(f"unexpected YAML event {event!r}")

            if not stack:
                if documents <= 1:  # later documents were refused above; keep the first
                    root = value
                event = get()
                continue
            frame = stack[-1]
            parent = frame[0]
            if type(parent) is LocatedList:
                parent.append(value)
                parent.item_pos.append(pos)
            elif frame[1] is None:  # this value is a key
                if type(value) is str:
                    pass
                elif isinstance(value, LocatedDict | LocatedList):
                    diags.error("E012", "a key must be a plain name, not a mapping or a list",
                                Span(file, *pos), "write the key as text")
                    value = f"<complex key {pos[0]}:{pos[1]}>"
                else:
                    value = event.value if cls is scalar_event else str(value)
                frame[1] = value
                frame[2] = pos
            else:
                key = frame[1]
                if key in parent:
                    first = parent.key_pos[key]
                    diags.error("E015", f"duplicate key '{key}'", Span(file, *frame[2]),
                                "remove one of the two; YAML would silently keep the last",
                                notes=[(Span(file, *first), "first defined here")])
                else:
                    parent[key] = value
                    parent.key_pos[key] = frame[2]
                    parent.value_pos[key] = pos
                frame[1] = None
            event = get()
        return root

    def _refuse(self, event: Any) -> None:
        if isinstance(event, yaml.AliasEvent):
            self.diags.error("E016", f"aliases ('*{event.anchor}') are not allowed in packs",
                             self._span(event), "write the value out in full")
        elif event.anchor is not None:
            self.diags.error("E016", f"anchors ('&{event.anchor}') are not allowed in packs",
                             self._span(event),
                             "write values out in full; cards can share fields with 'extends'")
        else:
            tag = str(event.tag).replace("tag:yaml.org,2002:", "!!")
            self.diags.error("E017", f"YAML tags ('{tag}') are not allowed in packs",
                             self._span(event), "remove the tag; quote the value to make it text")
