"""Single card faces for screens: the printed sheets' face template, one card at a time.

The web table draws a card exactly as the print-and-play sheet prints it, so both come from
the same template (``_face.html.j2``, or the pack's own) and the same view data; only the
size differs, and a screen gets each face as a fragment with the CSS for all of them once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

from decklore.compiler.printing.sheets import _Icons, _styles, card_view, environment

_FACE = ('{%- from "_face.html.j2" import face -%}'
         '{{ face(card, u) }}')
_CSS = ('{%- from "_face.html.j2" import face_css -%}'
        '{{ theme_css }}\n{{ face_css(u, w, h) }}')
POKER = (63.5, 88.9)
"""The size the face design is drawn for, in millimetres."""


class FaceRenderer:
    """Draws faces of one pack's cards at one width, each face rendered once and kept."""

    def __init__(self, tables: dict[str, Any], width: float = 44.0,
                 overrides: dict[str, str] | None = None, theme: str = "standard") -> None:
        self.tables = tables
        self.u = width / POKER[0]
        self.size = (width, POKER[1] * self.u)
        self._env = environment(overrides)
        self._icons = _Icons.of(tables)
        self._cards = {c["id"]: c for c in tables["cards"]}
        self._styles = _styles(theme, overrides)
        self._done: dict[str, Markup] = {}

    def css(self) -> Markup:
        """The theme's colours and the face layout at this size (no page-wide rules)."""
        template = self._env.from_string(_CSS)
        return Markup(template.render(u=self.u, w=self.size[0], h=self.size[1],
                                      **self._styles))

    def face(self, card_id: str) -> Markup:
        """One card's face as HTML, the same markup the card sheet prints.

        A card played sideways (``landscape``) is printed turned a quarter in its portrait
        frame, so that it cuts like every other card; a screen shows it the way it is read,
        so its face comes wrapped in ``<div class="upright">``, which the page turns back
        (the web table's ``table.css``)."""
        found = self._done.get(card_id)
        if found is None:
            view = card_view(self._cards[card_id], self.tables, self._icons)
            found = Markup(self._env.from_string(_FACE).render(card=view, u=self.u))
            if view.get("landscape"):
                found = Markup('<div class="upright">') + found + Markup("</div>")
            self._done[card_id] = found
        return found

    def faces(self, card_ids: Iterable[str]) -> dict[str, Markup]:
        return {card_id: self.face(card_id) for card_id in card_ids}
