"""Theme colours written into a sheet's CSS before WeasyPrint lays it out.

The themes name their colours as custom properties on ``:root`` (``--ink: #1d1d1b``) and
the sheets use them as ``var(--ink)``.  WeasyPrint resolves a ``var()`` anew for every
element that uses it: it parses the value's tokens and the colour once per element and
property, and on a card sheet that was about a tenth of the layout time.  A property
declared once, on ``:root``, and nowhere else has the same value on every element, so
its uses can be written as that value without changing a pixel: that is all this does.

What it leaves as it is: a property declared anywhere else too (a card's ``--edge`` is
set per card, in its ``style`` attribute), a value that itself uses a property that
stays, and anything outside ``<style>`` elements and ``style`` attributes (card text may
well say ``var(--x)``).  The HTML a build writes keeps its ``var()``s, for people who
read or restyle it; only the PDF engine gets the written-out copy.
"""

from __future__ import annotations

import re

_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S | re.I)
_STYLE_ATTR = re.compile(r"""(\sstyle=)("[^"]*"|'[^']*')""", re.I)
_ROOT = re.compile(r":root\s*\{([^{}]*)\}")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_DECLARED = re.compile(r"(--[A-Za-z0-9_-]+)\s*:")
_USE = re.compile(r"var\(\s*(--[A-Za-z0-9_-]+)\s*\)")


def inline_root_properties(html: str) -> str:
    """``html`` with each use of a custom property declared once, on ``:root``, and
    nowhere else, replaced by its value (see the module docstring for what stays)."""
    css = [match.group(2) for match in _STYLE.finditer(html)]
    if not css:
        return html
    root: dict[str, str] = {}
    for block in css:
        for rule in _ROOT.finditer(_COMMENT.sub("", block)):
            for declaration in rule.group(1).split(";"):
                name, colon, value = declaration.partition(":")
                if colon and name.strip().startswith("--"):
                    root[name.strip()] = value.strip()
    if not root:
        return html
    declared: dict[str, int] = {}
    for text in css + [match.group(2) for match in _STYLE_ATTR.finditer(html)]:
        for name in _DECLARED.findall(_COMMENT.sub("", text)):
            declared[name] = declared.get(name, 0) + 1
    values = _resolved({name: value for name, value in root.items()
                        if declared.get(name) == 1 and "!" not in value and value})
    if not values:
        return html

    def written_out(text: str) -> str:
        return _USE.sub(lambda use: values.get(use.group(1), use.group(0)), text)

    html = _STYLE.sub(lambda m: m.group(1) + written_out(m.group(2)) + m.group(3), html)
    return _STYLE_ATTR.sub(lambda m: m.group(1) + written_out(m.group(2)), html)


def _resolved(values: dict[str, str]) -> dict[str, str]:
    """The values whose own ``var()``s (if any) can all be written out, written out; a
    value that uses a property that stays (or itself, through a loop) is left out."""
    done: dict[str, str] = {}
    for _ in range(len(values) + 1):
        progressed = False
        for name, value in values.items():
            if name in done:
                continue
            uses = _USE.findall(value)
            if all(use in done for use in uses):
                value = _USE.sub(lambda use: done[use.group(1)], value)
                if "var(" in value:  # a use with a fallback: left to the engine
                    continue
                done[name] = value
                progressed = True
        if not progressed:
            break
    return done
