"""A built wheel carries every grammar, schema, icon and pack file, and works outside the repo."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                    "--outdir", str(out), str(ROOT)], check=True, capture_output=True)
    (found,) = out.glob("decklore-*.whl")
    return found


def test_wheel_contains_every_data_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "decklore/__init__.py",
        "decklore/compiler/pipeline.py",
        "decklore/runtime/tables.py",
        "decklore/grammar/symbols.lark",
        "decklore/cards/era/pack.yaml",
        "decklore/cards/era/decks/ancient.yaml",
        "decklore/cards/era/icons/progress.svg",
        "decklore/compiler/py.typed",
        "decklore/compiler/tools/starter/pack/pack.yaml",
        "decklore/compiler/tools/starter/pack/rules/game.rules",
        "decklore/compiler/printing/templates/_face.html.j2",
        # The web table's page works offline: htmx and the templates ship in the wheel.
        "decklore/web/static/htmx.min.js",
        "decklore/web/static/table.css",
        "decklore/web/templates/seat.html.j2",
    }
    expected |= {f"decklore/schema/{p.name}" for p in (ROOT / "schema").glob("*.json")}
    expected |= {f"decklore/grammar/{p.name}" for p in (ROOT / "grammar").glob("*.lark")}
    missing = sorted(expected - names)
    assert not missing, f"wheel lacks {missing}"
    assert not any(n.startswith(("compiler/", "runtime/", "tests/")) for n in names)


def _bare_venv(env_dir: Path) -> Path:
    """A virtual environment that sees no site-packages but its own, not even the base's."""
    venv.create(env_dir, with_pip=False, system_site_packages=False, clear=True)
    return env_dir / "bin" / "python"


def test_installed_wheel_runs_outside_the_repo(wheel: Path, tmp_path: Path) -> None:
    """The wheel, installed beside its real dependencies, builds a bundled pack anywhere.

    The dependencies come from the environment running the tests (installed there by
    ``pip install -e .[test]``), reached through a ``.pth`` file; never from the base
    interpreter's global site-packages, which a fresh machine does not have.
    """
    python = _bare_venv(tmp_path / "venv")
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environ["DECKLORE_CACHE_DIR"] = str(tmp_path / "cache")
    bare = subprocess.run([str(python), "-c", "import lark"], capture_output=True,
                          cwd=tmp_path, env=environ)
    assert bare.returncode != 0, "the new environment must start without any dependency"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, env=environ).stdout.strip()
    here = sysconfig.get_paths()
    (Path(purelib) / "decklore-test-deps.pth").write_text(
        "".join(f"{p}\n" for p in dict.fromkeys((here["purelib"], here["platlib"]))),
        encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True,
                   cwd=tmp_path, env=environ)
    check = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "check"],
                           capture_output=True, text=True, cwd=tmp_path, env=environ)
    assert "decklore" not in check.stdout, check.stdout  # every dependency it declares is met
    result = subprocess.run([str(python), "-m", "decklore", "build", "era", "-o", "out"],
                            capture_output=True, text=True, cwd=tmp_path, env=environ)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "era" / "tables.json").is_file()
    origin = subprocess.run([str(python), "-c", "import decklore.compiler as c; print(c.__file__)"],
                            capture_output=True, text=True, cwd=tmp_path, env=environ, check=True)
    assert str(tmp_path / "venv") in origin.stdout
