"""One set of conventions across commands: --json for machine output, bundled pack names
accepted wherever a pack is, and the README's exit codes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from decklore import cli
from decklore.cards import BUNDLED

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


MACHINE_OUTPUT = ["validate", "compile", "build", "reference", "diff", "order", "migrate",
                  "explain", "test", "simulate", "replay"]


@pytest.mark.parametrize("command", MACHINE_OUTPUT)
def test_every_command_with_results_takes_json(command: str) -> None:
    assert "--json" in run(command, "--help").output


@pytest.mark.parametrize("command", ["validate", "compile", "build"])
def test_the_old_format_json_still_works_with_a_note(in_tmp: Path, command: str) -> None:
    args = {"compile": ["-o", "t.json"], "build": ["--no-sheets"]}.get(command, [])
    result = run(command, "era", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"diagnostics": []}
    assert "note: --format json is deprecated; use --json" in result.stderr.splitlines()


def test_reference_test_migrate_and_replay_print_json(in_tmp: Path) -> None:
    reference = json.loads(run("reference", "era", "--json").stdout)
    assert reference["sections"][0]["title"] and reference["sections"][0]["steps"]
    tested = run("test", "era", "--json")
    assert tested.exit_code == 0, tested.output
    report = json.loads(tested.stdout)
    assert report["failed"] == 0 and report["passed"] == len(report["scenarios"]) > 10
    migrated = run("migrate", "era", "--check", "--json")
    assert migrated.exit_code == 0
    assert json.loads(migrated.stdout) == {"changes": [], "written": False, "validates": None}
    assert run("play", "era", "--players", "greedy,random", "--log", "g.log").exit_code == 0
    replayed = run("replay", "g.log", "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["reproduced"] is True
    (in_tmp / "bad.log").write_text("[\"start\"]\nnot json\n")
    broken = run("replay", "bad.log", "--json")
    assert broken.exit_code == 1
    assert json.loads(broken.stdout) == {
        "reproduced": False,
        "error": "bad.log:2: not a log line (JSON expected): the file is not valid JSON "
                 "(Expecting value: line 1 column 1 (char 0))"}


PACK_COMMANDS = [["validate"], ["compile", "-o", "t.json"], ["print"], ["build"],
                 ["reference"], ["order"], ["migrate"], ["explain", "era:pyramid"],
                 ["schema", "--pack"], ["play"], ["simulate"], ["test"],
                 ["new", "mod", "M", "--extends"], ["diff", "era"], ["serve"]]


@pytest.mark.parametrize("command", PACK_COMMANDS, ids=lambda c: c[0])
def test_an_unknown_pack_name_lists_the_bundled_packs(in_tmp: Path, command: list[str]
                                                      ) -> None:
    args = list(command)
    if args[0] == "explain":
        args.insert(1, "nosuchpack")
    else:
        args.append("nosuchpack")
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert ("no folder 'nosuchpack', and no bundled pack has that name (bundled packs: "
            f"{', '.join(BUNDLED)})") in " ".join(result.stderr.split())


def test_test_takes_a_bundled_pack_name(in_tmp: Path) -> None:
    result = run("test", "era", "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(" passed, 0 failed\n")
    folder = run("test", str(ROOT / "cards" / "era"), "-q")
    assert folder.stdout == result.stdout


def _commands() -> list[list[str]]:
    import click

    found = []
    cli.list_commands(click.Context(cli))  # adds the commands other modules define
    for name, command in sorted(cli.commands.items()):
        if isinstance(command, click.Group):
            found += [[name, sub] for sub in sorted(command.commands)]
        else:
            found.append([name])
    return found


def test_the_readme_validate_example_is_what_validate_prints(in_tmp: Path) -> None:
    """The README's example of a diagnostic, made real: the same typo in a copy of ERA."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"with `symbols: \"2 progres\"` typed in Pyramid's card:\n\n```text\n"
                        r"\$ (decklore validate cards/era)\n(.*?)```", readme, re.DOTALL)
    assert example is not None, "README's validate example"
    shutil.copytree(ROOT / "cards" / "era", in_tmp / "cards" / "era")
    deck = in_tmp / "cards" / "era" / "decks" / "ancient.yaml"
    text = deck.read_text(encoding="utf-8")
    pyramid = text.index("id: pyramid")
    right = 'symbols: "2 progress"'
    at = text.index(right, pyramid)
    deck.write_text(text[:at] + 'symbols: "2 progres"' + text[at + len(right):],
                    encoding="utf-8")
    result = run(*example.group(1).split()[1:])
    assert result.exit_code == 1
    assert result.output == example.group(2)


def test_the_readme_lists_every_exit_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    codes = {int(code) for code in re.findall(r"^\| (\d+) \| ", readme, re.MULTILINE)}
    assert codes == {0, 1, 2, 3, 130}


@pytest.mark.parametrize("command", _commands(), ids=" ".join)
def test_every_command_exits_2_on_wrong_usage(command: list[str]) -> None:
    result = run(*command, "--no-such-option")
    assert result.exit_code == 2 and "No such option" in result.stderr


@pytest.mark.parametrize("exc, code", [(KeyboardInterrupt(), 130), (ValueError("x"), 3)])
def test_interrupts_and_bugs_have_their_codes(in_tmp: Path, monkeypatch: pytest.MonkeyPatch,
                                              exc: BaseException, code: int) -> None:
    import decklore.compiler as compiler

    def broken(*_args: object, **_kwargs: object) -> None:
        raise exc

    monkeypatch.setattr(compiler, "compile_pack", broken)
    monkeypatch.setattr(compiler, "cached_compile", lambda *_args, **_kwargs: None)  # a miss
    for command in (["validate", "era"], ["simulate", "era", "-n", "1"],
                    ["reference", "era"], ["build", "era", "--no-sheets"]):
        result = run(*command)
        assert result.exit_code == code, (command, result.output)


def test_a_broken_deck_file_does_not_hide_a_rules_error(in_tmp: Path) -> None:
    """All errors at once: YAML that does not parse in a deck, a wrong name in the rules."""
    import shutil

    pack = in_tmp / "mini"
    shutil.copytree(Path(__file__).parent / "packs" / "mini", pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n")
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text("round:\n  turn:\n    gain 1 gold\n")
    deck = pack / "decks" / "one.yaml"
    deck.write_text(deck.read_text().replace("  name: Deck One\n", "  name: [Deck One\n"))
    result = run("validate", "mini")
    assert result.exit_code == 1
    codes = re.findall(r"^(mini/[\w/.]+):\d+:\d+: error\[(\w+)\]", result.stderr, re.MULTILINE)
    files = {file for file, _ in codes}
    assert files == {"mini/decks/one.yaml", "mini/rules/game.rules"}, result.stderr


def test_print_variants_get_their_own_names_and_say_so(in_tmp: Path) -> None:
    mini = str(Path(__file__).parent / "packs" / "mini")
    standard = run("print", mini, "--sheet", "cards", "--format", "html")
    assert standard.stdout == "wrote build/mini/cards.html\n", standard.output
    letter = run("print", mini, "--sheet", "cards", "--format", "html", "--paper", "letter")
    assert letter.stdout == "wrote build/mini/cards-letter.html\n"
    shop = run("print", mini, "--sheet", "cards", "--format", "html", "--print-shop",
               "--bleed", "1/8in")
    assert shop.stdout == "wrote build/mini/cards-print-shop-bleed-1-8in.html\n"
    again = run("print", mini, "--sheet", "cards", "--format", "html", "--paper", "letter")
    assert again.stdout == "wrote build/mini/cards-letter.html (replacing the earlier one)\n"
    assert len(list((in_tmp / "build" / "mini").iterdir())) == 3


def _complete(words: str) -> list[str]:
    env = {"_DECKLORE_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    result = CliRunner().invoke(cli, [], env=env, prog_name="decklore")
    return result.output.splitlines()


@pytest.mark.parametrize("words", ["decklore validate e", "decklore simulate era-",
                                   "decklore test e", "decklore diff era e",
                                   "decklore new mod M --extends e"])
def test_shell_completion_offers_the_bundled_packs(words: str) -> None:
    offered = _complete(words)
    prefix = words.split()[-1]
    assert [f"plain,{name}" for name in BUNDLED if name.startswith(prefix)] == offered[:-1]
    assert offered[-1] == f"dir,{prefix}"  # and folders, from the shell


def test_the_readme_shows_completion_for_each_shell() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for shell in ("bash", "zsh", "fish"):
        assert f"_DECKLORE_COMPLETE={shell}_source decklore" in readme
        script = CliRunner().invoke(cli, [], env={"_DECKLORE_COMPLETE": f"{shell}_source"},
                                    prog_name="decklore")
        assert "_DECKLORE_COMPLETE" in script.output
