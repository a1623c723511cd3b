"""Every benchmark script starts: its imports and arguments still match the code it times.

Benchmarks print figures and are not run in the suite (the machine is shared, and figures
are never asserted), so a rename in the runtime could break one unseen; this asks each
for its ``--help``, which imports everything it uses.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_the_benchmark_starts(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout.lower()
