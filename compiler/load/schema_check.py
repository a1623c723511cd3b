"""Check loaded YAML against a JSON Schema and report each violation at its YAML position.

jsonschema (Draft 2020-12) is the authority: it finds the violations, and this module turns
each into a diagnostic in plain words, placed on the offending key or value, with a ``did
you mean`` for unknown keys.  Walking 10,000 cards with jsonschema costs more than parsing
them, so valid files pass a gate first: the same schema, spelled in draft-07 and compiled
to Python by fastjsonschema.  Only a file the gate rejects is walked by jsonschema
(``tests/test_schema_gate.py`` checks the two agree; ``benchmarks/compile_scaling.py``
measures the gain).

Building both costs more than checking a small pack, so neither is built twice: the gate's
generated Python is kept compiled in the user's cache (``gate_code``), and the jsonschema
validator, with the import of jsonschema itself, waits until the gate rejects a file.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import re
from collections.abc import Callable, Iterable
from functools import cached_property, lru_cache
from importlib.util import MAGIC_NUMBER
from typing import TYPE_CHECKING, Any

import fastjsonschema
from fastjsonschema.version import VERSION as GATE_VERSION

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.yaml_loader import LocatedDict, span_at
from decklore.compiler.private_cache import private_folder, store
from decklore.schema import editor_variant

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError

_PATTERN_WORDS = {
    "^[a-z][a-z0-9_-]{0,59}$": "lowercase letters, digits, '_' and '-', starting with a letter",
    "^[a-z][a-z0-9_-]{0,39}$": "lowercase letters, digits, '_' and '-', starting with a letter",
    "^[a-z][a-z0-9_]{0,39}$": "lowercase letters, digits and '_', starting with a letter",
    "^[A-Z]$": "one capital letter",
    "^#[0-9a-fA-F]{6}$": "a colour written #rrggbb",
}

_TYPE_WORDS = {
    "integer": "a whole number", "number": "a number", "string": "text",
    "boolean": "true or false", "object": "a mapping (key: value lines)",
    "array": "a list ('- item' lines)", "null": "empty",
}  # fmt: skip


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__  # pragma: no cover - YAML gives no other types


def _name(path: Iterable[str | int]) -> str:
    """``cards[3].cost`` style name of a value, for messages."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out or "the file"


def _is_integer(checker: Any, value: Any) -> bool:
    # JSON Schema counts 2.0 as an integer; tables promise no floats, so YAML's 2.0 is not.
    return isinstance(value, int) and not isinstance(value, bool)


def make_validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    """A validator for a 2020-12 schema; the schema itself is checked first."""
    import jsonschema

    base = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    base.check_schema(schema)
    cls = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base, type_checker=base.TYPE_CHECKER.redefine("integer", _is_integer)
    )
    validator: jsonschema.protocols.Validator = cls(schema)
    return validator


class SchemaChecker:
    """A schema ready to check many documents: the fast gate and the full validator."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.gate = _compile_gate(json.dumps(gate_form(editor_variant(schema)),
                                             sort_keys=True))

    @cached_property
    def validator(self) -> jsonschema.protocols.Validator:
        """The full validator, built when a document first fails the gate."""
        return make_validator(self.schema)

    def is_valid(self, data: Any) -> bool:
        try:
            self.gate(data)
        except fastjsonschema.JsonSchemaException:
            return not any(True for _ in self.validator.iter_errors(data))
        return True

    def check(self, data: Any, file: str, diags: Diagnostics, *, gate: bool = True) -> bool:
        """Report every schema violation in ``data``; True when there were none.

        ``gate=False`` skips the fast gate: for data holding floats, which the gate (like
        JSON Schema) would take for integers.
        """
        try:
            if gate:
                self.gate(data)
                return True
        except fastjsonschema.JsonSchemaException:
            pass
        ok = True
        shown = 0
        for error in self.validator.iter_errors(data):
            ok = False
            shown += 1
            if shown <= MAX_REPORTED:
                _report(error, data, file, diags)
        if shown > MAX_REPORTED:
            # A file with 500,000 bad keys would take minutes to explain key by key (each
            # gets a "did you mean"), and nobody reads past the first few hundred.
            diags.error("E100", f"{shown - MAX_REPORTED:,} more problems in this file are not "
                        f"shown (only the first {MAX_REPORTED} are)", Span(file, 1, 1),
                        "fix the ones shown and validate again")
        return ok


MAX_REPORTED = 200
"""Schema problems reported per file; the rest are counted in one last diagnostic."""


_SCHEMA_MAPS = ("properties", "patternProperties", "definitions", "dependencies")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_SCHEMA_ONES = ("items", "additionalItems", "additionalProperties", "contains",
                "propertyNames", "not", "if", "then", "else")


def gate_form(schema: Any) -> Any:
    """The same draft-07 schema, with ``if P, then {}, else Q`` spelled ``anyOf [Q, P]``.

    The two accept the same documents, but the generated gate raises and catches an
    exception for every branch of ``P`` that fails: for a card that is no template, three
    exceptions per card, about half of the gate's time. Checking ``Q`` (``required: [name]``)
    first passes an ordinary card without one. Only keywords in schema positions are
    rewritten (a property may be called ``if``).
    """
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: gate_form(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [gate_form(sub) for sub in value]
        elif key in _SCHEMA_ONES:
            out[key] = ([gate_form(sub) for sub in value] if isinstance(value, list)
                        else gate_form(value))
        else:
            out[key] = value
    if out.get("then") == {} and "if" in out and "else" in out:
        either = {"anyOf": [out.pop("else"), out.pop("if")]}
        del out["then"]
        out["allOf"] = [*out.get("allOf", []), either]
    return out


@lru_cache(maxsize=32)
def _compile_gate(schema_json: str) -> Callable[[Any], Any]:
    """The gate for a draft-07 schema: fastjsonschema's generated validator, run from the
    bytecode kept in the cache when an earlier run generated it."""
    name, code = gate_code(schema_json)
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # the code fastjsonschema generated for this schema
    gate: Callable[[Any], Any] = namespace[name]
    return gate


def gate_code(schema_json: str) -> tuple[str, Any]:
    """The name of the gate's function and the compiled module that defines it.

    Generating the module is most of the cost of a gate, so the compiled module is kept in
    the private ``schema-gate`` cache folder, named by a hash of the schema and of the
    fastjsonschema and bytecode versions; a damaged file is generated again.
    """
    digest = hashlib.sha256(f"{schema_json}\0{GATE_VERSION}\0".encode() + MAGIC_NUMBER)
    folder = private_folder("schema-gate")
    path = folder / f"{digest.hexdigest()[:24]}.bin" if folder is not None else None
    if path is not None and path.is_file():
        try:
            name, code = marshal.loads(path.read_bytes())
            if isinstance(name, str) and type(code).__name__ == "code":
                return name, code
        except (OSError, ValueError, EOFError, TypeError):
            pass
    from fastjsonschema.ref_resolver import RefResolver

    definition = json.loads(schema_json)
    source = fastjsonschema.compile_to_code(definition)
    name = RefResolver.from_schema(definition, store={}).get_scope_name()
    code = compile(source, f"<schema gate {name}>", "exec")
    if path is not None:
        store(path, marshal.dumps((name, code)))
    return name, code


@lru_cache(maxsize=32)
def _checker(schema_json: str) -> SchemaChecker:
    return SchemaChecker(json.loads(schema_json))


def checker_for(schema: dict[str, Any]) -> SchemaChecker:
    """A checker for ``schema``, shared by every compile in the process that uses it."""
    return _checker(json.dumps(schema, sort_keys=True))


def _report(error: ValidationError, root: Any, file: str, diags: Diagnostics) -> None:
    path = list(error.absolute_path)
    here = span_at(root, path) or Span(file, 1, 1)
    what = _name(path)
    kind = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    value = error.instance
    rule: Any = error.validator_value
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = set(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        unknown = [key for key in value
                   if key not in allowed and not any(re.search(p, key) for p in patterns)]
        if len(unknown) > MAX_REPORTED:
            diags.error("E100", f"{len(unknown) - MAX_REPORTED:,} more unknown keys"
                        f"{f' in {what}' if path else ''} are not shown (only the first "
                        f"{MAX_REPORTED} are)", here, "fix the ones shown and validate again")
        for key in unknown[:MAX_REPORTED]:
            span = value.key_span(key) if isinstance(value, LocatedDict) else here
            hint = suggest(key, allowed) or (
                "allowed keys: " + ", ".join(sorted(allowed)) if allowed else "remove it"
            )
            where = f" in {what}" if path else ""
            diags.error("E100", f"unknown key '{key}'{where}", span, hint)
        return
    if "propertyNames" in error.relative_schema_path:
        # jsonschema reports a bad key as the key itself failing, at the mapping's path.
        parent: Any = root
        for step in path:
            parent = parent[step]
        key = str(value)
        span = parent.key_span(key) if isinstance(parent, LocatedDict) else here
        words = _PATTERN_WORDS.get(rule, "lowercase letters, digits and '_'") \
            if kind == "pattern" else "a shorter name"
        diags.error("E101", f"key '{key}' in {what} is not a valid name", span, f"use {words}")
        return
    if kind == "required":
        missing = [k for k in rule if isinstance(value, dict) and k not in value]
        for key in missing:
            where = f" in {what}" if path else ""
            diags.error("E102", f"missing required key '{key}'{where}",
                        Span(here.file, here.line, here.column),
                        f"add '{key}:' to {what if path else 'the file'}")
        return
    if kind == "type":
        expected = rule
        names = [expected] if isinstance(expected, str) else list(expected)
        words = " or ".join(_TYPE_WORDS.get(n, n) for n in names)
        diags.error("E101", f"{what} must be {words}, not {_describe(value)}", here,
                    _type_hint(names, value))
        return
    if kind in ("enum", "const"):
        options = rule if kind == "enum" else [rule]
        shown = ", ".join(repr(o) if isinstance(o, str) else str(o) for o in options)
        hint = suggest(str(value), [str(o) for o in options]) or f"use one of: {shown}"
        diags.error("E103", f"{what} has the value {_short(value)}, which is not allowed", here,
                    hint)
        return
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = rule
        relation = {"minimum": "at least", "maximum": "at most",
                    "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[kind]
        diags.error("E104", f"{what} must be {relation} {bound} (it is {value})", here,
                    f"use a value {relation} {bound}")
        return
    if kind == "pattern":
        words = _PATTERN_WORDS.get(rule, f"the pattern {rule}")
        diags.error("E105", f"{what} {_short(value)} is not in the expected form", here,
                    f"use {words}")
        return
    if kind in ("minLength", "maxLength", "minItems", "maxItems", "maxProperties"):
        limit = rule
        relation = "at least" if kind.startswith("min") else "at most"
        unit = "character" if kind.endswith("Length") else "item"
        unit += "" if limit == 1 else "s"
        diags.error("E106", f"{what} must have {relation} {limit} {unit}", here,
                    "shorten it" if relation == "at most" else "fill it in")
        return
    diags.error("E101", f"{what}: {error.message}", here, "see docs/pack-format.md")


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _type_hint(names: list[str], value: Any) -> str:
    if "integer" in names and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return "remove the quotes around the number"
    if "string" in names and isinstance(value, bool):
        return "quote the value: unquoted yes/no/true/false are true or false"
    if "string" in names and isinstance(value, int | float):
        return "quote the value to make it text"
    if "array" in names:
        return "write it as a list: one '- item' line per item, or [a, b]"
    if "object" in names:
        return "write it as 'key: value' lines indented under it"
    return "see docs/pack-format.md"
