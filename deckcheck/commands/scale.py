"""``python -m deckcheck.commands.scale``: check a JSONL table of ydke decks on a dask cluster
and write the verdicts back as a table (see ``deckcheck.scale`` and docs/SCALE.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from deckcheck import scale


def main(argv: Sequence[str] | None = None) -> int:
    from deckcheck.dates import parse_date
    from deckcheck.errors import EXIT_ERROR, DeckcheckError

    ap = argparse.ArgumentParser(
        prog="python -m deckcheck.commands.scale", description=(scale.__doc__ or "").splitlines()[0]
    )
    ap.add_argument("input", help="JSONL table, one deck a line")
    ap.add_argument("output", help="folder for the verdict parts (part-*.jsonl)")
    ap.add_argument("--format", dest="format_id", default="tcg")
    ap.add_argument("--date", default=None, help="event date YYYY-MM-DD (default: today)")
    ap.add_argument("--banlist", default=None)
    ap.add_argument("--column", default="ydke")
    ap.add_argument("--id-column", default="id")
    ap.add_argument("--scheduler", default=None, help="address of a running dask scheduler")
    ap.add_argument("--workers", type=int, default=2, help="local cluster size (no --scheduler)")
    args = ap.parse_args(argv)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print(
            "deckcheck: error: needs dask.distributed: pip install 'deckcheck[dask]'",
            file=sys.stderr,
        )
        return EXIT_ERROR
    try:
        day = parse_date(args.date) if args.date else None
        data = scale.prepare(args.format_id, day, args.banlist)
        if args.scheduler:
            client = Client(args.scheduler)
        else:
            client = Client(
                LocalCluster(
                    n_workers=args.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
        with client:
            n = scale.run(
                args.input, args.output, data, client, column=args.column, id_column=args.id_column
            )
    except DeckcheckError as exc:
        print(f"deckcheck: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except (ValueError, OSError) as exc:
        print(f"deckcheck: error: {args.input}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    print(f"{n} decks checked; verdicts in {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
