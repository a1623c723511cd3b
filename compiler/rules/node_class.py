"""The class maker of the rules IR: frozen, slotted classes compared by structure, built cheaply.

The IR has some sixty node classes, and every compile that parses rules imports them.
``@dataclass(frozen=True, slots=True)`` generates six methods per class from source text
and then builds each class a second time to add its slots: about 0.7 ms a class, 45 ms of
a cold ``decklore validate``, more than the rest of the rules checker's imports together.
``@node`` gives the same classes for a tenth of that: the class is built once with its
slots, ``__init__`` is generated (it is the one method whose speed matters, as the parser
calls it thousands of times a compile), and equality, hashing, ``repr``, copying and the
refusal to assign are closures shared in shape by every class.

What a node promises is what the dataclass gave: keyword or positional construction with
the declared defaults (``dataclasses.field(default=..., compare=False, repr=False)`` is
read as a dataclass reads it), immutability, equality and hash over the compared fields
only, a ``repr`` of the shown fields, and ``copy``/``pickle`` support.  Type checkers see
it as a frozen dataclass (``typing.dataclass_transform``).  ``replace`` and ``field_names``
stand in for ``dataclasses.replace`` and ``dataclasses.fields``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, field
from functools import cache
from operator import attrgetter
from types import FunctionType
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_FIELDS = "__node_fields__"


def _key_of(names: tuple[str, ...]) -> Callable[[Any], Any]:
    """What equality and hashing look at: the compared fields' values."""
    if not names:
        return lambda _self: ()
    get = attrgetter(*names)
    if len(names) == 1:
        return lambda self: (get(self),)
    return get


def _methods(name_of: str, compared: tuple[str, ...], shown: tuple[str, ...],
             every: tuple[str, ...]) -> dict[str, Any]:
    key = _key_of(compared)
    values = attrgetter(*every) if len(every) > 1 else None

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(key(self) == key(other))
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inner})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
        if values is None:
            return self.__class__, tuple(getattr(self, name) for name in every)
        return self.__class__, values(self)

    return {"__eq__": __eq__, "__hash__": __hash__, "__repr__": __repr__,
            "__setattr__": __setattr__, "__delattr__": __delattr__,
            "__reduce__": __reduce__}


@cache
def _init_template(arity: int) -> Any:
    """An ``__init__`` of ``arity`` fields whose slot names come from its closure.

    Compiling source is most of what making a class costs, so it is done once per number
    of fields; each class gets a copy with its own parameter names (``_init``).
    """
    args = [f"a{i}" for i in range(arity)]
    body = "".join(f"\n        _set(self, n{i}, a{i})" for i in range(arity)) or "\n        pass"
    names = ", ".join(f"n{i}" for i in range(arity))
    source = (f"def outer({names}):\n    def __init__({', '.join(['self', *args])}) -> None:"
              f"{body}\n    return __init__")
    namespace: dict[str, Any] = {"_set": object.__setattr__}
    exec(source, namespace)  # the same plain assignments that dataclass generates
    return namespace["outer"]


def _init(qualname: str, names: tuple[str, ...], defaults: dict[str, Any]) -> Any:
    """``__init__(self, a, b, span=<default>)`` for a class, setting each slot directly.

    The arity's template, closed over the slot names, with its parameters renamed to the
    fields (so keywords work) and the defaults of the trailing fields."""
    template = _init_template(len(names))(*names)
    code = template.__code__.replace(co_varnames=("self", *names), co_name="__init__",
                                     co_qualname=f"{qualname}.__init__")
    init = FunctionType(code, template.__globals__, "__init__",
                        tuple(defaults[n] for n in names if n in defaults) or None,
                        template.__closure__)
    init.__qualname__ = f"{qualname}.__init__"
    return init


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def node(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen, slotted IR node class (see the module docstring)."""
    space = dict(cls.__dict__)
    names = tuple(space.get("__annotations__", {}))
    defaults: dict[str, Any] = {}
    compared: list[str] = []
    shown: list[str] = []
    for name in names:
        declared = space.pop(name, MISSING)
        compare = show = True
        if isinstance(declared, Field):
            compare, show, declared = declared.compare, declared.repr, declared.default
        if declared is not MISSING:
            defaults[name] = declared
        elif defaults:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one "
                            "with a default")
        if compare:
            compared.append(name)
        if show:
            shown.append(name)
    space.pop("__dict__", None)
    space.pop("__weakref__", None)
    space["__qualname__"] = cls.__qualname__
    space["__slots__"] = names
    space["__match_args__"] = names
    space[_FIELDS] = names
    space.update(_methods(cls.__qualname__, tuple(compared), tuple(shown), names))
    space["__init__"] = _init(cls.__qualname__, names, defaults)
    maker: Any = type(cls)  # the class statement's metaclass, as for any class
    built: type[T] = maker(cls.__name__, cls.__bases__, space)
    return built


def is_node(value: object) -> bool:
    """Whether ``value`` is a node (not a node class)."""
    return not isinstance(value, type) and hasattr(type(value), _FIELDS)


def is_node_class(value: object) -> bool:
    """Whether ``value`` is a class made by ``@node``."""
    return isinstance(value, type) and _FIELDS in value.__dict__


def field_names(value: object) -> tuple[str, ...]:
    """The fields of a node or node class, in order (``dataclasses.fields``'s names)."""
    cls = value if isinstance(value, type) else type(value)
    names: tuple[str, ...] = getattr(cls, _FIELDS)
    return names


def replace(value: T, **changes: Any) -> T:
    """A copy of the node ``value`` with some fields changed (``dataclasses.replace``)."""
    unknown = set(changes) - set(field_names(value))
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    current = {name: getattr(value, name) for name in field_names(value)}
    return type(value)(**{**current, **changes})
