"""Shared fixtures: the tiny ``mini`` pack, a pack writer for error cases, golden updates."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
MINI_PACK = TESTS / "packs" / "mini"
GOLDEN = TESTS / "golden"

# rel path -> new text (str), raw bytes, or None to delete the file.
PackFiles = Mapping[str, "str | bytes | None"]
PackWriter = Callable[[Path, PackFiles], Path]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite the expected files under tests/golden/ instead of comparing with them.",
    )


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the CLI's default table cache out of the user's home during tests.

    Session-scoped (not ``monkeypatch``) so that hypothesis tests, which refuse
    function-scoped fixtures, run under it too.
    """
    cache = tmp_path_factory.mktemp("decklore-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DECKLORE_CACHE_DIR", str(cache))
        yield cache


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite golden files (review the diff afterwards)."""
    return bool(request.config.getoption("--update-golden"))


def write_pack(tmp_path: Path, files: PackFiles) -> Path:
    """A copy of the mini pack at ``tmp_path/mini`` with ``files`` overwritten or added.

    A value of ``None`` deletes the file; ``bytes`` are written as they are (for encoding
    tests), text is written as UTF-8 with ``\\n`` line ends.
    """
    pack = tmp_path / "mini"
    if not pack.exists():
        shutil.copytree(MINI_PACK, pack)
    for rel, content in files.items():
        target = pack / rel
        if content is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_bytes(content.encode("utf-8"))
    return pack


@pytest.fixture(name="write_pack")
def write_pack_fixture() -> PackWriter:
    """The ``write_pack(tmp_path, files)`` helper, for tests that build broken packs."""
    return write_pack


@pytest.fixture
def mini_pack(tmp_path: Path) -> Path:
    """A fresh copy of ``tests/packs/mini`` at ``tmp_path/mini``."""
    return write_pack(tmp_path, {})


@pytest.fixture
def mini_text() -> Callable[[str], str]:
    """The text of a file of the mini pack, to edit for error cases."""

    def read(rel: str) -> str:
        return (MINI_PACK / rel).read_text(encoding="utf-8")

    return read
