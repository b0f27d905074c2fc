"""Text output of ``deckcheck update``: one line per file, and the closing summary."""

from __future__ import annotations

from typing import Any


def files_text(data: dict[str, Any]) -> list[str]:
    return [
        f"{f['status']:9}  {f['kind']:5}  {f['file']}  {(f['sha256'] or '')[:12]}"
        for f in data["files"]
    ]


def summary_text(result: Any, dry_run: bool) -> str:
    changed = sum(f.status in ("new", "changed") for f in result.files)
    verb = "would update" if dry_run else "updated"
    done = (("cards", result.cards_updated), ("lists", result.lists_updated))
    parts = [p for p, on in done if on]
    what = f"{verb} {' and '.join(parts)}" if parts else "nothing to install"
    return (
        f"deckcheck: {what}: {changed} new or changed file(s) of {len(result.files)}, "
        f"{result.requests} request(s) to {result.source}"
    )
