"""`deckcheck update` fetches the official lists from a loopback mirror laid out as
BASE/<owner>/<repo>/<path>: the whole dated history of yaml-yugi-limit-regulation (GitHub's
source zip of the repository, rebuilt from the staged files) and the Duel Links dev.db. An
event date in the past gets Konami's list of that day after `update` alone; upstream faults
are still refused; a second update downloads nothing."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from deckcheck.cli import cli
from deckcheck.errors import DataError
from deckcheck.formats.catalog import ListStore
from deckcheck.formats.faults import read_faults
from deckcheck.update import download
from deckcheck.update.download import check_file
from deckcheck.update.sources import Component, load_components, resolve_source
from tests._http import serving
from tests._realhome import LIMIT_REGULATION_ZIP, upstream_mirror
from tests.builders import validate_json
from tests.update.test_update import Mirror, _handler, _snapshot

D = dt.date
DEV_DB = "falsepopsky/forbidden-duel-links/prisma/dev.db"


def test_sources_name_the_archive_and_the_dev_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECKCHECK_SOURCE", raising=False)
    comps = {c.key: c for c in load_components("lists")}
    assert DEV_DB in comps and LIMIT_REGULATION_ZIP in comps
    # no single dated file is named any more: the archive holds the history
    assert not any(k.endswith(".vector.json") for k in comps)
    assert all(
        not c.required for c in comps.values() if c.owner in ("falsepopsky", "DawnbrandBots")
    )
    zip_comp = comps[LIMIT_REGULATION_ZIP]
    assert zip_comp.max_bytes == 64 * 1024 * 1024
    assert resolve_source(None).locate(zip_comp) == (
        "https://github.com/DawnbrandBots/yaml-yugi-limit-regulation/archive/refs/heads/master.zip"
    )
    assert resolve_source("http://127.0.0.1:9/m").locate(zip_comp) == (
        f"http://127.0.0.1:9/m/{LIMIT_REGULATION_ZIP}"
    )


def test_archive_download_checks(tmp_path: Path) -> None:
    comp = Component(
        "DawnbrandBots",
        "yaml-yugi-limit-regulation",
        "master",
        "archive/refs/heads/master.zip",
        "lists",
        False,
        1 << 20,
    )
    good = tmp_path / "good.zip"
    with zipfile.ZipFile(good, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "r-master/data/tcg/2024-09-02.vector.json",
            '{"date": "2024-09-02", "regulation": {"4007": 1}}' + " " * 200,
        )
    check_file(good, comp, "u")
    bad = tmp_path / "bad.zip"
    raw = bytearray(good.read_bytes())
    i = raw.index(b"PK\x01\x02")  # flip a byte of the compressed data: its CRC fails
    raw[i - 30] ^= 0xFF
    bad.write_bytes(bytes(raw))
    with pytest.raises(DataError, match="corrupt download"):
        check_file(bad, comp, "u")
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("r-master/README.md", "no lists here")
    with pytest.raises(DataError, match="corrupt download"):
        check_file(other, comp, "u")


@dataclass
class Updated:
    home: Path
    mirror: Mirror
    first: Result
    second: Result
    snapshot_after_first: dict[str, str]
    snapshot_after_second: dict[str, str]
    second_200: int
    second_304: int


@pytest.fixture(scope="module")
def updated(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Updated]:
    """One update from a mirror holding cards, names, lflists, yaml-yugi's card data, the
    limit-regulation archive and the dev.db (not the YGOJSON zip: release dates play no part
    here); then a second update of the same mirror."""
    root = upstream_mirror(shared_data, tmp_path_factory.mktemp("lists-upstream"), ygojson=False)
    home = tmp_path_factory.mktemp("lists-home")
    m = Mirror(root)
    with serving(_handler(m)) as m.url:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("DECKCHECK_HOME", str(home))
            mp.setattr(download, "BACKOFF", 0.0)
            args = ["update", "--source", m.url, "-o", "json"]
            first = CliRunner().invoke(cli, args, catch_exceptions=False)
            snap1 = _snapshot(home)
            m.reset()
            second = CliRunner().invoke(cli, args, catch_exceptions=False)
            snap2 = _snapshot(home)
        yield Updated(home, m, first, second, snap1, snap2, m.count(200), m.count(304))


@pytest.fixture
def store(updated: Updated, monkeypatch: pytest.MonkeyPatch) -> ListStore:
    monkeypatch.setenv("DECKCHECK_HOME", str(updated.home))
    return ListStore.default()


def _staged_days(shared: Path, folder: str) -> set[D]:
    lr = shared / "banlists" / "yaml-yugi-limit-regulation" / folder
    return {D.fromisoformat(p.name[:10]) for p in lr.glob("*.json")}


@pytest.mark.realdata
def test_update_installs_the_whole_official_history(updated: Updated, shared_data: Path) -> None:
    assert updated.first.exit_code == 0, updated.first.output
    status = {f["file"]: f["status"] for f in json.loads(updated.first.stdout)["files"]}
    assert status[LIMIT_REGULATION_ZIP] == "new" and status[DEV_DB] == "new"
    refused = {(f["family"], f["effective"]) for f in read_faults(updated.home / "banlists")}
    for folder in (
        "tcg",
        "ocg",
        "ocg-ae",
        "ocg-cn",
        "master-duel",
        "genesys",
        "ocg-genesys",
        "rush",
    ):
        installed = {
            D.fromisoformat(p.stem) for p in (updated.home / "banlists" / folder).glob("*.yaml")
        }
        want = {
            d for d in _staged_days(shared_data, folder) if (folder, d.isoformat()) not in refused
        }
        # every dated file the archive holds is a list (official days; lflist months of the
        # same family may sit beside them)
        assert want <= installed, (folder, sorted(want - installed)[:5])
    assert len(_staged_days(shared_data, "tcg")) == 73


@pytest.mark.realdata
def test_a_past_event_date_gets_konamis_list_of_that_day(
    updated: Updated, store: ListStore, tmp_path: Path
) -> None:
    b = store.in_force("tcg", D(2024, 10, 15))
    assert b is not None and b.effective == D(2024, 9, 2) and b.date_exact
    assert b.source == "DawnbrandBots/yaml-yugi-limit-regulation data/tcg/2024-09-02.vector.json"
    old = store.in_force("tcg", D(2008, 6, 1))  # far back: no lflist covers 2008 TCG
    assert old is not None and old.effective.year == 2008 and old.date_exact
    ocg = store.in_force("ocg", D(2005, 6, 1))  # early OCG lists come as name lists
    assert ocg is not None and ocg.source.endswith(".name.json") and ocg.limits
    ydk = tmp_path / "d.ydk"
    ydk.write_text("#main\n" + "89631139\n" * 3 + "#extra\n!side\n")
    rep = validate_json(updated.home, "-f", "tcg", "--date", "2024-10-15", ydk)
    assert rep["banlist"]["effective"] == "2024-09-02" and rep["banlist"]["date_exact"] is True


@pytest.mark.realdata
def test_faults_in_the_archive_are_still_refused(updated: Updated, store: ListStore) -> None:
    refused = {(f["family"], f["effective"]) for f in read_faults(updated.home / "banlists")}
    assert ("genesys", "2026-08-14") in refused  # upstream's empty file
    assert ("ocg-cn", "2022-10-01") in refused
    assert not (updated.home / "banlists" / "genesys" / "2026-08-14.yaml").exists()
    b = store.in_force("genesys", D(2026, 8, 20))
    assert b is not None and b.effective == D(2026, 8, 4) and len(b.points) > 600
    assert "genesys 2026-08-14" in updated.first.output  # the warning reaches the user


@pytest.mark.realdata
def test_genesys_works_after_update_and_rush_uses_official_lists_from_2023(
    updated: Updated, store: ListStore, tmp_path: Path
) -> None:
    ydk = tmp_path / "g.ydk"
    ydk.write_text("#main\n" + "89631139\n" * 3 + "#extra\n!side\n")
    # exit 2 before (issue 15)
    rep = validate_json(updated.home, "-f", "genesys", "--date", "2026-08-20", ydk)
    assert rep["banlist"]["source"].startswith("DawnbrandBots/yaml-yugi-limit-regulation")
    rush = store.in_force("rush", D(2023, 6, 1))
    assert rush is not None and rush.source.startswith(
        "DawnbrandBots/yaml-yugi-limit-regulation data/rush/"
    )
    first = min(b.effective for b in store.lists("rush") if b.date_exact)
    assert first == D(2023, 1, 1)  # Konami's first Rush list (yaml-yugi-limit-regulation)


@pytest.mark.realdata
def test_second_update_downloads_nothing(updated: Updated) -> None:
    assert updated.second.exit_code == 0, updated.second.output
    report = json.loads(updated.second.stdout)
    assert {f["status"] for f in report["files"]} <= {"unchanged", "missing"}
    assert not report["lists_updated"] and not report["cards_updated"]
    assert updated.second_200 == 0 and updated.second_304 >= 3  # conditional requests only
    assert updated.snapshot_after_second == updated.snapshot_after_first


@pytest.mark.realdata
def test_update_log_is_a_few_lines(updated: Updated) -> None:
    # issue 32: about 71 `note:` lines per update with the official files ("differ on 3352
    # card(s) … (- vs 3)"), all of it in every Action log; now counted by kind
    err = updated.first.stderr.splitlines()
    assert len(err) <= 8, "\n".join(err)
    assert not [line for line in err if line.startswith("deckcheck: note:")]  # one per list
    notes = next(line for line in err if " note(s): " in line)
    assert "list(s) two sources disagree on (the official one kept)" in notes
    assert "list(s) with entries that map to no card (left out)" in notes
    assert any(line.startswith("deckcheck: details: 'deckcheck update -v'") for line in err)
    refused = next(line for line in err if "refused as faults" in line)
    assert "genesys 2026-08-14" in refused and "ocg-cn 2022-10-01" in refused
