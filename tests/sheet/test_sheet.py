"""`deckcheck sheet` and `validate --sheets`: the decklist PDF read back with poppler.

Every test reads the PDF as a person would get it: `pdftotext` for the words, `pdftoppm` for
the picture, `pdffonts` for what is embedded. Poppler and the CJK font come from Debian
(`.ci/run` installs them); tests skip with a reason where they are missing, and fail instead
when DECKCHECK_REQUIRE_TOOLS=1 (CI).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.errors import InputError
from deckcheck.sheet import MAIN_ROWS, Line, Player, Sheet, split_name
from deckcheck.sheet import fonts as sheet_fonts
from deckcheck.sheet.acroform import field_names, fill
from deckcheck.sheet.pdf import render

REPO = Path(__file__).resolve().parent.parent.parent
EXAMPLE = REPO / "examples" / "dm6" / "legal.ydk"


def _need(tool: str) -> str:
    got = shutil.which(tool)
    if got is None:
        reason = f"{tool} is not installed (apt-get install poppler-utils; .ci/run does it)"
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail(reason)
        pytest.skip(reason)
    return got


def pdf_text(pdf: Path, page: int | None = None) -> str:
    args = [_need("pdftotext"), "-layout"]
    if page is not None:
        args += ["-f", str(page), "-l", str(page)]
    return subprocess.run([*args, str(pdf), "-"], capture_output=True, check=True).stdout.decode()


def pdf_pages(pdf: Path) -> int:
    info = subprocess.run([_need("pdfinfo"), str(pdf)], capture_output=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout.decode(), re.MULTILINE).group(1))  # type: ignore[union-attr]


def png_pages(pdf: Path, out: Path) -> list[Path]:
    """Every page as a PNG (kept in DECKCHECK_KEEP_SHOTS for a person to look at)."""
    subprocess.run([_need("pdftoppm"), "-r", "70", "-png", str(pdf), str(out)], check=True)
    pages = sorted(out.parent.glob(out.name + "-*.png"))
    keep = os.environ.get("DECKCHECK_KEEP_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for p in pages:
            shutil.copy(p, Path(keep) / p.name)
        shutil.copy(pdf, Path(keep) / pdf.name)
    return pages


def has_row(text: str, count: int, name: str) -> bool:
    """``count`` then ``name`` on one line of the layout text (a row of the sheet)."""
    return re.search(rf"(?m)(?<![\d\w]){count}\s+{re.escape(name)}(?:\s|$)", text) is not None


def total(text: str, label: str) -> int:
    found = re.findall(rf"{label}\s+(\d+)", text)
    assert found, f"no {label!r} on the sheet"
    assert len(set(found)) == 1, found
    return int(found[0])


# --------------------------------------------------------------------------- pieces


@pytest.mark.parametrize(
    ("given", "first", "last"),
    [
        ("Seto Kaiba", "Seto", "Kaiba"),
        ("Jaden Yuki Jr", "Jaden Yuki", "Jr"),
        ("Mutou, Yugi Atem", "Yugi Atem", "Mutou"),
        ("  Mai   Kujaku ", "Mai", "Kujaku"),
        ("Pegasus", "", "Pegasus"),
        ("", "", ""),
        (None, "", ""),
    ],
)
def test_split_name(given: str | None, first: str, last: str) -> None:
    assert split_name(given) == (first, last)


def overflowing_sheet(n_monsters: int) -> Sheet:
    monsters = tuple(Line(f"Monster Number {i:02d}", 1 + i % 3) for i in range(n_monsters))
    return Sheet(
        "many.ydk",
        monster=monsters,
        spell=(Line("Pot of Greed", 1), Line('Maxx "C" & <co>', 2)),
        trap=(Line("Mirror Force", 3),),
        extra=tuple(Line(f"Extra Card {i:02d}", 1) for i in range(16)),
        side=(Line("Evil★Twin Ki-sikil", 2),),
    )


def test_more_rows_than_the_sheet_continue_on_a_second_page(tmp_path: Path) -> None:
    sheet = overflowing_sheet(40)  # 40 distinct monsters: 18 + 18 + 4 rows, three pages
    assert sheet.pages == 3
    pdf = tmp_path / "many.pdf"
    pdf.write_bytes(render(sheet, Player("Seto", "Kaiba", "0123456789", "US", "Regional")))
    assert pdf_pages(pdf) == 3
    text = pdf_text(pdf)
    for line in (*sheet.monster, *sheet.spell, *sheet.trap, *sheet.extra, *sheet.side):
        assert has_row(text, line.count, line.name), line
        assert text.count(line.name) == 1  # on exactly one page: nothing printed twice
    # Each page holds 18 monster rows at most and says where it stands.
    for page, expected in ((1, 18), (2, 18), (3, 4)):
        t = pdf_text(pdf, page)
        assert len(re.findall(r"Monster Number \d\d", t)) == expected
        assert f"Page {page} of 3" in t
        assert "Seto" in t and "Kaiba" in t  # the player's name is on every page
    assert "Continued on page 2" in pdf_text(pdf, 1)
    # Totals are the whole deck's, on every page.
    assert total(text, "Total Monster Cards") == sum(x.count for x in sheet.monster)
    assert total(text, "Main Deck Total") == sheet.main_total
    assert total(text, "Total Extra Deck") == 16
    assert total(text, "Total Side Deck") == 2


def test_player_block_and_event_date(tmp_path: Path) -> None:
    pdf = tmp_path / "p.pdf"
    who = Player("Yugi", "Mutou", "0000123456", "Japan", "Battle City", dt.date(2026, 7, 4))
    pdf.write_bytes(render(overflowing_sheet(3), who))
    text = pdf_text(pdf)
    for value in ("Yugi", "Mutou", "0000123456", "Japan", "Battle City", "07 / 04 / 2026"):
        assert value in text
    assert re.search(r"Last Name Initial\s*\n\s*Yugi\s+Mutou\s+M\b", text)


# --------------------------------------------------------------------------- command


def test_sheet_command_on_the_built_in_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "decklist.pdf"
    code = main(
        ["sheet", str(EXAMPLE), "--player", "Seto Kaiba", "--date", "2026-06-01", "--out", str(out)]
    )
    err = capsys.readouterr().err
    assert code == 0 and out.is_file()
    assert "wrote" in err and "Main Deck 40 (Monster 25, Spell 11, Trap 4)" in err
    main(["validate", "-o", "json", "-f", "dm6", str(EXAMPLE)])
    deck = json.loads(capsys.readouterr().out)["decks"][0]
    text = pdf_text(out)
    assert total(text, "Main Deck Total") == deck["counts"]["main"]
    assert total(text, "Total Extra Deck") == deck["counts"]["extra"]
    assert has_row(text, 3, "Blue-Eyes White Dragon") and has_row(text, 1, "Mirror Force")


def test_sheet_of_a_deck_with_an_unknown_card_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "bad.ydk"
    deck.write_text("#main\n89631139\n12345\n#extra\n!side\n")
    out = tmp_path / "bad.pdf"
    code = main(["sheet", str(deck), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert f"deckcheck: error: {deck}:3: unknown card '12345'" in err
    assert "Traceback" not in err


def test_cjk_without_its_font_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = sheet_fonts.FontFile("/nonexistent/wqy.ttc", "X", "fonts-wqy-microhei", "")
    monkeypatch.setitem(sheet_fonts.CANDIDATES, "cjk", (missing,))
    monkeypatch.delenv(sheet_fonts.ENV, raising=False)
    out = tmp_path / "ja.pdf"
    code = main(["sheet", str(EXAMPLE), "--lang", "ja", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and "apt-get install fonts-wqy-microhei" in err


def test_validate_sheets_writes_one_sheet_per_legal_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "sheets"
    folder.mkdir()
    code = main(
        [
            "validate",
            "-f",
            "dm6",
            "-d",
            "2026-06-01",
            "--sheets",
            str(folder),
            str(REPO / "examples" / "dm6"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1  # one deck of the two is illegal: the verdict is unchanged
    assert sorted(p.name for p in folder.iterdir()) == ["legal.pdf"]
    assert "1 sheet written" in err
    text = pdf_text(folder / "legal.pdf")
    assert "06 / 01 / 2026" in text and total(text, "Main Deck Total") == 40


def test_validate_sheets_needs_an_existing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["validate", "-f", "dm6", "--sheets", str(tmp_path / "nope"), str(EXAMPLE)])
    err = capsys.readouterr().err
    assert code == 2 and "nope" in err and "Traceback" not in err


# --------------------------------------------------------------------------- Konami's form


def make_form(path: Path, names: list[str]) -> None:
    """A one-page PDF with a text field per name, laid out in a grid (stands in for Konami's)."""
    from pypdf import PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    w = PdfWriter()
    page = w.add_blank_page(612, 792)
    font = w._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
                NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            }
        )
    )
    refs = ArrayObject()
    for i, name in enumerate(names):
        col, row = divmod(i, 70)
        x, y = 10 + col * 120, 780 - row * 11
        field = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/Widget"),
                NameObject("/FT"): NameObject("/Tx"),
                NameObject("/T"): TextStringObject(name),
                NameObject("/Rect"): ArrayObject(
                    [FloatObject(x), FloatObject(y - 10), FloatObject(x + 115), FloatObject(y)]
                ),
                NameObject("/DA"): TextStringObject("/Helv 6 Tf 0 g"),
                NameObject("/F"): NumberObject(4),
                NameObject("/P"): page.indirect_reference,
            }
        )
        refs.append(w._add_object(field))
    page[NameObject("/Annots")] = refs
    w._root_object[NameObject("/AcroForm")] = DictionaryObject(
        {
            NameObject("/Fields"): refs,
            NameObject("/DA"): TextStringObject("/Helv 0 Tf 0 g"),
            NameObject("/DR"): DictionaryObject(
                {NameObject("/Font"): DictionaryObject({NameObject("/Helv"): font})}
            ),
        }
    )
    with path.open("wb") as fp:
        w.write(fp)


def test_konami_form_is_filled_field_by_field(tmp_path: Path) -> None:
    from pypdf import PdfReader

    form = tmp_path / "KDE_DeckList.pdf"
    make_form(form, field_names())
    assert "First  Middle Names" in field_names()  # two spaces, as in Konami's file
    sheet = overflowing_sheet(20)  # 2 monsters more than the form's 18 rows
    out = tmp_path / "filled.pdf"
    out.write_bytes(
        fill(
            str(form),
            sheet,
            Player("Seto", "Kaiba", "0123456789", "US", "Regional", dt.date(2026, 7, 4)),
        )
    )
    got = {k: v.get("/V") for k, v in (PdfReader(out).get_fields() or {}).items()}
    assert got["First  Middle Names"] == "Seto" and got["Last Names"] == "Kaiba"
    assert got["Last Name Initial"] == "K" and got["CARD GAME ID"] == "0123456789"
    assert (got["Event Date - Month"], got["Event Date - Day"], got["Event Date - Year"]) == (
        "07",
        "04",
        "2026",
    )
    for n in range(1, MAIN_ROWS + 1):
        line = sheet.monster[n - 1]
        assert got[f"Monster {n}"] == line.name and got[f"Monster Card {n} Count"] == str(
            line.count
        )
    assert got["Spell 2"] == 'Maxx "C" & <co>' and got["Spell Card 2 Count"] == "2"
    assert got["Trap Card 1 Count"] == "3" and got["Trap 2"] in ("", None)
    assert got["Extra Deck 15"] == "Extra Card 14" and got["Side Deck 1 Count"] == "2"
    assert got["Total Monster Cards"] == str(sum(x.count for x in sheet.monster))
    assert got["Main Deck Total"] == str(sheet.main_total)
    assert got["Total Extra Deck"] == "16"
    # The 2 monsters and the Extra Deck card beyond the form's rows are on an appended page.
    assert pdf_pages(out) == 2
    more = pdf_text(out, 2)
    assert has_row(more, sheet.monster[18].count, "Monster Number 18")
    assert has_row(more, sheet.monster[19].count, "Monster Number 19")
    assert has_row(more, 1, "Extra Card 15") and "Page 2 of 2" in more
    assert png_pages(out, tmp_path / "filled")


def test_a_pdf_without_konamis_fields_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    form = tmp_path / "other.pdf"
    make_form(form, ["Name", "Monster 1"])
    out = tmp_path / "out.pdf"
    code = main(["sheet", str(EXAMPLE), "--template", str(form), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert "not Konami's fillable decklist" in err and "'First  Middle Names'" in err


# --------------------------------------------------------------------------- real data


def _real_deck_with_many_monsters(shared_data: Path) -> tuple[Path, Sheet]:
    from deckcheck import decks
    from deckcheck.carddb import open_db
    from deckcheck.sheet import sheet_deck

    db = open_db()
    for path in sorted((shared_data / "decks").rglob("*.ydk")):
        deck = decks.read_path(path)
        try:
            sheet = sheet_deck(deck, db.get, db.name)
        except InputError:
            continue  # unknown cards: no sheet for this one
        if len(sheet.monster) > MAIN_ROWS:
            return path, sheet
    raise AssertionError("no real deck with more than 18 distinct monsters")


@pytest.mark.realdata
def test_real_deck_with_more_than_18_monsters(
    real_home: Path, shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, sheet = _real_deck_with_many_monsters(shared_data)
    out = tmp_path / "real-sheet.pdf"
    code = main(
        ["sheet", str(path), "--player", "Seto Kaiba", "--id", "0123456789", "--out", str(out)]
    )
    capsys.readouterr()
    assert code == 0
    main(["validate", "-o", "json", "--format", "tcg", "--banlist", "2026.05 TCG", str(path)])
    counts = json.loads(capsys.readouterr().out)["decks"][0]["counts"]
    text = pdf_text(out)
    assert "Seto" in text and "Kaiba" in text and "0123456789" in text
    for line in (*sheet.monster, *sheet.spell, *sheet.trap, *sheet.extra, *sheet.side):
        assert has_row(text, line.count, line.name), line
    assert total(text, "Main Deck Total") == counts["main"] == sheet.main_total
    assert total(text, "Total Extra Deck") == counts["extra"]
    assert total(text, "Total Side Deck") == counts["side"]
    assert total(text, "Total Monster Cards") == sum(x.count for x in sheet.monster)
    assert pdf_pages(out) == sheet.pages >= 2
    assert png_pages(out, tmp_path / "real-sheet")


@pytest.mark.realdata
def test_real_deck_in_japanese_embeds_a_cjk_font(
    real_home: Path, shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if sheet_fonts.find_font("en") is None or not os.path.isfile(
        sheet_fonts.CANDIDATES["cjk"][0].path
    ):
        reason = "fonts-wqy-microhei is not installed (.ci/run installs it)"
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail(reason)
        pytest.skip(reason)
    from deckcheck.carddb import open_db
    from deckcheck.sheet import sheet_deck

    path, _ = _real_deck_with_many_monsters(shared_data)
    for lang in ("ja", "ko", "zh-CN"):
        out = tmp_path / f"real-{lang}.pdf"
        assert main(["sheet", str(path), "--lang", lang, "--out", str(out)]) == 0
        db = open_db()
        from deckcheck import decks

        sheet = sheet_deck(decks.read_path(path), db.get, lambda c: db.name(c, lang), lang)  # noqa: B023
        text = pdf_text(out)
        local = [x for x in sheet.monster if not x.name.isascii()]
        assert local, f"no {lang} names in the database for this deck"
        for line in (*sheet.monster, *sheet.spell, *sheet.trap):
            assert line.name.replace(" ", "") in text.replace(" ", ""), (lang, line)
        fonts = subprocess.run([_need("pdffonts"), str(out)], capture_output=True, check=True)
        listing = fonts.stdout.decode()
        assert "WenQuanYi" in listing and re.search(r"yes\s+yes", listing)  # embedded, subset
        if lang == "ja":
            assert png_pages(out, tmp_path / "real-ja")
    capsys.readouterr()


def test_a_name_in_another_script_is_drawn_from_the_cjk_font(tmp_path: Path) -> None:
    if not os.path.isfile(sheet_fonts.CANDIDATES["cjk"][0].path):
        reason = "fonts-wqy-microhei is not installed (.ci/run installs it)"
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail(reason)
        pytest.skip(reason)
    pdf = tmp_path / "mixed.pdf"
    sheet = Sheet("x.ydk", monster=(Line("Evil★Twin Ki-sikil", 1), Line("灰流うらら", 3)))
    pdf.write_bytes(render(sheet, Player("海馬", "瀬人")))  # an English sheet, a Japanese name
    text = pdf_text(pdf)
    assert "海馬" in text and "瀬人" in text
    assert has_row(text, 1, "Evil★Twin Ki-sikil") and has_row(text, 3, "灰流うらら")


def test_sheet_of_an_illegal_deck_warns_with_its_codes_and_still_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27 item 7: the sheet is written (exit 0), and stderr names the error codes
    ``validate`` gives the deck in the format on the event date; a legal deck gets no warning."""
    illegal = EXAMPLE.with_name("illegal.ydk")
    out = tmp_path / "illegal.pdf"
    code = main(["sheet", str(illegal), "-f", "dm6", "--date", "2026-06-01", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0 and out.is_file()
    main(["validate", "-o", "json", "-f", "dm6", "-d", "2026-06-01", str(illegal)])
    deck = json.loads(capsys.readouterr().out)["decks"][0]
    codes = {f["code"] for f in deck["findings"] if f["severity"] == "error"}
    warning = [ln for ln in err.splitlines() if ln.startswith("deckcheck: warning:")]
    assert len(warning) == 1 and codes
    assert f"{illegal} is not legal in Duel Monsters 6 Expert 2 (GBA) on 2026-06-01" in warning[0]
    assert all(c in warning[0] for c in codes), (codes, warning)
    assert "the sheet was written anyway" in warning[0]
    out2 = tmp_path / "legal.pdf"
    assert (
        main(["sheet", str(EXAMPLE), "-f", "dm6", "--date", "2026-06-01", "--out", str(out2)]) == 0
    )
    assert "warning" not in capsys.readouterr().err
