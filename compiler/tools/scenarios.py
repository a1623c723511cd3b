"""Scenario tests: a position, scripted choices and the results the rules must give.

A scenario is a YAML file (``schema/scenario.schema.json``).  It names a pack, sets up a
position (cards in zones, stacks, tucked cards, counters, flags, whose turn and which phase),
then runs a script of choices, runs to a named phase, and checks.  It is how designers test
their rules without Python, and how decklore tests ERA against its rulebook's worked
examples (``cards/era/scenarios/``).

Everything wrong with a scenario file is reported with its ``file:line:col`` before it
runs; a check that fails is reported at the line of the check, with the expected and the
actual value.  The game itself comes from :mod:`decklore.runtime`, which knows nothing of
YAML: this module turns the file into calls on a :class:`~decklore.runtime.game.Game`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, PackError, Span, suggest
from decklore.compiler.load.schema_check import checker_for
from decklore.compiler.load.yaml_loader import LocatedDict, child_span, load_file
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.state import OUT, UNDER, StateError, decks_named
from decklore.runtime.tables import Tables, loads_tables
from decklore.schema import load_schema

_Fail = Callable[[Any, str | int, str], None]
"""Records one difference: the container and key the expectation sits at, and a message."""

TablesFor = Callable[[Path], Tables]


@dataclass
class Outcome:
    """The result of one scenario: its failures, each at the line of the step that failed."""

    path: str
    name: str
    failures: list[tuple[Span, str]] = field(default_factory=list)
    steps: int = 0

    @property
    def passed(self) -> bool:
        return not self.failures


class ScenarioError(Exception):
    """A step that cannot go on: the scenario stops there."""

    def __init__(self, span: Span, message: str) -> None:
        super().__init__(message)
        self.span = span
        self.message = message


def compiled_tables(pack: Path) -> Tables:
    """Compile a pack (through the cache) and load its tables for the runtime."""
    from decklore.compiler.cache import TableCache
    from decklore.compiler.pipeline import compile_pack

    return loads_tables(compile_pack(pack, cache=TableCache()).data)


def find_scenarios(paths: Iterable[Path]) -> list[Path]:
    """Scenario files under the given files and folders, in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        else:
            found.append(path)
    return found


def _pack_dir(value: str, scenario: Path) -> Path:
    path = (scenario.parent / value)
    if path.exists():
        return path
    from decklore.cards import bundled_pack

    return bundled_pack(value) or path


def run_file(path: Path, display: str | None = None,
             tables_for: TablesFor = compiled_tables) -> Outcome:
    """Load, check and run one scenario file.

    Raises :class:`PackError` when the file itself is malformed (or its pack does not
    compile); a scenario that runs but does not give the expected results is an
    :class:`Outcome` with failures.
    """
    shown = display or str(path)
    diags = Diagnostics()
    loaded = load_file(path, shown, diags)
    if loaded.data is not None and not diags.has_errors:
        checker_for(load_schema("scenario")).check(loaded.data, shown, diags,
                                                   gate=not loaded.has_floats)
    if diags.has_errors or loaded.data is None:
        raise PackError(diags.errors)
    data = loaded.data
    tables = tables_for(_pack_dir(str(data["pack"]), path))
    runner = _Runner(data, tables, shown)
    outcome = Outcome(shown, str(data["name"]))
    try:
        runner.setup()
    except ScenarioError as exc:
        diags.error("S100", exc.message, exc.span)
    except (RulesError, StateError) as exc:
        diags.error("S100", f"cannot set up the position: {exc}",
                    child_span(data, "start") or Span(shown, 1, 1))
    for problem in runner.problems:
        diags.error("S100", problem.message, problem.span)
    if diags.has_errors:
        raise PackError(diags.sorted())
    outcome.failures = runner.run()
    outcome.steps = runner.steps
    return outcome


class _Runner:
    def __init__(self, data: Any, tables: Tables, file: str) -> None:
        self.data = data
        self.tables = tables
        self.file = file
        self.prefix = f"{tables.pack['id']}:"
        self.game: Game | None = None
        self.placed: set[int] = set()
        self.log_start = 0
        self.steps = 0
        self.problems: list[ScenarioError] = []
        """Setup problems found so far: a position is checked whole before it stops."""

    # --- names --------------------------------------------------------------------------

    def span(self, container: Any, key: str | int) -> Span:
        return child_span(container, key) or Span(self.file, 1, 1)

    def key_span(self, container: Any, key: str) -> Span:
        """Where a mapping's key is written: for a key that names nothing."""
        if isinstance(container, LocatedDict) and key in container.key_pos:
            return container.key_span(key)
        return self.span(container, key)

    def card_id(self, ref: str, container: Any, key: str | int) -> str:
        full = ref if ":" in ref else self.prefix + ref
        if ":" not in ref:  # in a mod, a card of a pack below, by its own name
            found = [c["id"] for c in self.tables.raw["cards"]
                     if c["id"] == full or c["id"].split(":", 1)[1] == ref]
            if len(found) == 1:
                full = found[0]
        try:
            self.tables.card(full)
        except KeyError:
            short = [c["id"].split(":", 1)[1] for c in self.tables.raw["cards"]]
            raise ScenarioError(self.span(container, key), f"no card '{ref}' in "
                                f"{self.tables.pack['id']}" + _hint(ref, short)) from None
        return full

    def seat(self, text: str, container: Any) -> int:
        seat = int(text)
        assert self.game is not None
        if not 1 <= seat <= self.game.state.players:
            raise ScenarioError(self.key_span(container, text), f"seat {seat} does not exist: "
                                f"this game has {self.game.state.players} seats")
        return seat - 1

    def zone_spec(self, name: str, container: Any) -> dict[str, Any]:
        assert self.game is not None
        spaces = self.game.program.spaced.get(name)
        spec = self.game.program.zones.get(spaces[0] if spaces else name)
        if spec is None:
            raise ScenarioError(self.key_span(container, name), f"no zone '{name}' in the rules"
                                + _hint(name, self.game.program.zones))
        return dict(spec)

    # --- the starting position ----------------------------------------------------------

    def setup(self) -> None:
        data = self.data
        players = int(data.get("players") or self.tables.pack["players"]["min"])
        decks = [(decks_named(self.tables, d) or [d if ":" in d else self.prefix + d])[0]
                 for d in data.get("decks") or []] or None
        try:
            game = Game.prepare(self.tables, players, int(data.get("seed", 1)), decks)
        except (RulesError, StateError) as exc:
            raise ScenarioError(self.span(data, "decks" if decks else "pack"), str(exc)) from exc
        self.game = game
        start = data.get("start")
        if start is None:
            self.log_start = len(game.state.log)
            return
        if start.get("rest", "keep") == "out":
            for instance in range(len(game.state.cards)):
                game.state.move(instance, OUT, None)
        zones = start.get("zones") or {}
        for name, value in zones.items():
            try:
                self._place_zone(zones, name, value)
            except ScenarioError as exc:
                self.problems.append(exc)
        try:
            self.set_values(start.get("counters") or {}, start.get("flags") or {})
        except ScenarioError as exc:
            self.problems.append(exc)
        player = int(start["player"]) - 1
        seats = game.state.players  # automated seats included
        if not 0 <= player < seats:
            raise ScenarioError(self.span(start, "player"), f"seat {player + 1} does not "
                                f"exist: this game has {seats} seats")
        try:
            game.start_at(str(start["at"]), player, turn=int(start.get("turn", 1)),
                          round_=int(start.get("round", 1)))
        except RulesError as exc:
            self.problems.append(ScenarioError(self.span(start, "at"), exc.message))
        self.log_start = len(game.state.log)

    def _place_zone(self, zones: Any, name: str, value: Any) -> None:
        spec = self.zone_spec(name, zones)
        if spec["per"] == "player":
            if not isinstance(value, dict):
                raise ScenarioError(self.span(zones, name), f"zone '{name}' belongs to "
                                    "each player: give its cards by seat, as {1: [...]}")
            for seat_text, cards in value.items():
                try:
                    self.place(name, self.seat(seat_text, value), cards, spec)
                except ScenarioError as exc:
                    self.problems.append(exc)
        else:
            if isinstance(value, dict):
                raise ScenarioError(self.span(zones, name), f"zone '{name}' is shared: "
                                    "list its cards without seats")
            self.place(name, None, value, spec)

    def place(self, zone: str, seat: int | None, cards: Any, spec: dict[str, Any]) -> None:
        """Place cards in a zone; a zone of spaces given by its name gets one per space."""
        assert self.game is not None
        spaces = self.game.program.spaced.get(zone)
        if spaces is None:
            self._place(zone, seat, cards, spec)
            return
        if len(cards) > len(spaces):
            raise ScenarioError(self.span(cards, len(spaces)), f"zone '{zone}' has "
                                f"{len(spaces)} spaces: list at most {len(spaces)} cards, one "
                                f"per space, or name a space ('{spaces[-1]}')")
        for space, item in zip(spaces, cards, strict=False):
            self._place(space, seat, [item], spec)

    def take(self, card_id: str, seat: int | None, container: Any, key: int) -> int:
        """An instance of the card not yet placed: the seat's own copy when there is one."""
        assert self.game is not None
        state = self.game.state
        free = [i for i, c in enumerate(state.cards) if c["card"] == card_id and
                i not in self.placed]
        if not free:
            copies = sum(1 for c in state.cards if c["card"] == card_id)
            if copies == 0:
                deck = self.tables.card(card_id)["deck"]
                raise ScenarioError(self.span(container, key),
                                    f"'{card_id}' is in deck {deck}, which no player plays "
                                    "here; name it under 'decks'")
            raise ScenarioError(self.span(container, key),
                                f"no copy of '{card_id}' left to place: all {copies} copies "
                                "are placed already")
        own = [i for i in free if state.cards[i]["owner"] == seat]
        chosen = (own or free)[0]
        self.placed.add(chosen)
        return chosen

    def _place(self, zone: str, seat: int | None, cards: Any, spec: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        hidden = spec["visibility"] == "hidden"
        listed: list[int] = []
        for index, item in enumerate(cards):
            entry: Any = {"card": item} if isinstance(item, str) else item
            holder = cards if isinstance(item, str) else item
            key: Any = index if isinstance(item, str) else "card"
            try:
                card = self.take(self.card_id(entry["card"], holder, key), seat, holder, key)
            except ScenarioError as exc:
                self.problems.append(exc)
                continue
            face = entry.get("face", "down" if hidden else "up") == "up"
            game.state.move(card, zone, seat, top=False, face_up=face)
            listed.append(card)
            for j, ref in enumerate(entry.get("stack") or []):
                upper = self.take(self.card_id(ref, entry["stack"], j), seat, entry["stack"], j)
                game.state.move(upper, zone, seat, top=False, face_up=True)
                game.state.cards[upper]["base"] = card
                game.state.cards[card].setdefault("above", []).append(upper)
            for j, ref in enumerate(entry.get("under") or []):
                lower = self.take(self.card_id(ref, entry["under"], j), seat, entry["under"], j)
                game.state.move(lower, UNDER, None, top=False, face_up=False)
                game.state.cards[lower]["host"] = card
                game.state.cards[card].setdefault("under", []).append(lower)
            if entry.get("seen"):
                game.state.cards[card]["seen"] = sorted(s - 1 for s in entry["seen"])
            marks = entry.get("marks") or {}
            for name, value in marks.items():
                self.set_mark(card, name, value, marks)
        contents = game.state.zone(zone, seat)
        first = set(listed)
        contents[:] = listed + [c for c in contents if c not in first]

    def set_mark(self, card: int, name: str, value: Any, container: Any) -> None:
        game = self.game
        assert game is not None
        if name in game.program.counters and game.program.counters[name]["per"] == "card":
            game.state.counter_to_change(name)[card] = int(value)
        elif name in game.program.flags and game.program.flags[name]["per"] == "card":
            game.state.flag_to_change(name)[card] = bool(value)
        else:
            per_card = [n for n, s in {**game.program.counters, **game.program.flags}.items()
                        if s["per"] == "card"]
            raise ScenarioError(self.span(container, name), f"no per-card counter or flag "
                                f"'{name}'" + _hint(name, per_card))

    def set_values(self, counters: Any, flags: Any) -> None:
        game = self.game
        assert game is not None
        for name, value in counters.items():
            spec = game.program.counters.get(name)
            if spec is None or spec["per"] == "card":
                raise ScenarioError(self.span(counters, name), f"no player or game counter "
                                    f"'{name}'" + _hint(name, game.program.counters))
            if isinstance(value, dict):
                for seat_text, number in value.items():
                    game.state.counters[name][self.seat(seat_text, value)] = int(number)
            else:
                game.state.counters[name][0] = int(value)
        for name, value in flags.items():
            spec = game.program.flags.get(name)
            if spec is None or spec["per"] == "card":
                raise ScenarioError(self.span(flags, name), f"no player or game flag "
                                    f"'{name}'" + _hint(name, game.program.flags))
            if isinstance(value, list):
                for seat in value:
                    game.state.flags[name][self.seat(str(seat), value)] = True
            else:
                game.state.flags[name][0] = bool(value)

    # --- the script ---------------------------------------------------------------------

    def run(self) -> list[tuple[Span, str]]:
        failures: list[tuple[Span, str]] = []
        script = self.data["script"]
        game = self.game
        assert game is not None
        for index, step in enumerate(script):
            span = self.span(script, index)
            self.steps += 1
            try:
                if "choose" in step:
                    # A choice runs the game on to its next decision; when the script next
                    # waits for a phase, stop there if it comes first.
                    following = script[index + 1] if index + 1 < len(script) else {}
                    game.pause_at = {str(following["until"])} if "until" in following else set()
                    self.choose(step["choose"], span)
                    game.pause_at = set()
                elif "until" in step:
                    self.until(str(step["until"]), span)
                elif "finish" in step:
                    self.until(None, span)
                else:
                    failures.extend(self.expect(step["expect"]))
            except ScenarioError as exc:
                failures.append((exc.span, exc.message))
                break
            except RulesError as exc:
                failures.append((span, f"the rules stopped with an error: {exc}"))
                break
        return failures

    def _pending_text(self) -> str:
        game = self.game
        assert game is not None
        pending = game.state.pending
        if pending is None:
            return "no decision is pending"
        actions = "\n".join(f"    {a.index}: {a.description}" for a in game.legal_actions())
        return (f"Player {pending['player'] + 1} is asked '{pending['label']}' "
                f"({pending['at']}):\n{actions}")

    def choose(self, answer: Any, span: Span) -> None:
        game = self.game
        assert game is not None
        if game.state.pending is None and not game.terminal:
            game.resume()
            game.pause_at = set()
        if game.state.pending is None:
            raise ScenarioError(span, "nothing to choose: " + (
                "the game is over" if game.terminal else "no decision is pending"))
        actions = game.legal_actions()
        if isinstance(answer, int):
            if not 0 <= answer < len(actions):
                raise ScenarioError(span, f"no action {answer}; {self._pending_text()}")
            game.apply(answer)
            return
        if answer.startswith("Don't: "):  # the older wording of a declined 'may'
            answer = "Don't " + answer.removeprefix("Don't: ")
        exact = [a for a in actions if a.description == answer]
        matches = exact or [a for a in actions if answer.lower() in a.description.lower()]
        if len(matches) != 1:
            problem = "no action matches" if not matches else "several actions match"
            raise ScenarioError(span, f"{problem} '{answer}'; {self._pending_text()}")
        game.apply(matches[0].index)

    def until(self, name: str | None, span: Span) -> None:
        game = self.game
        assert game is not None
        if name is not None and name not in {f.name for f in game.program.flows}:
            raise ScenarioError(span, f"no phase, step, turn or round named '{name}'"
                                + _hint(name, {f.name for f in game.program.flows}))
        if name is not None and game.paused == name:
            return
        game.pause_at = {name} if name else set()
        game.resume()
        game.pause_at = set()
        if name is not None and game.paused == name:
            return
        if game.terminal:
            if name is None:
                return
            raise ScenarioError(span, f"the game ended before '{name}' "
                                f"({game.result['reason'] if game.result else ''})")
        raise ScenarioError(span, f"a decision came before {name or 'the end'}: "
                            f"{self._pending_text()}")

    # --- checks -------------------------------------------------------------------------

    def expect(self, want: Any) -> list[tuple[Span, str]]:
        """Every way the game differs from what ``want`` (an ``expect`` block) says: the
        span of the expectation and the message, for each."""
        game = self.game
        assert game is not None
        out: list[tuple[Span, str]] = []

        def fail(container: Any, key: str | int, message: str) -> None:
            out.append((self.span(container, key), message))

        for check in (self._expect_counters_and_flags, self._expect_values,
                      self._expect_symbols, self._expect_zones, self._expect_destroyed,
                      self._expect_marks, self._expect_end, self._expect_decision):
            check(game, want, fail)
        return out

    def _expect_counters_and_flags(self, game: Game, want: Any, fail: _Fail) -> None:
        """Counters and flags, by seat."""
        for kind, decls, values, show in (
                ("counter", game.program.counters, game.state.counters, str),
                ("flag", game.program.flags, game.state.flags, _yes)):
            wanted = want.get(kind + "s") or {}
            for name, value in wanted.items():
                spec = decls.get(name)
                if spec is None:
                    fail(wanted, name, f"no {kind} '{name}'" + _hint(name, decls))
                    continue
                for seat, expected in self._by_seat(value):
                    actual = values[name][seat or 0]
                    if kind == "flag":
                        actual = bool(actual)
                    if actual != expected:
                        fail(value if isinstance(value, dict) else wanted,
                             str((seat or 0) + 1) if isinstance(value, dict) else name,
                             f"{spec['label']}{_whose(seat)}: expected {show(expected)}, "
                             f"got {show(actual)}")

    def _expect_values(self, game: Game, want: Any, fail: _Fail) -> None:
        """Definitions' values, by seat (or of none)."""
        for name, value in (want.get("values") or {}).items():
            spec = game.program.rules["defines"].get(name)
            if spec is None:
                fail(want["values"], name, f"no definition '{name}' in the rules"
                     + _hint(name, game.program.rules["defines"]))
                continue
            if len(spec["params"]) != (1 if isinstance(value, dict) else 0):
                fail(want["values"], name, f"'{name}' takes {len(spec['params'])} "
                     "parameters: check a definition of one player by seat ({1: 3}), "
                     "or one without parameters as a number")
                continue
            for seat, expected in self._by_seat(value):
                try:
                    actual = (game.program.defines[name](game, seat) if seat is not None
                              else game.program.defines[name](game))
                except RulesError as exc:
                    fail(want["values"], name, f"{name}: {exc.message}")
                    break
                if actual != expected:
                    fail(value if isinstance(value, dict) else want["values"],
                         str((seat or 0) + 1) if isinstance(value, dict) else name,
                         f"{name}{_whose(seat)}: expected {expected!r}, got {actual!r}")

    def _expect_symbols(self, game: Game, want: Any, fail: _Fail) -> None:
        """Symbol totals by seat."""
        for symbol, by_seat in (want.get("symbols") or {}).items():
            full = symbol if ":" in symbol else self.prefix + symbol
            if full not in game.program.symbol_ids:
                fail(want["symbols"], symbol, f"no symbol '{symbol}'")
                continue
            view = game.symbol_view()
            for seat_text, expected in by_seat.items():
                actual = view.total(full, self.seat(seat_text, by_seat))
                if actual != expected:
                    fail(by_seat, seat_text, f"{symbol} symbols of Player {seat_text}: "
                         f"expected {expected}, got {actual}")

    def _expect_zones(self, game: Game, want: Any, fail: _Fail) -> None:
        """The cards of zones (by seat for a player's zone)."""
        for name, value in (want.get("zones") or {}).items():
            zones = want["zones"]
            spec = self.zone_spec(name, zones)
            if spec["per"] == "player":
                if not isinstance(value, dict) or "count" in value:
                    fail(zones, name, f"zone '{name}' belongs to each player: give seats")
                    continue
                for seat_text, expected in value.items():
                    cards = game.cards_in(name, self.seat(seat_text, value))
                    self._zone(cards, expected, value, seat_text,
                               f"{spec['label']} of Player {seat_text}", fail)
            else:
                self._zone(game.cards_in(name, None), value, zones, name, spec["label"], fail)

    def _expect_destroyed(self, game: Game, want: Any, fail: _Fail) -> None:
        """The cards destroyed since the scenario began."""
        if "destroyed" in want:
            events = game.state.log[self.log_start:]
            actual = Counter(game.rows[e[1]]["id"] for e in events if e[0] == "destroy")
            expected = Counter(self.card_id(c, want["destroyed"], i)
                               for i, c in enumerate(want["destroyed"]))
            if actual != expected:
                fail(want, "destroyed", f"destroyed cards: expected {_ids(expected)}, got "
                     f"{_ids(actual)}")

    def _expect_marks(self, game: Game, want: Any, fail: _Fail) -> None:
        """Marks on cards (per-card counters and flags)."""
        for ref, marks in (want.get("marks") or {}).items():
            card = self._find(self.card_id(ref, want["marks"], ref))
            if card is None:
                fail(want["marks"], ref, f"'{ref}' is in no deck of this game; name its deck "
                     "under 'decks'")
                continue
            for name, expected in marks.items():
                if name in game.program.counters:
                    mark: Any = game.state.counters[name][card]
                elif name in game.program.flags:
                    mark = bool(game.state.flags[name][card])
                else:
                    fail(marks, name, f"no per-card counter or flag '{name}'")
                    continue
                if mark != expected:
                    fail(marks, name, f"{name} on {ref}: expected {expected}, got {mark}")

    def _expect_end(self, game: Game, want: Any, fail: _Fail) -> None:
        """The winner, the reason and the turn and phase reached."""
        if "winner" in want:
            expected_w = want["winner"]
            result = game.result
            if expected_w == "nobody yet":
                if result is not None:
                    fail(want, "winner", f"expected the game to go on, but it ended: "
                         f"{_result(result)}")
            elif result is None:
                fail(want, "winner", "expected the game to be over, but it goes on; "
                     + self._pending_text())
            else:
                winners = sorted(w + 1 for w in result["winners"])
                wanted = ([] if expected_w == "none" else sorted(expected_w)
                          if isinstance(expected_w, list) else [expected_w])
                if winners != wanted:
                    fail(want, "winner", f"expected winner {expected_w}, got {_result(result)}")
        if "reason" in want and (game.result or {}).get("reason") != want["reason"]:
            fail(want, "reason", f"expected the game to end by '{want['reason']}', got "
                 + (_result(game.result) if game.result else "no end yet"))
        if "turn" in want and game.state.info["turn"] != want["turn"]:
            fail(want, "turn", f"expected turn {want['turn']}, got {game.state.info['turn']}")
        if "phase" in want and game.state.info["phase"] != want["phase"]:
            fail(want, "phase", f"expected phase {want['phase']}, got "
                 f"{game.state.info['phase']}")

    def _expect_decision(self, game: Game, want: Any, fail: _Fail) -> None:
        """The pending decision and the actions it offers."""
        if any(k in want for k in ("decision", "actions", "actions_include", "actions_exclude")):
            if game.state.pending is None and not game.terminal:
                game.resume()
            pending = game.state.pending
            descriptions = [a.description for a in game.legal_actions()]
            if "decision" in want and (pending or {}).get("label") != want["decision"]:
                fail(want, "decision", f"expected the decision '{want['decision']}'; "
                     + self._pending_text())
            if "actions" in want and descriptions != list(want["actions"]):
                fail(want, "actions", "the actions offered differ; " + self._pending_text())
            for i, text in enumerate(want.get("actions_include") or []):
                if text not in descriptions:
                    fail(want["actions_include"], i, f"'{text}' is not offered; "
                         + self._pending_text())
            for i, text in enumerate(want.get("actions_exclude") or []):
                if text in descriptions:
                    fail(want["actions_exclude"], i, f"'{text}' is offered, but should not be")

    def _by_seat(self, value: Any) -> list[tuple[int | None, Any]]:
        if isinstance(value, dict):
            return [(self.seat(s, value), v) for s, v in value.items()]
        return [(None, value)]

    def _zone(self, cards: list[int], expected: Any, container: Any, key: str, what: str,
              fail: Callable[[Any, str | int, str], None]) -> None:
        game = self.game
        assert game is not None
        if isinstance(expected, dict):
            if len(cards) != expected["count"]:
                fail(container, key, f"{what}: expected {expected['count']} cards, got "
                     f"{len(cards)}")
            return
        actual = Counter(game.rows[c]["id"] for c in cards)
        wanted = Counter(self.card_id(c, expected, i) for i, c in enumerate(expected))
        if actual != wanted:
            fail(container, key, f"{what}: expected {_ids(wanted)}, got {_ids(actual)}")

    def _find(self, card_id: str) -> int | None:
        """The copy a check means: one the position placed, else any; None if no deck has it."""
        game = self.game
        assert game is not None
        copies = [i for i, c in enumerate(game.state.cards) if c["card"] == card_id]
        placed = [i for i in copies if i in self.placed]
        found = placed or copies
        return found[0] if found else None


def _hint(name: str, known: Iterable[str]) -> str:
    found = suggest(name, list(known))
    return f" ({found})" if found else ""


def _whose(seat: int | None) -> str:
    return "" if seat is None else f" of Player {seat + 1}"


def _yes(value: bool) -> str:
    return "set" if value else "not set"


def _ids(counter: Counter[str]) -> str:
    if not counter:
        return "nothing"
    return ", ".join(f"{k.split(':', 1)[-1]}" + (f" x{n}" if n > 1 else "")
                     for k, n in sorted(counter.items()))


def _result(result: dict[str, Any]) -> str:
    winners = ", ".join(f"Player {w + 1}" for w in result["winners"]) or "nobody"
    return f"{winners} won ({result['reason']})"
