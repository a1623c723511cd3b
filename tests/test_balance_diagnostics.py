"""Exact texts of the diagnostics for pack.yaml's balance section (played zones, bands)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from decklore import cli


def test_balance_section_errors_are_located(tmp_path: Path, mini_text: Any,
                                            write_pack: Any) -> None:
    text = mini_text("pack.yaml").replace(
        "stacking: {", "balance: {played: [hand], bands: {seat_win_rate: [0.6, 0.4]}}\n"
        "stacking: {", 1)
    pack = write_pack(tmp_path, {"pack.yaml": text})
    result = CliRunner().invoke(cli, ["validate", str(pack), "--no-cache"])
    assert result.exit_code == 1
    shown = result.output.replace(str(tmp_path) + "/", "")
    assert shown.endswith("""\
mini/pack.yaml:33:20: error[E148]: balance names no zone 'hand'
  33 | balance: {played: [hand], bands: {seat_win_rate: [0.6, 0.4]}}
     |                    ^^^^
  hint: the pack's rules declare no zones
mini/pack.yaml:33:50: error[E149]: band 'seat_win_rate' runs from 0.6 down to 0.4
  33 | balance: {played: [hand], bands: {seat_win_rate: [0.6, 0.4]}}
     |                                                  ^^^^^^^^^^
  hint: write it low first: [0.4, 0.6]
2 errors.
"""), shown
