"""``db info``'s answer for one opened card database: counts by kind, scope, language and
game, and every source file it was built from."""

from __future__ import annotations

from typing import Any

from deckcheck.carddb import _common
from deckcheck.model import SCOPES


def info(db: Any) -> dict[str, Any]:  # a carddb.db.CardDB (not imported: no cycle)
    """What is installed: path, sample or not, counts by kind/scope/language, sources."""
    q = db._query
    by_kind = dict(q("SELECT kind, count(*) FROM cards GROUP BY kind ORDER BY kind", ()))
    by_scope: dict[str, int] = {}
    for name, bit in SCOPES.items():
        n = q("SELECT count(*) FROM cards WHERE scopes & ? != 0", (bit,)).fetchone()[0]
        if n:
            by_scope[name] = n
    names: dict[str, dict[str, int]] = {}
    for lang, kind, rows, cards in q(
        "SELECT lang, kind, count(*), count(DISTINCT card_id) FROM names GROUP BY lang, kind",
        (),
    ):
        key = lang if kind == "name" else f"{lang}_reading"
        names[key] = {"names": rows, "cards": cards}
    order = {lg: i for i, lg in enumerate(_common.LANGS)}
    names = dict(sorted(names.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))
    sources = [
        {
            "path": p,
            "sha256": s,
            "size": z,
            "imported_at": t,
            "dialect": d,
            "lang": lg,
            "rows": r,
            "kind": k,
        }
        for p, s, z, t, d, lg, r, k in q(
            "SELECT path, sha256, size, imported_at, dialect, lang, rows, kind FROM sources "
            "ORDER BY id",
            (),
        )
    ]
    official: dict[str, Any] = {}
    if db._official:
        official["releases"] = dict(
            q(
                "SELECT region, count(*) FROM releases GROUP BY region ORDER BY region", ()
            ).fetchall()
        )
        official["konami_ids"] = dict(
            q("SELECT kind, count(*) FROM konami_ids GROUP BY kind ORDER BY kind", ()).fetchall()
        )
        from deckcheck.carddb.games import counts

        official["games"] = counts(db._conn)
        official["prerelease_to_official"] = q("SELECT count(*) FROM official_ids", ()).fetchone()[
            0
        ]
        official["sources"] = [
            {
                "kind": k,
                "path": p,
                "sha256": s,
                "size": z,
                "imported_at": t,
                "rows": r,
                "mapped": m,
                "unmapped": u,
            }
            for k, p, s, z, t, r, m, u in q(
                "SELECT kind, path, sha256, size, imported_at, rows, mapped, unmapped "
                "FROM official_sources ORDER BY kind",
                (),
            )
        ]
    return {
        "official": official,
        "path": str(db.path),
        "sample": db.is_sample,
        "schema_version": int(db.meta.get("schema_version", 0)),
        "built_at": db.meta.get("built_at"),
        "fingerprint": db.fingerprint,
        "cards": sum(by_kind.values()),
        "by_kind": by_kind,
        "by_scope": by_scope,
        "names": names,
        "sources": sources,
    }
