"""``deckcheck serve``: the check service (FastAPI on uvicorn, the optional extra [serve])."""

from __future__ import annotations

import click

from deckcheck.commands.options import date_option, format_option, parse_date


def _size(ctx: click.Context, param: click.Parameter, value: str) -> int:
    from deckcheck.service.settings import parse_size

    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command(
    "serve",
    epilog="""\b
Examples:
  deckcheck serve
  deckcheck serve --host 0.0.0.0 --port 8080 --workers 2
  deckcheck serve --submissions decks/ --token-file report.token -f tcg -d 2026-07-01
  curl --data-binary @deck.ydk 'http://127.0.0.1:8080/v1/check?format=tcg'

\b
Endpoints: POST /v1/check, GET /v1/cards?q=, GET /v1/formats, GET /health, /docs;
with --submissions: GET/POST /submit; with --token-file: GET /report, /report.csv
(header Authorization: Bearer TOKEN). docs/SERVICE.md: reverse proxy, systemd, scaling.
Data installed by `deckcheck update` is picked up without a restart.""",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8080, show_default=True, help="Port."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    metavar="N",
    help="Worker processes, each with the engine loaded once (one per core).",
)
@click.option(
    "--submissions",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Take tournament submissions (/submit) and store them in DIR (made if missing).",
)
@click.option(
    "--token-file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Serve /report and /report.csv to requests bearing the token in FILE.",
)
@format_option(show_default=True, help="The event's format: checks default to it.")
@date_option(help="The event's date (default: the day of each request).")
@click.option(
    "--max-body",
    default="256K",
    show_default=True,
    metavar="SIZE",
    callback=_size,
    help="Largest request body (413 beyond).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Time a request may take: its head, its body, its check (slow clients cut off).",
)
@click.option("--access-log/--no-access-log", default=True, help="JSON access lines on stdout.")
def serve(
    host: str,
    port: int,
    workers: int,
    submissions: str | None,
    token_file: str | None,
    format_id: str,
    date_text: str | None,
    max_body: int,
    timeout: float,
    access_log: bool,
) -> int:
    """Serve deck checks, card search and tournament submissions over HTTP."""
    from deckcheck.service import require_extra

    require_extra()
    from deckcheck.service.server import serve as run
    from deckcheck.service.settings import Settings

    if date_text is not None:
        parse_date(date_text)
    settings = Settings(
        host=host,
        port=port,
        workers=workers,
        submissions=submissions,
        token_file=token_file,
        format_id=format_id,
        date=date_text,
        max_body=max_body,
        request_timeout=timeout,
        head_timeout=timeout,
        body_timeout=timeout,
        access_log=access_log,
    )
    return run(settings)
