"""Simulations on Ray: the same games as the local backend, batched into tasks for a cluster.

Install with ``pip install "decklore[ray]"``. ``address`` (or ``RAY_ADDRESS``) joins a
running cluster; without one, Ray starts a local instance with this machine's cores. Game
``i`` gets the seed, decks and agents it gets locally, so the records are identical,
game for game, to ``decklore.runtime.simulate.iter_games``. Games travel in batches, so
each task lasts well over Ray's per-task overhead, and come back in game order with only
the batches in flight held in memory.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from decklore.runtime.results import GameRecord
from decklore.runtime.simulate import seat_agents

# Tasks in flight per worker: enough to keep every core busy, few enough to keep memory flat.
IN_FLIGHT_PER_CPU = 3


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster could not be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable('the Ray backend needs Ray: pip install "decklore[ray]"') from None
    return ray


def _play_batch(data: bytes, jobs: list[tuple[Any, ...]]) -> list[GameRecord]:
    from decklore.runtime import simulate

    if simulate._WORKER.get("data") is not data:
        simulate._init_worker(data)
        simulate._WORKER["data"] = data
    return [simulate._play_job(job) for job in jobs]


def batch_size(n: int, cpus: int) -> int:
    """Games per task: about eight tasks a core, never fewer than 4 games (tens of ms)."""
    return max(4, min(256, n // max(1, cpus * 8)))


def iter_games(data: bytes, n: int, seed: int, players: int, agents: Sequence[str], *,
               decks: Sequence[str] | None = None, budget: int, start: int = 0,
               address: str | None = None, cpus: int | None = None,
               rotate: bool = False) -> Iterator[GameRecord]:
    """Games ``start`` to ``n - 1`` played on Ray, yielded in game order."""
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(address=address or os.environ.get("RAY_ADDRESS") or None,
                     num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(f"could not start or reach Ray: {exc}") from None
    try:
        workers = int(ray.cluster_resources().get("CPU", 1))
        size = batch_size(n - start, workers)
        remote = ray.remote(_play_batch)
        shared = ray.put(data)
        batches = ([(i, seed, players, seat_agents(agents, players, i, rotate),
                     list(decks) if decks else None, budget, None)
                    for i in range(low, min(n, low + size))]
                   for low in range(start, n, size))
        pending: deque[Any] = deque()
        for batch in batches:
            pending.append(remote.remote(shared, batch))
            if len(pending) >= workers * IN_FLIGHT_PER_CPU:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        if started_here:
            ray.shutdown()
