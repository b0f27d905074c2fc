"""diff_lists, card_history and timeline on hand-made lists (no data files needed)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from deckcheck.listdiff import (
    KIND_ORDER,
    appears_in,
    card_history,
    classify,
    diff_lists,
    status_in,
    status_name,
    timeline,
)
from deckcheck.model import Banlist, Group

POT, MAXX, ASH = 55144522, 23434538, 14558127
DARK_HOLE, RAIGEKI, MONSTER_REBORN = 53129443, 12580477, 83764718


def bl(name: str, date: str, limits: dict[int, int], **kw: object) -> Banlist:
    return Banlist(
        name=name,
        family=str(kw.pop("family", "tcg")),
        effective=dt.date.fromisoformat(date),
        limits=limits,
        **kw,  # type: ignore[arg-type]
    )


def test_status_of_unlisted_card_depends_on_mode() -> None:
    black = bl("b", "2025-01-01", {POT: 0})
    white = bl("w", "2025-01-01", {POT: 3}, mode="whitelist")
    assert status_in(black, MAXX) == 3
    assert status_in(white, MAXX) is None
    assert status_in(white, POT) == 3
    assert status_name(None) == "Not in pool"
    assert [status_name(i) for i in range(4)] == [
        "Forbidden",
        "Limited",
        "Semi-Limited",
        "Unlimited",
    ]


def test_classify_every_transition() -> None:
    assert classify(3, 0) == "forbidden"
    assert classify(3, 1) == "limited"
    assert classify(3, 2) == "semi_limited"
    assert classify(1, 2) == "moved"
    assert classify(0, 1) == "moved"
    assert classify(2, 0) == "moved"
    assert classify(1, 3) == "unlimited"
    assert classify(0, 3) == "unlimited"
    assert classify(None, 3) == "added"
    assert classify(2, None) == "removed"
    assert classify(2, 2) is None
    assert classify(None, None) is None


def test_blacklist_diff_groups_changes_like_an_announcement() -> None:
    old = bl(
        "2025.01 TCG",
        "2025-01-01",
        {POT: 0, MAXX: 1, ASH: 2, DARK_HOLE: 1},
        names={POT: "Pot of Greed", MAXX: 'Maxx "C"', ASH: "Ash Blossom", DARK_HOLE: "Dark Hole"},
    )
    new = bl(
        "2025.04 TCG",
        "2025-04-01",
        # Ash: 2 -> 1 (moved); Maxx: 1 -> 0 (moved); Dark Hole leaves; Raigeki newly Limited;
        # Monster Reborn newly Forbidden; Pot stays Forbidden; explicit 3 means Unlimited.
        {POT: 0, MAXX: 0, ASH: 1, RAIGEKI: 1, MONSTER_REBORN: 0, 99999999: 3},
        names={RAIGEKI: "Raigeki", MONSTER_REBORN: "Monster Reborn"},
    )
    d = diff_lists(old, new)
    got = {c.card_id: (c.kind, c.old, c.new) for c in d.changes}
    assert got == {
        MONSTER_REBORN: ("forbidden", 3, 0),
        RAIGEKI: ("limited", 3, 1),
        MAXX: ("moved", 1, 0),
        ASH: ("moved", 2, 1),
        DARK_HOLE: ("unlimited", 1, 3),
    }
    # Announcement order: newly Forbidden, newly Limited, …, moved, no longer on the list.
    order = [KIND_ORDER.index(c.kind) for c in d.changes]
    assert order == sorted(order)
    assert d.change_of(ASH) is not None and d.change_of(ASH).label == "Semi-Limited → Limited"
    assert d.change_of(POT) is None
    # Moves are keyed by (old, new) and ordered by the new status.
    assert list(d.moves()) == [(1, 0), (2, 1)]
    # Names come from the new list first, then the old one.
    assert d.change_of(DARK_HOLE).name == "Dark Hole"  # type: ignore[union-attr]
    assert d.change_of(RAIGEKI).name == "Raigeki"  # type: ignore[union-attr]
    counts = d.counts()
    assert counts["forbidden"] == 1 and counts["moved"] == 2 and counts["unlimited"] == 1
    assert not d.empty


def test_identical_lists_have_no_diff() -> None:
    a = bl("a", "2025-01-01", {POT: 0, MAXX: 1})
    b = bl("b", "2025-04-01", {POT: 0, MAXX: 1, ASH: 3})
    assert diff_lists(a, b).empty
    assert diff_lists(b, a).empty


def test_diff_is_symmetric_in_reverse() -> None:
    a = bl("a", "2025-01-01", {POT: 0, MAXX: 1, ASH: 2})
    b = bl("b", "2025-04-01", {POT: 1, RAIGEKI: 0})
    forward = {c.card_id: (c.old, c.new) for c in diff_lists(a, b).changes}
    backward = {c.card_id: (c.new, c.old) for c in diff_lists(b, a).changes}
    assert forward == backward


def test_whitelist_pool_additions_removals_and_limits() -> None:
    old = bl("2023.03 Speed", "2023-03-01", {POT: 3, MAXX: 3, ASH: 1}, mode="whitelist")
    new = bl(
        "2023.09 Speed", "2023-09-01", {MAXX: 1, ASH: 3, RAIGEKI: 3, DARK_HOLE: 2}, mode="whitelist"
    )
    d = diff_lists(old, new)
    got = {c.card_id: (c.kind, c.old, c.new) for c in d.changes}
    assert got == {
        POT: ("removed", 3, None),
        RAIGEKI: ("added", None, 3),
        DARK_HOLE: ("added", None, 2),
        MAXX: ("limited", 3, 1),
        ASH: ("unlimited", 1, 3),
    }


def test_points_changes() -> None:
    old = bl("2026.03 Genesys", "2026-03-01", {}, points={ASH: 10, MAXX: 20, POT: 5})
    new = bl("2026.06 Genesys", "2026-06-08", {}, points={ASH: 15, MAXX: 20, RAIGEKI: 1})
    d = diff_lists(old, new)
    got = {p.card_id: (p.kind, p.old, p.new) for p in d.points}
    assert got == {ASH: ("changed", 10, 15), RAIGEKI: ("added", None, 1), POT: ("removed", 5, None)}
    assert d.changes == ()


def test_group_membership_changes() -> None:
    old = bl(
        "old",
        "2025-01-01",
        {},
        groups=(
            Group("Limited 1", 1, frozenset({POT, MAXX})),
            Group("Limited 2", 2, frozenset({ASH})),
            Group("Limited 3", 3, frozenset({DARK_HOLE})),
        ),
    )
    new = bl(
        "new",
        "2025-04-01",
        {},
        groups=(
            Group("Limited 1", 1, frozenset({POT, RAIGEKI})),
            Group("Limited 2", 1, frozenset({ASH})),
            Group("Limited 3", 3, frozenset({DARK_HOLE})),
            Group("Limited X", 1, frozenset({MONSTER_REBORN})),
        ),
    )
    d = diff_lists(old, new)
    by_name = {g.name: g for g in d.groups}
    assert set(by_name) == {"Limited 1", "Limited 2", "Limited X"}
    g1 = by_name["Limited 1"]
    assert (g1.kind, g1.cards_added, g1.cards_removed) == ("changed", (RAIGEKI,), (MAXX,))
    g2 = by_name["Limited 2"]
    assert (g2.kind, g2.old_limit, g2.new_limit) == ("changed", 2, 1)
    gx = by_name["Limited X"]
    assert (gx.kind, gx.new_limit, gx.cards_added) == ("added", 1, (MONSTER_REBORN,))
    removed = diff_lists(new, old)
    assert {g.name: g.kind for g in removed.groups}["Limited X"] == "removed"


def test_history_and_timeline_keep_changes_first_and_last() -> None:
    lists = [
        bl("2024.01", "2024-01-01", {}),
        bl("2024.04", "2024-04-01", {}),
        bl("2024.10", "2024-10-01", {MAXX: 2}),
        bl("2025.01", "2025-01-01", {MAXX: 2}),
        bl("2026.01", "2026-01-01", {MAXX: 1}),
        bl("2026.04", "2026-04-01", {MAXX: 1}),
        bl("2026.07", "2026-07-01", {MAXX: 1}),
    ]
    # Given out of order: history sorts by effective date.
    full = card_history(list(reversed(lists)), MAXX)
    assert [e.list_name for e in full] == [b.name for b in lists]
    assert [e.limit for e in full] == [3, 3, 2, 2, 1, 1, 1]
    tl = timeline(full)
    assert [(e.list_name, e.status) for e in tl] == [
        ("2024.01", "Unlimited"),
        ("2024.10", "Semi-Limited"),
        ("2026.01", "Limited"),
        ("2026.07", "Limited"),
    ]
    assert tl[0].first and not tl[0].last and tl[-1].last
    assert tl[1].previous is tl[0] and tl[2].previous is tl[1]
    assert appears_in(lists, [MAXX])
    assert not appears_in(lists, [POT])


def test_history_follows_an_alternate_artwork_key() -> None:
    alt = MAXX + 1
    lists = [bl("a", "2025-01-01", {alt: 1}), bl("b", "2025-04-01", {MAXX: 0})]
    assert [e.limit for e in card_history(lists, MAXX, also=[alt])] == [1, 0]
    assert [e.limit for e in card_history(lists, MAXX)] == [3, 0]


def test_history_in_whitelists_and_points_lists() -> None:
    speed = [
        bl("s1", "2023-01-01", {POT: 3}, mode="whitelist"),
        bl("s2", "2023-06-01", {POT: 3, MAXX: 3}, mode="whitelist"),
        bl("s3", "2024-01-01", {POT: 3, MAXX: 1}, mode="whitelist"),
    ]
    tl = timeline(card_history(speed, MAXX))
    assert [e.status for e in tl] == ["Not in pool", "Unlimited", "Limited"]

    genesys = [
        bl("g1", "2026-03-01", {}, points={ASH: 10}),
        bl("g2", "2026-06-08", {}, points={ASH: 15}),
        bl("g3", "2026-08-01", {ASH: 0}, points={}),
    ]
    tl = timeline(card_history(genesys, ASH))
    assert [e.status for e in tl] == ["10 points", "15 points", "Forbidden"]
    one = card_history([bl("g", "2026-01-01", {ASH: 1}, points={ASH: 1})], ASH)
    assert one[0].status == "Limited, 1 point"


def test_single_list_timeline_is_first_and_last() -> None:
    tl = timeline(card_history([bl("only", "2025-01-01", {POT: 0})], POT))
    assert len(tl) == 1 and tl[0].first and tl[0].last and tl[0].status == "Forbidden"


# --------------------------------------------------------------------------- properties

_limits = st.dictionaries(st.integers(1, 40), st.integers(0, 3), max_size=30)
_mode = st.sampled_from(["blacklist", "whitelist"])


@given(_limits, _limits, _mode, _mode)
def test_applying_a_diff_to_the_old_list_gives_the_new_statuses(
    a: dict[int, int], b: dict[int, int], mode_a: str, mode_b: str
) -> None:
    old = bl("old", "2025-01-01", a, mode=mode_a)
    new = bl("new", "2025-04-01", b, mode=mode_b)
    d = diff_lists(old, new)
    # Between a blacklist and a whitelist, every card named by neither list changes too
    # (Unlimited <-> not in pool); the diff reports the named ones and flags the mode change.
    assert d.mode_changed == (mode_a != mode_b)
    ids = range(1, 41) if not d.mode_changed else sorted(a.keys() | b.keys())
    for cid in ids:
        change = d.change_of(cid)
        if change is None:
            assert status_in(old, cid) == status_in(new, cid)
        else:
            assert (change.old, change.new) == (status_in(old, cid), status_in(new, cid))
            assert change.kind == classify(change.old, change.new)
    # Every change is reported once, and reversing the lists reverses every change.
    assert len({c.card_id for c in d.changes}) == len(d.changes)
    back = {c.card_id: (c.new, c.old) for c in diff_lists(new, old).changes}
    assert back == {c.card_id: (c.old, c.new) for c in d.changes}
