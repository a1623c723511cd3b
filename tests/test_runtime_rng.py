"""The seeded generator: known values, exact save/resume, independent clones, fair draws."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from decklore.runtime.rng import Rng


def test_matches_the_pcg32_reference_output() -> None:
    # pcg32_srandom(42, 54) from the reference implementation's demo (pcg32-demo.c).
    rng = Rng(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_same_seed_same_shuffle() -> None:
    a, b = list(range(52)), list(range(52))
    Rng(7).shuffle(a)
    Rng(7).shuffle(b)
    assert a == b != list(range(52))


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**63), st.integers(0, 300))
def test_shuffle_is_fisher_yates_by_below(seed: int, stream: int, size: int) -> None:
    """The shuffle, written out inline for speed, swaps each position from the last down
    with ``below(i + 1)``, drawing exactly what that would, and leaves the generator where
    that would."""
    items, expected = list(range(size)), list(range(size))
    rng, reference = Rng(seed, stream), Rng(seed, stream)
    rng.shuffle(items)
    for i in range(size - 1, 0, -1):
        j = reference.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert rng.next_u32() == reference.next_u32()


@given(st.integers(0, 2**64 - 1), st.integers(0, 50))
def test_save_and_resume_continue_exactly(seed: int, skip: int) -> None:
    rng = Rng(seed)
    for _ in range(skip):
        rng.next_u32()
    saved = json.loads(json.dumps(rng.to_json()))
    resumed = Rng.from_json(saved)
    assert [rng.next_u32() for _ in range(5)] == [resumed.next_u32() for _ in range(5)]


def test_clone_is_independent() -> None:
    rng = Rng(3)
    rng.next_u32()
    twin = rng.clone()
    twin_draws = [twin.next_u32() for _ in range(3)]  # moving the clone ...
    assert [rng.next_u32() for _ in range(3)] == twin_draws  # ... leaves the original be


@given(st.integers(1, 1000), st.integers(0, 2**32))
def test_below_stays_in_range(bound: int, seed: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(bound) < bound for _ in range(20))


def test_below_is_roughly_uniform() -> None:
    rng = Rng(11)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert all(9_400 < n < 10_600 for n in counts.values())
