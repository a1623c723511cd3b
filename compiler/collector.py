"""Compiling with Python's cycle collector paused: a compile builds garbage it never finds.

A 10,000-card compile makes about a million containers (located YAML mappings, rows,
spans) that live until the tables are written, and hardly any reference cycles. The
cycle collector still walks them: its passes over the growing heap were about a fifth of
such a compile (1.04 s -> 0.83 s of CPU with it paused, ``benchmarks/compile_scaling.py``).
So ``compile_pack`` pauses it for its duration and restores it after, as it was; what
little cyclic garbage a compile leaves is collected by the next pass after it.  The
collector is process-wide: a thread that compiles pauses it for the whole process.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def collector_paused(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` run with the cycle collector off, and turned back on after if it was on."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if not gc.isenabled():  # already paused (a compile inside a compile), or by the caller
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            gc.enable()

    return wrapper
