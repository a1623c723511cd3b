"""Long work is never silent: plain progress lines on stderr when it is no terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import decklore.progress as progress
from decklore import cli
from decklore.progress import PlainProgress, duration

LINE = re.compile(r"^playing: \d+/6 games \(\d+%\), [\d.]+ games/s, about \S+ left$")


def test_a_line_every_few_seconds_with_rate_and_time_left() -> None:
    now = [0.0]
    out = io.StringIO()
    plain = PlainProgress("playing", "games", out, clock=lambda: now[0])
    for done, at in ((10, 2.0), (30, 6.0), (40, 8.0), (70, 12.0), (100, 16.0)):
        now[0] = at
        plain(done, 100)
    plain.finish()
    assert out.getvalue().splitlines() == [
        "playing: 30/100 games (30%), 5.0 games/s, about 14s left",
        "playing: 70/100 games (70%), 5.8 games/s, about 5s left",
        "playing: 100/100 games, done in 16s",
    ]


def test_short_work_stays_silent() -> None:
    out = io.StringIO()
    plain = PlainProgress("printing", "sheets", out, clock=lambda: 0.0)
    plain(1, 2)
    plain(2, 2)
    plain.finish()
    assert out.getvalue() == ""


def test_durations_read_as_people_write_them() -> None:
    assert [duration(s) for s in (4.4, 59.6, 187, 3725)] == ["4s", "1m00s", "3m07s", "1h02m"]


def test_simulate_prints_progress_lines_when_not_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)
    result = CliRunner().invoke(cli, ["simulate", "era", "-n", "6", "--json"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("playing")]
    assert lines and all(LINE.match(line) for line in lines[:-1]), lines
    assert re.fullmatch(r"playing: 6/6 games, done in \S+", lines[-1])


def test_build_prints_progress_lines_when_not_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)
    mini = Path(__file__).parent / "packs" / "mini"
    result = CliRunner().invoke(cli, ["build", str(mini), "-o", str(tmp_path), "--no-cache"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^printing: \d+/\d+ sheets \(\d+%\)", result.stderr, re.MULTILINE)
    assert re.search(r"^printing: (\d+)/\1 sheets, done in ", result.stderr, re.MULTILINE)
