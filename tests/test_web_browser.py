"""The web table in a real browser: Debian's Chromium, driven by Playwright, plays a whole
ERA game against an agent by clicking, and no response the page receives names a card the
other seat holds hidden.

Chromium comes from the system (``/usr/bin/chromium``; ``.ci/run`` installs Debian's
package when it is missing), never from a downloaded browser build.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from decklore.runtime.describe import event_text, visible
from decklore.web import Table, compile_folder, create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ERA = Path(__file__).resolve().parent.parent / "cards" / "era"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="needs Debian's chromium (.ci/run installs it)")


class Server:
    """A uvicorn server for one table, in a thread, on a free local port."""

    def __init__(self, table: Table) -> None:
        import uvicorn

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(table, delay=0),
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _secrets(table: Table, viewer: int) -> re.Pattern[str] | None:
    """The names of the other seats' cards ``viewer`` cannot see nor know from what it
    was shown (a visible card's name or text, its log), as one pattern."""
    with table.lock:
        game = table.game
        known = [str(game.rows[c][key] or "") for c in range(len(game.state.cards))
                 if visible(game, c, viewer) for key in ("name", "text", "flavor")]
        known += [t for e in game.state.log if (t := event_text(game, e, viewer))]
        text = "\n".join(known)
        names = {str(game.rows[c]["name"]) for c, row in enumerate(game.state.cards)
                 if row["player"] not in (None, viewer) and not visible(game, c, viewer)}
    names = {n for n in names if not re.search(rf"\b{re.escape(n)}\b", text)}
    if not names:
        return None
    return re.compile("|".join(rf"\b{re.escape(n)}\b" for n in sorted(names)))


def test_a_whole_era_game_by_clicking_against_an_agent(browser: Any, tmp_path: Path) -> None:
    tables, errors = compile_folder(ERA)
    assert tables is not None, errors
    table = Table(ERA, tables, ["human", "greedy"], seed=4)
    leaks: list[str] = []
    looked = [0]

    def watch(route: Any) -> None:
        """Pass every request on, and search its answer for the other seat's secrets."""
        response = route.fetch()
        body = response.text() if "image" not in response.headers.get("content-type", "") \
            else ""
        pattern = _secrets(table, 0)
        if pattern is not None:
            looked[0] += 1
            found = pattern.search(body)
            if found:
                leaks.append(f"{route.request.url}: {found.group(0)}")
        route.fulfill(response=response)

    with Server(table) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.route("**/*", watch)
        page.goto(f"{server.url}/seat/1")
        clicks = 0
        while True:
            page.wait_for_selector("#endscreen, button.action", timeout=20_000)
            if page.locator("#endscreen").count():
                break
            version = page.locator(".seat").get_attribute("data-version")
            page.locator("button.action").first.click()
            clicks += 1
            page.wait_for_function(
                "v => { const s = document.querySelector('.seat');"
                " return s !== null && s.dataset.version !== v; }", arg=version,
                timeout=20_000)
            assert clicks < 1000, "the game does not end"
        assert table.game.terminal
        result = table.game.result
        assert result is not None
        end = page.locator("#endscreen").inner_text()
        assert "Game over" in end and result["reason"] in end
        winners = result["winners"]
        assert (f"Player {winners[0] + 1} won" if len(winners) == 1 else "") in end
        shot = tmp_path / "era-end.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert page.locator("#error").inner_text() == ""
    assert clicks > 10  # a whole game, not a short cut
    assert looked[0] > 20
    assert leaks == []


def test_the_designer_page_reloads_the_pack_when_a_file_is_saved(
        browser: Any, tmp_path: Path) -> None:
    import shutil

    pack = tmp_path / "era"
    shutil.copytree(ERA, pack)
    tables, errors = compile_folder(pack)
    assert tables is not None, errors
    table = Table(pack, tables, ["human", "greedy"], seed=4)
    deck = pack / "decks" / "ancient.yaml"
    text = deck.read_text(encoding="utf-8")
    with Server(table) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{server.url}/designer")
        at = page.locator("#rules-at").inner_text()
        assert re.fullmatch(r"rules/\w+\.rules:\d+", at)
        version = page.locator(".designer").get_attribute("data-version")
        page.locator("#step button.primary").click()  # one step: the position moves on
        page.wait_for_function("v => document.querySelector('.designer').dataset.version "
                               "!== v", arg=version)
        assert table.game.state.info["decisions"] == 1
        deck.write_text(text.replace('symbols: "harvest - progress"',
                                     'symbols: "harvest - progres"'), encoding="utf-8")
        page.wait_for_selector("#diagnostics", timeout=20_000)
        shown = page.locator("#diagnostics").inner_text()
        assert "decks/ancient.yaml:" in shown and "error[E131]: unknown symbol 'progres'" in shown
        deck.write_text(text.replace("name: Storehouse", "name: Granary Hall"), encoding="utf-8")
        page.wait_for_selector("#reload-note", timeout=20_000)
        assert page.locator("#diagnostics").count() == 0
        assert "Granary Hall" in page.content()
        assert "a new game on the new tables" in page.locator("#reload-note").inner_text()
        page.screenshot(path=str(tmp_path / "designer.png"), full_page=True)


def test_card_faces_draw_each_icon_inside_its_box_at_screen_size(browser: Any) -> None:
    """The faces on a page are the card sheet's, without the sheet's page-wide rules: an
    icon whose box was left inline drew its picture at the width of the text around it,
    pushing a card's words out of its text box."""
    tables, errors = compile_folder(ERA)
    assert tables is not None, errors
    table = Table(ERA, tables, ["human", "greedy"], seed=4)
    for _ in range(60):  # mid-game: cards in play and in the discard pile, face up
        table.step(table.version, None)
    with Server(table) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{server.url}/seat/1")
        page.wait_for_selector(".face .text .icon")
        counts = page.evaluate("""() => {
            const icons = [...document.querySelectorAll('.face .icon')];
            const bad = icons.filter(icon => {
                const box = icon.getBoundingClientRect();
                const size = parseFloat(getComputedStyle(icon.parentElement).fontSize);
                const picture = icon.querySelector('svg');
                const drawn = picture === null ? box : picture.getBoundingClientRect();
                return drawn.width > box.width + 1 || drawn.height > box.height + 1
                    || (icon.closest('.text') !== null && box.height > 1.5 * size);
            });
            return [icons.length, bad.length];
        }""")
    assert counts[0] > 50
    assert counts[1] == 0
