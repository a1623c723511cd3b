"""The compiled parts of each statement kind: the contract between loading and running.

``program`` turns every statement of the rules IR (``schema/rules-ir.schema.json``) into a
``Stmt`` whose ``x`` holds its parts, compiled: expressions as callables, bodies as block
numbers.  Each kind's parts are a ``TypedDict`` here, so mypy checks both ends: that
``program`` builds every part a kind has, of the right type, and that a handler
(``statements``, ``loops``, ``decisions``) reads only parts its kind has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias, TypedDict

from decklore.runtime.expressions import Env, Expr

Place: TypeAlias = Callable[[Any, Env], tuple[str, int | None]]
"""A compiled zone: which zone, and whose (None: shared)."""

Limit: TypeAlias = dict[str, Any]
"""A use limit from the IR: ``{"count": N, "per": period}``."""


class MoveParts(TypedDict):
    what: Expr
    to: Place
    facing: str | None
    position: str | None
    depth: Expr | None


class DrawParts(TypedDict):
    count: Expr
    src: Place
    to: Place
    facing: str | None


class ShuffleParts(TypedDict):
    zone: Place


class RevealParts(TypedDict):
    what: Expr
    to: Expr | None


class DestroyParts(TypedDict):
    what: Expr
    to: Place | None


class StackParts(TypedDict):
    what: Expr
    onto: Expr


class GainParts(TypedDict):
    amount: Expr
    kind: str
    name: str
    of: Expr | None


class SetParts(TypedDict):
    kind: str
    name: str
    of: Expr | None
    value: Expr | None


PaySource: TypeAlias = tuple[str, Any, Any]
"""``("zone", Place, define name or None)`` or ``("counter", name, Expr or None)``."""


class PayParts(TypedDict):
    amount: Expr
    sources: list[PaySource]
    change: tuple[str, Expr | None] | None


class LetParts(TypedDict):
    name: str
    value: Expr


class CallParts(TypedDict):
    action: str
    args: list[Expr]


class EndParts(TypedDict):
    period: str


class MessageParts(TypedDict):
    message: str


class IfParts(TypedDict):
    branches: list[tuple[Expr, int]]
    otherwise: int | None


class ForEachParts(TypedDict):
    var: str
    items: Expr
    where: Expr | None
    body: int
    about: str | None


class RepeatParts(TypedDict):
    times: Expr
    body: int


class WhileParts(TypedDict):
    cond: Expr
    body: int


class UntilPassParts(TypedDict):
    label: str | None
    cond: Expr | None
    body: int


class MayParts(TypedDict):
    label: str | None
    body: int


class AsParts(TypedDict):
    player: Expr
    body: int


class ChooseParts(TypedDict):
    kind: str
    var: str
    items: Expr
    where: Expr | None
    count: tuple[str, Expr] | None
    label: str | None
    optional: bool
    body: int


class ChooseNumberParts(TypedDict):
    var: str
    low: Expr
    high: Expr
    where: Expr | None
    label: str | None
    body: int


class OptionParts(TypedDict):
    name: str
    label: str
    when: Expr | None
    limit: Limit | None
    body: int
    at: str


class ChooseOneParts(TypedDict):
    label: str | None
    options: list[OptionParts]
