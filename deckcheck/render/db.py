"""Text output of ``db import`` and ``db info``: every path, name and recorded value on
one line (``one_line``; a file name or an upstream field may hold a newline)."""

from __future__ import annotations

from typing import Any

from deckcheck.render.common import one_line


def import_text(summary: Any) -> list[str]:
    """What each imported file gave, then the database's totals."""
    out = []
    for f in summary.files:
        if f.kind == "cards":
            what = f"{f.rows} cards ({f.dialect})"
        elif f.kind == "names":
            what = f"{f.rows} names ({f.lang})"
        else:
            unmapped = sum((f.unmapped or {}).values())
            what = f"{f.kind}: {f.rows} records, {f.mapped} mapped, {unmapped} not mapped"
        out.append(one_line(f"{f.path}: {what}"))
    langs = ", ".join(f"{lg} {n}" for lg, n in summary.names_by_lang.items())
    out += [f"database: {summary.db_path}", f"cards: {summary.cards}", f"names: {langs}"]
    return [one_line(line) for line in out]


def info_text(info: dict[str, Any]) -> str:
    lines = [
        f"database: {info['path']}" + ("  (built-in sample)" if info["sample"] else ""),
        (
            f"schema: {info['schema_version']}  built: {info['built_at']}  "
            f"fingerprint: {info['fingerprint']}"
        ),
        f"cards: {info['cards']}",
        "by kind: " + ", ".join(f"{k} {n}" for k, n in info["by_kind"].items()),
        "by scope: " + ", ".join(f"{k} {n}" for k, n in info["by_scope"].items()),
        "names: " + ", ".join(f"{k} {v['names']}" for k, v in info["names"].items()),
        "sources:",
    ]
    for s in info["sources"]:
        extra = s["dialect"] if s["kind"] in ("cards", "sample") else s["lang"]
        lines.append(
            f"  {s['path']}  {s['kind']} ({extra}), {s['rows']} rows, {s['size']} bytes, "
            f"sha256 {s['sha256']}, imported {s['imported_at']}"
        )
    off = info.get("official") or {}
    if off.get("sources"):
        lines.append(
            "official: releases "
            + ", ".join(f"{k} {n}" for k, n in off["releases"].items())
            + "; Konami ids "
            + ", ".join(f"{k} {n}" for k, n in off["konami_ids"].items())
            + f"; prerelease->official {off['prerelease_to_official']}"
        )
        for s in off["sources"]:
            lines.append(
                f"  {s['path']}  {s['kind']}, {s['rows']} rows, {s['mapped']} mapped, "
                f"{s['unmapped']} not mapped, sha256 {s['sha256']}, imported {s['imported_at']}"
            )
    lines += _games_text(info.get("games") or {})
    if info.get("update"):
        lines.append("installed by 'deckcheck update':")
        for key, u in sorted(info["update"].items()):
            lines.append(
                f"  {key}: {u.get('location')}  sha256 {u.get('sha256')}, "
                f"{u.get('size')} bytes, installed {u.get('installed_at', '?')}"
            )
    for r in info.get("refused_lists") or []:
        lines.append(
            f"refused list: {r.get('family')} {r.get('effective')} ({r.get('source')}): "
            f"{r.get('reason')}; the previous list stays in force"
        )
    return "\n".join(one_line(line) for line in lines)


#: the games' names in ``db info`` (``gamepool.info``'s keys are the formats' ids)
_GAME_NAMES = {"master-duel": "Master Duel", "duel-links": "Duel Links"}


def _games_text(games: dict[str, Any]) -> list[str]:
    """``db info``'s lines on the video games: cards each source puts in the game, the cards
    no source puts there, the cards its official lists name; or what to install."""
    lines = ["games:"] if games else []
    for fid, row in games.items():
        name = _GAME_NAMES.get(fid, fid)
        named = row.get("named_by_official_lists", 0)
        if row.get("missing"):
            lines.append(f"  {name}: {row['missing']} ({named} cards named by its official lists)")
            continue
        cards = dict(row.get("cards") or {})
        total, absent = cards.pop("any", 0), cards.pop("absent", 0)
        by = ", ".join(f"{k} {n}" for k, n in cards.items())
        lines.append(
            f"  {name}: {total} cards in the game ({by}), {absent} known not to be; "
            f"{named} named by its official lists"
        )
    return lines
