"""Click options shared by the commands, so one flag means one thing everywhere (SPEC §7):
``-f`` format, ``-d`` date, ``-b`` list, ``-o`` output kind, ``-l`` language, ``--out`` file;
and renamed spellings that keep working for one release with a note on stderr."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import Any

import click

from deckcheck import dates

F = Callable[..., Any]


def parse_date(value: str | None, hint: str = "--date") -> dt.date:
    """``value`` as a date (today when None); a bad one is a usage error naming ``hint``."""
    if value is None:
        return dt.date.today()
    try:
        return dates.parse_date(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD)", param_hint=hint) from None


def format_option(
    default: str | None = "tcg", help: str = "Format id; `deckcheck formats` lists them.", **kw: Any
) -> Callable[[F], F]:
    return click.option("-f", "--format", "format_id", default=default, help=help, **kw)


def date_option(help: str = "Event date (default: today).", **kw: Any) -> Callable[[F], F]:
    kw.setdefault("metavar", "YYYY-MM-DD")
    return click.option("-d", "--date", "date_text", default=None, help=help, **kw)


def banlist_option(help: str, **kw: Any) -> Callable[[F], F]:
    return click.option("-b", "--banlist", "banlist_ref", metavar="REF", help=help, **kw)


def output_option(
    kinds: Sequence[str] = ("text", "json"), default: str | None = "text", **kw: Any
) -> Callable[[F], F]:
    """``-o/--output KIND``: the output kind, in every command that has kinds."""
    kw.setdefault("show_default", default is not None)
    return click.option("-o", "--output", type=click.Choice(list(kinds)), default=default, **kw)


def lang_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A ``--lang`` value as a stored language code (BCP 47 tags folded); unknown: exit 2."""
    if value is None:  # not given: no need to import the lookup package (start-up)
        return None
    from deckcheck.lookup.langs import canonical_lang

    del ctx, param
    return canonical_lang(value)


def lang_option(default: str | None = "en", short: bool = True, **kw: Any) -> Callable[[F], F]:
    decls = ("--lang", "-l") if short else ("--lang",)
    kw.setdefault("show_default", default is not None)
    kw.setdefault("callback", lang_callback)
    return click.option(*decls, "lang", default=default, **kw)


def config_option() -> Callable[[F], F]:
    """``--config FILE``: the settings file, in the commands that read settings."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="Config file (default: nearest deckcheck.toml/pyproject.toml).",
    )


def deprecated(old: str, new: str) -> None:
    click.echo(
        f"deckcheck: deprecated: {old} is now {new}; {old} will be removed in the next release",
        err=True,
    )


def renamed(dest: str, new: str, *old: str, **kw: Any) -> Callable[[F], F]:
    """Accept the old spellings ``old`` of option ``dest`` (spelled ``new`` now), hidden
    from --help, with a deprecation note; the new spelling wins when both are given."""
    hidden = f"_old_{dest}"

    def deco(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(hidden, None)
            if value is not None:
                deprecated("/".join(old), new)
                source = click.get_current_context().get_parameter_source(dest)
                if source in (None, click.core.ParameterSource.DEFAULT):
                    kwargs[dest] = value
            return f(*args, **kwargs)

        return click.option(*old, hidden, hidden=True, default=None, **kw)(wrapper)

    return deco


def out_option(
    metavar: str = "FILE",
    help: str = "Write here (default: stdout).",
    old: Sequence[str] = ("-o", "--output"),
    short: str | None = None,
    **kw: Any,
) -> Callable[[F], F]:
    """``--out FILE`` for a command that writes a file, still taking the old ``old`` spelling;
    ``short`` ("-o") a documented short spelling of ``--out`` itself (no deprecation note)."""

    def deco(f: F) -> F:
        f = renamed("out", "--out", *old, metavar=metavar, **kw)(f)
        names = ("--out", short) if short else ("--out",)
        return click.option(*names, "out", default=None, metavar=metavar, help=help, **kw)(f)

    return deco


def names_option(default: bool, help: str) -> Callable[[F], F]:
    return click.option("--names/--no-names", default=default, help=help)
