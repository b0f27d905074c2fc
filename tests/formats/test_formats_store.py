"""List and format YAML: schema errors, safe loading, the store's date logic, references,
cache, and format loading (extends, cycles, unknown ids)."""

from __future__ import annotations

import datetime as dt
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck import paths
from deckcheck.datafile import load_yaml
from deckcheck.errors import DataError, DeckcheckError, InputError
from deckcheck.formats import get_format, load_formats
from deckcheck.formats.catalog import ListStore
from deckcheck.formats.listref import load_list_file, name_key
from deckcheck.lookup.records import Match, Resolution
from tests.conftest import FIXTURES, REPO

LF = FIXTURES / "lflist"


def write_list(root: Path, family: str, day: str, body: str = "", name: str | None = None) -> Path:
    p = root / family / f"{day}.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(
        f'name: "{name or day + " " + family.upper()}"\nfamily: {family}\neffective: {day}\n'
        + (body or "entries:\n  - {id: 55144522, name: Pot of Greed, limit: 0}\n"),
        encoding="utf-8",
    )
    return p


@pytest.fixture
def store(tmp_path: Path) -> ListStore:
    root = tmp_path / "lists"
    for day in ("2025-01-01", "2025-04-07", "2025-06-02"):
        write_list(root, "tcg", day)
    write_list(root, "ocg", "2025-04-01", name="2025.04 OCG")
    return ListStore([root], cache_dir=tmp_path / "cache")


# --------------------------------------------------------------------------- schema errors


@pytest.mark.parametrize(
    "body, key, reason",
    [
        ("entries:\n  - {id: 1, limit: 4}\n", "entries[0].limit", "must be 0–3"),
        ("entries:\n  - {id: 1, limit: 0}\n  - {id: 2, limit: -1}\n", "entries[1].limit", "0–3"),
        ("entries:\n  - {limit: 0}\n", "entries[0]", "exactly one of 'id'"),
        ("entries: []\ncolour: red\n", "colour", "unknown key"),
        ("mode: greylist\n", "mode", "'blacklist' or 'whitelist'"),
        ("groups:\n  - {name: g, cards: [1]}\n", "groups[0].limit", "required key missing"),
    ],
)
def test_schema_errors_name_file_key_and_reason(
    tmp_path: Path, body: str, key: str, reason: str
) -> None:
    p = write_list(tmp_path, "tcg", "2026-05-01", body)
    with pytest.raises(DataError) as err:
        load_list_file(str(p))
    assert err.value.where == str(p)
    assert f"{key}: " in err.value.message and reason in err.value.message


def test_entry_extra_keys_for_humans_are_allowed(tmp_path: Path) -> None:
    body = "entries:\n  - {id: 55144522, limit: 0, seed_name: 强欲之壶, seed_line: 3}\n"
    p = write_list(tmp_path, "tcg", "2026-05-01", body)
    assert load_list_file(str(p)).limits == {55144522: 0}


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("name: x\nentries:\n  - {id: 1, limit: 0\n  - foo\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_yaml(p)
    assert err.value.where is not None and err.value.where.startswith(f"{p}:")
    assert "malformed YAML" in err.value.message


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    p = tmp_path / "bomb.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_yaml(p)
    assert "aliases" in err.value.message and err.value.where == f"{p}:2"


def test_anchor_like_text_in_quotes_still_loads(tmp_path: Path) -> None:
    p = tmp_path / "ok.yaml"
    p.write_text('names: ["*star", "&and"]\n', encoding="utf-8")
    assert load_yaml(p) == {"names": ["*star", "&and"]}


def test_deep_nesting_and_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 200 + "]" * 200 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="nested"):
        load_yaml(deep)
    from deckcheck import datafile

    monkeypatch.setattr(datafile, "MAX_YAML_BYTES", 10)
    with pytest.raises(InputError, match="more than 10"):
        load_yaml(deep)


def test_card_names_resolve_through_the_card_database(tmp_path: Path) -> None:
    # No database installed: the built-in sample card set resolves the names.
    body = 'entries:\n  - {card: "Pot of Greed", limit: 0}\n  - {card: "Maxx \\"C\\"", limit: 1}\n'
    b = load_list_file(str(write_list(tmp_path, "tcg", "2026-05-01", body)))
    assert b.limits == {55144522: 0, 23434538: 1}
    assert b.names[55144522] == "Pot of Greed"


def test_unknown_card_name_is_a_clear_error(tmp_path: Path) -> None:
    body = 'entries:\n  - {id: 1, limit: 0}\n  - {card: "Zzyzx Qwerty Not A Card", limit: 0}\n'
    p = write_list(tmp_path, "tcg", "2026-05-01", body)
    with pytest.raises(DataError) as err:
        load_list_file(str(p))
    assert "entries[1].card" in str(err.value) and "Zzyzx Qwerty Not A Card" in str(err.value)


# --------------------------------------------------------------------------- store


def test_in_force_boundaries(store: ListStore) -> None:
    def eff(day: str) -> str | None:
        b = store.in_force("tcg", dt.date.fromisoformat(day))
        return b.effective.isoformat() if b else None

    assert eff("2024-12-31") is None
    assert eff("2025-01-01") == "2025-01-01"
    assert eff("2025-04-06") == "2025-01-01"
    assert eff("2025-04-07") == "2025-04-07"
    assert eff("2025-06-01") == "2025-04-07"
    assert eff("2030-01-01") == "2025-06-02"
    assert store.in_force("goat", dt.date(2030, 1, 1)) is None


def test_lists_get_families(store: ListStore) -> None:
    assert store.families() == ["ocg", "tcg"]
    assert [b.effective.isoformat() for b in store.lists("tcg")] == [
        "2025-01-01",
        "2025-04-07",
        "2025-06-02",
    ]
    got = store.get("tcg", dt.date(2025, 4, 7))
    assert got is not None and got.name == "2025-04-07 TCG"
    assert store.get("tcg", dt.date(2025, 4, 8)) is None


def test_resolve_family_at_date_name_and_paths(store: ListStore, tmp_path: Path) -> None:
    assert store.resolve("tcg@2025-05-01").effective == dt.date(2025, 4, 7)
    assert store.resolve("TCG@2025-06-02").effective == dt.date(2025, 6, 2)
    assert store.resolve("2025.4 ocg").name == "2025.04 OCG"  # YGOPro-style, any case
    assert store.resolve("2025.04 OCG").family == "ocg"
    assert store.resolve("tcg", dt.date(2025, 2, 1)).effective == dt.date(2025, 1, 1)
    y = store.resolve(str(store.dirs[0] / "tcg" / "2025-01-01.yaml"))
    assert y.limits == {55144522: 0}
    one = store.resolve(str(LF / "speed.lflist.conf"))
    assert one.family == "speed" and one.mode == "whitelist" and len(one.groups) == 3
    picked = store.resolve(f"{LF / 'two-lists.lflist.conf'}#2024.04 ocg")
    assert picked.name == "2024.4 OCG" and picked.limits == {55144522: 0}


@pytest.mark.parametrize(
    "ref, words",
    [
        ("tcg@2024-01-01", "oldest installed one"),
        ("goat@2024-01-01", "installed families: ocg, tcg"),
        ("tcg@01/02/2025", "not a date"),
        ("2099.01 TCG", "unknown list"),
        ("nope.yaml", "not found"),
        (str(LF / "two-lists.lflist.conf"), "holds 2 lists"),
        (f"{LF / 'two-lists.lflist.conf'}#1999 X", "no list named"),
    ],
)
def test_resolve_errors(store: ListStore, ref: str, words: str) -> None:
    with pytest.raises(DeckcheckError) as err:
        store.resolve(ref, dt.date(2026, 1, 1))
    assert words in str(err.value)


def test_name_key() -> None:
    assert name_key("2025.04  TCG") == name_key("2025.4 tcg") == "2025.4 tcg"
    assert name_key("2011.03.01") == name_key("2011.3.1")


def test_cache_is_used_and_refreshed_when_a_file_changes(store: ListStore, tmp_path: Path) -> None:
    assert store.in_force("tcg", dt.date(2025, 5, 1)) is not None
    cached = list((tmp_path / "cache").glob("lists-*.marshal"))
    assert len(cached) == 1
    p = store.dirs[0] / "tcg" / "2025-04-07.yaml"
    p.write_text(p.read_text().replace("limit: 0", "limit: 1"), encoding="utf-8")
    os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns + 10**9))
    fresh = ListStore(store.dirs, cache_dir=tmp_path / "cache")
    b = fresh.in_force("tcg", dt.date(2025, 5, 1))
    assert b is not None and b.limits == {55144522: 1}


def test_file_name_must_match_family_and_date(tmp_path: Path) -> None:
    p = write_list(tmp_path / "l", "tcg", "2025-01-01")
    p.rename(p.with_name("2025-01-02.yaml"))
    with pytest.raises(DataError, match="rename the file"):
        ListStore([tmp_path / "l"], cache_dir=tmp_path / "c").families()


def test_user_lists_join_the_builtin_ones(isolated_home: Path) -> None:
    write_list(paths.lists_dir(), "tcg", "2025-04-07")
    store = ListStore.default()
    assert "tcg" in store.families() and "dm6" in store.families()


def test_warm_store_imports_neither_yaml_nor_pydantic(isolated_home: Path) -> None:
    write_list(paths.lists_dir(), "tcg", "2025-04-07")
    code = (
        "import sys, datetime as dt\n"
        "from deckcheck.formats import ListStore, get_format\n"
        "b = ListStore.default().in_force('tcg', dt.date(2026, 1, 1))\n"
        "f = get_format('tcg')\n"
        "print(b.name, f.id, 'yaml' in sys.modules, 'pydantic' in sys.modules)\n"
    )
    env = {**os.environ, "DECKCHECK_HOME": str(isolated_home)}

    def run() -> str:
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip()

    assert run() == "2025-04-07 TCG tcg True True"  # cold: compiles the YAML
    assert run() == "2025-04-07 TCG tcg False False"  # warm: json only


# --------------------------------------------------------------------------- formats


def test_shipped_formats_load() -> None:
    formats = load_formats()
    assert {"tcg", "ocg", "speed", "goat", "genesys"} <= set(formats)
    tcg = formats["tcg"]
    assert tcg.main.min == 40 and tcg.main.max == 60 and tcg.list_family == "tcg"
    assert tcg.pool == frozenset({"tcg"})


def _fmt(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_extends_overrides_and_changes(tmp_path: Path) -> None:
    f = _fmt(
        tmp_path / "house.yaml",
        (
            "id: house\nname: House\nextends: tcg\nmain: {min: 40, max: 40}\n"
            "changes:\n  - since: 2026-01-01\n    set: {copies: 1, banned_types: [link]}\n"
        ),
    )
    house = get_format("house", extra_files=[f])
    assert house.main.max == 40 and house.list_family == "tcg" and house.extra.max == 15
    assert house.at(dt.date(2025, 12, 31)).copies == 3
    later = house.at(dt.date(2026, 1, 1))
    assert later.copies == 1 and later.banned_types == frozenset({"link"})


def test_user_format_folder(isolated_home: Path) -> None:
    paths.formats_dir().mkdir(parents=True)
    _fmt(paths.formats_dir() / "mine.yaml", "id: mine\nname: Mine\nextends: ocg\ncopies: 2\n")
    assert get_format("mine").copies == 2


def test_extends_cycle_and_unknown_parent(tmp_path: Path) -> None:
    a = _fmt(tmp_path / "a.yaml", "id: ca\nname: A\nextends: cb\n")
    b = _fmt(tmp_path / "b.yaml", "id: cb\nname: B\nextends: ca\n")
    with pytest.raises(DataError, match="cycle"):
        load_formats([a, b])
    c = _fmt(tmp_path / "c.yaml", "id: cc\nname: C\nextends: nowhere\n")
    with pytest.raises(DataError, match="unknown format 'nowhere'"):
        load_formats([c])


def test_format_schema_errors(tmp_path: Path) -> None:
    f = _fmt(tmp_path / "bad.yaml", "id: bad\nname: Bad\nmain: {min: 40, max: 30}\nsize: 3\n")
    with pytest.raises(DataError) as err:
        load_formats([f])
    assert err.value.where == str(f.resolve())
    assert "main: max is smaller than min" in err.value.message
    assert "size: unknown key" in err.value.message


def test_unknown_format_lists_known_ids() -> None:
    with pytest.raises(DataError) as err:
        get_format("nonesuch")
    assert "known formats:" in str(err.value) and "tcg" in str(err.value)


def test_format_cache_round_trip(isolated_home: Path) -> None:
    first = load_formats()
    assert list(paths.cache_dir().glob("formats-*.marshal"))
    assert load_formats() == first
    assert marshal.loads(next(paths.cache_dir().glob("formats-*.marshal")).read_bytes())["key"]


# --------------------------------------------------------------------------- fast reader

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=5),
    limits=st.lists(st.integers(0, 3), min_size=5, max_size=5),
    whitelist=st.booleans(),
)
def test_fast_reader_reads_importer_output_exactly_like_yaml(
    tmp_path_factory: pytest.TempPathFactory, names: list[str], limits: list[int], whitelist: bool
) -> None:
    from deckcheck.formats.listfile import fast_list_doc as _fast_list_doc
    from deckcheck.formats.listfile import to_yaml
    from deckcheck.model import Banlist, Group

    b = Banlist(
        name=names[0],
        family="tcg",
        effective=dt.date(2026, 5, 1),
        mode="whitelist" if whitelist else "blacklist",
        limits={i + 1: lim for i, (_, lim) in enumerate(zip(names, limits, strict=False))},
        names={i + 1: n for i, n in enumerate(names)},
        groups=(Group(names[-1], 2, frozenset({1, 2})),),
        points={3: 7},
        source=names[-1],
        date_exact=False,
    )
    text = to_yaml(b, notes=names)
    p = tmp_path_factory.mktemp("fast") / "l.yaml"
    p.write_text(text, encoding="utf-8")
    fast = _fast_list_doc(text)
    assert fast is not None
    assert fast == load_yaml(p)


def test_fast_reader_falls_back_on_anything_else() -> None:
    from deckcheck.formats.listfile import fast_list_doc as _fast_list_doc

    assert _fast_list_doc("name: x\nentries:\n  - {id: 1, limit: 0, seed_name: y}\n") is None
    assert _fast_list_doc("name: plain\n") is None  # unquoted strings are YAML's business
    assert _fast_list_doc("entries: []\nentries: []\n") is None


def test_same_card_twice_with_different_limits_is_an_error(tmp_path: Path) -> None:
    body = "entries:\n  - {id: 55144522, limit: 0}\n  - {id: 55144522, limit: 2}\n"
    with pytest.raises(DataError, match=r"entries\[1\]: card 55144522 is listed twice"):
        load_list_file(str(write_list(tmp_path, "tcg", "2026-05-01", body)))


@pytest.mark.realdata
def test_alternate_artworks_collapse_to_the_stricter_limit(real_home: Path, tmp_path: Path) -> None:
    from deckcheck.carddb import open_db

    db = open_db()
    alt = db.alternates(4280258)  # Apollousa, Bow of the Goddess has an alternate artwork
    assert alt
    body = f"entries:\n  - {{id: 4280258, limit: 2}}\n  - {{id: {alt[0]}, limit: 1}}\n"
    b = load_list_file(str(write_list(tmp_path, "tcg", "2026-05-01", body)))
    assert b.limits == {4280258: 1}


def test_a_later_folder_wins_on_the_same_family_and_date(tmp_path: Path) -> None:
    write_list(tmp_path / "builtin", "tcg", "2025-01-01")
    write_list(
        tmp_path / "user",
        "tcg",
        "2025-01-01",
        "entries:\n  - {id: 55144522, limit: 2}\n",
        name="Mine",
    )
    store = ListStore([tmp_path / "builtin", tmp_path / "user"], cache_dir=tmp_path / "c")
    (only,) = store.lists("tcg")
    assert only.name == "Mine" and only.limits == {55144522: 2}


# --------------------------------------------------------------------------- card resolver


class StubCards:
    """A ``formats.compile.CardResolver`` over two made-up cards; 9002 is an artwork of 9001."""

    used_db = True

    def __init__(self) -> None:
        self.asked: list[str] = []

    def list_key(self, card: int) -> int:
        return 9001 if card == 9002 else card

    def resolve(self, name: str) -> Resolution:
        self.asked.append(name)
        if name == "Stub Card":
            return Resolution("found", name, 9002, ())
        cands = (Match(9001, "Stub Card", "Stub Card", "en", 70.0, "fuzzy"),)
        return Resolution("unknown", name, None, cands)

    def name(self, card: int) -> str:
        return {9001: "Stub Card", 9002: "Stub Card"}[card]


def _no_database(monkeypatch: pytest.MonkeyPatch) -> None:
    import deckcheck.carddb
    import deckcheck.lookup

    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("the compiler opened the card database or the lookup index")

    monkeypatch.setattr(deckcheck.carddb, "open_db", refuse)
    monkeypatch.setattr(deckcheck.lookup.Index, "for_db", classmethod(refuse))


def test_compile_keys_cards_through_the_given_resolver_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.formats.compile import list_dict

    _no_database(monkeypatch)
    body = (
        "entries:\n  - {card: Stub Card, limit: 1}\n  - {id: 9002, limit: 0}\n"
        "groups:\n  - {name: g, limit: 1, cards: [Stub Card, 9002, 7]}\n"
    )
    cards = StubCards()
    d = list_dict(write_list(tmp_path, "tcg", "2026-05-01", body), cards)
    # Both spellings of the card land on its list key; the stricter limit wins.
    assert d["limits"] == {"9001": 0} and d["names"] == {"9001": "Stub Card"}
    assert d["groups"] == [{"name": "g", "limit": 1, "cards": [7, 9001]}]
    assert cards.asked == ["Stub Card", "Stub Card"] and d["used_db"] is True


def test_compile_reports_an_unknown_name_with_the_resolvers_suggestions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.formats.compile import list_dict

    _no_database(monkeypatch)
    p = write_list(tmp_path, "tcg", "2026-05-01", "entries:\n  - {card: Stub Crad, limit: 0}\n")
    with pytest.raises(DataError) as err:
        list_dict(p, StubCards())
    assert "entries[0].card" in str(err.value)
    assert "did you mean: Stub Card (9001)" in str(err.value)


def test_store_compiles_with_the_callers_resolvers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_database(monkeypatch)
    write_list(tmp_path / "l", "tcg", "2026-05-01", "entries:\n  - {card: Stub Card, limit: 2}\n")
    made: list[StubCards] = []

    def resolvers() -> StubCards:
        made.append(StubCards())
        return made[-1]

    store = ListStore([tmp_path / "l"], cache_dir=tmp_path / "c", resolvers=resolvers)
    b = store.in_force("tcg", dt.date(2026, 6, 1))
    assert b is not None and b.limits == {9001: 2}
    assert len(made) == 1  # one resolver per list file compiled
    # Warm: from the cache, no resolver needed.
    warm = ListStore([tmp_path / "l"], cache_dir=tmp_path / "c", resolvers=resolvers)
    assert warm.in_force("tcg", dt.date(2026, 6, 1)) == b and len(made) == 1


@pytest.mark.realdata
def test_default_resolvers_key_artworks_by_their_card(real_home: Path) -> None:
    from deckcheck.carddb import open_db
    from deckcheck.cardnames import installed_resolvers

    alt = open_db().alternates(4280258)[0]  # Apollousa, Bow of the Goddess: another artwork
    cards = installed_resolvers()()
    assert cards.list_key(alt) == 4280258 and cards.list_key(4280258) == 4280258
