"""The HTTP side of the web table: Starlette routes over one ``Table``.

Every request that changes the game carries the version of the position its page showed;
the body is checked here, once (form fields from htmx or a JSON object from a tool), and
every refusal is a 4xx answer with a sentence saying why, the game unchanged. Seat routes
render from the seat's view only; the designer's routes are the only ones that show all.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from decklore.web.table import Table, TableError
from decklore.web.views import Views

MAX_BODY = 64 * 1024
"""The largest request body read: an action is a few dozen bytes."""

STATIC = {"htmx.min.js": "text/javascript", "table.css": "text/css",
          "htmx-LICENSE.txt": "text/plain"}
"""The files under /static/: a fixed list, so no request names a path."""

_CLEAR_ERROR = '<div id="error" role="alert" hx-swap-oob="true"></div>'


class BadRequest(TableError):
    """A request body that is not what the route takes."""

    def __init__(self, message: str) -> None:
        super().__init__(400, message)


async def _fields(request: Request) -> dict[str, Any]:
    """The request's fields: a JSON object, or form fields (htmx sends those)."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise TableError(413, f"the request is too large ({len(body)} bytes; at most "
                         f"{MAX_BODY})")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json":
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BadRequest(f"the request is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise BadRequest("the request must be a JSON object, such as "
                             '{"version": 3, "action": 0}')
        return data
    try:
        form = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False,
                        max_num_fields=20)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(f"the request's form fields cannot be read: {exc}") from None
    return {key: values[-1] for key, values in form.items()}


def _whole(fields: dict[str, Any], name: str, *, required: bool = True) -> int | None:
    """A whole-number field, from JSON (a number) or a form (its digits)."""
    value = fields.get(name)
    if value is None or value == "":
        if required:
            raise BadRequest(f"the request has no '{name}' (a whole number)")
        return None
    if isinstance(value, bool):
        raise BadRequest(f"'{name}' must be a whole number, not {json.dumps(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 12:
        return int(value)
    raise BadRequest(f"'{name}' must be a whole number, not {json.dumps(value)[:40]}")


def _mode(fields: dict[str, Any]) -> str:
    mode = fields.get("mode", "seat")
    if mode not in ("seat", "hotseat"):
        raise BadRequest("'mode' must be seat or hotseat")
    return str(mode)


Handler = Callable[[Request], Awaitable[Response]]


def _refusals(handler: Handler) -> Handler:
    """Turn a refused request into its 4xx answer: JSON for tools, a line for the page."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except TableError as exc:
            if request.url.path.startswith("/api/"):
                return JSONResponse({"error": exc.message}, status_code=exc.status)
            return HTMLResponse(exc.message, status_code=exc.status,
                                headers={"HX-Retarget": "#error", "HX-Reswap": "innerHTML"})

    return run


def create_app(table: Table, *, delay: float = 0.6) -> Starlette:
    """The web application for one table; ``delay`` is how long (seconds) a page waits
    before it lets an agent move, so people see each move happen."""
    views = Views(table, delay)

    def seat_of(request: Request) -> int:
        try:
            number = int(request.path_params["seat"])
        except ValueError:
            raise TableError(404, "seats are numbered from 1") from None
        return table.check_seat(number)

    def fragment(seat: int, mode: str) -> HTMLResponse:
        if mode == "hotseat":
            return HTMLResponse(_hotseat(seat, None) + _CLEAR_ERROR)
        return HTMLResponse(views.seat_fragment(seat) + _CLEAR_ERROR)

    def _hotseat(shown: int | None, version: int | None, ready: bool = False) -> str:
        """Hot seat: the table of the person whose move it is, behind a hand-over screen
        whenever the screen passes to someone else."""
        current = table.game.current_player()
        humans = table.humans()
        seat = current if current in humans else (shown if shown is not None else humans[0])
        assert seat is not None
        if shown is not None and seat != shown and not ready:
            return views.handover_fragment(seat, table.version)
        return views.seat_fragment(seat, mode="hotseat")

    async def index(request: Request) -> Response:
        return HTMLResponse(views.index())

    @_refusals
    async def seat_page(request: Request) -> Response:
        seat = seat_of(request)
        body = f'<main id="table">{views.seat_fragment(seat)}</main>'
        from markupsafe import Markup

        return HTMLResponse(views.page(f"{table.tables.pack['name']} — Player {seat + 1}",
                                       Markup(body)))

    @_refusals
    async def seat_table(request: Request) -> Response:
        seat = seat_of(request)
        await run_in_threadpool(table.check_reload)  # a recompile takes a second
        seen = request.query_params.get("version")
        if seen is not None and seen == str(table.version):
            return Response(status_code=204)
        return fragment(seat, "seat")

    @_refusals
    async def act(request: Request) -> Response:
        seat = seat_of(request)
        fields = await _fields(request)
        version, index = _whole(fields, "version"), _whole(fields, "action")
        mode = _mode(fields)
        assert version is not None and index is not None
        table.act(seat, version, index)
        if delay == 0:  # nothing to watch: the agents answer in the same request
            await run_in_threadpool(lambda: table.advance(table.version, through=True))
        return fragment(seat, mode)

    @_refusals
    async def advance(request: Request) -> Response:
        seat = seat_of(request)
        fields = await _fields(request)
        version = _whole(fields, "version")
        assert version is not None
        # A search agent may take a while; with no delay to watch, agents move straight on.
        await run_in_threadpool(lambda: table.advance(version, through=delay == 0))
        return fragment(seat, _mode(fields))

    @_refusals
    async def save(request: Request) -> Response:
        seat_of(request)
        path = table.save()
        return HTMLResponse(f"saved to {path.name}")

    @_refusals
    async def load(request: Request) -> Response:
        seat = seat_of(request)
        fields = await _fields(request)
        version = _whole(fields, "version")
        assert version is not None
        table.load(version)
        return fragment(seat, _mode(fields))

    @_refusals
    async def hotseat_page(request: Request) -> Response:
        from markupsafe import Markup

        if len(table.humans()) < 1:
            raise TableError(404, "no seat at this table is played by a person")
        body = f'<main id="table">{_hotseat(None, None)}</main>'
        return HTMLResponse(views.page(f"{table.tables.pack['name']} — hot seat",
                                       Markup(body)))

    @_refusals
    async def hotseat_table(request: Request) -> Response:
        await run_in_threadpool(table.check_reload)  # a recompile takes a second
        try:
            shown = int(request.query_params.get("seat", "1")) - 1
        except ValueError:
            raise BadRequest("'seat' must be a seat number") from None
        table.check_seat(shown + 1)
        seen = request.query_params.get("version")
        current = table.game.current_player()
        if seen is not None and seen == str(table.version) and (
                current == shown or current not in table.humans()):
            return Response(status_code=204)
        ready = request.query_params.get("ready") == "1"
        return HTMLResponse(_hotseat(shown, None, ready) + _CLEAR_ERROR)

    # --- the designer ------------------------------------------------------------------------

    async def designer_page(request: Request) -> Response:
        from markupsafe import Markup

        body = f'<main id="panel">{views.designer_fragment()}</main>'
        return HTMLResponse(views.page(f"{table.tables.pack['name']} — designer",
                                       Markup(body)))

    @_refusals
    async def designer_panel(request: Request) -> Response:
        await run_in_threadpool(table.check_reload)  # a recompile takes a second
        if request.query_params.get("version") == str(table.version):
            return Response(status_code=204)
        return HTMLResponse(views.designer_fragment() + _CLEAR_ERROR)

    @_refusals
    async def designer_step(request: Request) -> Response:
        fields = await _fields(request)
        version = _whole(fields, "version")
        assert version is not None
        await run_in_threadpool(table.step, version, _whole(fields, "action", required=False))
        return HTMLResponse(views.designer_fragment() + _CLEAR_ERROR)

    @_refusals
    async def designer_restart(request: Request) -> Response:
        fields = await _fields(request)
        version = _whole(fields, "version")
        if version != table.version:
            raise TableError(409, "the game has moved on since you looked; the panel shows "
                             "the new position")
        table.restart()
        return HTMLResponse(views.designer_fragment() + _CLEAR_ERROR)

    async def designer_state(request: Request) -> Response:
        return Response(table.game.to_json(), media_type="application/json")

    # --- the same for tools, as JSON ---------------------------------------------------------

    @_refusals
    async def api_seat(request: Request) -> Response:
        return JSONResponse(table.seat_view(seat_of(request)))

    @_refusals
    async def api_act(request: Request) -> Response:
        seat = seat_of(request)
        fields = await _fields(request)
        version, index = _whole(fields, "version"), _whole(fields, "action")
        assert version is not None and index is not None
        table.act(seat, version, index)
        return JSONResponse(table.seat_view(seat))

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("no such file", status_code=404, media_type="text/plain")
        data = (files("decklore.web") / "static" / name).read_bytes()
        return Response(data, media_type=STATIC[name],
                        headers={"Cache-Control": "max-age=3600"})

    routes = [
        Route("/", index),
        Route("/seat/{seat}", seat_page),
        Route("/seat/{seat}/table", seat_table),
        Route("/seat/{seat}/act", act, methods=["POST"]),
        Route("/seat/{seat}/advance", advance, methods=["POST"]),
        Route("/seat/{seat}/save", save, methods=["POST"]),
        Route("/seat/{seat}/load", load, methods=["POST"]),
        Route("/hotseat", hotseat_page),
        Route("/hotseat/table", hotseat_table),
        Route("/designer", designer_page),
        Route("/designer/panel", designer_panel),
        Route("/designer/step", designer_step, methods=["POST"]),
        Route("/designer/restart", designer_restart, methods=["POST"]),
        Route("/designer/state.json", designer_state),
        Route("/api/seat/{seat}", api_seat),
        Route("/api/seat/{seat}/act", api_act, methods=["POST"]),
        Route("/static/{name}", static),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
    ]
    return Starlette(routes=routes)
