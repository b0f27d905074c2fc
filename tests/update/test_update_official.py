"""`deckcheck update` fetching the official card data (yaml-yugi aggregates, the YGOJSON
release zip) from a real loopback HTTP mirror built from ../shared/data."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck.carddb import open_db
from deckcheck.cli import main
from deckcheck.errors import DataError
from deckcheck.update import download
from deckcheck.update.download import check_file
from deckcheck.update.sources import Component, load_components, resolve_source
from tests._http import serving
from tests.update.test_update import Mirror, _build_mirror, _handler

OFFICIAL_KEYS = (
    "DawnbrandBots/yaml-yugi/cards.json",
    "DawnbrandBots/yaml-yugi/rush.json",
    "DawnbrandBots/yaml-yugi/skill.json",
    "iconmaster5326/YGOJSON/individual.zip",
    "ProjectIgnis/Distribution/config/strings.conf",
)


def test_official_files_have_their_own_upstream_homes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECKCHECK_SOURCE", raising=False)
    comps = {c.key: c for c in load_components("cards")}
    assert set(OFFICIAL_KEYS) <= set(comps)
    assert {comps[k].kind for k in OFFICIAL_KEYS} == {"official"}
    default = resolve_source(None)
    assert default.locate(comps[OFFICIAL_KEYS[0]]) == (
        "https://dawnbrandbots.github.io/yaml-yugi/cards.json"
    )
    assert default.locate(comps[OFFICIAL_KEYS[3]]) == (
        "https://github.com/iconmaster5326/YGOJSON/releases/download/v1/individual.zip"
    )
    # a mirror serves them like every other file
    assert resolve_source("http://127.0.0.1:9/m").locate(comps[OFFICIAL_KEYS[3]]) == (
        "http://127.0.0.1:9/m/iconmaster5326/YGOJSON/individual.zip"
    )


def test_official_download_checks(tmp_path: Path) -> None:
    comp = Component("O", "R", "main", "cards.json", "official", False, 1 << 20)
    good = tmp_path / "cards.json"
    good.write_text(
        '[{"konami_id": 1, "password": 1, "name": {"en": "A"}, "limit_regulation": {}, '
        '"yugipedia_page_id": 1}]'
    )
    check_file(good, comp, "u")
    html = tmp_path / "page.json"
    html.write_text("<!doctype html><title>GitHub Pages</title>")
    with pytest.raises(DataError, match="neither a yaml-yugi JSON array, a YGOJSON zip nor"):
        check_file(html, comp, "u")
    strings = tmp_path / "strings.conf"  # EDOPro's archetype names (issue 30)
    strings.write_bytes(b"!system 1 Normal Summon\n!setname 0x8 HERO\n")
    check_file(strings, comp, "u")
    strings.write_bytes(b"!setname 0x8 HERO\n\xff\xfe not text")
    with pytest.raises(DataError, match="corrupt download: not UTF-8 text"):
        check_file(strings, comp, "u")
    cut = tmp_path / "cut.json"
    cut.write_text(good.read_text()[:40])
    with pytest.raises(DataError, match="corrupt download: malformed JSON"):
        check_file(cut, comp, "u")
    z = tmp_path / "individual.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("readme.txt", "not YGOJSON")
    with pytest.raises(DataError, match="not the YGOJSON individual layout"):
        check_file(z, comp, "u")


@pytest.fixture(scope="module")
def mirror(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mirror]:
    """The upstream layout of every card file, served on 127.0.0.1."""
    root = _build_mirror(shared_data, tmp_path_factory.mktemp("official-upstream"))
    up = shared_data / "upstream"
    yy = root / "DawnbrandBots" / "yaml-yugi"
    yy.mkdir(parents=True)
    for name in ("cards.json", "rush.json", "skill.json"):
        (yy / name).symlink_to(up / "DawnbrandBots__yaml-yugi" / name)
    pi = root / "ProjectIgnis" / "Distribution" / "config"
    pi.mkdir(parents=True)
    (pi / "strings.conf").symlink_to(up / "ProjectIgnis__Distribution/config/strings.conf")
    # the release zip of the v1/individual folder, as upstream publishes it
    zdir = root / "iconmaster5326" / "YGOJSON"
    zdir.mkdir(parents=True)
    src = up / "iconmaster5326__YGOJSON"
    with zipfile.ZipFile(zdir / "individual.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for f in sorted(src.rglob("*.json")):
            zf.write(f, f.relative_to(src).as_posix())
    m = Mirror(root)
    with serving(_handler(m)) as m.url:
        yield m


@pytest.mark.realdata
def test_update_installs_official_data_then_downloads_nothing(
    mirror: Mirror,
    isolated_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(download, "BACKOFF", 0.0)
    args = ["update", "--source", mirror.url, "--only", "cards", "-o", "json"]
    assert main(args) == 0
    out, _err = capsys.readouterr()
    report = json.loads(out)
    status = {f["file"]: f["status"] for f in report["files"]}
    assert all(status[k] == "new" for k in OFFICIAL_KEYS)
    assert report["cards_updated"] is True
    db = open_db()
    assert db.passcodes_for_konami(4837) == [24094653, 27847700]
    assert db.first_release(14558127, "tcg") is not None
    assert db.passcodes_for_konami(15184, kind="rush")  # Rush linked by English name
    info = db.info()
    assert {s["kind"] for s in info["official"]["sources"]} == {
        "yaml-yugi-cards",
        "yaml-yugi-rush",
        "yaml-yugi-skill",
        "ygojson",
        "edopro-strings",
    }
    from deckcheck.carddb import facts

    assert 89943723 in facts.archetype_cards(db, facts.find_archetypes(db, "Elemental HERO"))
    db.close()
    first = mirror.count()
    mirror.reset()
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert mirror.count(200) == 0  # nothing downloaded: every file answered 304
    assert mirror.count(304) == first - mirror.count(404)
    assert {again_f["status"] for again_f in again["files"]} <= {"unchanged", "missing"}
    assert again["cards_updated"] is False
