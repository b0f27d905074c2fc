"""``deckcheck config``: the effective project settings and where each one came from."""

from __future__ import annotations

import click

from deckcheck.commands.options import config_option, output_option
from deckcheck.errors import EXIT_OK
from deckcheck.render.common import to_json


@click.command(
    "config",
    epilog="""\b
Settings come from [tool.deckcheck] in pyproject.toml or from a deckcheck.toml, the nearest
one from the working folder upwards (deckcheck.toml wins in the same folder). Options given
to `deckcheck validate` win over them.""",
)
@config_option()
@output_option()
def config(config_path: str | None, output: str) -> int:
    """Print the effective settings and where each came from."""
    from deckcheck import config as cfg_mod

    cfg = cfg_mod.load(path=config_path)
    rows = [(key, cfg.get(key), cfg.origin(key)) for key in cfg_mod.KEYS]
    if output == "json":
        data = {
            "file": str(cfg.path) if cfg.path else None,
            "settings": {k: {"value": v, "from": o} for k, v, o in rows},
        }
        click.echo(to_json(data))
        return EXIT_OK
    click.echo(f"config file: {cfg.path or 'none found'}")
    width = max(len(k) for k, _, _ in rows)
    for key, value, origin in rows:
        shown = _show(key, value)
        click.echo(f"{key:<{width}}  {shown:<24}  ({origin})")
    return EXIT_OK


def _show(key: str, value: object) -> str:
    if value is None:
        return {
            "date": "today",
            "banlist": "in force on the date",
            "output": "text (github in Actions)",
        }.get(key, "-")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(value) if value else "[]"
    return str(value)
