"""Symbol totals against the ERA rulebook's worked examples, on the compiled ERA cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from decklore.compiler import compile_pack
from decklore.runtime import loads_tables
from decklore.runtime.symbols import SymbolView, Unit, printed, stacked_value
from decklore.runtime.tables import Card

ROOT = Path(__file__).resolve().parent.parent
A, B = 0, 1  # Player A and Player B


@pytest.fixture(scope="module")
def cards() -> dict[str, Card]:
    tables = loads_tables(compile_pack(ROOT / "cards" / "era").data)
    return {card.id.split(":")[1]: card for card in tables.cards}


def unit(cards: dict[str, Card], name: str, owner: int = A, copies: int = 1) -> Unit:
    return Unit(tuple(cards[name] for _ in range(copies)), owner)


def resource(card: Card) -> bool:
    return bool(card["kind"] == "resource")


def view(*units: Unit) -> SymbolView:
    return SymbolView(units, players=2, unblockable=resource)


def test_point_earning_example_1_temple_and_pyramid_give_3(cards: dict[str, Card]) -> None:
    assert view(unit(cards, "temple"), unit(cards, "pyramid")).total("era:progress", A) == 3


def test_point_earning_example_2_flourished_hamlets_count_once(
        cards: dict[str, Card]) -> None:
    hamlets = unit(cards, "hamlet", copies=4)
    church = unit(cards, "church-of-rome")
    v = view(hamlets, church)
    assert v.total("era:progress", A) == 1
    assert v.on_unit("era:progress", church) == 0


def test_storehouse_examples(cards: dict[str, Card]) -> None:
    alone = view(unit(cards, "storehouse"))  # example 1
    assert (alone.total("era:harvest", A), alone.total("era:progress", A)) == (1, 0)
    stacked = view(unit(cards, "storehouse", copies=3))  # example 2
    assert (stacked.total("era:harvest", A), stacked.total("era:progress", A)) == (1, 2)
    apart = view(*(unit(cards, "storehouse") for _ in range(3)))  # example 3
    assert (apart.total("era:harvest", A), apart.total("era:progress", A)) == (3, 0)


def test_keys_examples_3_and_4_heavy_artillery(cards: dict[str, Card]) -> None:
    artillery = unit(cards, "heavy-artillery")
    assert view(artillery).total("era:military", A) == 1
    assert view(artillery).locked("era:military", artillery) == 2
    with_key = view(artillery, unit(cards, "steel-foundry"))
    assert with_key.has_key(A, "A")
    assert with_key.total("era:military", A) == 3
    assert with_key.locked("era:military", artillery) == 0


def test_keys_examples_1_and_2_card_locks(cards: dict[str, Card]) -> None:
    knight = cards["crusade-knight"]
    assert knight["lock"] == "A"
    assert not view().has_key(A, knight["lock"])
    assert view(unit(cards, "feudal-lord")).has_key(A, knight["lock"])


def test_ports_key_opens_the_opponents_bubonic_plague(cards: dict[str, Card]) -> None:
    v = view(unit(cards, "port", owner=A))
    assert cards["bubonic-plague"]["lock"] == "B"
    assert v.has_key(B, "B") and not v.has_key(A, "B")
    assert v.total("era:progress", A) == 1


def test_spoilage_blocks_one_harvest_of_the_receiver_never_on_resource_cards(
        cards: dict[str, Card]) -> None:
    spoilage = unit(cards, "spoilage", owner=A)
    two_storehouses = [unit(cards, "storehouse", owner=B), unit(cards, "storehouse", owner=B)]
    v = view(spoilage, *two_storehouses)
    assert v.blocks_on("era:harvest", B) == 1
    assert v.total("era:harvest", B) == 1
    produce = view(spoilage, unit(cards, "kingdom-produce", owner=B))
    assert produce.total("era:harvest", B) == printed("era:harvest", cards["kingdom-produce"])


def test_architect_has_two_vision_slots(cards: dict[str, Card]) -> None:
    architect = unit(cards, "architect")
    assert view(architect).on_unit("era:vision", architect) == 2


def test_hamlet_defense_5_and_11(cards: dict[str, Card]) -> None:
    defense = cards["hamlet"]["defense"]
    assert stacked_value(defense, unit(cards, "hamlet")) == 2
    assert stacked_value(defense, unit(cards, "hamlet", copies=2)) == 5
    assert stacked_value(defense, unit(cards, "hamlet", copies=4)) == 11


def test_resource_gathering_example_3_money_sets(cards: dict[str, Card]) -> None:
    temples = [unit(cards, "temple"), unit(cards, "temple")]
    caravans = [unit(cards, "trade-caravan"), unit(cards, "trade-caravan")]
    v = view(*temples, *caravans)
    assert v.matched("era:money", A, temples, caravans) == 2
    assert v.matched("era:money", A, temples[:1], caravans) == 1
    assert v.matched("era:money", B, temples, caravans) == 0


def test_a_removed_symbol_neither_counts_nor_takes_a_block(cards: dict[str, Card]) -> None:
    """A spent Settler has no harvest symbol: Famine's block falls on the other Settler."""
    spent = Unit((cards["settler"],), A, removed=frozenset({"era:harvest"}))
    fresh = unit(cards, "settler")
    fields = unit(cards, "manor-fields")
    famine = unit(cards, "famine", owner=B)
    v = view(spent, fresh, fields, famine)
    assert v.on_unit("era:harvest", spent) == 0
    assert v.matched("era:harvest", A, [spent, fresh], [fields]) == 0
    # Without the mark, the block could land on the first Settler and the second harvests.
    v = view(unit(cards, "settler"), fresh, fields, famine)
    assert v.matched("era:harvest", A, [fresh], [fields]) == 1


def test_a_placed_block_cancels_the_symbol_on_its_card_once(cards: dict[str, Card]) -> None:
    """War Elephants' block, placed on the Hoplites, leaves them one military symbol and
    the Charioteer its own; the player's total loses the block once, not twice."""
    hoplites = Unit((cards["hoplites"],), A, assigned=(("era:military", 1),))
    charioteer = unit(cards, "charioteer")
    elephants = unit(cards, "war-elephants", owner=B)
    v = view(hoplites, charioteer, elephants)
    assert (v.on_unit("era:military", hoplites), v.on_unit("era:military", charioteer)) == (1, 1)
    assert v.total("era:military", A) == 2
    assert v.blocks_from("era:military", A, [elephants]) == 1
    assert v.blocks_from("era:military", A, [charioteer]) == 0


def test_a_unit_for_opponents_acts_for_every_rival_of_its_player(
        cards: dict[str, Card]) -> None:
    """A community conflict card of Player A's Era in play: its military is every other
    player's, and its block of military falls on Player A, whose Era it comes from."""
    elephants = Unit((cards["war-elephants"],), A, for_opponents=True)
    hoplites = unit(cards, "hoplites")
    v = SymbolView([elephants, hoplites], players=3, unblockable=resource)
    assert [v.total("era:military", p) for p in range(3)] == [1, 2, 2]
    assert [v.on_unit("era:military", elephants, p) for p in (1, 2)] == [2, 2]
    assert [v.blocks_on("era:military", p) for p in range(3)] == [1, 0, 0]
