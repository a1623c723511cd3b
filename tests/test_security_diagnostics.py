"""Exact text of the diagnostics for hostile packs: templates, rendered sheets, deep rules.

A pack is untrusted data.  Each case here is an attack that once read a file outside the
pack, put active content in a sheet or crashed decklore; now each is one located error.
The meta-test in ``test_diagnostics.py`` finds the codes used here (E144, E146, E147,
R003).
"""

# ruff: noqa: E501 -- expected texts hold whole rendered lines, which are as long as they are.

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import render_all

Files = dict[str, "str | bytes | None"]
MINI = Path(__file__).resolve().parent / "packs" / "mini"
PACK = (MINI / "pack.yaml").read_text(encoding="utf-8")


@pytest.fixture
def printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            write_pack: Callable[[Path, Files], Path]) -> Callable[[str], str]:
    """Print the mini pack's legend with ``legend.html.j2`` replaced; what stderr says."""
    monkeypatch.chdir(tmp_path)

    def run(template: str) -> str:
        write_pack(tmp_path, {"templates/legend.html.j2": template})
        result = CliRunner().invoke(cli, ["print", "mini", "--sheet", "legend", "--format",
                                          "html", "-o", "out.html", "--no-cache"])
        assert result.exit_code == 1, result.output
        assert not (tmp_path / "out.html").exists()
        return result.stderr

    return run


TEMPLATE_CASES = [
    pytest.param(
        "<h1>{{ pack.name }}</h1>\n{% include '/etc/passwd' %}\n",
        """\
mini/templates/legend.html.j2:2:1: error[E146]: no template named '/etc/passwd'
   2 | {% include '/etc/passwd' %}
     | ^
  hint: include or import templates by their plain file name (such as '_face.html.j2'); paths are not allowed
1 error.
""",
        id="E146-include-a-path",
    ),
    pytest.param(
        "{% set where = '../pack.yaml' %}\n{% import where as x %}\n",
        """\
mini/templates/legend.html.j2:2:1: error[E146]: no template named '../pack.yaml'
   2 | {% import where as x %}
     | ^
  hint: include or import templates by their plain file name (such as '_face.html.j2'); paths are not allowed
1 error.
""",
        id="E146-import-a-variable-path",
    ),
    pytest.param(
        "ok\n{{ pack.__class__.__mro__ }}\n",
        """\
mini/templates/legend.html.j2:2:1: error[E146]: not allowed: access to attribute '__class__' of 'dict' object is unsafe.
   2 | {{ pack.__class__.__mro__ }}
     | ^
  hint: templates may only read the sheet's data and use plain Jinja filters
1 error.
""",
        id="E146-sandbox-refusal",
    ),
    pytest.param(
        "{{ nothing_here }}\n",
        """\
mini/templates/legend.html.j2:1:1: error[E146]: undefined value: 'nothing_here' is undefined
   1 | {{ nothing_here }}
     | ^
  hint: templates may only read the sheet's data and use plain Jinja filters
1 error.
""",
        id="E146-undefined",
    ),
    pytest.param(
        "<p>\n{% if %}\n",
        """\
mini/templates/legend.html.j2:2:1: error[E146]: template syntax error: Expected an expression, got 'end of statement block'
   2 | {% if %}
     | ^
  hint: fix the template's Jinja syntax
1 error.
""",
        id="E146-syntax",
    ),
    pytest.param(
        "{% macro deeper(n) %}{{ deeper(n + 1) }}{% endmacro %}\n{{ deeper(0) }}\n",
        """\
mini/templates/legend.html.j2:1:1: error[E146]: the template calls or includes itself without end
   1 | {% macro deeper(n) %}{{ deeper(n + 1) }}{% endmacro %}
     | ^
  hint: a macro or include may not recurse this deeply
1 error.
""",
        id="E146-recursion",
    ),
    pytest.param(
        "{{ range(10**9)|list }}\n",
        """\
mini/templates/legend.html.j2:1:1: error[E146]: not allowed: the number 1000000000 is too large for a template (the limit is 1,000,000)
   1 | {{ range(10**9)|list }}
     | ^
  hint: templates may only read the sheet's data and use plain Jinja filters
1 error.
""",
        id="E146-huge-range",
    ),
    pytest.param(
        "{{ 'x' * 10**9 }}\n",
        """\
mini/templates/legend.html.j2:1:1: error[E146]: not allowed: a repeated string or list would be longer than 1,048,576
   1 | {{ 'x' * 10**9 }}
     | ^
  hint: templates may only read the sheet's data and use plain Jinja filters
1 error.
""",
        id="E146-huge-string",
    ),
    pytest.param(
        "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}\n",
        """\
mini/templates/legend.html.j2:1:1: error[E147]: the sheet was stopped: its loops ran more than 2,000,000 turns
   1 | {% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}
     | ^
  hint: simplify the template's loops; sheets have a time and size budget
1 error.
""",
        id="E147-nested-loops",
    ),
    pytest.param(
        "<h1>{{ pack.name }}</h1>\n{{ ('<scr' ~ 'ipt>alert(1)</scr' ~ 'ipt>')|safe }}\n",
        """\
mini/templates/legend.html.j2:1:1: error[E144]: the rendered sheet has content that is not allowed: the sheet has a <script> element, which is not allowed, at line 2 of the sheet
   1 | <h1>{{ pack.name }}</h1>
     | ^
  hint: sheets may not run code or load anything: draw with HTML and CSS, and inline images as data:image URLs
1 error.
""",
        id="E144-assembled-script",
    ),
    pytest.param(
        "<p>hi</p>\n<a href='&#106;avascript:alert(1)'>x</a>\n",
        """\
mini/templates/legend.html.j2:2:2: error[E144]: the rendered sheet has content that is not allowed: <a> links to 'javascript:alert(1)', which is not allowed, at line 2 of the sheet
   2 | <a href='&#106;avascript:alert(1)'>x</a>
     |  ^
  hint: sheets may not run code or load anything: draw with HTML and CSS, and inline images as data:image URLs
1 error.
""",
        id="E144-entity-encoded-javascript",
    ),
    pytest.param(
        "<style>\n@\\69mport 'https://x.invalid/a.css';\n</style>\n",
        """\
mini/templates/legend.html.j2:1:1: error[E144]: the rendered sheet has content that is not allowed: the style has '@import', which is not allowed, at line 2 of the sheet
   1 | <style>
     | ^
  hint: sheets may not run code or load anything: draw with HTML and CSS, and inline images as data:image URLs
1 error.
""",
        id="E144-css-escaped-import",
    ),
]


@pytest.mark.parametrize(("template", "expected"), TEMPLATE_CASES)
def test_hostile_template_text(printed: Callable[[str], str], template: str,
                               expected: str) -> None:
    assert printed(template) == expected


def test_a_symlinked_template_never_shows_the_file_it_points_to(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        write_pack: Callable[[Path, Files], Path]) -> None:
    monkeypatch.chdir(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the secret line\n", encoding="utf-8")
    pack = write_pack(tmp_path, {})
    (pack / "templates").mkdir()
    (pack / "templates" / "legend.html.j2").symlink_to(secret)
    with pytest.raises(PackError) as error:
        compile_pack("mini")
    text = render_all(error.value.diagnostics, SourceCache())
    assert text == """\
mini/templates/legend.html.j2:1:1: error[E141]: path 'templates/legend.html.j2' leaves the pack folder
  hint: a symlink may not point outside the pack; copy the file in instead
1 error."""
    assert "secret" not in text


@pytest.fixture
def rules_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                write_pack: Callable[[Path, Files], Path]) -> Callable[[str], str]:
    monkeypatch.chdir(tmp_path)

    def run(rules: str) -> str:
        write_pack(tmp_path, {"pack.yaml": PACK + "rules: [rules/game.rules]\n",
                              "rules/game.rules": rules})
        with pytest.raises(PackError) as error:
            compile_pack("mini")
        return render_all(error.value.diagnostics, SourceCache())

    return run


def test_r003_a_long_sum(rules_error: Callable[[str], str]) -> None:
    assert rules_error("const big = " + " + ".join(["1"] * 20_000) + "\n").startswith("""\
mini/rules/game.rules:1:13: error[R003]: this declaration nests too deeply (20004 levels; the limit is 100)
   1 | const big = 1 + 1 + 1""")


def test_r003_nested_nots(rules_error: Callable[[str], str]) -> None:
    text = rules_error("const odd = " + "not " * 10_000 + "true\n")
    head, _, rest = text.partition("\n")
    assert head == ("mini/rules/game.rules:1:40013: error[R003]: this declaration nests too "
                    "deeply (10003 levels; the limit is 100)")
    assert rest.endswith("  hint: split long sums and conditions into named defines, and deep "
                         "blocks into separate actions\n1 error.")


def test_r003_nested_blocks(rules_error: Callable[[str], str]) -> None:
    lines = ["zone hand: per_player, deck", "action deep \"Deep\":"]
    for depth in range(1, 400):
        lines.append("  " * depth + "if true:")
    lines.append("  " * 400 + "shuffle hand")
    text = rules_error("\n".join(lines) + "\n")
    assert text.splitlines()[0].startswith("mini/rules/game.rules:")
    assert "error[R003]: this declaration nests too deeply" in text.splitlines()[0]


def test_nesting_at_the_documented_limit_compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   write_pack: Callable[[Path, Files], Path]
                                                   ) -> None:
    """Just under the limit every stage (build, check, lower) still runs without a crash."""
    monkeypatch.chdir(tmp_path)
    rules = "const big = " + " + ".join(["1"] * 90) + "\nconst odd = " + "not " * 90 + "true\n"
    write_pack(tmp_path, {"pack.yaml": PACK + "rules: [rules/game.rules]\n",
                          "rules/game.rules": rules})
    try:
        compile_pack("mini")
    except PackError as error:  # the mini pack has no flow: other errors are fine, R003 not
        assert all(d.code != "R003" for d in error.diagnostics)


def test_a_huge_mapping_is_reported_in_bounded_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        write_pack: Callable[[Path, Files], Path]) -> None:
    """Every unknown key gets a "did you mean"; past 200 the rest are counted, not explained."""
    monkeypatch.chdir(tmp_path)
    write_pack(tmp_path, {"pack.yaml": PACK + "".join(f"junk{i}: {i}\n" for i in range(250))})
    with pytest.raises(PackError) as error:
        compile_pack("mini")
    diagnostics = error.value.diagnostics
    assert len(diagnostics) == 201
    assert render_all([d for d in diagnostics if "more" in d.message], SourceCache()) == """\
mini/pack.yaml:2:1: error[E100]: 50 more unknown keys are not shown (only the first 200 are)
   2 | format: 1
     | ^
  hint: fix the ones shown and validate again
1 error."""


def test_a_templates_folder_linked_from_outside_is_not_even_listed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        write_pack: Callable[[Path, Files], Path]) -> None:
    monkeypatch.chdir(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "private-name.css").write_text("p {}\n", encoding="utf-8")
    pack = write_pack(tmp_path, {})
    (pack / "templates").symlink_to(elsewhere)
    with pytest.raises(PackError) as error:
        compile_pack("mini")
    assert render_all(error.value.diagnostics, SourceCache()) == """\
mini/templates:1:1: error[E141]: the folder 'templates' leaves the pack folder
  hint: a symlink may not point outside the pack; copy the files in instead
1 error."""
