"""Real HTTP servers on 127.0.0.1 for the tests: a handler class served on a free port."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


@contextmanager
def serving(handler: Any) -> Iterator[str]:
    """``handler`` (a request handler class or factory) on 127.0.0.1, a free port; yields
    the base URL. The server is shut down and closed afterwards."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
        t.join()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serving_folder(root: Path) -> Any:
    """The files below ``root``, served as they are (no request log on stderr)."""
    return serving(partial(_Quiet, directory=str(root)))
