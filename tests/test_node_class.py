"""The rules IR's node classes behave as the frozen slotted dataclasses they replace (issue 16:
``@node`` builds them without dataclass's per-class code generation at import)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from decklore.compiler.diagnostics import Span
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.node_class import field_names, is_node, is_node_class, node, replace

HERE, THERE = Span("a.rules", 1, 1), Span("b.rules", 9, 4)


@node
class Pair:
    """Two values and a place."""

    left: int
    right: tuple[int, ...] = ()
    note: str = field(default="", compare=False)
    span: Span = field(default=n.NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class PairTwin:
    """Pair as a dataclass: what each node must match."""

    left: int
    right: tuple[int, ...] = ()
    note: str = field(default="", compare=False)
    span: Span = field(default=n.NOWHERE, compare=False, repr=False)


values = st.tuples(st.integers(-3, 3), st.tuples(st.integers(0, 2)), st.sampled_from(["", "x"]),
                   st.sampled_from([HERE, THERE]))


@given(values, values)
def test_equality_and_hash_match_the_dataclass(a: tuple, b: tuple) -> None:  # type: ignore[type-arg]
    ours, theirs = (Pair(*a), Pair(*b)), (PairTwin(*a), PairTwin(*b))
    assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
    assert (ours[0] != ours[1]) == (theirs[0] != theirs[1])
    if ours[0] == ours[1]:
        assert hash(ours[0]) == hash(ours[1])
    assert repr(ours[0]) == repr(theirs[0]).replace("PairTwin", "Pair")


def test_construction_defaults_and_keywords() -> None:
    assert Pair(1) == Pair(left=1, right=()) == Pair(1, (), "other note", THERE)
    assert Pair(1).span is n.NOWHERE and Pair(1).note == ""
    assert Pair(right=(2,), left=1).right == (2,)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'left'"):
        Pair()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'middle'"):
        Pair(1, middle=2)  # type: ignore[call-arg]
    assert Pair.__init__.__qualname__ == "Pair.__init__"
    assert Pair.__doc__ == "Two values and a place."


def test_a_node_cannot_change_and_has_no_dict() -> None:
    pair = Pair(1, span=HERE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del pair.left
    assert not hasattr(pair, "__dict__")
    assert vars(Pair)["__slots__"] == ("left", "right", "note", "span")


def test_copies_keep_every_field_span_included() -> None:
    pair = Pair(1, (2,), "kept", THERE)
    for twin in (copy.copy(pair), copy.deepcopy(pair), pickle.loads(pickle.dumps(pair))):
        assert twin == pair and twin.span == THERE and twin.note == "kept"


def test_replace_and_fields() -> None:
    pair = Pair(1, span=HERE)
    moved = replace(pair, right=(5,))
    assert moved.right == (5,) and moved.span == HERE and pair.right == ()
    with pytest.raises(TypeError, match="Pair has no field 'middle'"):
        replace(pair, middle=1)
    assert field_names(Pair) == field_names(pair) == ("left", "right", "note", "span")
    assert is_node(pair) and not is_node(Pair) and is_node_class(Pair)
    assert not is_node_class(PairTwin) and not is_node(PairTwin(1))


def test_a_default_before_a_required_field_is_refused() -> None:
    with pytest.raises(TypeError, match="field 'b' without a default follows one with"):
        @node
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]


def test_the_ir_nodes_are_built_by_node_not_by_dataclass() -> None:
    classes = [v for v in vars(n).values() if isinstance(v, type) and v.__module__ == n.__name__]
    assert len(classes) >= 60
    assert all(is_node_class(c) and not dataclasses.is_dataclass(c) for c in classes)
    call = n.Call("f", (n.IntLit(1, span=HERE),), span=THERE)
    assert call == n.Call("f", (n.IntLit(1),)) and call.args[0].span == HERE
    assert repr(n.Program((n.ConstDecl("c", n.IntLit(2)),))) == (
        "Program(declarations=(ConstDecl(name='c', value=IntLit(value=2)),), comments=(), "
        "blank_lines=frozenset())")
