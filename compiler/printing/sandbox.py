"""The Jinja sandbox sheets render in: names only, budgets, and every failure located.

A pack's templates are untrusted code.  Jinja's immutable sandbox already refuses
attribute tricks (``__class__``, ``__globals__``) and mutation; this module adds what a
sandbox for strangers' templates also needs:

* a loader that resolves a template by **name** only, inside the pack's ``templates/``
  folder (as stored in the tables) and decklore's built-in templates: no path syntax, so
  ``/etc/passwd``, ``../x`` or a name held in a variable can never reach a file;
* **budgets**: the time a sheet may take, how much it may write, how long a string or list
  a template may build and how many loop turns ``range`` may give, so a template cannot hang
  the build or fill the memory;
* every failure (syntax, undefined names, sandbox refusals, recursion, overflow, budgets)
  as a ``SheetError`` that names the template, line and column, never a traceback.
"""

from __future__ import annotations

import re
import time
import traceback
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from jinja2 import FunctionLoader, StrictUndefined, Template, TemplateError, TemplateNotFound
from jinja2 import TemplateSyntaxError as JinjaSyntaxError
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_SECONDS = 60.0
"""Wall time one sheet may take to render (ERA's card sheet takes about a second)."""
MAX_OUTPUT_CHARS = 64 * 1024 * 1024
"""Characters one sheet may write (ERA's card sheet is about 1 million)."""
MAX_STRING = 1024 * 1024
"""The longest string or list one template operation may make or be given."""
MAX_RANGE_STEPS = 2_000_000
"""Loop turns all ``range`` calls of one sheet may give together."""
MAX_NUMBER = 1_000_000
"""The largest width, count or repeat a template may pass to a filter or method."""

_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")


class SheetError(Exception):
    """A sheet could not be rendered; where (template, line, column) and why.

    ``file`` is ``templates/NAME`` for a pack's own template and ``decklore:templates/NAME``
    for a built-in one.
    """

    def __init__(self, code: str, message: str, file: str, line: int = 1, column: int = 1,
                 hint: str = "") -> None:
        super().__init__(f"{file}:{line}:{column}: error[{code}]: {message}")
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint


class _BudgetExceeded(Exception):
    """Raised inside a render when a budget runs out; turned into a SheetError."""


@cache
def builtin_names() -> frozenset[str]:
    """The file names of decklore's built-in templates and style sheets."""
    from importlib.resources import files

    folder = files("decklore.compiler.printing") / "templates"
    return frozenset(entry.name for entry in folder.iterdir() if entry.is_file())


@cache
def builtin_source(name: str) -> str:
    """A built-in template's text; only names of files that exist in the folder."""
    from importlib.resources import files

    if name not in builtin_names():
        raise TemplateNotFound(name)
    return (files("decklore.compiler.printing") / "templates" / name).read_text(encoding="utf-8")


def template_file(name: str, overrides: dict[str, str]) -> str:
    """How messages name a template: the pack's file, or decklore's built-in one."""
    return f"templates/{name}" if name in overrides else f"decklore:templates/{name}"


class _Budget:
    """What one render has used so far."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds
        self.steps = 0

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_RANGE_STEPS:
            raise _BudgetExceeded(f"its loops ran more than {MAX_RANGE_STEPS:,} turns")
        if self.steps % 1024 == 0:
            self.check_time()

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise _BudgetExceeded(f"it took longer than {self.seconds:g} seconds")


def _too_big(value: Any) -> bool:
    if isinstance(value, str | list | tuple | bytes):
        return len(value) > MAX_STRING
    return False


def _check_numbers(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise SecurityError(f"the number {value} is too large for a template "
                                f"(the limit is {MAX_NUMBER:,})")
        if _too_big(value):
            raise SecurityError(f"a value of {len(value):,} items is too large for a "
                                f"template (the limit is {MAX_STRING:,})")


_WIDE_FORMAT = re.compile(r"\d{7,}|%[-+ #0]*\*|\{[^{}]*\{")


def _check_format(text: Any) -> None:
    """Refuse format strings with huge or computed widths (``%*d``, ``{:999999999}``)."""
    if isinstance(text, str) and _WIDE_FORMAT.search(text):
        raise SecurityError("a format with a width of a million or more, or a computed "
                            "width, is not allowed in a template")


class SheetSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with sizes checked on every call and arithmetic step."""

    intercepted_binops = frozenset(["*", "**", "+", "%", "//"])

    def get_template(self, name: Any, parent: Any = None,
                     globals: Any = None) -> Template:
        """A template by name, its syntax and name errors located (not raised from Jinja)."""
        try:
            return super().get_template(name, parent, globals)
        except JinjaSyntaxError as exc:
            extra = getattr(self, "overrides", {})
            raise SheetError("E146", f"template syntax error: {exc.message}",
                             template_file(exc.name or str(name), extra), exc.lineno or 1, 1,
                             "fix the template's Jinja syntax") from None
        except TemplateNotFound as exc:
            if parent is not None:  # an include inside a render: located by render_template
                raise
            raise SheetError("E146", f"no template named '{exc.name}'",
                             template_file(str(name), getattr(self, "overrides", {})),
                             hint="name templates by their plain file name") from None

    budget: _Budget
    overrides: dict[str, str]

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, str | list | tuple) and isinstance(count, int) and \
                        len(seq) * max(count, 0) > MAX_STRING:
                    raise SecurityError("a repeated string or list would be longer than "
                                        f"{MAX_STRING:,}")
        if operator == "**" and isinstance(right, int | float) and isinstance(
                left, int | float) and abs(right) > 64 and abs(left) > 1:
            raise SecurityError("a power with an exponent above 64 is not allowed in a "
                                "template")
        if operator == "+" and isinstance(left, str | list | tuple) and isinstance(
                right, str | list | tuple) and len(left) + len(right) > MAX_STRING:
            raise SecurityError(f"a joined string or list would be longer than {MAX_STRING:,}")
        if operator == "%":
            _check_format(left)
        result = super().call_binop(context, operator, left, right)
        return result

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        __self.budget.check_time()
        _check_numbers(args, kwargs)
        if getattr(__obj, "__name__", "") in ("format", "format_map") and isinstance(
                getattr(__obj, "__self__", None), str):
            _check_format(__obj.__self__)
        if getattr(__obj, "__name__", "") == "replace" and isinstance(
                getattr(__obj, "__self__", None), str) and len(args) >= 2:
            _check_replace(__obj.__self__, args[0], args[1])
        result = super().call(__context, __obj, *args, **kwargs)
        if _too_big(result):
            raise SecurityError(f"a call made a value longer than {MAX_STRING:,}")
        return result


def _check_replace(text: Any, old: Any, new: Any) -> None:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
        count = text.count(old) if old else len(text) + 1
        if len(text) + count * (len(new) - len(old)) > MAX_STRING:
            raise SecurityError(f"a replacement would make a string longer than {MAX_STRING:,}")


def _guarded_filter(func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that refuses huge widths and counts, and huge results."""

    def run(*args: Any, **kwargs: Any) -> Any:
        _check_numbers(args, kwargs)
        if func.__name__ == "do_format" and args:
            _check_format(args[0])
        if func.__name__ == "do_replace" and len(args) >= 4:
            _check_replace(str(args[1]), args[2], args[3])
        result = func(*args, **kwargs)
        if _too_big(result):
            raise SecurityError(f"a filter made a value longer than {MAX_STRING:,}")
        return result

    for attr in ("jinja_pass_arg",):
        if hasattr(func, attr):
            setattr(run, attr, getattr(func, attr))
    run.__name__ = func.__name__
    return run


class BudgetTemplate(Template):
    """A template whose ``render`` runs within the sheet budgets and locates its failures."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        env = self.environment
        assert isinstance(env, SheetSandbox)
        return render_template(env, self, dict(*args, **kwargs))


def make_environment(overrides: dict[str, str] | None = None) -> SheetSandbox:
    """The sandbox for one set of templates: a pack's own (by name) over the built-in ones."""
    extra = dict(overrides or {})

    def load(name: str) -> tuple[str, str, Callable[[], bool]]:
        if not isinstance(name, str) or not _NAME.match(name) or ".." in name:
            raise TemplateNotFound(name)
        if name in extra:
            return extra[name], template_file(name, extra), lambda: True
        return builtin_source(name), template_file(name, extra), lambda: True

    env = SheetSandbox(
        # Markdown is not HTML: escaping it would print "King&#39;s Arms".
        loader=FunctionLoader(load), autoescape=lambda name: not (name or "").endswith(".md.j2"),
        undefined=StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.template_class = BudgetTemplate
    env.overrides = extra
    env.budget = _Budget(MAX_SECONDS)

    def budget_range(*args: Any) -> Iterator[int]:
        for value in args:
            if not isinstance(value, int) or isinstance(value, bool):
                raise SecurityError("range takes whole numbers")
        span = range(*args)
        if len(span) > MAX_RANGE_STEPS:
            raise SecurityError(f"a range of {len(span):,} numbers is too long (the limit is "
                                f"{MAX_RANGE_STEPS:,})")

        def steps() -> Iterator[int]:
            for number in span:
                env.budget.tick()
                yield number

        return steps()

    env.globals["range"] = budget_range
    for name in ("center", "indent", "format", "wordwrap", "truncate", "batch", "slice",
                 "replace", "join", "string", "list", "sum"):
        if name in env.filters:
            env.filters[name] = _guarded_filter(env.filters[name])
    env.filters["mm"] = lambda v: f"{float(v):.3f}mm"
    return env


def render_template(env: SheetSandbox, template: Template, context: dict[str, Any]) -> str:
    """Render within the budgets; every failure becomes a located ``SheetError``."""
    extra = env.overrides
    name = template.name or ""
    env.budget = _Budget(MAX_SECONDS)
    out: list[str] = []
    size = 0
    try:
        for chunk in template.generate(**context):
            size += len(chunk)
            if size > MAX_OUTPUT_CHARS:
                raise _BudgetExceeded(f"it wrote more than {MAX_OUTPUT_CHARS:,} characters")
            out.append(chunk)
            env.budget.check_time()
    except JinjaSyntaxError as exc:
        file = template_file(exc.name or name, extra) if exc.name else template_file(name,
                                                                                      extra)
        raise SheetError("E146", f"template syntax error: {exc.message}", file,
                         exc.lineno or 1, 1, "fix the template's Jinja syntax") from None
    except TemplateNotFound as exc:
        file, line = _where(exc, name, extra)
        raise SheetError("E146", f"no template named '{exc.name}'", file, line, 1,
                         "include or import templates by their plain file name (such as "
                         "'_face.html.j2'); paths are not allowed") from None
    except _BudgetExceeded as exc:
        file, line = _where(exc, name, extra)
        raise SheetError("E147", f"the sheet was stopped: {exc}", file, line, 1,
                         "simplify the template's loops; sheets have a time and size "
                         "budget") from None
    except RecursionError as exc:
        file, line = _where(exc, name, extra)
        raise SheetError("E146", "the template calls or includes itself without end", file,
                         line, 1, "a macro or include may not recurse this deeply") from None
    except (TemplateError, SecurityError, OverflowError, ArithmeticError, TypeError,
            ValueError, LookupError, AttributeError, MemoryError) as exc:
        file, line = _where(exc, name, extra)
        kind = {"UndefinedError": "undefined value", "SecurityError": "not allowed"}.get(
            type(exc).__name__, "template error")
        message = str(exc) or type(exc).__name__
        raise SheetError("E146", f"{kind}: {message[:200]}", file, line, 1,
                         "templates may only read the sheet's data and use plain Jinja "
                         "filters") from None
    return "".join(out)


def _where(exc: BaseException, name: str, extra: dict[str, str]) -> tuple[str, int]:
    """The innermost template frame of a failure: Jinja rewrites tracebacks to point there."""
    files = {template_file(n, extra) for n in (*extra, *builtin_names())}
    found = (template_file(name, extra), 1)
    try:
        frames = traceback.extract_tb(exc.__traceback__)
    except RecursionError:  # pragma: no cover - a traceback too deep to walk
        return found
    for frame in frames[-200:]:
        if frame.filename in files:
            found = (frame.filename, frame.lineno or 1)
    return found


_QUOTED = re.compile(r"<([a-z0-9:-]+)>|'([^']{1,60})'")


def check_rendered(text: str, template: str, overrides: dict[str, str] | None) -> None:
    """Refuse a rendered HTML sheet with anything the sheet allow-list does not accept.

    The problem is located in the pack's template that holds the offending name (an
    element or attribute), else at the top of the sheet's template; the message also gives
    the line of the rendered sheet, since a template may assemble what it writes.
    """
    from decklore.compiler.printing.sanitize import check_html

    problems = check_html(text)
    if not problems:
        return
    first = problems[0]
    extra = overrides or {}
    file, line, column = template_file(template, extra), 1, 1
    match = _QUOTED.search(first.message)
    needle = (match.group(1) or match.group(2)).lower() if match else ""
    for name in ([template] if template in extra else []) + sorted(extra):
        source = extra.get(name, "").lower()
        at = source.find(needle) if needle else -1
        if at >= 0:
            line = source.count("\n", 0, at) + 1
            column = at - (source.rfind("\n", 0, at) + 1) + 1
            file = template_file(name, extra)
            break
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    raise SheetError("E144", f"the rendered sheet has content that is not allowed: "
                     f"{first.message}, at line {first.line} of the sheet{more}", file, line,
                     column, "sheets may not run code or load anything: draw with HTML and "
                     "CSS, and inline images as data:image URLs")
