"""Allow-lists for what a sheet may contain: rendered HTML, its CSS, and symbol icons (SVG).

Sheets are opened in browsers, and a pack is untrusted, so what reaches a sheet is checked
after it is made, not guessed from a template's source: a template can assemble
``<scr`` + ``ipt>`` or entity-encode a URL, but the rendered text is what a browser reads.
The checks parse the output the way a browser would (``html.parser`` decodes character
references in attributes; tinycss2 decodes CSS escapes such as ``@\\69mport``) and accept
only listed elements, attributes and CSS constructs.  Anything the parser and a browser
might read differently (comments, CDATA, processing instructions, ``<`` inside a style
sheet) is refused outright rather than interpreted.

Each check returns the problems found as ``Problem`` rows (line, column, message): callers
turn them into located diagnostics.
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import tinycss2

# --- what may appear -----------------------------------------------------------------------

HTML_ELEMENTS = frozenset([
    "html", "head", "body", "title", "meta", "style", "div", "span", "p", "br", "hr", "h1",
    "h2", "h3", "h4", "h5", "h6", "header", "footer", "main", "section", "article", "aside",
    "nav", "figure", "figcaption", "blockquote", "pre", "code", "b", "i", "u", "s", "em",
    "strong", "small", "sub", "sup", "mark", "abbr", "table", "thead", "tbody", "tfoot", "tr",
    "th", "td", "caption", "col", "colgroup", "ul", "ol", "li", "dl", "dt", "dd", "a"
])
"""HTML elements a sheet may use: text, structure and tables; nothing that loads or runs."""

SVG_ELEMENTS = frozenset([
    "svg", "g", "path", "circle", "ellipse", "rect", "line", "polyline", "polygon", "text",
    "tspan", "title", "desc", "defs", "lineargradient", "radialgradient", "stop", "clippath",
    "mask", "pattern", "symbol", "use"
])
"""SVG elements an icon (or an inline drawing in a sheet) may use: shapes and paint."""

COMMON_ATTRIBUTES = frozenset([
    "class", "id", "style", "title", "lang", "dir", "role", "colspan", "rowspan", "scope",
    "span", "width", "height", "charset"
])
"""Attributes any HTML element may carry (``style`` is checked as CSS)."""

SVG_ATTRIBUTES = frozenset([
    "id", "class", "style", "viewbox", "xmlns", "version", "width", "height", "x", "y", "x1",
    "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "d", "points", "transform", "fill",
    "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit",
    "opacity", "clip-path", "clip-rule", "mask", "color", "font-size", "font-family",
    "font-weight", "font-style", "text-anchor", "dominant-baseline", "letter-spacing",
    "offset", "stop-color", "stop-opacity", "gradientunits", "gradienttransform",
    "patternunits", "patterncontentunits", "patterntransform", "maskunits",
    "maskcontentunits", "clippathunits", "preserveaspectratio", "vector-effect", "visibility",
    "display", "href", "role", "aria-label", "aria-hidden", "focusable"
])
"""Attributes an SVG element may carry; ``href`` only as a reference inside the icon."""

CSS_AT_RULES = frozenset({"page", "media", "supports", "font-feature-values", "keyframes",
                          "top-left", "top-center", "top-right", "bottom-left",
                          "bottom-center", "bottom-right", "left-top", "left-middle",
                          "left-bottom", "right-top", "right-middle", "right-bottom",
                          "top-left-corner", "top-right-corner", "bottom-left-corner",
                          "bottom-right-corner"})
"""At-rules a style sheet may use (``@import``, ``@font-face``, ``@namespace`` may not)."""

CSS_FORBIDDEN_PROPERTIES = frozenset({"behavior", "-moz-binding", "binding"})
CSS_URL_FUNCTIONS = frozenset({"url", "src", "image", "image-set", "-webkit-image-set",
                               "cross-fade", "element", "expression", "attr"})
"""CSS functions that load, reach outside the document or run script (old IE)."""

_DATA_IMAGE = re.compile(r"^data:image/(png|jpeg|gif|webp|svg\+xml)[;,]", re.IGNORECASE)


@dataclass(frozen=True)
class Problem:
    """Something a sheet or an icon may not contain, and where (1-based line and column)."""

    line: int
    column: int
    message: str


def _url_ok(value: str) -> bool:
    """Only a reference inside the document, or an inline image, may be linked."""
    text = "".join(value.split())  # browsers ignore whitespace and controls inside URLs
    return text.startswith("#") or bool(_DATA_IMAGE.match(text))


# --- CSS -----------------------------------------------------------------------------------


def check_css(text: str, line: int = 1, column: int = 1, *,
              declarations: bool = False) -> list[Problem]:
    """Problems in a style sheet (or a ``style`` attribute's declarations).

    ``line``/``column`` place the text in its document, so problems point into it.
    """
    problems: list[Problem] = []

    def at(node: Any, message: str) -> None:
        node_line = getattr(node, "source_line", 1)
        node_column = getattr(node, "source_column", 1)
        problems.append(Problem(line + node_line - 1,
                                (column + node_column - 1) if node_line == 1 else node_column,
                                message))

    def tokens(nodes: Any) -> None:
        for node in nodes or ():
            kind = getattr(node, "type", "")
            if kind == "url":
                if not _url_ok(node.value):
                    at(node, f"the style loads 'url({node.value[:60]})', which is not allowed")
            elif kind == "function":
                name = node.lower_name
                if name in CSS_URL_FUNCTIONS:
                    args = [t for t in node.arguments if t.type not in ("whitespace",
                                                                        "comment")]
                    target = args[0].value if args and args[0].type == "string" else None
                    if name not in ("url", "src") or target is None or not _url_ok(target):
                        at(node, f"the style uses '{name}(…)', which is not allowed")
                tokens(node.arguments)
            elif kind in ("() block", "[] block", "{} block"):
                tokens(node.content)
            elif kind == "at-keyword":
                at(node, f"the style has '@{node.value}' out of place")
            elif kind == "error":
                at(node, f"the style cannot be read ({node.message})")

    def rules(nodes: Any) -> None:
        for node in nodes:
            kind = node.type
            if kind in ("whitespace", "comment"):
                continue
            if kind == "error":
                at(node, f"the style cannot be read ({node.message})")
            elif kind == "at-rule":
                if node.lower_at_keyword not in CSS_AT_RULES:
                    at(node, f"the style has '@{node.at_keyword}', which is not allowed")
                    continue
                tokens(node.prelude)
                if node.content is not None:
                    rules(tinycss2.parse_blocks_contents(node.content))
            elif kind == "qualified-rule":
                tokens(node.prelude)
                rules(tinycss2.parse_blocks_contents(node.content))
            elif kind == "declaration":
                if node.lower_name in CSS_FORBIDDEN_PROPERTIES:
                    at(node, f"the style sets '{node.name}', which is not allowed")
                tokens(node.value)
            else:
                tokens([node])

    if declarations:
        rules(tinycss2.parse_declaration_list(text))
    else:
        rules(tinycss2.parse_stylesheet(text))
    return problems


def presentation_problems(value: str) -> list[Problem]:
    """Problems in an SVG presentation attribute (``fill="url(#g)"``), read as a CSS value.

    Only values with a function or an escape can reach outside, so plain ones (a path's
    data, a label with an apostrophe) are not tokenised at all.
    """
    if "(" not in value and "\\" not in value:
        return []
    return [p for p in check_css(f"x:{value}", declarations=True)
            if "cannot be read" not in p.message]


# --- HTML ----------------------------------------------------------------------------------


class _SheetChecker(HTMLParser):
    """Walks rendered HTML and records every element, attribute or construct not allowed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[Problem] = []
        self.svg_depth = 0
        self.in_style = False
        self.seen_doctype = False

    def _here(self) -> tuple[int, int]:
        line, offset = self.getpos()
        return line, offset + 1

    def _problem(self, message: str) -> None:
        line, column = self._here()
        self.problems.append(Problem(line, column, message))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs)
        if tag == "svg":
            self.svg_depth += 1
        if tag == "style":
            self.in_style = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1
        if tag == "style":
            self.in_style = False

    def _start(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        in_svg = self.svg_depth > 0 or tag == "svg"
        allowed = SVG_ELEMENTS if in_svg else HTML_ELEMENTS
        if tag not in allowed:
            self._problem(f"the sheet has a <{tag}> element, which is not allowed")
            return
        if in_svg and tag == "style":
            self._problem("the sheet has a <style> inside an SVG drawing, which is not "
                          "allowed")
        names = SVG_ATTRIBUTES if in_svg else COMMON_ATTRIBUTES
        line, column = self._here()
        for name, value in attrs:
            text = value or ""
            if name.startswith("on"):
                self._problem(f"<{tag}> has the event handler '{name}', which is not allowed")
            elif tag == "meta" and name not in ("charset",):
                self._problem(f"<meta> has '{name}', which is not allowed (only charset)")
            elif name.startswith(("aria-", "data-")):
                continue
            elif name in ("href", "xlink:href"):
                if not text.strip().startswith("#"):
                    self._problem(f"<{tag}> links to '{text[:60]}', which is not allowed")
            elif name not in names:
                self._problem(f"<{tag}> has the attribute '{name}', which is not allowed")
            elif name == "style":
                for p in check_css(text, line, column, declarations=True):
                    self.problems.append(p)
            elif in_svg:
                self.problems.extend(Problem(line, column, p.message)
                                     for p in presentation_problems(text))

    def handle_data(self, data: str) -> None:
        if self.in_style:
            if "<" in data:
                self._problem("a style sheet contains '<', which is not allowed")
            line, column = self._here()
            self.problems.extend(check_css(data, line, column))

    def handle_comment(self, data: str) -> None:
        self._problem("the sheet has an HTML comment, which is not allowed")

    def handle_decl(self, decl: str) -> None:
        if decl.strip().lower() != "doctype html" or self.seen_doctype:
            self._problem(f"the sheet has the declaration '<!{decl[:40]}>', which is not "
                          "allowed")
        self.seen_doctype = True

    def handle_pi(self, data: str) -> None:
        self._problem("the sheet has a processing instruction, which is not allowed")

    def unknown_decl(self, data: str) -> None:
        self._problem("the sheet has a CDATA section or declaration, which is not allowed")


def check_html(text: str) -> list[Problem]:
    """Problems in a rendered HTML sheet; an empty list when everything is allowed."""
    checker = _SheetChecker()
    checker.feed(text)
    checker.close()
    if checker.rawdata:  # an unterminated tag at the end, which a browser may still read
        checker._problem("the sheet ends inside a tag")
    return checker.problems


# --- SVG icons -----------------------------------------------------------------------------


class IconError(ValueError):
    """An icon that is not plain, self-contained SVG; ``line``/``column`` locate it.

    The message completes "icon 'icons/x.svg' ...", as in "contains <script>, which is not
    allowed".
    """

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"


def check_icon(text: str) -> None:
    """Raise ``IconError`` unless ``text`` is SVG drawn only with allowed elements.

    Parsed with expat with every document type declaration refused before it is read (so
    no entity is ever defined or expanded and no external entity fetched), then walked
    with the same allow-lists as sheets.
    """
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    depth = [0]

    def where() -> tuple[int, int]:
        return parser.CurrentLineNumber, parser.CurrentColumnNumber + 1

    def refuse(message: str) -> None:
        raise IconError(message, *where())

    def doctype(*_: Any) -> None:
        refuse("is not a valid SVG file: document type declarations are not allowed")

    def entity(*_: Any) -> None:
        refuse("is not a valid SVG file: entity declarations are not allowed")

    def start(name: str, attrs: dict[str, str]) -> None:
        namespace, _, local = name.rpartition(" ")
        if depth[0] == 0 and (local != "svg" or namespace not in ("", _SVG_NS)):
            refuse(f"is not an SVG file (its root is <{local}>)")
        depth[0] += 1
        if namespace not in ("", _SVG_NS) or local.lower() not in SVG_ELEMENTS:
            refuse(f"contains <{local}>, which is not allowed")
        for key, value in attrs.items():
            attr_ns, _, attr = key.rpartition(" ")
            lower = attr.lower()
            if lower.startswith("on"):
                refuse(f"has the attribute '{attr}', which is not allowed")
            if lower == "href" and attr_ns in ("", _XLINK_NS):
                if not value.strip().startswith("#"):
                    refuse(f"has the attribute '{attr}', which is not allowed (it links to "
                           f"'{value[:60]}')")
                continue
            if attr_ns not in ("", "http://www.w3.org/XML/1998/namespace") or (
                    lower not in SVG_ATTRIBUTES and not lower.startswith("aria-")):
                refuse(f"has the attribute '{attr}', which is not allowed")
            found = (check_css(value, declarations=True) if lower == "style"
                     else presentation_problems(value))
            for problem in found:
                refuse(problem.message.replace("the style ", "has a style that ").replace(
                    "has a style that has", "has a style with"))

    def end(_: str) -> None:
        depth[0] -= 1

    def pi(*_: Any) -> None:
        refuse("contains a processing instruction, which is not allowed")

    def cdata() -> None:
        refuse("contains a CDATA section, which is not allowed")

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    def external(*_: Any) -> int:
        refuse("is not a valid SVG file: external entities are not allowed")
        return 0

    parser.ExternalEntityRefHandler = external
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.ProcessingInstructionHandler = pi
    parser.StartCdataSectionHandler = cdata
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        raise IconError(f"is not a valid SVG file: {exc}", exc.lineno, exc.offset + 1) from None
