"""The list side of issue 15 on the real staged data: official limit-regulation lists and the
Duel Links history imported, taking effect on Konami's days, winning over lflist lists for the
months they cover, upstream faults refused, transient lflist headers skipped."""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from pathlib import Path

import pytest

from deckcheck.formats import duellinks, official
from deckcheck.formats.catalog import ListStore
from deckcheck.formats.faults import read_faults
from deckcheck.formats.importer import import_lflists
from tests.builders import child_env, run_deckcheck, validate_json

D = dt.date
TTT = 25311006  # Triple Tactics Talent
PROTOS = 6728559  # Archnemeses Protos


def _env(home: Path):
    class _Env:
        def __enter__(self):
            self.saved = os.environ.get("DECKCHECK_HOME")
            os.environ["DECKCHECK_HOME"] = str(home)

        def __exit__(self, *exc):
            if self.saved is None:
                os.environ.pop("DECKCHECK_HOME", None)
            else:
                os.environ["DECKCHECK_HOME"] = self.saved

    return _Env()


@pytest.fixture
def store(lists_home: Path, monkeypatch) -> ListStore:
    monkeypatch.setenv("DECKCHECK_HOME", str(lists_home))
    return ListStore.default()


def _result(home: Path) -> dict:
    return json.loads((home / "import-result.json").read_text())


def test_tcg_lists_take_effect_on_konamis_day(store: ListStore):
    before, on = store.in_force("tcg", D(2025, 4, 3)), store.in_force("tcg", D(2025, 4, 7))
    assert before is not None and on is not None
    assert before.effective == D(2024, 12, 9) and on.effective == D(2025, 4, 7)
    assert before.source.startswith("DawnbrandBots/yaml-yugi-limit-regulation data/tcg/")
    assert on.date_exact and before.date_exact
    assert before.limit_of(TTT) is None  # 3 copies legal on 2025-04-03
    assert on.limit_of(TTT) == 1  # Limited on the day


def test_every_tcg_and_ocg_list_since_2023_starts_on_its_day(store: ListStore, shared_data: Path):
    lr = shared_data / "banlists" / "yaml-yugi-limit-regulation"
    checked = 0
    for fam in ("tcg", "ocg"):
        days = sorted(
            D.fromisoformat(p.name[:10])
            for p in (lr / fam).glob("*.vector.json")
            if p.name >= "2023"
        )
        for day in days:
            got = store.in_force(fam, day)
            prev = store.in_force(fam, day - dt.timedelta(days=1))
            assert got is not None and got.effective == day, (fam, day)
            assert prev is not None and prev.effective < day
            changed = {
                c
                for c in set(got.limits) | set(prev.limits)
                if got.limits.get(c) != prev.limits.get(c)
            }
            # a card whose status changed is judged by the old list the day before and the new
            # one on the day (an upstream duplicate, e.g. TCG 2024-12-06/12-09, changes nothing)
            if changed:
                checked += 1
    assert checked >= 20


def test_lflist_lists_are_hidden_where_official_ones_exist(store: ListStore):
    hidden = store.superseded("tcg")
    names = {Path(p).name for p in hidden}
    assert "2025-04-01.yaml" in names  # "2025.04 TCG": month only
    assert all(not b.path.endswith("2025-04-01.yaml") for b in store.lists("tcg"))
    # GOAT / Speed have no official data: their lflist lists stay
    assert store.in_force("goat", D(2005, 6, 1)) is not None


def test_archnemeses_protos_limited_on_2025_10_27(store: ListStore):
    b = store.in_force("tcg", D(2025, 10, 27))
    assert b is not None and b.effective == D(2025, 10, 27)
    assert b.limit_of(PROTOS) == 1


def test_genesys_empty_file_refused_previous_stays(lists_home: Path, store: ListStore):
    rej = _result(lists_home)["rejected"]
    assert ["genesys", "2026-08-14"] in [r[:2] for r in rej]
    b = store.in_force("genesys", D(2026, 8, 20))
    assert b is not None and b.effective == D(2026, 8, 4) and len(b.points) > 600
    faults = read_faults(lists_home / "banlists")
    assert any(f["family"] == "genesys" and f["effective"] == "2026-08-14" for f in faults)


def test_ocg_genesys_and_regional_lists(store: ListStore):
    og = store.in_force("ocg-genesys", D(2026, 8, 1))
    assert og is not None and len(og.points) >= 1000 and not og.limits
    for fam, day in (
        ("ocg-ae", D(2026, 7, 1)),
        ("ocg-cn", D(2026, 7, 1)),
        ("master-duel", D(2026, 8, 5)),
        ("rush", D(2026, 7, 1)),
    ):
        b = store.in_force(fam, day)
        assert b is not None and b.effective == day and b.limits, fam
        assert b.source.startswith(f"DawnbrandBots/yaml-yugi-limit-regulation data/{fam}/"), fam


def test_rush_official_lists_from_2023_lflist_history_before(lists_home: Path, store: ListStore):
    """Issue 15 item 5: Konami's Rush lists are used from 2023 (none refused as "halved" next
    to EDOPro's Rush whitelist, which lists every legal card); before 2023 lflist history
    fills in with its longest-standing revision."""
    assert not [r for r in _result(lists_home)["rejected"] if r[0] == "rush"]
    for day in (D(2023, 1, 1), D(2024, 6, 1), D(2026, 7, 1)):
        b = store.in_force("rush", day)
        assert b is not None and b.date_exact
        assert b.source.startswith("DawnbrandBots/yaml-yugi-limit-regulation data/rush/"), day
    early = store.in_force("rush", D(2022, 6, 1))
    assert early is not None and early.name == "2020.04.27 Rush Duel"


def test_unmapped_ids_and_names_are_reported(lists_home: Path):
    un = {u[0]: u for u in _result(lists_home)["unmapped"]}
    dl = [u for s, u in un.items() if "dev.db (Speed)" in s]
    assert dl and "Kiteroid" in dl[0][3]
    rush = [u for s, u in un.items() if "dev.db (Rush)" in s]
    assert rush and rush[0][3] == ["Thrust Dragon Bunker Strike"]


def test_duel_links_replay_matches_the_readme(store: ListStore):
    b = store.in_force("duel-links", D(2025, 5, 7))
    assert b is not None and b.effective == D(2025, 5, 7)
    assert len(b.limits) == 13  # Forbidden
    sizes = {g.name: len(g.cards) for g in b.groups}
    # 52/14/17 names in the README; Kiteroid/Tom Scalees/Imitation may be among the misses
    assert 50 <= sizes["Limited 1"] <= 52 and 13 <= sizes["Limited 2"] <= 14
    assert 16 <= sizes["Limited 3"] <= 17
    r = store.in_force("duel-links-rush", D(2025, 4, 7))
    assert r is not None and {g.name: g.limit for g in r.groups} == {
        "Limited 1": 1,
        "Limited 2": 2,
        "Limited 3": 3,
    }


def test_transient_rush_header_skipped(lists_home: Path, store: ListStore):
    b = store.in_force("rush", D(2021, 6, 1))
    assert b is not None and b.name == "2020.04.27 Rush Duel" and len(b.limits) >= 1300
    assert store.get("rush", D(2020, 5, 17)) is None


def test_reimport_changes_nothing(lists_home: Path, shared_data: Path, tmp_path: Path):
    from deckcheck.carddb import open_db
    from deckcheck.formats.official import konami_map_for

    lr = shared_data / "banlists" / "yaml-yugi-limit-regulation"
    files = sorted((lr / "tcg").glob("*.vector.json"))[-3:]
    with _env(lists_home):
        km = konami_map_for(open_db(lists_home / "cards.sqlite3"))
        assert km is not None  # the imported yaml-yugi data maps Konami ids
        res = import_lflists(files, dest=tmp_path / "a", konami=km)
        again = import_lflists(files, dest=tmp_path / "a", konami=km)
    assert len(res.written) == 3 and not again.written and len(again.unchanged) == 3
    text = (tmp_path / "a" / "tcg" / "2026-05-18.yaml").read_text()
    assert "date_exact: true" in text
    want = "DawnbrandBots/yaml-yugi-limit-regulation data/tcg/2026-05-18.vector.json"
    assert f'source: "{want}"' in text


def test_validate_uses_official_lists_and_reports_provenance(lists_home: Path, tmp_path: Path):
    vanillas = [
        89631139,
        46986414,
        70781052,
        6368038,
        38033121,
        40640057,
        4031928,
        7902349,
        55144522,
        83764718,
        44095762,
        5318639,
        73915051,
    ]
    # a small TCG deck: 3 x Triple Tactics Talent, the rest unlimited staples/vanillas
    body = ["#main"] + [str(TTT)] * 3 + [str(c) for c in vanillas[:12] for _ in range(3)]
    body += ["89631139"]
    ydk = tmp_path / "ttt.ydk"
    ydk.write_text("\n".join(body) + "\n#extra\n!side\n")
    old = validate_json(lists_home, "-f", "tcg", "--date", "2025-04-03", ydk)
    new = validate_json(lists_home, "-f", "tcg", "--date", "2025-04-07", ydk)
    assert old["banlist"]["effective"] == "2024-12-09"
    assert old["banlist"]["date_exact"] is True
    assert old["banlist"]["source"].startswith("DawnbrandBots/yaml-yugi-limit-regulation")
    codes_old = {(f["code"], (f.get("card") or {}).get("id")) for f in old["decks"][0]["findings"]}
    codes_new = {(f["code"], (f.get("card") or {}).get("id")) for f in new["decks"][0]["findings"]}
    assert not any(c == "DC403" and i == TTT for c, i in codes_old)
    assert ("DC403", TTT) in codes_new


@pytest.mark.parametrize(
    "fmt,day",
    [("master-duel", "2026-08-10"), ("genesys", "2026-08-20"), ("duel-links", "2025-05-10")],
)
def test_recent_dates_have_a_list_in_force(lists_home: Path, tmp_path: Path, fmt, day):
    ydk = tmp_path / "d.ydk"
    ydk.write_text("#main\n" + "\n".join(["89631139"] * 3) + "\n#extra\n!side\n")
    rep = validate_json(lists_home, "-f", fmt, "--date", day, ydk)
    assert rep["banlist"] is not None and rep["banlist"]["date_exact"] is True
    assert rep["banlist"]["source"].startswith(("DawnbrandBots", "falsepopsky"))


# --------------------------------------------------------------------------- small files


def test_fault_rules_on_small_lists(tmp_path: Path):
    from deckcheck.model import Banlist

    def ol(day: int, n: int, total: int | None = None, un: int = 0) -> official.OfficialList:
        b = Banlist(
            name=str(day), family="x", effective=D(2026, 1, day), limits=dict.fromkeys(range(n), 0)
        )
        return official.OfficialList(
            b, "vector", total if total is not None else n + un, [str(i) for i in range(un)]
        )

    keep, bad = official.check_faults(
        [ol(1, 10), ol(2, 4), ol(3, 0, 0), ol(4, 3, un=7), ol(5, 9)], {}
    )
    assert [o.banlist.name for o in keep] == ["1", "5"]
    assert [r.effective.day for r in bad] == [2, 3, 4]


def test_vector_family_from_folder_or_option(tmp_path: Path):
    d = tmp_path / "elsewhere"
    d.mkdir()
    f = d / "2026-01-01.vector.json"
    f.write_text('{"date": "2026-01-01", "regulation": {"4007": 1, "99999": 0}}')
    assert official.sniff(f) == "vector"
    from deckcheck.errors import InputError

    with pytest.raises(InputError, match="--family"):
        official.read_vector(f, lambda k, kind: [89631139] if k == 4007 else [])
    got = official.read_vector(f, lambda k, kind: [89631139] if k == 4007 else [], "tcg")
    assert got.banlist.limits == {89631139: 1} and got.unmapped == ["99999"]
    assert got.banlist.source.endswith("data/elsewhere/2026-01-01.vector.json")


def test_devdb_replay_small(tmp_path: Path):
    db = tmp_path / "dev.db"
    con = sqlite3.connect(db)
    for p in ("Speed", "Rush"):
        con.execute(f"CREATE TABLE {p}Banlist (id INTEGER, date INTEGER, slug TEXT)")
        con.execute(f"CREATE TABLE {p}Card (id INTEGER, name TEXT, typeId INTEGER)")
        con.execute(
            f"CREATE TABLE {p}Restriction (id TEXT, typeId INTEGER, cardId INTEGER, "
            "banlistId INTEGER)"
        )
    con.execute("CREATE TABLE RestrictionType (id INTEGER, name TEXT)")
    con.executemany(
        "INSERT INTO RestrictionType VALUES (?, ?)",
        [
            (1, "No Longer on List"),
            (2, "Forbidden"),
            (3, "Limited 1"),
            (4, "Limited 2"),
            (5, "Limited 3"),
        ],
    )
    ms = lambda y, m, d: int(dt.datetime(y, m, d, tzinfo=dt.UTC).timestamp() * 1000)  # noqa: E731
    # ids out of date order on purpose
    con.executemany(
        "INSERT INTO SpeedBanlist VALUES (?, ?, ?)",
        [(2, ms(2024, 1, 1), "x"), (1, ms(2023, 1, 1), "y")],
    )
    con.executemany(
        "INSERT INTO SpeedCard VALUES (?, ?, ?)",
        [(1, "Alpha", 1), (2, "Ｂｅｔａ", 1), (3, "Nobody", 1)],
    )
    con.executemany(
        "INSERT INTO SpeedRestriction VALUES (?, ?, ?, ?)",
        [("a", 3, 1, 1), ("b", 2, 2, 1), ("c", 1, 1, 2), ("d", 4, 3, 2)],
    )
    con.commit()
    con.close()
    assert official.sniff(db) == "devdb"
    names = {"alpha": [1], "beta": [2]}
    lists = duellinks.read_devdb(db, lambda k, rush: names.get(k, []))
    assert [b.banlist.effective for b in lists] == [D(2023, 1, 1), D(2024, 1, 1)]
    first, second = (o.banlist for o in lists)
    assert first.limits == {2: 0} and [(g.name, g.cards) for g in first.groups] == [
        ("Limited 1", frozenset({1}))
    ]
    assert second.limits == {2: 0} and not second.groups  # Alpha left; Nobody unmapped
    assert lists[1].unmapped == ["Nobody"]


def test_banlist_conflicts_lists_where_sources_disagree(lists_home: Path):
    env = child_env(lists_home)
    out = run_deckcheck("banlist", "conflicts", "--family", "tcg", "-o", "json", env=env)
    assert out.returncode == 0, out.stderr
    got = {(c["official"]["effective"], c["other"]["name"]): c for c in json.loads(out.stdout)}
    protos = got[("2025-10-27", "2025.10 TCG")]
    assert {"id": PROTOS, "official": 1, "other": 0} in [
        {k: e[k] for k in ("id", "official", "other")} for e in protos["cards"]
    ]
    assert protos["other"]["date_exact"] is False
    # "2024.09 TCG" holds the December list upstream: it disagrees with Konami's 2024-09-02
    assert ("2024-09-02", "2024.09 TCG") in got
    text = run_deckcheck("banlist", "conflicts", "--family", "tcg", env=env).stdout
    assert "Archnemeses Protos: official Limited, other Forbidden" in text


def test_db_info_names_refused_lists(lists_home: Path):
    proc = run_deckcheck("db", "info", env=child_env(lists_home))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    line = [ln for ln in out.splitlines() if ln.startswith("refused list: genesys 2026-08-14")]
    assert line and "empty" in line[0] and "previous list stays in force" in line[0]


def test_archive_reads_every_dated_list_of_the_repository_zip(tmp_path: Path):
    import zipfile

    z = tmp_path / "master.zip"
    top = "yaml-yugi-limit-regulation-master/data"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("yaml-yugi-limit-regulation-master/README.md", "readme")
        zf.writestr(
            f"{top}/tcg/2024-09-02.vector.json",
            '{"date": "2024-09-02", "regulation": {"1": 0, "2": 1}}',
        )
        zf.writestr(
            f"{top}/tcg/2024-12-09.vector.json",  # same content, a later day: kept
            '{"date": "2024-12-09", "regulation": {"1": 0, "2": 1}}',
        )
        zf.writestr(
            f"{top}/master-duel/2024-09-02.vector.json",
            '{"date": "2024-09-02", "regulation": {"1": 1}}',
        )
        zf.writestr(f"{top}/master-duel/2024-09-02.name.json", '{"Card B": 0}')
        zf.writestr(f"{top}/ocg/1999-07-08.name.json", '{"Card B": 1, "Nobody": 0}')
        for day in ("2025-09-22", "2025-09-23", "2025-09-24"):  # daily downloads
            pts = '{"1": 10}' if day != "2025-09-24" else '{"1": 20}'
            zf.writestr(
                f"{top}/genesys/{day}.vector.json", f'{{"date": "{day}", "regulation": {pts}}}'
            )
        zf.writestr(f"{top}/genesys/2025-09-22.raw.json", '{"whatever": []}')
        zf.writestr(f"{top}/speed/2025-01-01.vector.json", '{"date": "2025-01-01"}')
    assert official.sniff(z) == "archive"
    assert official.check_archive(z, "u") == 9

    def km(kid: int, kind: str) -> list[int]:
        return [kid * 1000]

    def nm(key: str, rush: bool) -> list[int]:
        return {"card b": [2000]}.get(key, [])

    lists, said = official.read_archive(z, km, nm)
    got = {(o.banlist.family, o.banlist.effective.isoformat(), o.kind) for o in lists}
    assert got == {
        ("tcg", "2024-09-02", "vector"),
        ("tcg", "2024-12-09", "vector"),
        ("master-duel", "2024-09-02", "vector"),
        ("ocg", "1999-07-08", "name"),
        ("genesys", "2025-09-22", "vector"),
        ("genesys", "2025-09-24", "vector"),
    }
    tcg = next(o for o in lists if o.banlist.family == "tcg")
    assert tcg.banlist.limits == {1000: 0, 2000: 1}
    assert tcg.banlist.source == (
        "DawnbrandBots/yaml-yugi-limit-regulation data/tcg/2024-09-02.vector.json"
    )
    ocg = next(o for o in lists if o.banlist.family == "ocg")
    assert ocg.unmapped == ["Nobody"] and ocg.banlist.limits == {2000: 1}
    assert any("speed" in s for s in said)  # a folder of no known format: said, not dropped
    # without the yaml-yugi card data only the name lists can be read (Master Duel's
    # companion then stands in for its vector)
    lists, said = official.read_archive(z, None, nm)
    assert {(o.banlist.family, o.kind) for o in lists} == {("ocg", "name"), ("master-duel", "name")}
    assert any("6 Konami-id list(s) skipped" in s for s in said)


SNAKE_EYE_SPOILS = 89023486  # Original Sinful Spoils - Snake-Eye: Forbidden from 2024-12-09
CHUNDRA = 91810826  # Tenpai Dragon Chundra: Limited from 2024-12-09
SANGEN_KAIMEN = 66730191  # Sangen Kaimen: Limited from 2024-12-09


def test_october_2024_deck_legal_under_the_official_september_list(
    lists_home: Path, real_home_dir: Path, tmp_path: Path
):
    """Issue 15: '2024.09 TCG' (lflist) holds the December 2024 list. No staged real deck is
    from October 2024, so a deck built from real cards shows it: 3 copies each of three cards
    the official 2024-09-02 list leaves unlimited and the 2024-12-09 list restricts."""
    # Normal Monsters no list has ever restricted: Blue-Eyes, Dark Magician, Summoned Skull,
    # Gaia, Celtic Guardian, Mystical Elf, Feral Imp, Giant Soldier of Stone, Beaver Warrior,
    # Alexandrite Dragon, Luster Dragon
    vanillas = [
        89631139,
        46986414,
        70781052,
        6368038,
        91152256,
        15025844,
        41392891,
        13039848,
        32452818,
        43096270,
        11091375,
    ]
    body = ["#main"] + [
        str(c) for c in (SNAKE_EYE_SPOILS, CHUNDRA, SANGEN_KAIMEN) for _ in range(3)
    ]
    body += [str(c) for c in vanillas[:10] for _ in range(3)] + [str(vanillas[10])]
    ydk = tmp_path / "oct2024.ydk"
    ydk.write_text("\n".join(body) + "\n#extra\n!side\n")

    def restricted(rep: dict) -> set[int]:
        return {
            (f.get("card") or {}).get("id")
            for f in rep["decks"][0]["findings"]
            if f["code"].startswith("DC40")
        }

    official_rep = validate_json(lists_home, "-f", "tcg", "--date", "2024-10-15", ydk)
    assert official_rep["banlist"]["effective"] == "2024-09-02"
    assert official_rep["banlist"]["source"].endswith("data/tcg/2024-09-02.vector.json")
    assert restricted(official_rep) == set()
    assert official_rep["decks"][0]["legal"] is True
    # the lflist history alone (no official lists): "2024.09 TCG" with December's content
    lflist_rep = validate_json(real_home_dir, "-f", "tcg", "--date", "2024-10-15", ydk)
    assert lflist_rep["banlist"]["name"] == "2024.09 TCG"
    assert restricted(lflist_rep) == {SNAKE_EYE_SPOILS, CHUNDRA, SANGEN_KAIMEN}
    # on the official December day the same deck is illegal under Konami's list too
    december = validate_json(lists_home, "-f", "tcg", "--date", "2024-12-09", ydk)
    assert december["banlist"]["effective"] == "2024-12-09"
    assert restricted(december) == {SNAKE_EYE_SPOILS, CHUNDRA, SANGEN_KAIMEN}


def test_banlist_import_reads_the_repository_zip_like_its_files(
    lists_home: Path, shared_data: Path, tmp_path: Path
):
    """`banlist import master.zip` installs the same lists as the staged files one by one."""
    from click.testing import CliRunner

    from deckcheck.cli import cli
    from tests._realhome import limit_regulation_archive

    z = limit_regulation_archive(shared_data, tmp_path / "yaml-yugi-limit-regulation-master.zip")
    out = tmp_path / "lists"
    out.mkdir()
    with _env(lists_home):
        res = CliRunner().invoke(
            cli, ["banlist", "import", str(z), "--out", str(out)], catch_exceptions=False
        )
    assert res.exit_code == 0, res.output
    got = {p.relative_to(out).as_posix(): p.read_text() for p in out.glob("*/*.yaml")}
    mine = {
        p.relative_to(lists_home / "banlists").as_posix(): p.read_text()
        for p in (lists_home / "banlists").glob("*/*.yaml")
        if "yaml-yugi-limit-regulation" in p.read_text()
    }
    assert len(got) == 276 and got.keys() == mine.keys()  # 341 lists minus 65 Duel Links
    same = sum(got[k] == mine[k] for k in got)
    assert same == len(got)  # byte for byte: source, dates and entries as from the files
