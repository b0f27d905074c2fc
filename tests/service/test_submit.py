"""Submissions through FastAPI's TestClient: the page, storing (hostile names and bodies),
the verdict, and the organiser's report, which is ``validate -o html|csv`` over the folder."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from deckcheck.cli import main
from deckcheck.service.models import Submitted
from tests.chromium import external_refs
from tests.service._serve import DM6, TOKEN
from tests.service.conftest import make_client
from tests.service.test_api import error

DATE = "2026-06-01"
ILLEGAL = (DM6 / "illegal.ydk").read_bytes()
LEGAL = (DM6 / "legal.ydk").read_bytes()
AUTH = {"Authorization": f"Bearer {TOKEN}"}
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[tuple[Any, Path]]:
    with make_client(tmp_path, date=DATE) as c:
        yield c, tmp_path / "subs"


def submit(c: Any, player: str, data: bytes, name: str = "deck.ydk", **kw: Any) -> Any:
    return c.post("/submit", data={"player": player}, files={"deck": (name, data)}, **kw)


def stored(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir())


def test_the_page_is_a_plain_form(svc: tuple[Any, Path]) -> None:
    c, _ = svc
    resp = c.get("/submit")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    page = resp.text
    assert external_refs(page) == ["action=submit"]  # the form posts back here, nothing else
    assert "<script" not in page
    assert 'enctype="multipart/form-data"' in page and 'name="player"' in page
    assert "Duel Monsters 6" in page and DATE in page


def test_a_submission_is_stored_and_answered(svc: tuple[Any, Path]) -> None:
    c, folder = svc
    resp = submit(c, "Yugi Muto", ILLEGAL)
    assert resp.status_code == 201
    got = Submitted.model_validate(resp.json())
    (path,) = stored(folder)
    assert path.name == got.file and path.stem == got.id and got.id.startswith("Yugi_Muto-")
    assert path.read_bytes() == b"#player Yugi Muto\n" + ILLEGAL
    # the verdict is validate's on the player's own file: same findings, same lines
    out = io.StringIO()
    with redirect_stdout(out):
        main(["validate", "-o", "json", "-f", "dm6", "-d", DATE, str(DM6 / "illegal.ydk")])
    assert resp.json()["check"]["findings"] == json.loads(out.getvalue())["decks"][0]["findings"]
    assert resp.json()["check"]["legal"] is False


@pytest.mark.parametrize(
    "player, stem",
    [
        ("../../x", "x"),
        ("<script>alert(1)</script>", "script_alert_1_script"),
        ("..", "player"),
        (".hidden", "hidden"),
        ("a/b\\c:d", "a_b_c_d"),
        ("灰流 うらら", "灰流_うらら"),
        ("Bob\n#format tcg\r\n", "Bob_format_tcg"),
        ("\x00\x1b[31mEve", "31mEve"),
    ],
)
def test_hostile_names_stay_in_the_folder(svc: tuple[Any, Path], player: str, stem: str) -> None:
    c, folder = svc
    resp = submit(c, player, LEGAL)
    assert resp.status_code == 201, resp.text
    (path,) = stored(folder)
    assert path.parent == folder and path.name.startswith(stem + "-")
    assert not path.name.startswith(".")
    first, rest = path.read_text().split("\n", 1)
    assert first.startswith("#player ") and "\r" not in first and "\x1b" not in first
    assert rest == LEGAL.decode()
    assert resp.json()["player"] == first[len("#player ") :]


def test_a_name_is_escaped_on_the_verdict_page(svc: tuple[Any, Path]) -> None:
    c, _ = svc
    resp = submit(c, "<script>alert(1)</script>", ILLEGAL, headers=BROWSER)
    assert resp.status_code == 201
    assert "<script>" not in resp.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in resp.text
    assert "Not legal" in resp.text and "DC403" in resp.text


@pytest.mark.parametrize("player", ["", "   ", "\n\t", "x" * 101])
def test_a_name_is_needed(svc: tuple[Any, Path], player: str) -> None:
    c, folder = svc
    assert "player" in error(submit(c, player, LEGAL), 422, "bad-parameter")
    assert stored(folder) == []


def test_unreadable_and_oversized_decks_are_not_stored(svc: tuple[Any, Path]) -> None:
    c, folder = svc
    assert "NUL" in error(submit(c, "Joey", b"\x7fELF\x00\x00binary"), 400, "unreadable")
    assert "empty" in error(submit(c, "Joey", b"\n\n"), 400, "unreadable")
    assert error(submit(c, "Joey", b"1" * 400_000), 413, "too-large")
    resp = c.post("/submit", data={"player": "Joey"})
    assert "deck" in error(resp, 422, "bad-parameter")
    page = submit(c, "Joey", b"\x00", headers=BROWSER)
    assert page.status_code == 400 and "Not submitted" in page.text and "NUL" in page.text
    assert stored(folder) == []


def test_links_and_lists_are_stored_so_the_report_reads_them(svc: tuple[Any, Path]) -> None:
    from deckcheck import decks
    from deckcheck.decks.write import to_ydke

    c, folder = svc
    link = to_ydke(decks.read_path(DM6 / "legal.ydk"))
    assert submit(c, "Kaiba", link.encode(), "deck.ydke").json()["check"]["legal"] is True
    text = "メインデッキ\n3 ブラック・マジシャン\n1 サンダー・ボルト\n"
    assert submit(c, "Mai", text.encode("shift_jis"), "list.txt").status_code == 201
    kaiba, mai = stored(folder)
    assert kaiba.suffix == ".ydk" and mai.suffix == ".txt"

    def cards(p: Path) -> list[tuple[str, int | None]]:
        return [(e.section, e.card_id) for e in decks.read_path(p).entries()]

    assert cards(kaiba) == cards(DM6 / "legal.ydk")
    assert mai.read_bytes().decode("utf-8") == "#player Mai\n" + text  # stored as UTF-8


def test_submissions_and_the_report_can_be_off(tmp_path: Path) -> None:
    with make_client(tmp_path, submissions=None, token_file=None) as c:
        assert "--submissions" in error(c.get("/submit"), 404, "not-found")
        assert "--submissions" in error(submit(c, "x", LEGAL), 404, "not-found")
        assert "--token-file" in error(c.get("/report", headers=AUTH), 404, "not-found")


def test_the_report_needs_the_token(svc: tuple[Any, Path]) -> None:
    c, _ = svc
    for headers in (
        {},
        {"Authorization": "Bearer nope"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Authorization": f"Bearer {TOKEN}x"},
    ):
        for path in ("/report", "/report.csv"):
            resp = c.get(path, headers=headers)
            error(resp, 401, "unauthorized")
            assert resp.headers["www-authenticate"].startswith("Bearer")


def cli_output(*args: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        main(["validate", "--jobs", "1", *args])
    return out.getvalue()


def test_the_report_is_validates_html_and_csv_over_the_folder(svc: tuple[Any, Path]) -> None:
    c, folder = svc
    for player, deck in (("Yugi", ILLEGAL), ("Kaiba", LEGAL), ("Yugi", LEGAL)):
        assert submit(c, player, deck).status_code == 201
    assert submit(c, "Mai", b"Main Deck\n3 Dark Magician\n", "list.txt").status_code == 201
    html = c.get("/report", headers=AUTH)
    assert html.status_code == 200 and html.headers["cache-control"] == "no-store"
    args = ["-f", "dm6", "-d", DATE, "--include", "*.txt", str(folder)]
    assert html.text == cli_output("-o", "html", *args)
    for name in ("Yugi", "Kaiba", "Mai"):
        assert f">{name}<" in html.text
    csv = c.get("/report.csv", headers=AUTH)
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text == cli_output("-o", "csv", *args)
    assert csv.text.count("\nKaiba") == 0 and ",Kaiba," in csv.text


def test_temp_files_a_killed_server_left_are_cleaned_and_never_reported(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    folder.mkdir()
    old = folder / ".dc-killed.tmp"
    old.write_text("#main\n12")
    os.utime(old, (1, 1))
    young = folder / ".dc-writing.tmp"
    young.write_text("#main\n1")
    with make_client(tmp_path) as c:
        assert not old.exists() and young.exists()  # a live writer's file is spared
        html = c.get("/report", headers=AUTH).text
    assert "dc-writing" not in html and "dc-killed" not in html
