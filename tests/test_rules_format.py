"""``decklore fmt``: printing keeps the program and is idempotent, on any program."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decklore import cli
from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.format import format_program
from decklore.compiler.rules.parser import KEYWORDS, parse_rules

ROOT = Path(__file__).resolve().parent.parent

names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: s not in KEYWORDS)
labels = st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=12)
periods = st.sampled_from(["turn", "round", "phase", "game"])


def _exprs() -> st.SearchStrategy[n.Expr]:
    leaves = st.one_of(
        st.integers(-50, 500).map(n.IntLit),
        labels.map(n.StrLit),
        st.booleans().map(n.BoolLit),
        st.just(n.NoneLit()),
        names.map(n.Name),
    )

    def extend(inner: st.SearchStrategy[n.Expr]) -> st.SearchStrategy[n.Expr]:
        not_int = inner.filter(lambda e: not isinstance(e, n.IntLit))
        ops = ["or", "and", "=", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%"]
        return st.one_of(
            st.builds(n.Call, names, st.lists(inner, max_size=3).map(tuple)),
            st.builds(n.Attribute, inner, names),
            st.builds(n.Unary, st.just("not"), inner),
            st.builds(n.Unary, st.just("-"), not_int),
            st.builds(n.Binary, st.sampled_from(ops), inner, inner),
            st.builds(n.IfExpr, inner, inner, inner),
            st.builds(n.Aggregate, st.sampled_from(["count", "sum", "min", "max", "any", "all",
                                                    "select"]),
                      st.none() | inner, names, inner, st.none() | inner),
        )

    return st.recursive(leaves, extend, max_leaves=8)


exprs = _exprs()
opt_label = st.none() | labels
owners = st.none() | st.builds(n.Owner, st.sampled_from(["player", "card"]), exprs)
limits = st.none() | st.builds(n.Limit, st.integers(1, 9), periods)


def _simple() -> st.SearchStrategy[n.Statement]:
    facing = st.none() | st.sampled_from(["up", "down"])
    return st.one_of(
        st.builds(n.Move, exprs, exprs, facing, st.none() | st.sampled_from(["top", "bottom"])),
        st.builds(n.Draw, exprs, exprs, exprs, facing),
        st.builds(n.Shuffle, exprs),
        st.builds(n.Reveal, exprs, st.none() | exprs),
        st.builds(n.Destroy, exprs, st.none() | exprs),
        st.builds(n.Stack, exprs, exprs),
        st.builds(n.Tuck, exprs, exprs),
        st.builds(n.Gain, exprs, names, owners),
        st.builds(n.Spend, exprs, names, owners),
        st.builds(n.SetValue, names, owners, st.none() | exprs),
        st.builds(n.Clear, names, owners),
        st.builds(n.Pay, exprs, st.lists(st.builds(n.PaySource, exprs, st.none() | exprs),
                                         min_size=1, max_size=3).map(tuple),
                  st.none() | st.builds(n.Change, names, owners)),
        st.builds(n.Let, names, exprs),
        st.builds(n.Do, names, st.lists(exprs, max_size=2).map(tuple)),
        st.builds(n.End, periods),
        st.builds(n.Fail, labels),
        st.builds(n.Log, labels),
    )


def _statements() -> st.SearchStrategy[n.Statement]:
    def extend(inner: st.SearchStrategy[n.Statement]) -> st.SearchStrategy[n.Statement]:
        block = st.lists(inner, min_size=1, max_size=3).map(tuple)
        counts = st.none() | st.builds(n.CountRange, st.sampled_from(["up to", "at least",
                                                                      "exactly"]), exprs)
        return st.one_of(
            st.builds(n.If, st.lists(st.tuples(exprs, block), min_size=1, max_size=3)
                      .map(tuple), st.none() | block),
            st.builds(n.ForEach, names, exprs, st.none() | exprs, block),
            st.builds(n.RepeatTimes, exprs, block),
            st.builds(n.RepeatWhile, exprs, block),
            st.builds(n.RepeatPass, opt_label, block, st.none() | exprs),
            st.builds(n.May, opt_label, block),
            st.builds(n.AsPlayer, exprs, block),
            st.builds(n.Choose, st.sampled_from(["card", "cards", "player", "target"]), names,
                      exprs, st.none() | exprs, counts, opt_label, st.booleans(), block),
            st.builds(n.ChooseNumber, names, exprs, exprs, st.none() | exprs, opt_label,
                      block),
            st.builds(n.ChooseOne, opt_label,
                      st.lists(st.builds(n.ChoiceOption, names, opt_label, st.none() | exprs,
                                         limits, block), min_size=1, max_size=3).map(tuple)),
        )

    return st.recursive(_simple(), extend, max_leaves=6)


statements = _statements()
blocks = st.lists(statements, min_size=1, max_size=3).map(tuple)
params = st.none() | st.lists(names, max_size=3).map(tuple)


def _flows(depth: int = 0) -> st.SearchStrategy[n.Flow]:
    members: list[st.SearchStrategy[object]] = [
        statements,
        st.builds(n.Hook, st.sampled_from(["start", "end"]), blocks,
                  st.none() | st.builds(n.Says, labels)),
        st.builds(n.Order, exprs),
        st.builds(n.Note, labels),
        st.builds(n.Term, labels, labels),
    ]
    if depth < 2:
        members.append(st.deferred(lambda: _flows(depth + 1)))
    kinds = st.sampled_from(["game", "setup", "era", "round", "turn", "phase", "step"])
    return st.builds(n.Flow, kinds, st.none() | names, opt_label,
                     st.lists(st.one_of(*members), min_size=1, max_size=3).map(tuple))


option_items = st.builds(n.Option, names, st.none() | names | st.integers(0, 999))
declarations = st.one_of(
    st.builds(n.StateDecl, st.sampled_from(["zone", "counter", "flag"]), names, opt_label,
              st.lists(option_items, min_size=1, max_size=3).map(tuple)),
    st.builds(n.ConstDecl, names, exprs),
    st.builds(n.DefineDecl, names, params, exprs),
    st.builds(n.ActionDecl, names, params, opt_label, limits, blocks),
    _flows(),
    st.builds(n.Trigger, names, st.lists(names, max_size=2).map(tuple), st.none() | exprs,
              blocks),
    st.builds(n.Outcome, st.sampled_from(["win", "lose", "eliminate"]), names, exprs,
              opt_label),
    st.builds(n.ScoreDecl, names, exprs),
    st.builds(n.TiebreakDecl, st.lists(exprs, min_size=1, max_size=3).map(tuple)),
)
programs = st.lists(declarations, max_size=4).map(lambda ds: n.Program(tuple(ds)))


def _parse(text: str) -> n.Program:
    diags = Diagnostics()
    program = parse_rules(text, "gen.rules", diags)
    assert not diags.items, (text, [d.message for d in diags.items])
    return program


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_printing_any_program_parses_back_to_the_same_program(program: n.Program) -> None:
    text = format_program(program)
    again = _parse(text)
    assert again == program, text
    assert format_program(again) == text  # idempotent


def test_a_hash_after_a_string_ending_in_a_backslash_is_text() -> None:
    """In ``"\\\\" "#"`` the backslash is escaped, so the first string ends at its second
    quote and the '#' is the label's text, not a comment (found by the property above)."""
    program = n.Program(declarations=(n.Outcome(kind="win", player="a",
                                                condition=n.StrLit(value="\\"), label="#"),),
                        comments=(), blank_lines=frozenset())
    text = format_program(program)
    assert text == 'win a when "\\\\" "#"\n'
    assert _parse(text) == program
    assert format_program(_parse(text)) == text  # no comment '#"' read into the label


def _rules_files() -> list[Path]:
    return sorted(ROOT.glob("cards/*/rules/*.rules")) + sorted(
        ROOT.glob("tests/packs/*/rules/*.rules"))


def test_bundled_rules_files_are_in_canonical_form() -> None:
    for path in _rules_files():
        text = path.read_text(encoding="utf-8")
        program = _parse(text)
        formatted = format_program(program)
        assert _parse(formatted) == program
        assert format_program(_parse(formatted)) == formatted


def test_comments_are_kept(tmp_path: Path) -> None:
    text = (
        "# the state\n"
        "counter gold: per_player  # coins\n"
        "turn:\n"
        "    # first phase\n"
        "    phase a:\n"
        "        gain 1 gold   # one a turn\n"
    )
    assert format_program(_parse(text)) == (
        "# the state\n"
        "counter gold: per_player  # coins\n"
        "\n"
        "turn:\n"
        "  # first phase\n"
        "  phase a:\n"
        "    gain 1 gold  # one a turn\n"
    )


def test_fmt_command_checks_and_writes(tmp_path: Path) -> None:
    path = tmp_path / "x.rules"
    path.write_text("counter   gold :per_player\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["fmt", "--check", str(path)]).exit_code == 1
    shown = runner.invoke(cli, ["fmt", str(path)])
    assert shown.exit_code == 0 and shown.output == "counter gold: per_player\n"
    assert runner.invoke(cli, ["fmt", "-w", str(path)]).exit_code == 0
    assert path.read_text(encoding="utf-8") == "counter gold: per_player\n"
    assert runner.invoke(cli, ["fmt", "--check", str(path)]).exit_code == 0


def test_fmt_reports_syntax_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.rules"
    path.write_text("phse a:\n  log \"x\"\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fmt", str(path)])
    assert result.exit_code == 1
    assert "error[R001]: unknown declaration 'phse'" in result.output
