"""The web table over HTTP (Starlette's test client): what each seat is sent, how bad
requests are refused, agents, hot seat, save and load, the designer view and live reload."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from click.testing import CliRunner
from starlette.testclient import TestClient

from decklore.runtime.describe import event_text, visible
from decklore.runtime.rng import Rng
from decklore.web import Table, compile_folder, create_app
from decklore.web.views import button_texts

ROOT = Path(__file__).resolve().parent.parent
ERA = ROOT / "cards" / "era"


@pytest.fixture(scope="module")
def era_tables() -> Any:
    tables, errors = compile_folder(ERA)
    assert tables is not None, errors
    return tables


def _client(table: Table) -> TestClient:
    return TestClient(create_app(table, delay=0))


def _hidden_names(table: Table, viewer: int, other: int) -> set[str]:
    """The names and ids of the other seat's cards ``viewer`` cannot see and cannot know
    from anything it was shown: no card it sees has that name or names it in its text, and
    no log line it was given names it."""
    game = table.game
    known_text = []
    for card in range(len(game.state.cards)):
        if visible(game, card, viewer):
            row = game.rows[card]
            known_text += [str(row["name"]), str(row.get("text") or ""),
                           str(row.get("flavor") or "")]
    known_text += [text for event in game.state.log
                   if (text := event_text(game, event, viewer))]
    known = "\n".join(known_text)
    names = set()
    for card, row in enumerate(game.state.cards):
        if row["player"] == other and not visible(game, card, viewer):
            name = str(game.rows[card]["name"])
            if not re.search(rf"\b{re.escape(name)}\b", known):
                names |= {name, str(game.rows[card]["id"])}  # by name and by id
    return names


def _seat_responses(client: TestClient, seat: int, version: int) -> list[str]:
    """Everything a seat's page fetches: the page, its fragment (polled with an old
    version), the JSON view; its static files are the same for every position."""
    return [client.get(f"/seat/{seat}").text,
            client.get(f"/seat/{seat}/table?version={version - 1}").text,
            client.get(f"/api/seat/{seat}").text]


def _named(names: set[str]) -> re.Pattern[str]:
    return re.compile("|".join(rf"\b{re.escape(name)}\b" for name in sorted(names)))


def test_a_seat_is_never_sent_the_other_seats_hidden_cards(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "human"], seed=3)
    client = _client(table)
    rng = Rng(11)
    searched = 0
    static = client.get("/static/htmx.min.js").text + client.get("/static/table.css").text
    for step in range(40):
        if table.game.terminal:
            break
        hidden = _hidden_names(table, 0, 1)
        responses = _seat_responses(client, 1, table.version)
        if step == 0:
            responses.append(static)
        mover = table.game.current_player()
        assert mover is not None
        answer = client.post(f"/seat/{mover + 1}/act",
                             data={"version": table.version,
                                   "action": rng.below(table.game.option_count())})
        assert answer.status_code == 200, answer.text
        if mover == 0:
            responses.append(answer.text)
        if hidden:
            pattern = _named(hidden)
            for text in responses:
                assert pattern.search(text) is None, pattern.search(text)
            # The search would find them: the designer's page names every hidden card.
            if step % 10 == 0:
                assert pattern.search(client.get("/designer").text) is not None
        searched += len(hidden)
    assert searched > 100  # the other seat held secrets all along, and all were looked for


@pytest.mark.parametrize("pack", ["era", "era-of-kingdoms"])
def test_a_seat_sees_the_printed_sheets_faces_of_the_cards_it_sees(pack: str) -> None:
    from decklore.compiler import compile_pack
    from decklore.compiler.printing.faces import FaceRenderer

    folder = ROOT / "cards" / pack
    tables, errors = compile_folder(folder)
    assert tables is not None, errors
    table = Table(folder, tables, ["human", "human"], seed=3)
    game = table.game
    while not any(visible(game, c, 0) for c in range(len(game.state.cards))):
        mover = game.current_player()
        assert mover is not None
        table.act(mover, table.version, 0)  # ERA deals face down: play until a card shows
    page = _client(table).get("/seat/1").text
    shown = [c for c in range(len(game.state.cards)) if visible(game, c, 0)]
    # Drawn as the card sheet draws them: from the compiled tables' JSON, as print does.
    faces = FaceRenderer(json.loads(compile_pack(folder).data))
    for card in shown:
        assert str(faces.face(game.rows[card]["id"])) in page
    assert "per_stacked" not in page  # no field printed as Python data
    assert '<script src="/static/htmx.min.js">' in page  # served here, never from a CDN


def test_a_card_played_sideways_is_shown_upright() -> None:
    """A landscape card prints turned a quarter in its frame; the page turns it back."""
    from decklore.compiler import compile_pack
    from decklore.compiler.printing.faces import FaceRenderer

    raw = json.loads(compile_pack(ROOT / "cards" / "era").data)
    sideways = {k["id"] for k in raw["card_kinds"] if k.get("layout") == "landscape"}
    assert sideways
    faces = FaceRenderer(raw)
    for card in raw["cards"][:60]:
        html = str(faces.face(card["id"]))
        assert html.startswith('<div class="upright">') == (card["kind"] in sideways)
    css = (ROOT / "web" / "static" / "table.css").read_text(encoding="utf-8")
    assert ".card:has(> .upright)" in css and "rotate(90deg)" in css


def _state(table: Table) -> tuple[int, str]:
    return table.version, table.game.to_json()


@pytest.mark.parametrize(("body", "kind", "status", "message"), [
    ({"version": None, "action": 99}, "form", 422, "there is no action 99: choose one of 0 to"),
    ({"version": None, "action": -1}, "form", 422, "there is no action -1"),
    ({"version": 0, "action": 0}, "form", 409, "the game has moved on since you looked"),
    ({"version": None}, "form", 400, "the request has no 'action' (a whole number)"),
    ({"version": None, "action": "two"}, "form", 400, "'action' must be a whole number"),
    (b"{not json", "json", 400, "the request is not valid JSON"),
    (b"[1, 2]", "json", 400, "the request must be a JSON object"),
    ({"version": None, "action": True}, "json", 400, "'action' must be a whole number, not true"),
    (b"\xff\xfe", "json", 400, "the request is not valid JSON"),
])
def test_bad_input_is_refused_clearly_and_changes_nothing(
        era_tables: Any, body: Any, kind: str, status: int, message: str) -> None:
    table = Table(ERA, era_tables, ["human", "greedy"], seed=2)
    client = _client(table)
    before = _state(table)
    if isinstance(body, dict):
        body = {k: (table.version if k == "version" and v is None else v)
                for k, v in body.items()}
    for url in ("/seat/1/act", "/api/seat/1/act"):
        if kind == "form":
            answer = client.post(url, data=body) if not isinstance(body, bytes) else None
        elif isinstance(body, bytes):
            answer = client.post(url, content=body, headers={"content-type": "application/json"})
        else:
            answer = client.post(url, json=body)
        assert answer is not None
        assert answer.status_code == status
        text = answer.json()["error"] if url.startswith("/api/") else answer.text
        assert message in text
        assert _state(table) == before


def test_a_move_out_of_turn_or_for_an_agent_seat_is_refused(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "greedy"], seed=2)
    client = _client(table)
    before = _state(table)
    answer = client.post("/seat/2/act", data={"version": table.version, "action": 0})
    assert answer.status_code == 409
    assert answer.text == "it is not your move: Player 1 decides now"
    assert client.post("/seat/3/act", data={"version": 1, "action": 0}).status_code == 404
    assert client.get("/seat/0").status_code == 404
    assert _state(table) == before


def test_a_stale_action_after_the_state_moved_on_changes_nothing(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "human"], seed=2)
    client = _client(table)
    seen = table.version
    assert client.post("/seat/1/act", data={"version": seen, "action": 0}).status_code == 200
    after = _state(table)
    again = client.post("/seat/1/act", data={"version": seen, "action": 0})
    assert again.status_code == 409
    assert again.headers["HX-Retarget"] == "#error"
    assert _state(table) == after


def test_agents_move_one_at_a_time_when_a_page_asks(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["greedy", "human"], seed=2)
    client = TestClient(create_app(table, delay=0.4))
    page = client.get("/seat/2").text
    assert 'hx-trigger="load delay:400ms"' in page  # the page waits, then lets it move
    version = table.version
    decisions = table.game.state.info["decisions"]
    client.post("/seat/2/advance", data={"version": version})
    assert table.game.state.info["decisions"] == decisions + 1
    # A second page asking for the same position gets the new one; the agent moves once.
    client.post("/seat/2/advance", data={"version": version})
    assert table.game.state.info["decisions"] == decisions + 1


def test_with_no_delay_agents_move_until_a_person_decides(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["greedy", "human"], seed=2)
    client = _client(table)
    assert table.agent_to_move()
    client.post("/seat/2/advance", data={"version": table.version})
    assert table.game.current_player() == 1
    assert table.game.state.info["decisions"] > 1


def test_a_whole_game_against_an_agent_over_http_ends_on_the_end_screen(
        era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "greedy"], seed=5)
    client = _client(table)
    for _ in range(2000):
        if table.game.terminal:
            break
        if table.agent_to_move():
            client.post("/seat/1/advance", data={"version": table.version})
        else:
            answer = client.post("/seat/1/act", data={"version": table.version, "action": 0})
            assert answer.status_code == 200
    assert table.game.terminal
    page = client.get("/seat/1").text
    assert 'id="endscreen"' in page and "Game over" in page
    assert table.game.result is not None
    assert table.game.result["reason"] in page


def test_hot_seat_hands_the_screen_over_between_players(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "human"], seed=2)
    client = _client(table)
    page = client.get("/hotseat").text
    assert "You are Player 1" in page
    while table.game.current_player() == 0:
        answer = client.post("/seat/1/act", data={"version": table.version, "action": 0,
                                                  "mode": "hotseat"})
        assert answer.status_code == 200
    assert "Hand the screen to Player 2" in answer.text
    assert "You are Player" not in answer.text  # nobody's cards between the two
    shown = client.get("/hotseat/table?seat=2&ready=1").text
    assert "You are Player 2" in shown


def test_save_and_load_round_trip_and_the_save_never_reaches_a_page(
        era_tables: Any, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    table = Table(ERA, era_tables, ["human", "human"], seed=2, save_path=save)
    client = _client(table)
    client.post("/seat/1/act", data={"version": table.version, "action": 1})
    saved_at = table.game.to_json()
    answer = client.post("/seat/1/save", data={"version": table.version})
    assert answer.status_code == 200 and answer.text == "saved to game.json"
    assert save.read_text(encoding="utf-8") == saved_at
    client.post("/seat/1/act", data={"version": table.version, "action": 0})
    assert table.game.to_json() != saved_at
    answer = client.post("/seat/1/load", data={"version": table.version})
    assert answer.status_code == 200
    assert table.game.to_json() == saved_at
    save.write_text("{}", encoding="utf-8")
    before = _state(table)
    broken = client.post("/seat/1/load", data={"version": table.version})
    assert broken.status_code == 422 and str(save) in broken.text
    assert _state(table) == before


def test_without_a_save_file_save_says_how_to_get_one(era_tables: Any) -> None:
    client = _client(Table(ERA, era_tables, ["human", "greedy"]))
    answer = client.post("/seat/1/save", data={"version": 1})
    assert answer.status_code == 409
    assert answer.text == "this table has no save file: start it with --save FILE"


def test_the_designer_view_shows_everything_and_steps(era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "greedy"], seed=2)
    client = _client(table)
    page = client.get("/designer").text
    pending = table.game.state.pending
    assert pending is not None
    assert f'<code id="rules-at">{pending["at"]}</code>' in page
    assert re.search(r"rules/\w+\.rules:\d+", pending["at"])
    p2_hidden = [table.game.rows[c]["name"] for c in table.game.zone_cards("draw_pile", 1)]
    assert all(name in page for name in p2_hidden)
    decisions = table.game.state.info["decisions"]
    assert client.post("/designer/step", data={"version": table.version}).status_code == 200
    assert table.game.state.info["decisions"] == decisions + 1
    stale = client.post("/designer/step", data={"version": 1, "action": 0})
    assert stale.status_code == 409
    assert table.game.state.info["decisions"] == decisions + 1
    state = client.get("/designer/state.json")
    assert json.loads(state.text) == json.loads(table.game.to_json())


def test_live_reload_shows_diagnostics_then_restarts_on_the_fixed_pack(
        era_tables: Any, tmp_path: Path) -> None:
    pack = tmp_path / "era"
    shutil.copytree(ERA, pack)
    table = Table(pack, era_tables, ["human", "greedy"], seed=2)
    table.reload_every = 0
    client = _client(table)
    client.post("/seat/1/act", data={"version": table.version, "action": 0})
    deck = pack / "decks" / "ancient.yaml"
    text = deck.read_text(encoding="utf-8")
    assert 'symbols: "harvest - progress"' in text
    deck.write_text(text.replace('symbols: "harvest - progress"', 'symbols: "harvest - progres"'),
                    encoding="utf-8")
    panel = client.get("/designer/panel").text
    assert "error[E131]: unknown symbol &#39;progres&#39;" in panel
    assert "decks/ancient.yaml:" in panel
    assert "error[E131]" in client.get("/seat/1/table").text
    assert table.game.state.info["decisions"] == 1  # the game goes on with the old tables
    deck.write_text(text.replace("name: Storehouse", "name: Granary Hall"), encoding="utf-8")
    panel = client.get("/designer/panel").text
    assert "error[E131]" not in panel
    assert "Granary Hall" in panel and "a new game on the new tables" in panel
    assert table.game.state.info["decisions"] == 0
    assert table.reload.reloads == 1


def test_serve_without_the_web_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from decklore import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvicorn" else real(name, *a))
    result = CliRunner().invoke(cli, ["serve", "era"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "error: decklore serve needs the web extra (uvicorn is not installed); install it "
        "with: pip install 'decklore[web]'")


def test_serve_checks_its_players(monkeypatch: pytest.MonkeyPatch) -> None:
    from decklore import cli

    result = CliRunner().invoke(cli, ["serve", "era", "--players", "human,wizard"])
    assert result.exit_code == 2
    assert "no agent 'wizard'" in result.output
    result = CliRunner().invoke(cli, ["serve", "era", "--players", "human"])
    assert result.exit_code == 2
    assert "ERA takes 2 to 4 players" in result.output


def test_a_reloaded_pack_that_cannot_start_keeps_the_game(era_tables: Any, tmp_path: Path
                                                          ) -> None:
    pack = tmp_path / "era"
    shutil.copytree(ERA, pack)
    table = Table(pack, era_tables, ["human", "greedy"], seed=2)
    table.reload_every = 0
    client = _client(table)
    client.post("/seat/1/act", data={"version": table.version, "action": 0})
    game = table.game
    setup = pack / "rules" / "setup.rules"
    text = setup.read_text(encoding="utf-8")
    setup.write_text(text.replace("  set seat_count to count(p in players())\n",
                                  '  fail "no table today"\n'), encoding="utf-8")
    panel = client.get("/designer/panel")
    assert panel.status_code == 200
    assert "the changed pack cannot start a game: rules/setup.rules:" in panel.text
    assert "no table today" in panel.text
    assert table.game is game and table.tables is era_tables and table.reload.reloads == 0


def test_buttons_say_the_choice_once_the_heading_has_said_the_question() -> None:
    heading = "Card to build"
    actions = [{"index": 0, "description": "Card to build: Temple (your hand)"},
               {"index": 1, "description": "Done"},
               {"index": 2, "description": "Card to build: "},
               {"index": 3, "description": "Card to buildings: Hamlet"}]
    assert [a["text"] for a in button_texts(heading, actions)] == [
        "Temple (your hand)", "Done", "Card to build: ", "Card to buildings: Hamlet"]
    assert [a["text"] for a in button_texts(None, actions[:1])] == [
        "Card to build: Temple (your hand)"]


def test_a_seats_buttons_show_the_choices_and_keep_the_whole_option_as_title(
        era_tables: Any) -> None:
    table = Table(ERA, era_tables, ["human", "greedy"], seed=2)
    page = _client(table).get("/seat/1").text
    label = table.game.observation(0)["decision"]["label"]
    actions = table.game.legal_actions()
    assert f"<h3>{label}</h3>" in page
    buttons = re.findall(r'<button class="action"[^>]*title="([^"]*)"[^>]*>([^<]*)</button>',
                         page, re.S)
    assert len(buttons) == len(actions) > 1
    for (title, text), action in zip(buttons, actions, strict=True):
        assert title == action.description
        assert f"{label}: {text}" == action.description
