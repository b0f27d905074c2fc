"""The lookup index on a tiny hand-made card source: ranking, decisions, alternates, cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.lookup import Index
from deckcheck.lookup import index as index_mod
from deckcheck.model import Card, Scope

FIXTURES = Path(__file__).parent.parent / "fixtures" / "lookup"
NICKS = FIXTURES / "nicknames.yaml"
OFFICIAL = Scope.OCG | Scope.TCG

# id: (canonical, alias_kind, scopes, {lang: name})
CARDS: dict[int, tuple[int, str, Scope, dict[str, str]]] = {
    101: (101, "none", OFFICIAL, {"en": "Pot of Greed", "zh-CN": "强欲之壶", "ja": "強欲な壺"}),
    102: (102, "none", OFFICIAL, {"en": "Pot of Duality", "zh-CN": "强欲而谦虚之壶"}),
    201: (201, "none", OFFICIAL, {"en": "Dark Magician", "de": "Dunkler Magier"}),
    202: (202, "none", OFFICIAL, {"en": "Dark Magician Girl"}),
    203: (201, "artwork", OFFICIAL, {"en": "Dark Magician"}),  # alternate artwork of 201
    301: (301, "none", OFFICIAL, {"en": "Twin Twisters"}),
    302: (302, "none", OFFICIAL, {"en": "Twin Twister"}),
    401: (401, "none", OFFICIAL, {"en": "Crossout Designator", "ko": "크로스아웃 디자네이터"}),
    501: (501, "none", OFFICIAL, {"en": "Same Name"}),
    502: (502, "none", Scope.OCG | Scope.PRERELEASE, {"en": "Same Name"}),  # prerelease copy
    601: (601, "none", OFFICIAL, {"en": "Mirror Twin"}),
    602: (602, "none", Scope.ANIME, {"en": "Mirror Twin"}),  # two non-official rivals
    603: (603, "none", Scope.ANIME, {"en": "Mirror Twin"}),
}


class FakeDB:
    """The two methods and one attribute the index reads from ``carddb.CardDB``."""

    def __init__(self, fingerprint: str = "fp-1", extra: dict[int, str] | None = None):
        self.fingerprint = fingerprint
        self.extra = extra or {}
        self.get_calls = 0

    def iter_names(self) -> Iterator[tuple[int, str, str, str]]:
        for cid, (_c, _k, _s, names) in CARDS.items():
            for lang, name in names.items():
                yield cid, lang, name, "name"
        yield 101, "ja", "ごうよくなつぼ", "reading"
        for cid, name in self.extra.items():
            yield cid, "en", name, "name"

    def get(self, card_id: int) -> Card | None:
        self.get_calls += 1
        if card_id in self.extra:
            return Card(card_id, self.extra[card_id], card_id, "none", 0x1, OFFICIAL)
        got = CARDS.get(card_id)
        if got is None:
            return None
        canon, kind, scopes, names = got
        en = CARDS[canon][3]["en"]
        return Card(card_id, en if kind == "artwork" else names["en"], canon, kind, 0x2, scopes)  # type: ignore[arg-type]

    def name_key(self, card_id: int) -> int:
        """The rule ``carddb._common.compute_keys`` stores, over this fake's cards."""
        card, main = self.get(card_id), None
        if card is None or card.canonical == card_id:
            return card_id
        main = self.get(card.canonical)
        if card.alias_kind == "artwork" or (main is not None and main.name == card.name):
            return card.canonical
        return card_id


@pytest.fixture
def ix() -> Index:
    return Index.build(FakeDB(), nick_path=FIXTURES / "nicknames.yaml")


def test_passcode_finds_the_card_and_alternates_report_the_main_card(ix: Index) -> None:
    assert ix.resolve("101").card_id == 101
    r = ix.resolve("203")
    assert (r.status, r.card_id, r.candidates[0].how) == ("found", 201, "id")
    assert ix.resolve("999").status == "unknown"
    assert ix.resolve("１０１").card_id == 101  # full-width digits


def test_exact_name_in_any_language_and_script(ix: Index) -> None:
    for q in ("pot of greed", "強欲之壺", "强欲之壶", "強欲な壺", "ごうよくなつぼ"):
        r = ix.resolve(q)
        assert (r.status, r.card_id) == ("found", 101), q
    r = ix.resolve("Dunkler Magier")
    assert r.card_id == 201
    assert r.candidates[0].lang == "de"
    assert ix.resolve("ごうよくなつぼ").candidates[0].lang == "ja_reading"


def test_artwork_alternates_collapse_to_one_match(ix: Index) -> None:
    ids = [m.card_id for m in ix.search("Dark Magician")]
    assert ids.count(201) == 1 and 203 not in ids
    assert ix.resolve("Dark Magician").card_id == 201


def test_display_name_follows_lang_then_english(ix: Index) -> None:
    m = ix.search("强欲之壶", lang="ja")[0]
    assert (m.name, m.matched) == ("強欲な壺", "强欲之壶")
    assert ix.search("强欲之壶", lang="ko")[0].name == "Pot of Greed"


def test_nickname_resolves_below_exact_names(ix: Index) -> None:
    r = ix.resolve("POG")
    assert (r.status, r.card_id, r.candidates[0].how) == ("found", 101, "nickname")
    assert ix.resolve("alt dragon").card_id == 202


def test_prefix_never_decides_shared_prefix_is_ambiguous(ix: Index) -> None:
    # A unique prefix is a suggestion, never a decision ("Raye" is not "Rayel").
    r = ix.resolve("Crossout")
    assert (r.status, r.card_id, r.candidates[0].card_id, r.candidates[0].how) == (
        "unknown",
        None,
        401,
        "prefix",
    )
    r = ix.resolve("Pot of")
    assert r.status == "ambiguous" and r.card_id is None
    assert {101, 102} <= {m.card_id for m in r.candidates}


def test_typo_decides_when_clearly_ahead(ix: Index) -> None:
    r = ix.resolve("Crossout Desigantor")
    assert (r.status, r.card_id, r.candidates[0].how) == ("found", 401, "fuzzy")
    assert ix.resolve("크로스아웃 디자네이타").card_id == 401


def test_close_fuzzy_scores_are_ambiguous_not_a_guess(ix: Index) -> None:
    # "Twin Twistr" is one edit from both "Twin Twister" and two from "Twin Twisters".
    r = ix.resolve("Twin Twistr")
    assert r.status == "ambiguous" and r.card_id is None
    assert {301, 302} <= {m.card_id for m in r.candidates}


def test_same_named_copies_prefer_the_one_official_card(ix: Index) -> None:
    r = ix.resolve("Same Name")
    assert (r.status, r.card_id) == ("found", 501)
    assert {m.card_id for m in r.candidates} == {501, 502}


def test_exact_name_of_several_cards_without_one_official_rule_is_ambiguous() -> None:
    db = FakeDB(extra={701: "Same Twin", 702: "Same Twin"})
    r = Index.build(db).resolve("same twin")
    assert r.status == "ambiguous"
    assert {m.card_id for m in r.candidates} == {701, 702}


def test_unknown_gives_suggestions(ix: Index) -> None:
    r = ix.resolve("Dark Magic Cylinder Warrior")
    assert r.status == "unknown" and r.card_id is None
    assert ix.resolve("zzqqxxww").candidates == ()
    assert ix.resolve("").status == "unknown"


def test_search_ranks_exact_before_prefix_before_fuzzy(ix: Index) -> None:
    got = ix.search("Dark Magician", limit=5)
    assert [(m.card_id, m.how) for m in got[:2]] == [(201, "exact"), (202, "prefix")]
    assert all(0 <= m.score <= 100 for m in got)
    assert len(ix.search("a", limit=1)) <= 1


def test_cache_is_reused_then_rebuilt_when_the_fingerprint_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Index._memo.clear()
    first = Index.for_db(FakeDB("fp-1"), cache_dir=tmp_path, nick_path=NICKS)
    files = list(tmp_path.glob("lookup-*.pickle"))
    assert len(files) == 1 and first.resolve("pog").card_id == 101

    # Same fingerprint in a fresh process: loaded from disk, never rebuilt.
    Index._memo.clear()

    def no_build(*a: object, **k: object) -> Index:
        raise AssertionError("index rebuilt although the cache was valid")

    monkeypatch.setattr(Index, "build", classmethod(no_build))
    again = Index.for_db(FakeDB("fp-1"), cache_dir=tmp_path, nick_path=NICKS)
    assert again.resolve("Crossout Designator").card_id == 401
    monkeypatch.undo()

    # New database: new index (with the new card), the stale file is gone.
    Index._memo.clear()
    new_db = FakeDB("fp-2", extra={801: "Brand New Card"})
    changed = Index.for_db(new_db, cache_dir=tmp_path, nick_path=NICKS)
    assert changed.resolve("brand new card").card_id == 801
    now = list(tmp_path.glob("lookup-*.pickle"))
    assert len(now) == 1 and now != files
    Index._memo.clear()


def test_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    Index._memo.clear()
    Index.for_db(FakeDB("fp-x"), cache_dir=tmp_path, nick_path=NICKS)
    (path,) = tmp_path.glob("lookup-*.pickle")
    path.write_bytes(b"not a pickle")
    Index._memo.clear()
    rebuilt = Index.for_db(FakeDB("fp-x"), cache_dir=tmp_path, nick_path=NICKS)
    assert rebuilt.resolve("pog").card_id == 101
    Index._memo.clear()


def test_unwritable_cache_still_works(tmp_path: Path) -> None:
    from deckcheck import notes

    Index._memo.clear()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    said: list[str] = []
    old = notes.set_sink(said.append)  # its own sink: the note does not depend on other tests
    try:
        ix = Index.for_db(FakeDB("fp-y"), cache_dir=blocker / "cache", nick_path=NICKS)
    finally:
        notes.set_sink(old)
    assert ix.resolve("pog").card_id == 101
    assert any("not cached" in line for line in said)
    Index._memo.clear()


def test_nicknames_of_cards_missing_from_the_database_are_skipped(tmp_path: Path) -> None:
    nicks = tmp_path / "nick.yaml"
    nicks.write_text("- {nick: ghost, id: 999, name: Nothing}\n- {nick: potty, id: 101}\n")
    ix = Index.build(FakeDB(), nick_path=nicks)
    assert ix.resolve("ghost").status == "unknown"
    assert ix.resolve("potty").card_id == 101


def test_bad_nicknames_file_is_a_data_error(tmp_path: Path) -> None:
    from deckcheck.errors import DataError

    bad = tmp_path / "nick.yaml"
    bad.write_text("- {nick: x}\n", encoding="utf-8")
    with pytest.raises(DataError, match="entry 1"):
        index_mod.load_nicknames(bad)


def test_one_official_card_beats_anime_versions_of_the_name(ix: Index) -> None:
    r = ix.resolve("Mirror Twin")
    assert (r.status, r.card_id) == ("found", 601)
    assert {m.card_id for m in r.candidates} == {601, 602, 603}


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_text_gets_a_verdict(text: str) -> None:
    ix = _IX
    r = ix.resolve(text)
    assert r.status in ("found", "ambiguous", "unknown")
    assert (r.card_id is not None) == (r.status == "found")
    assert len(ix.search(text, limit=3)) <= 3


_IX = Index.build(FakeDB(), nick_path=NICKS)


def test_nicknames_file_goes_through_the_hardened_yaml_loader(tmp_path: Path) -> None:
    from deckcheck.errors import DataError

    bomb = tmp_path / "nick.yaml"
    bomb.write_text("- &a {nick: x, id: 101}\n- *a\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"cannot read nicknames: YAML aliases .* not allowed"):
        index_mod.load_nicknames(bomb)
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 50 + "]" * 50 + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="nested deeper"):
        index_mod.load_nicknames(deep)
