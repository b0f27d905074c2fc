"""Builds data homes from ../shared/data: the one recipe the tests and the benchmarks share."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


def card_files(data: Path) -> list[Path]:
    """cards.cdb and every locale's cards.cdb, in import order (English first)."""
    return [data / "cards" / "cards.cdb", *sorted((data / "locales").glob("*/cards.cdb"))]


def projectignis_lists(data: Path) -> list[Path]:
    """Every dated ProjectIgnis list file (the ``upstream-head`` snapshot left out)."""
    pi = data / "banlists" / "projectignis-lflists"
    return sorted(p for p in pi.glob("*/*.lflist.conf") if p.parent.name != "upstream-head")


def ygopro_lists(data: Path, kind: str) -> list[Path]:
    """The Fluorohydride YGOPro list history of ``kind`` ("TCG" or "OCG", 2011-2026)."""
    return sorted((data / "banlists" / "fluorohydride-ygopro" / kind).glob("*.lflist.conf"))


@contextmanager
def home_env(home: Path) -> Iterator[None]:
    """DECKCHECK_HOME pointed at ``home`` for the block, restored afterwards."""
    saved = os.environ.get("DECKCHECK_HOME")
    os.environ["DECKCHECK_HOME"] = str(home)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("DECKCHECK_HOME", None)
        else:
            os.environ["DECKCHECK_HOME"] = saved


def build_full_home(
    data: Path,
    home: Path,
    *,
    lists: Sequence[Sequence[Path]] | None = None,
    cards_db: Path | None = None,
) -> Path:
    """A data home as a user who installed everything has it: the full card database
    (cards.cdb + every locale) and, by default, the ProjectIgnis lists.

    ``lists`` replaces the list files: batches imported one after the other (a later batch
    replaces an earlier one's list of the same family and date). ``cards_db`` copies an
    already-built ``cards.sqlite3`` instead of importing the card files again. The lists are
    imported with this home's database installed, so their ids are canonical (alternate
    artworks merged) as they are for a real user.
    """
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    home.mkdir(parents=True, exist_ok=True)
    db_path = home / "cards.sqlite3"
    if cards_db is not None:
        shutil.copy2(cards_db, db_path)
    else:
        import_files(card_files(data), db_path=db_path)
    with home_env(home):
        for batch in [projectignis_lists(data)] if lists is None else lists:
            import_lflists(list(batch), dest=home / "banlists")
    return home


#: Where GitHub serves the source archive of DawnbrandBots/yaml-yugi-limit-regulation
#: (``archive/refs/heads/master.zip``), as a mirror path.
LIMIT_REGULATION_ZIP = "DawnbrandBots/yaml-yugi-limit-regulation/archive/refs/heads/master.zip"


def limit_regulation_archive(data: Path, dest: Path) -> Path:
    """GitHub's source zip of yaml-yugi-limit-regulation rebuilt from the staged copy: every
    ``data/<format>/*.json`` file under the ``<repo>-<branch>/`` folder GitHub puts entries in
    (the staged ``index.json`` is a staging file, not upstream's, so it stays out)."""
    import zipfile

    lr = data / "banlists" / "yaml-yugi-limit-regulation"
    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("yaml-yugi-limit-regulation-master/README.md", "# staged copy\n")
        for f in sorted(lr.glob("*/*.json")):
            zf.write(f, f"yaml-yugi-limit-regulation-master/data/{f.parent.name}/{f.name}")
    return dest


def upstream_mirror(data: Path, root: Path, *, ygojson: bool = True) -> Path:
    """Every file `deckcheck update` fetches, in the mirror layout ``<owner>/<repo>/<path>``,
    from the staged copies (symlinks; the two zips built): cards.cdb, the locales, the
    lflist files at HEAD, yaml-yugi's cards/rush/skill.json, EDOPro's strings.conf, the
    YGOJSON release zip (unless
    ``ygojson`` is False: building it takes a while), the limit-regulation source zip and the
    Duel Links dev.db."""
    import zipfile

    up = data / "upstream"
    links: dict[str, Path] = {"ProjectIgnis/BabelCDB/cards.cdb": data / "cards/cards.cdb"}
    for d in sorted((data / "locales").iterdir()):
        links[f"mycard/ygopro-database/locales/{d.name}/cards.cdb"] = d / "cards.cdb"
    head = data / "banlists/projectignis-lflists/upstream-head"
    for f in sorted(head.glob("*.lflist.conf")):
        links[f"ProjectIgnis/LFLists/{f.name}"] = f
    links["Fluorohydride/ygopro/lflist.conf"] = (
        data / "banlists/fluorohydride-ygopro/upstream-head/lflist.conf"
    )
    for name in ("cards.json", "rush.json", "skill.json"):
        links[f"DawnbrandBots/yaml-yugi/{name}"] = up / "DawnbrandBots__yaml-yugi" / name
    links["ProjectIgnis/Distribution/config/strings.conf"] = (
        up / "ProjectIgnis__Distribution/config/strings.conf"
    )
    links["falsepopsky/forbidden-duel-links/prisma/dev.db"] = (
        up / "falsepopsky__forbidden-duel-links/prisma/dev.db"
    )
    for rel, target in links.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(target)
    limit_regulation_archive(data, root / LIMIT_REGULATION_ZIP)
    if ygojson:
        src = up / "iconmaster5326__YGOJSON"
        dest = root / "iconmaster5326/YGOJSON/individual.zip"
        dest.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            for f in sorted(src.rglob("*.json")):
                zf.write(f, f.relative_to(src).as_posix())
    return root
