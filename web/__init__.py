"""The web table (``decklore serve``, extra ``[web]``): play and inspect a pack in a browser.

``Table`` keeps one game and checks every answer; ``create_app`` puts it behind Starlette
routes whose pages use htmx, served from this package (the page works offline); ``serve``
runs it with uvicorn. The core install and the runtime need none of this.
"""

from __future__ import annotations

from decklore.web.app import create_app
from decklore.web.table import Table, TableError, compile_folder, seat_list

__all__ = ["Table", "TableError", "compile_folder", "create_app", "seat_list", "serve"]

def serve(table: Table, *, host: str = "127.0.0.1", port: int = 8000,
          delay: float = 0.6, announce: bool = True) -> None:
    """Run the table's server until interrupted, saying where to open it."""
    import uvicorn

    app = create_app(table, delay=delay)
    if announce:
        shown = "localhost" if host in ("127.0.0.1", "::1") else host
        print(f"decklore: {table.tables.pack['name']} at http://{shown}:{port}/ "
              "(Ctrl-C stops the server)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
