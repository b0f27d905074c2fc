"""Starting the app: the deck opened for editing (every data error before the screen is
taken), then the app in this terminal, or textual-serve serving it to browsers."""

from __future__ import annotations

import datetime as dt
import ipaddress
import shlex
import sys
from pathlib import Path
from typing import Any

from deckcheck.tui.builder import Builder


def open_builder(path: str, format_id: str | None, date: dt.date, lang: str = "en") -> Builder:
    """The deck at ``path`` (a new file when there is none) ready to edit: the card
    database and the run's one engine, the format and its list (DeckcheckError before the
    app)."""
    from deckcheck.engine import Engine

    return Builder(path, Engine.open(), date, format_id, lang)


def run(builder: Builder) -> int:
    """The app in this terminal until the user quits."""
    from deckcheck import notes
    from deckcheck.tui.app import DeckEditor

    app = DeckEditor(builder)
    old = notes.set_sink(app.note)  # a note on stderr would scribble over the screen
    try:
        app.run()
    finally:
        notes.set_sink(old)
    return 0


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(builder: Builder) -> list[str]:
    """The command textual-serve starts for each browser: this deck, format, date, language."""
    chk = builder.checking
    return [
        sys.executable,
        "-m",
        "deckcheck",
        "deck",
        "edit",
        str(Path(builder.path).resolve()),
        "--format",
        chk.fmt.id,
        "--date",
        chk.date.isoformat(),
        "--lang",
        builder.lang,
    ]


def serve(builder: Builder, host: str, port: int) -> int:
    """Serve the app at http://HOST:PORT/ until interrupted (each browser tab gets its own
    app process; saving goes through the same locks as in a terminal)."""
    from textual_serve.server import Server

    class _Server(Server):
        async def handle_index(self, request: Any) -> Any:
            # The page's websocket goes back to the address the browser used, not to the
            # bind address (0.0.0.0 is no address a browser can reach).
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    title = f"deckcheck deck edit {Path(builder.path).name}"
    _Server(shlex.join(app_command(builder)), host=host, port=port, title=title).serve()
    return 0


__all__ = ["app_command", "is_loopback", "open_builder", "run", "serve"]
