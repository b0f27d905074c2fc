"""The ``deckcheck`` command group: parses options, calls the library, prints.

Subcommands live in ``deckcheck.commands.*`` and are imported only when invoked, so
``deckcheck --help`` and ``deckcheck validate`` pay only for what they use.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from deckcheck import __version__, notes, startup
from deckcheck.errors import (
    EXIT_ERROR,
    DeckcheckError,
    debugging,
    did_you_mean,
    error_line,
    one_line,
)

#: How long the console script holds the cyclic garbage collector off (``deckcheck.startup``;
#: ``DECKCHECK_PLAIN_START=1``: not at all): ``RESUMED``, until the command is resolved;
#: ``HELD``, past that: ``validate`` turns it back on itself before its first deck, ``card``
#: never (it loads the name index, hundreds of thousands of objects, for one short query).
RESUMED, HELD = "resumed", "held"

# name -> (module, attribute, one-line help shown by `deckcheck --help`, collector)
COMMANDS: dict[str, tuple[str, str, str, str]] = {
    "validate": (
        "deckcheck.commands.validate",
        "validate",
        "Check decks against a format and its list.",
        HELD,
    ),
    "formats": (
        "deckcheck.commands.formats",
        "formats",
        "List the formats deckcheck knows.",
        RESUMED,
    ),
    "banlist": (
        "deckcheck.commands.banlist",
        "banlist",
        "Show, import, export and diff Forbidden/Limited lists.",
        RESUMED,
    ),
    "card": (
        "deckcheck.commands.card",
        "card",
        "Find cards by name in any language.",
        HELD,
    ),
    "convert": (
        "deckcheck.commands.convert",
        "convert",
        "Convert a deck between .ydk, ydke:// and text.",
        RESUMED,
    ),
    "build": (
        "deckcheck.commands.build",
        "build",
        "Turn a text decklist (any language) into a .ydk file.",
        RESUMED,
    ),
    "deck": (
        "deckcheck.commands.deck",
        "deck",
        "Create and edit decks from the command line.",
        RESUMED,
    ),
    "meta": (
        "deckcheck.commands.meta",
        "meta",
        "Archetypes and card usage of a folder of decks.",
        RESUMED,  # reads a folder of decks: the collector runs as usual
    ),
    "db": (
        "deckcheck.commands.db",
        "db",
        "Import and inspect the card database.",
        RESUMED,
    ),
    "sheet": (  # issue 17
        "deckcheck.commands.sheet",
        "sheet",
        "Write a deck's decklist registration sheet as a PDF.",
        RESUMED,
    ),
    "update": (
        "deckcheck.commands.update",
        "update",
        "Fetch current cards and lists from upstream.",
        RESUMED,
    ),
    "config": (
        "deckcheck.commands.config",
        "config",
        "Show the project settings and where each came from.",
        RESUMED,
    ),
    "serve": (  # issue 31
        "deckcheck.commands.serve",
        "serve",
        "Serve deck checks and tournament submissions over HTTP.",
        RESUMED,  # a long-running server: the collector runs as usual
    ),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = COMMANDS.get(cmd_name)
        if spec is None:
            return None
        module = importlib.import_module(spec[0])
        cmd = getattr(module, spec[1])
        assert isinstance(cmd, click.Command)
        if spec[3] == RESUMED:
            startup.resume()  # collection back on before any command that does not say when
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Uses the static help texts so that `--help` imports no subcommand module.
        with formatter.section("Commands"):
            formatter.write_dl([(name, spec[2]) for name, spec in COMMANDS.items()])


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="""\b
Examples:
  deckcheck validate deck.ydk
  deckcheck validate --format ocg --date 2026-07-01 decks/
  deckcheck card search "ash blossom"
  deckcheck banlist diff tcg@2025-04-07 tcg@2026-05-18

Exit codes: 0 every deck legal, 1 a deck is illegal, 2 usage or data error.""",
)
@click.version_option(__version__, prog_name="deckcheck")
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour text output: auto = on a terminal, unless NO_COLOR is set (non-empty); "
    "FORCE_COLOR (non-empty) turns it on.",
)
@click.option(
    "--encoding",
    metavar="ENC",
    default=None,
    help="Read deck files that are not UTF-8 in this encoding (e.g. shift_jis, gbk, big5) "
    "instead of detecting it.",
)
@click.pass_context
def cli(ctx: click.Context, color: str, encoding: str | None) -> None:
    """deckcheck: Yu-Gi-Oh! deck builder and format-legality checker."""
    notes.set_sink(lambda text: click.echo(text, err=True))  # library notes, rendered here
    notes.set_progress_sink(notes.stderr_progress_sink())
    ctx.meta[COLOR_KEY] = color
    if encoding is not None:
        import codecs

        from deckcheck.errors import InputError

        try:
            codecs.lookup(encoding)
        except LookupError:
            raise InputError(f"--encoding {encoding!r}: not an encoding Python knows") from None
        os.environ["DECKCHECK_ENCODING"] = encoding  # the readers' (and --jobs workers') cue
    _check_home_variables()


#: Where the global ``--color`` choice is kept for subcommands (``click.Context.meta``).
COLOR_KEY = "deckcheck.color"


def _check_home_variables() -> None:
    """A DECKCHECK_HOME/DECKCHECK_CACHE that names a file gets a message saying so (else every
    command fails later with a misleading "no list in force" or "not a directory")."""
    from deckcheck.errors import DataError

    for var in ("DECKCHECK_HOME", "DECKCHECK_CACHE"):
        value = os.environ.get(var)
        if value and os.path.exists(value) and not os.path.isdir(value):
            raise DataError(
                f"{var}={value} names a file, not a folder: point it at a folder "
                "(it is created when missing) or unset it"
            )


def os_error_text(exc: OSError) -> str:
    """An OSError as ``<file>: <reason>`` with a hint for the usual causes."""
    import errno

    reason = exc.strerror or str(exc)
    hint = {
        errno.ENOSPC: " (the disk is full: free space and run the command again; nothing was "
        "half-written)",
        errno.EROFS: " (a read-only file system: set DECKCHECK_HOME to a writable folder)",
        errno.EACCES: " (permission denied: check the folder's owner and mode, or set "
        "DECKCHECK_HOME to a writable folder)",
    }.get(exc.errno or 0, "")
    if getattr(errno, "EDQUOT", None) == exc.errno:
        hint = " (the disk quota is exceeded)"
    where = exc.filename if exc.filename is not None else None
    return f"{where}: {reason}{hint}" if where else f"{reason}{hint}"


def entry() -> NoReturn:
    """``main`` with the cyclic garbage collector held off during start-up
    (``deckcheck.startup``), then the exit code: what the console script runs
    (``deckcheck.console.main``, which holds the collector from before this module and click
    are imported)."""
    startup.hold()
    code = main()
    startup.finish()
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code; every error is one line on stderr."""
    # --encoding is passed to the readers through the environment (and so to --jobs
    # workers); a library caller's process gets its own value back afterwards.
    saved = os.environ.get("DECKCHECK_ENCODING")
    # Each command reads the installed state once, as it is now. A process that never
    # imported deckcheck.paths holds no state, and ``--help`` stays free of pathlib.
    paths = sys.modules.get("deckcheck.paths")
    if paths is not None:
        paths.forget_state()
    try:
        return _main(argv)
    finally:
        if saved is None:
            os.environ.pop("DECKCHECK_ENCODING", None)
        else:
            os.environ["DECKCHECK_ENCODING"] = saved


def _main(argv: Sequence[str] | None) -> int:
    try:
        rv: Any = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="deckcheck",
            standalone_mode=False,
        )
    except DeckcheckError as exc:
        # one line whatever a message quotes: str() escapes it (errors.one_line)
        return _fail(str(exc), exc.exit_code)
    except click.exceptions.Abort:
        return _fail("aborted", EXIT_ERROR)
    except click.ClickException as exc:
        # click's usage errors, re-rendered as the one line every failure is (issue 32)
        return _fail(usage_text(exc), EXIT_ERROR)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # `deckcheck … | head`: the reader went away; nothing more to say.
        sys.stderr.close()
        return 0
    except OSError as exc:
        # The machine, not the input: a full disk, a read-only home, an I/O error. Commands
        # name the file where they can; this is the one line for the rest.
        return _fail(os_error_text(exc), EXIT_ERROR)
    except Exception as exc:  # last resort: a bug must still not print a traceback
        if debugging():
            raise
        click.echo(
            f"deckcheck: internal error: {type(exc).__name__}: {one_line(str(exc))} "
            "(a bug: please report it; set DECKCHECK_DEBUG=1 for the traceback)",
            err=True,
        )
        return EXIT_ERROR
    return rv if isinstance(rv, int) else 0


def _fail(text: str, code: int) -> int:
    """Print the failure's one line (after its traceback under ``DECKCHECK_DEBUG``)."""
    if debugging():
        import traceback

        traceback.print_exc()
    click.echo(error_line(text), err=True)
    return code


def usage_text(exc: click.ClickException) -> str:
    """A click error as one line in deckcheck's words: lower-case, "did you mean" for an
    unknown command or option, and the help to read (``see 'deckcheck validate --help'``)."""
    import re

    text = exc.format_message().strip()
    ctx = getattr(exc, "ctx", None)
    unknown = re.fullmatch(r"No such command '(.*)'\.", text)
    if unknown and ctx is not None and isinstance(ctx.command, click.Group):
        names = ctx.command.list_commands(ctx)
        hint = did_you_mean(unknown.group(1), names) or f" (commands: {', '.join(names)})"
        text = f"no such command {unknown.group(1)!r}{hint}"
    mean = re.search(r"\.?\s+\(?Did you mean (?:one of: )?(.+?)\?\)?$", text)
    if mean:  # click: "Did you mean '--output'?" / "(Did you mean one of: '--out', …?)"
        text = f"{text[: mean.start()]} (did you mean {mean.group(1).replace(', ', ' or ')}?)"
    choice = re.search(r"'([^']*)' is not one of ((?:'[^']*'(?:, )?)+)\.?$", text)
    if choice:  # a mistyped choice (-o htm): the nearest ones
        near = did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        text = f"{text.rstrip('.')}{near}"
    text = text.rstrip(".")
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    if ctx is not None and isinstance(exc, click.UsageError):
        text += f"; see '{ctx.command_path} --help'"
    return text


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
