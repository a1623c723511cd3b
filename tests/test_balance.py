"""Balance work: results stream to disk and resume, tallies and comparisons, reports, Ray."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.runtime.results import (
    GameRecord,
    ResultsError,
    ResultsWriter,
    RunHeader,
    read_results,
)
from decklore.runtime.simulate import iter_games
from decklore.runtime.tally import Tally, band_warnings, compare, difference, rate, tally

HEADER = RunHeader(pack="era", content_hash="sha256:" + "0" * 64, seed=1, players=2,
                   agents=["random", "random"], decks=None, budget=100_000, games=3)


def _record(index: int, winners: list[int], plays: list[list[object]] | None = None,
            **extra: object) -> GameRecord:
    fields: dict[str, object] = {
        "index": index, "seed": index, "decks": ["a", "b"], "agents": ["random", "greedy"],
        "winners": winners, "reason": "goal", "turns": 10 + index, "decisions": 5,
        "steps": 50, "plays": plays or []}
    fields.update(extra)
    return GameRecord(**fields)  # type: ignore[arg-type]


# --- the results file -----------------------------------------------------------------------

def test_results_round_trip_and_resume_drops_a_half_written_line(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    with ResultsWriter(path, HEADER, resume=False) as out:
        out.write(_record(0, [0]))
        out.write(_record(1, [1]))
    with path.open("ab") as f:
        f.write(b'{"index": 2, "se')  # a run killed while writing game 2
    header, games = read_results(path)
    assert header == HEADER
    assert [g.index for g in games] == [0, 1]
    writer = ResultsWriter(path, HEADER, resume=True)
    assert writer.done == 2
    writer.write(_record(2, []))
    writer.close()
    _, games = read_results(path)
    assert [g.winners for g in games] == [[0], [1], []]


def test_resume_refuses_another_run(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    ResultsWriter(path, HEADER, resume=False).close()
    other = RunHeader(**{**HEADER.__dict__, "seed": 2})
    with pytest.raises(ResultsError, match="it holds another run"):
        ResultsWriter(path, other, resume=True)
    # asking for more games of the same run is fine
    more = RunHeader(**{**HEADER.__dict__, "games": 10})
    ResultsWriter(path, more, resume=True).close()


@pytest.mark.parametrize(("text", "message"), [
    (b"", "the file is empty"),
    (b"[1, 2]\n", ":1: not a decklore results file"),
    (b"\xff\xfe\n", ":1: not a JSON line"),
    (b'{"header": {"format": 9}}\n', ":1: not a decklore results file"),
])
def test_bad_results_files_are_located_errors(tmp_path: Path, text: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(text)
    with pytest.raises(ResultsError, match=message):
        read_results(path)


def test_a_bad_game_line_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    with ResultsWriter(path, HEADER, resume=False) as out:
        out.write(_record(0, [0]))
    lines = path.read_text().splitlines()
    good = json.loads(lines[1])
    for change, message in (({"winners": [7]}, "winners"),
                            ({"turns": "10"}, "'turns' has the wrong type"),
                            ({"index": 3}, "game 3 where game 1 was expected"),
                            ({"plays": [["x", 0, 1]]}, "a play must be")):
        broken = {**good, "index": 1, **change}
        (tmp_path / "b.jsonl").write_text("\n".join([*lines, json.dumps(broken)]) + "\n")
        _, games = read_results(tmp_path / "b.jsonl")
        with pytest.raises(ResultsError, match=rf"b.jsonl:3: .*{message}"):
            list(games)


# --- tallies --------------------------------------------------------------------------------

def test_tally_counts_seats_cards_and_causes() -> None:
    records = [
        _record(0, [0], plays=[["era:temple", 0, 2, 3], ["era:port", 1, 1, 5]]),
        _record(1, [0], plays=[["era:temple", 0, 1, 1]]),
        _record(2, [1], plays=[["era:temple", 1, 1, 4]]),
        _record(3, [], budget_hit=True, error="out of steps"),
        _record(4, [0, 1]),
    ]
    t = tally(records, 2)
    f = t.figures()
    assert f["wins_by_seat"]["1"]["wins"] == 3 and f["wins_by_seat"]["2"]["wins"] == 2
    assert f["no_winner"] == {"step budget": 1}
    assert f["shared_wins"] == 1
    assert f["lengths"] == {"10": 1, "11": 1, "12": 1, "14": 1}
    temple = next(c for c in f["cards"] if c["card"] == "era:temple")
    # played by 3 seats in 3 games (4 plays); those seats won 3 times
    assert (temple["plays"], temple["win_when_played"]["wins"],
            temple["win_when_played"]["games"]) == (4, 3, 3)
    # the other 7 seat-games won 5 - 3 = 2 times
    assert temple["win_otherwise"]["games"] == 7 and temple["win_otherwise"]["wins"] == 2
    assert temple["first_turn"] == round((3 + 1 + 4) / 3, 2)
    summary = t.summary()
    assert summary["step_budget_hit"] == 1 and summary["shared_wins"] == 1
    assert summary["no_winner"] == 1 and summary["no_winner_by_cause"] == {"goal": 1}


def test_differences_are_significant_only_beyond_noise() -> None:
    assert difference(rate(50, 100), rate(52, 100))["significant"] is False
    big = difference(rate(300, 1000), rate(500, 1000))
    assert big["significant"] is True and big["delta"] == 0.2
    assert big["ci95"][0] > 0.15 and big["ci95"][1] < 0.25


def test_band_warnings_say_whether_the_interval_is_outside_too() -> None:
    figures = Tally(2).figures()
    figures["wins_by_seat"] = {"1": rate(60, 100), "2": rate(600, 1000)}
    warnings = band_warnings(figures, {"seat_win_rate": [0.45, 0.55]})
    assert [(w["figure"], w["certain"]) for w in warnings] == [
        ("Player 1 wins", False), ("Player 2 wins", True)]


def test_compare_lists_shared_figures_and_flags_changes() -> None:
    before, after = Tally(2).figures(), Tally(2).figures()
    before["wins_by_seat"] = {"1": rate(700, 1000), "2": rate(300, 1000)}
    after["wins_by_seat"] = {"1": rate(510, 1000), "2": rate(490, 1000)}
    rows = compare(before, after)
    assert [(r["figure"], r["change"]["significant"]) for r in rows] == [
        ("Player 1 wins", True), ("Player 2 wins", True)]


# --- real runs ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def era_data() -> bytes:
    from decklore.cards import bundled_pack
    from decklore.compiler import compile_pack

    path = bundled_pack("era")
    assert path is not None
    return compile_pack(path).data


def test_iter_games_matches_simulate_from_any_start(era_data: bytes) -> None:
    whole = list(iter_games(era_data, 6, 3, 2, ["random"]))
    rest = list(iter_games(era_data, 6, 3, 2, ["random"], start=4))
    assert rest == whole[4:]
    assert all(g.plays for g in whole), "every ERA game plays cards"


def test_simulate_resume_writes_the_file_an_unbroken_run_writes(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "era", "--seed", "4", "--agents", "random"]
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert runner.invoke(cli, [*args, "-n", "6", "--results", str(full)]).exit_code == 0
    assert runner.invoke(cli, [*args, "-n", "3", "--results", str(part)]).exit_code == 0
    resumed = runner.invoke(cli, [*args, "-n", "6", "--results", str(part), "--resume",
                                  "--json"])
    assert resumed.exit_code == 0, resumed.output
    body = lambda p: p.read_text().splitlines()[1:]  # noqa: E731 - the header's n differs
    assert body(part) == body(full)


def test_report_from_a_run_is_deterministic_and_self_contained(tmp_path: Path) -> None:
    runner = CliRunner()
    results = tmp_path / "run.jsonl"
    result = runner.invoke(cli, ["simulate", "era", "-n", "8", "--agents", "greedy,random",
                                 "--results", str(results), "--report",
                                 str(tmp_path / "a.html")])
    assert result.exit_code == 0, result.output
    again = runner.invoke(cli, ["report", str(results), "-o", str(tmp_path / "b.html")])
    assert again.exit_code == 0, again.output
    html = (tmp_path / "a.html").read_text()
    assert html == (tmp_path / "b.html").read_text()
    assert html.count("<svg") >= 4
    assert "Wins by seat" in html and "Cards and winning" in html and "Ancient Era" in html
    assert "http://" not in html.replace("http://www.w3.org/", "")
    assert "<script" not in html


def test_report_refuses_a_wrong_suffix(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["simulate", "era", "-n", "1", "--report",
                                      str(tmp_path / "r.txt")])
    assert result.exit_code == 2
    assert "a report is .html or .pdf" in result.output


def test_balance_compares_a_pack_and_its_mod(tmp_path: Path) -> None:
    from decklore.cards import bundled_pack

    result = CliRunner().invoke(cli, [
        "balance", "era", str(bundled_pack("renaissance")), "-n", "12",
        "--agents", "random", "--format", "json", "--report", str(tmp_path / "c.html")])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["before"]["id"] == "era" and body["after"]["id"] == "era-renaissance"
    figures = [r["figure"] for r in body["rows"]]
    assert figures[:2] == ["Player 1 wins", "Player 2 wins"]
    assert "Ancient Era wins" in figures  # decks by name, and only those both packs have
    assert not any(f.startswith("Agent") for f in figures)  # one agent: nothing to compare
    page = (tmp_path / "c.html").read_text()
    assert "Renaissance" in page and "What changed" in page and "<svg" in page


def test_the_ray_backend_gives_the_local_results(era_data: bytes) -> None:
    ray = pytest.importorskip("ray")
    from decklore.integrations.ray_backend import iter_games as ray_games

    local = list(iter_games(era_data, 10, 5, 2, ["random"], budget=100_000))
    try:
        remote = list(ray_games(era_data, 10, 5, 2, ["random"], budget=100_000, cpus=2))
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert [json.dumps(r.to_json(), sort_keys=True) for r in remote] == \
        [json.dumps(r.to_json(), sort_keys=True) for r in local]



# --- agents that move round the table -------------------------------------------------------

def test_rotated_seats_move_every_agent_one_seat_on_each_game() -> None:
    from decklore.runtime.simulate import seat_agents

    assert [seat_agents(["mcts", "greedy"], 2, i) for i in range(2)] == \
        [["mcts", "greedy"], ["mcts", "greedy"]]
    assert [seat_agents(["mcts", "greedy"], 2, i, rotate=True) for i in range(3)] == \
        [["mcts", "greedy"], ["greedy", "mcts"], ["mcts", "greedy"]]
    # three seats: over three games each agent sits in every seat
    games = [seat_agents(["a", "b", "c"], 3, i, rotate=True) for i in range(3)]
    assert games == [["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]]
    assert [seat_agents(["a", "b"], 3, 1, rotate=True)] == [["a", "a", "b"]]


def test_a_rotated_run_plays_the_same_games_with_any_number_of_jobs(era_data: bytes) -> None:
    one = list(iter_games(era_data, 4, 2, 2, ["greedy", "random"], rotate=True))
    two = list(iter_games(era_data, 4, 2, 2, ["greedy", "random"], rotate=True, jobs=2))
    assert one == two
    assert [g.agents for g in one] == [["greedy", "random"], ["random", "greedy"]] * 2
    fixed = list(iter_games(era_data, 2, 2, 2, ["greedy", "random"]))
    assert fixed[0] == one[0] and fixed[1].agents == ["greedy", "random"]
    assert fixed[1].seed == one[1].seed  # the same game, the agents in other seats


def test_the_header_keeps_rotation_and_resume_tells_the_runs_apart(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    ResultsWriter(path, HEADER, resume=False).close()
    assert "rotate" not in json.loads(path.read_text())["header"]  # files read as before
    rotated = RunHeader(**{**HEADER.__dict__, "rotate": True})
    with pytest.raises(ResultsError, match="it holds another run"):
        ResultsWriter(path, rotated, resume=True)
    other = tmp_path / "rotated.jsonl"
    ResultsWriter(other, rotated, resume=False).close()
    assert read_results(other)[0] == rotated
    text = other.read_text().replace('"rotate":true', '"rotate":1')
    assert text != other.read_text()
    other.write_text(text)
    with pytest.raises(ResultsError, match="the header's values have the wrong types"):
        read_results(other)


def test_simulate_rotates_seats_on_request() -> None:
    runner = CliRunner()
    args = ["simulate", "era", "-n", "4", "--seed", "2", "--agents", "greedy,random",
            "--rotate-seats"]
    result = runner.invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["rotate_seats"] is True
    assert {a: e["games"] for a, e in summary["wins_by_agent"].items()} == \
        {"greedy": 4, "random": 4}
    text = runner.invoke(cli, args)
    assert "agents greedy, random (one seat on each game), seed 2" in text.output
