"""`banlist diff` / `banlist history` on the real ProjectIgnis list history (../shared/data).

Expectations are computed here from the lflist.conf files with a tiny parser of the test's
own, not from deckcheck's importer.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from deckcheck.commands.banlist_diff import diff, history
from tests._realhome import build_full_home, ygopro_lists
from tests.conftest import GoldenCheck

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "listdiff"
GOLDEN = FIXTURES / "golden"
STATUS = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}

SPLASH_MAGE, RAZEN, LINKURIBOH = 59859086, 29302858, 41999284
MAXX_C, POT_OF_GREED = 23434538, 55144522

pytestmark = pytest.mark.realdata


def run(cmd: click.Command, args: list[str]) -> tuple[int, str, str]:
    r = CliRunner().invoke(cmd, args, standalone_mode=False, catch_exceptions=False)
    return r.return_value, r.stdout, r.stderr


# --------------------------------------------------------------------------- own parser


def parse_conf(path: Path) -> dict[int, int]:
    """passcode -> count of a one-list lflist.conf file (comments and directives skipped)."""
    out: dict[int, int] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*(\d+)\s+(-?\d+)", raw)
        if m and int(m.group(1)):
            out[int(m.group(1))] = int(m.group(2))
    return out


def list_date(name: str) -> tuple[int, ...]:
    """(year, month, day) of a header like "2023.1 OCG" or "2020.06.15 TCG"."""
    name = name.removesuffix(".lflist.conf")
    return tuple(int(x) for x in name.split()[0].split("."))


def canonical_limits(limits: dict[int, int], db: Any) -> dict[int, int]:
    # Alternate artworks share their main card's status; keep the strictest when both appear.
    # A "treated as" card (GOAT entry, Rush reprint) stays under its own passcode.
    out: dict[int, int] = {}
    for cid, n in limits.items():
        card = db.get(cid)
        c = card.canonical if card is not None and card.alias_kind == "artwork" else cid
        out[c] = min(n, out.get(c, n))
    return out


def kind_files(shared_data: Path, kind: str) -> list[Path]:
    folder = shared_data / "banlists" / "projectignis-lflists" / kind
    return sorted(folder.glob("*.lflist.conf"), key=lambda p: list_date(p.name))


@pytest.fixture
def db(real_home: Path) -> Any:
    from deckcheck.carddb import open_db

    return open_db()


# --------------------------------------------------------------------------- diff


def test_consecutive_tcg_diffs_match_the_files(shared_data: Path, db: Any) -> None:
    from deckcheck.formats.catalog import ListStore
    from deckcheck.listdiff import diff_lists

    store = ListStore.default()
    by_name = {b.name: b for b in store.lists("tcg")}
    files = [p for p in kind_files(shared_data, "TCG") if p.name[: -len(".lflist.conf")] in by_name]
    assert len(files) >= 20
    checked = 0
    for a, b in itertools.pairwise(files):
        old_name, new_name = a.name[: -len(".lflist.conf")], b.name[: -len(".lflist.conf")]
        old_f, new_f = canonical_limits(parse_conf(a), db), canonical_limits(parse_conf(b), db)
        expected = {
            cid: (old_f.get(cid, 3), new_f.get(cid, 3))
            for cid in old_f.keys() | new_f.keys()
            if old_f.get(cid, 3) != new_f.get(cid, 3)
        }
        got = diff_lists(by_name[old_name], by_name[new_name])
        assert {c.card_id: (c.old, c.new) for c in got.changes} == expected, (old_name, new_name)
        checked += 1
    assert checked == len(files) - 1


def test_diff_cli_json_2025_04_to_2025_09(real_home: Path, shared_data: Path, db: Any) -> None:
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "-o", "json"])
    assert code == 0
    data = json.loads(out)
    assert data["old"]["name"] == "2025.04 TCG" and data["new"]["name"] == "2025.09 TCG"
    got = {c["card"]["id"]: c for c in data["changes"]}
    # Spot checks against the files: Splash Mage newly Forbidden, Linkuriboh Forbidden ->
    # Limited, Vanquish Soul Razen newly Limited.
    assert got[SPLASH_MAGE]["kind"] == "forbidden"
    assert got[SPLASH_MAGE]["card"]["name"] == "Splash Mage"
    assert (got[LINKURIBOH]["kind"], got[LINKURIBOH]["old"]["limit"]) == ("moved", 0)
    assert got[LINKURIBOH]["new"]["status"] == "Limited"
    assert got[RAZEN]["kind"] == "limited"
    folder = shared_data / "banlists" / "projectignis-lflists" / "TCG"
    old_f = canonical_limits(parse_conf(folder / "2025.04 TCG.lflist.conf"), db)
    new_f = canonical_limits(parse_conf(folder / "2025.09 TCG.lflist.conf"), db)
    assert set(got) == {
        c for c in old_f.keys() | new_f.keys() if old_f.get(c, 3) != new_f.get(c, 3)
    }
    assert sum(v for k, v in data["summary"].items() if k not in ("points", "groups")) == len(got)


def test_diff_names_in_another_language(real_home: Path, db: Any) -> None:
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "-o", "json", "--lang", "ja"])
    assert code == 0
    names = {c["card"]["id"]: c["card"]["name"] for c in json.loads(out)["changes"]}
    assert names[SPLASH_MAGE] == db.name(SPLASH_MAGE, "ja")
    assert names[SPLASH_MAGE] != "Splash Mage"


def test_diff_markdown_golden(real_home: Path, golden: GoldenCheck) -> None:
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "-o", "markdown"])
    assert code == 0
    golden(GOLDEN / "tcg-2025.04-2025.09.md", out)
    # Structure an announcement needs, independent of the golden file's exact text.
    assert out.startswith("## Forbidden & Limited list changes: 2025.09 TCG\n")
    assert "### Newly Forbidden (4)" in out
    assert "### Forbidden → Limited (4)" in out
    assert "| Splash Mage | 59859086 | Unlimited | Forbidden |" in out
    # Real names hold markdown: "Maliss <P> Dormouse" must not become an HTML tag.
    assert "| Maliss \\<P\\> Dormouse | 32061192 | Semi-Limited | Limited |" in out
    assert "| Number 67: Pair-a-Dice Smasher | 35772782 | Unlimited | Forbidden |" in out


def test_diff_text_lists_every_changed_card(real_home: Path) -> None:
    code, out, _ = run(diff, ["tcg@2025-09-30", "2025.10 TCG"])
    assert code == 0
    assert out.splitlines()[0].startswith("2025.09 TCG (effective ")
    changed = [ln for ln in out.splitlines() if re.match(r"  .+ \[\d+\]", ln)]
    assert len(changed) == 7


# --------------------------------------------------------------------------- decks


def test_deck_impact_legal_to_illegal_with_reasons(real_home: Path) -> None:
    deck = FIXTURES / "decks"
    code, out, _ = run(
        diff, ["2025.04 TCG", "2025.09 TCG", "-o", "json", "--deck", str(deck), "--format", "tcg"]
    )
    assert code == 0  # impact alone does not fail the run
    decks = {Path(d["input"]).name: d for d in json.loads(out)["decks"]}
    assert set(decks) == {"splash.ydk", "plain.ydk"}  # the folder is searched recursively
    splash = decks["splash.ydk"]
    assert (splash["legal_before"], splash["legal_after"]) == (True, False)
    assert splash["becomes_illegal"] is True
    cards = {c["card"]["id"]: (c["count"], c["kind"]) for c in splash["cards"]}
    assert cards == {SPLASH_MAGE: (1, "forbidden"), RAZEN: (2, "limited")}
    reasons = {(r["code"], r["card"]["id"]) for r in splash["reasons"]}
    assert reasons == {("DC402", SPLASH_MAGE), ("DC403", RAZEN)}
    plain = decks["plain.ydk"]
    assert (plain["legal_before"], plain["legal_after"], plain["cards"]) == (True, True, [])


def test_deck_impact_exit_code_and_family_format(real_home: Path) -> None:
    splash = str(FIXTURES / "decks" / "splash.ydk")
    # No --format: the format whose list family is the lists' family (tcg).
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "--deck", splash])
    assert code == 0
    assert "legal → illegal" in out and "DC402" in out
    code, _, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "--deck", splash, "--fail-on-impact"])
    assert code == 1
    # A deck the update makes legal does not fail the run.
    lk = str(FIXTURES / "linkuriboh.ydk")
    code, out, _ = run(
        diff, ["2025.04 TCG", "2025.09 TCG", "--deck", lk, "--fail-on-impact", "-o", "markdown"]
    )
    assert code == 0
    assert "illegal → legal" in out
    assert "1× Linkuriboh (Forbidden → Limited)" in out


# --------------------------------------------------------------------------- history


def expected_timeline(files: list[Path], card_id: int) -> list[tuple[str, str]]:
    rows = [(p.name[: -len(".lflist.conf")], parse_conf(p).get(card_id, 3)) for p in files]
    return [
        (name, STATUS[n])
        for i, (name, n) in enumerate(rows)
        if i in (0, len(rows) - 1) or n != rows[i - 1][1]
    ]


def test_history_maxx_c_in_ocg(real_home: Path, shared_data: Path) -> None:
    code, out, _ = run(history, [str(MAXX_C), "--family", "ocg", "-o", "json"])
    assert code == 0
    data = json.loads(out)
    assert data["card"] == {"id": MAXX_C, "name": 'Maxx "C"'}
    (fam,) = data["families"]
    got = [(e["list"], e["status"]) for e in fam["timeline"]]
    assert got == expected_timeline(kind_files(shared_data, "OCG"), MAXX_C)
    # Unlimited, then Semi-Limited (2024.10), then Limited (2026.01): it moved twice.
    assert [s for _, s in got[:3]] == ["Unlimited", "Semi-Limited", "Limited"]
    assert fam["timeline"][1]["was"] == "Unlimited"
    assert fam["timeline"][0]["first"] and fam["timeline"][-1]["last"]


def test_history_by_name_in_any_language(real_home: Path, db: Any) -> None:
    code_en, out_en, _ = run(history, ['Maxx "C"', "--family", "ocg"])
    code_ja, out_ja, _ = run(history, [db.name(MAXX_C, "ja"), "--family", "ocg"])
    assert code_en == code_ja == 0
    assert out_en == out_ja
    assert "Semi-Limited" in out_en and "was Semi-Limited" in out_en
    # --lang names the card in that language; --family is case-insensitive.
    code, out, _ = run(history, [str(MAXX_C), "--family", "OCG", "--lang", "ja"])
    assert code == 0
    assert out.splitlines()[0] == f"{db.name(MAXX_C, 'ja')} [{MAXX_C}]"


def test_history_all_families_pot_of_greed(real_home: Path, shared_data: Path) -> None:
    code, out, _ = run(history, ["Pot of Greed", "-o", "json"])
    assert code == 0
    fams = {f["family"]: f["timeline"] for f in json.loads(out)["families"]}
    assert {"tcg", "ocg"} <= set(fams)
    assert {e["status"] for e in fams["tcg"]} == {"Forbidden"}
    assert len(fams["tcg"]) == 2  # never changed: only the first and the last list
    # Traditional: Forbidden cards are Limited instead.
    trad = [f for f in fams if "trad" in f]
    assert trad and {e["status"] for e in fams[trad[0]]} == {"Limited"}
    # Families whose lists never name the card are left out (Speed Duel pools lack it).
    speed = shared_data / "banlists" / "projectignis-lflists" / "Speed"
    assert all(POT_OF_GREED not in parse_conf(p) for p in speed.glob("*.lflist.conf"))
    assert "speed" not in fams


def test_history_unknown_name_exits_1_with_a_message(real_home: Path) -> None:
    code, out, err = run(history, ["zzqxv wibble flarp"])
    assert code == 1
    assert out == ""
    assert "zzqxv wibble flarp" in err


def test_history_unknown_family_is_a_data_error(real_home: Path) -> None:
    from deckcheck.cli import main

    assert main(["banlist", "history", str(MAXX_C), "--family", "nope"]) == 2


def test_history_ambiguous_name_lists_candidates(real_home: Path) -> None:
    code, out, err = run(history, ["Blue-Eyes"])
    assert code == 1
    assert out == ""
    assert "ambiguous" in err
    candidates = [ln for ln in err.splitlines() if ln.startswith("  ")]
    assert len(candidates) >= 2 and all("Blue-Eyes" in ln for ln in candidates)


# --------------------------------------------------------------------------- YGOPro history


@pytest.fixture(scope="session")
def ygopro_home_dir(
    real_home_dir: Path, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A home with the real card database and the Fluorohydride TCG/OCG lists (2011–2026)."""
    return build_full_home(
        shared_data,
        tmp_path_factory.mktemp("ygopro-home"),
        lists=[ygopro_lists(shared_data, "TCG"), ygopro_lists(shared_data, "OCG")],
        cards_db=real_home_dir / "cards.sqlite3",
    )


@pytest.fixture
def ygopro_home(ygopro_home_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DECKCHECK_HOME", str(ygopro_home_dir))
    return ygopro_home_dir


def ygopro_files(shared_data: Path, kind: str) -> list[Path]:
    folder = shared_data / "banlists" / "fluorohydride-ygopro" / kind
    return sorted(folder.glob("*.lflist.conf"), key=lambda p: list_date(p.name))


@pytest.mark.parametrize("kind", ["TCG", "OCG"])
def test_history_over_the_ygopro_lists_maxx_c(
    ygopro_home: Path, shared_data: Path, kind: str
) -> None:
    code, out, _ = run(history, [str(MAXX_C), "--family", kind.lower(), "-o", "json"])
    assert code == 0
    (fam,) = json.loads(out)["families"]
    files = ygopro_files(shared_data, kind)
    assert fam["lists"] == len(files) > 45
    got = [(e["list"], e["status"]) for e in fam["timeline"]]
    assert got == expected_timeline(files, MAXX_C)
    statuses = [s for _, s in got]
    if kind == "TCG":
        # Unlimited → Semi-Limited (2016.8) → Limited (2017.3) → Forbidden (2018.2) since.
        assert statuses == ["Unlimited", "Semi-Limited", "Limited", "Forbidden", "Forbidden"]
    else:
        # Semi-Limited in 2017.10, back to Unlimited in 2018.1, then Semi and Limited again.
        assert statuses[:3] == ["Unlimited", "Semi-Limited", "Unlimited"]
        assert len(statuses) >= 5


def test_diff_over_every_consecutive_ygopro_ocg_pair(ygopro_home: Path, shared_data: Path) -> None:
    from deckcheck.carddb import open_db
    from deckcheck.formats.catalog import ListStore
    from deckcheck.listdiff import diff_lists

    db = open_db()
    lists = ListStore.default().lists("ocg")
    files = ygopro_files(shared_data, "OCG")
    assert [b.name for b in lists] == [p.name[: -len(".lflist.conf")] for p in files]
    pairs = list(zip(lists, files, strict=True))
    for (a, fa), (b, fb) in itertools.pairwise(pairs):
        old_f, new_f = canonical_limits(parse_conf(fa), db), canonical_limits(parse_conf(fb), db)
        expected = {
            c: (old_f.get(c, 3), new_f.get(c, 3))
            for c in old_f.keys() | new_f.keys()
            if old_f.get(c, 3) != new_f.get(c, 3)
        }
        got = {c.card_id: (c.old, c.new) for c in diff_lists(a, b).changes}
        assert got == expected, (a.name, b.name)


def test_deck_impact_on_a_text_decklist_in_japanese(
    real_home: Path, db: Any, tmp_path: Path
) -> None:
    # The same cards as splash.ydk, written by name (Japanese), as a player would paste them.
    ydk = (FIXTURES / "decks" / "splash.ydk").read_text(encoding="utf-8").splitlines()
    main_ids = [int(x) for x in ydk[ydk.index("#main") + 1 : ydk.index("#extra")]]
    counts: dict[int, int] = {}
    for i in main_ids:
        counts[i] = counts.get(i, 0) + 1
    lines = ["Main"] + [f"{n} {db.name(i, 'ja')}" for i, n in counts.items()]
    lines += ["Extra", f"1 {db.name(SPLASH_MAGE, 'ja')}"]
    deck = tmp_path / "splash.txt"
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "-o", "json", "--deck", str(deck)])
    assert code == 0
    (d,) = json.loads(out)["decks"]
    assert (d["legal_before"], d["legal_after"]) == (True, False), d["findings_after"]
    assert {(c["card"]["id"], c["count"]) for c in d["cards"]} == {(SPLASH_MAGE, 1), (RAZEN, 2)}


def test_deck_impact_lists_lifted_findings(real_home: Path) -> None:
    lk = str(FIXTURES / "linkuriboh.ydk")
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "-o", "json", "--deck", lk])
    assert code == 0
    (d,) = json.loads(out)["decks"]
    assert (d["legal_before"], d["legal_after"], d["becomes_illegal"]) == (False, True, False)
    assert [(f["code"], f["card"]["id"]) for f in d["lifted"]] == [("DC402", LINKURIBOH)]
    assert d["reasons"] == [] and d["findings_after"] == []
    code, out, _ = run(diff, ["2025.04 TCG", "2025.09 TCG", "--deck", lk])
    assert "lifted: DC402" in out


def test_whitelist_pool_changes_match_the_speed_files(
    real_home: Path, shared_data: Path, db: Any
) -> None:
    folder = shared_data / "banlists" / "projectignis-lflists" / "Speed"
    old_pool = set(canonical_limits(parse_conf(folder / "2023.09 Speed Duel.lflist.conf"), db))
    new_pool = set(canonical_limits(parse_conf(folder / "2024.07 Speed Duel.lflist.conf"), db))
    code, out, _ = run(diff, ["2023.09 Speed Duel", "2024.07 Speed Duel", "-o", "json"])
    assert code == 0
    data = json.loads(out)
    assert data["new"]["mode"] == "whitelist"
    added = {c["card"]["id"] for c in data["changes"] if c["kind"] == "added"}
    removed = {c["card"]["id"] for c in data["changes"] if c["kind"] == "removed"}
    assert added == new_pool - old_pool and len(added) > 100
    assert removed == old_pool - new_pool
    for c in data["changes"]:
        if c["kind"] == "removed":
            assert c["new"] == {"limit": None, "status": "Not in pool"}


def test_points_changes_match_the_genesys_files(
    real_home: Path, shared_data: Path, db: Any
) -> None:
    folder = shared_data / "banlists" / "projectignis-lflists" / "Genesys"
    old_p = canonical_limits(parse_conf(folder / "2026.03 Genesys.lflist.conf"), db)
    new_p = canonical_limits(parse_conf(folder / "2026.06.08 Genesys.lflist.conf"), db)
    expected = {
        c: (old_p.get(c), new_p.get(c))
        for c in old_p.keys() | new_p.keys()
        if old_p.get(c) != new_p.get(c)
    }
    code, out, _ = run(diff, ["2026.03 Genesys", "2026.06.08 Genesys", "-o", "json"])
    assert code == 0
    data = json.loads(out)
    got = {p["card"]["id"]: (p["old"], p["new"]) for p in data["points"]}
    assert got == expected and len(got) > 50
    kinds = {p["kind"] for p in data["points"]}
    assert kinds == {"added", "removed", "changed"}
    code, md, _ = run(diff, ["2026.03 Genesys", "2026.06.08 Genesys", "-o", "markdown"])
    assert f"### Points ({len(expected)})" in md
