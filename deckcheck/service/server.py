"""Starting the service: the checks that stop it before it serves (one line each), then
uvicorn with the service's protocol, logging and limits, in one process or ``--workers N``.
"""

from __future__ import annotations

import logging.config
import os
import socket
from typing import Any

from deckcheck.errors import InputError
from deckcheck.service import require_extra
from deckcheck.service.settings import ENV, Settings

#: the HTTP protocol, by import string (every worker process imports it)
PROTOCOL = "deckcheck.service.protocol:GuardedProtocol"
#: the application factory each worker of ``--workers N`` calls
FACTORY = "deckcheck.service.app:from_environment"

#: uvicorn's and the service's messages on stderr; the JSON access lines on stdout (one
#: line per request, for a log shipper); uvicorn's own access log is off
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s"},
        "line": {"format": "%(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "stream": "ext://sys.stderr",
        },
        "stdout": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "stream": "ext://sys.stdout",
        },
    },
    "loggers": {
        "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        "deckcheck.service": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "deckcheck.service.access": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
    },
}


def check_address(host: str, port: int) -> None:
    """The address can be listened on (else one clear line, not uvicorn's traceback)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(
            f"cannot resolve the address: {exc.strerror}", where=f"--host {host}"
        ) from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(addr)
        except OSError as exc:
            raise InputError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}", where="--host/--port"
            ) from None


def serve(settings: Settings) -> int:
    """Run the service until it is stopped (SIGINT, SIGTERM); 0 then."""
    require_extra()
    import uvicorn

    from deckcheck.service import checking

    check_address(settings.host, settings.port)
    settings.token()  # a bad token file stops it here
    if settings.submissions is not None:
        from deckcheck.service.submissions import Submissions

        Submissions(settings.submissions).open()
    options: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "http": PROTOCOL,
        "log_config": LOGGING,
        "access_log": False,
        "timeout_keep_alive": settings.keep_alive,
        "limit_concurrency": settings.max_pending * 8,  # a backstop: the host answers 503 first
        "server_header": False,
        "lifespan": "on",
    }
    if settings.workers == 1:
        from deckcheck.service.app import create_app

        logging.config.dictConfig(LOGGING)
        uvicorn.run(create_app(settings), **options)
        return 0
    # each worker loads its own engine; look once that the data is there before any starts
    checking.probe(settings.format_id, settings.event_date())
    os.environ[ENV] = settings.to_env()
    uvicorn.run(FACTORY, factory=True, workers=settings.workers, **options)
    return 0


__all__ = ["FACTORY", "LOGGING", "PROTOCOL", "check_address", "serve"]
