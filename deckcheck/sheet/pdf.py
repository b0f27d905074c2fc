"""The decklist sheet drawn as a PDF (fpdf2) in the layout of Konami's TCG decklist.

Player block; Monster, Spell and Trap columns of 18 rows with counts; Extra Deck and Side
Deck boxes of 15 rows; totals per section and the Main Deck total. A deck with more cards
of one kind than rows continues on further pages of the same layout (never dropped); the
totals on every page are the whole deck's. Long names shrink, then narrow, to fit a row.
"""

from __future__ import annotations

import os
from typing import Any

from deckcheck.errors import DataError
from deckcheck.sheet.data import MAIN_ROWS, SIDE_ROWS, TOTALS, Line, Player, Sheet
from deckcheck.sheet.fonts import CANDIDATES, FontFile, fallback_for_latin, find_font

PAGE_W, PAGE_H = 215.9, 279.4  # US Letter, as Konami's TCG decklist (mm)
M = 10.0  # page margin
ROW = 5.3  # height of one card row
GAP = 3.0
HEAD = 6.0  # a section's title bar
SUB = 4.5  # the "Qty | Card Name" line
QTY = 9.0  # width of the count column
TITLES = {
    "monster": "Monster Cards",
    "spell": "Spell Cards",
    "trap": "Trap Cards",
    "extra": "Extra Deck",
    "side": "Side Deck",
}


def _texts(sheet: Sheet, player: Player) -> list[str]:
    out = [
        ln.name for k in ("monster", "spell", "trap", "extra", "side") for ln in getattr(sheet, k)
    ]
    return [
        *out,
        player.first_middle,
        player.last,
        player.card_game_id,
        player.country,
        player.event,
    ]


def _latin1(texts: list[str]) -> bool:
    try:
        for t in texts:
            t.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def pick_font(sheet: Sheet, player: Player) -> FontFile | None:
    """The font for this sheet: the language's, else Helvetica when every name fits it."""
    font = find_font(sheet.lang)
    if font is None and not _latin1(_texts(sheet, player)):
        font = fallback_for_latin()
        if font is None:
            want = CANDIDATES["latin"][0]
            raise DataError(
                "a card or player name has characters the PDF core font lacks: install the "
                f"Debian package {want.package} (apt-get install {want.package})"
            )
    return font


class _Drawer:
    def __init__(self, font: FontFile | None):
        from fpdf import FPDF

        pdf = FPDF(orientation="portrait", unit="mm", format="letter")
        pdf.set_auto_page_break(False)
        pdf.set_margins(M, M, M)
        pdf.set_creator("deckcheck")
        if font is not None:
            pdf.add_font(font.family, "", font.path, collection_font_number=font.collection_index)
            bold = font.path.replace(".ttf", "-Bold.ttf")
            if not (font.path.endswith(".ttf") and os.path.isfile(bold)):
                bold = font.path  # no bold face: the regular one, so every style is defined
            pdf.add_font(font.family, "B", bold, collection_font_number=font.collection_index)
            self.family = font.family
            # A player name or a card name in another script than the sheet's language
            # (a Japanese name on an English sheet) is drawn from the CJK font, not lost.
            extra = fallback_for_latin()
            if extra is not None and extra.path != font.path:
                pdf.add_font(extra.family, "", extra.path, collection_font_number=0)
                pdf.add_font(extra.family, "B", extra.path, collection_font_number=0)
                pdf.set_fallback_fonts([extra.family])
        else:
            self.family = "Helvetica"
        self.pdf: Any = pdf

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)

    def text(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        s: str,
        size: float = 8.0,
        bold: bool = False,
        align: str = "L",
        min_size: float = 5.5,
    ) -> None:
        """``s`` in the box, shrunk and then narrowed until it fits (never cut)."""
        pdf = self.pdf
        room = w - 1.2
        self.font(size, bold)
        while pdf.get_string_width(s) > room and size > min_size:
            size -= 0.25
            self.font(size, bold)
        width = pdf.get_string_width(s)
        stretch = 100.0
        if width > room:
            stretch = max(45.0, 100.0 * room / width)
            pdf.set_stretching(stretch)
        pdf.set_xy(x + 0.6, y)
        pdf.cell(w - 1.2, h, s, align=align)
        if stretch != 100.0:
            pdf.set_stretching(100)

    def box(self, x: float, y: float, w: float, h: float, fill: bool = False) -> None:
        if fill:
            self.pdf.set_fill_color(225, 228, 232)
        self.pdf.rect(x, y, w, h, style="DF" if fill else "D")

    def labelled(self, x: float, y: float, w: float, label: str, value: str) -> None:
        self.box(x, y, w, 11)
        self.pdf.set_text_color(90, 90, 90)
        self.text(x, y + 0.3, w, 3.5, label, 6)
        self.pdf.set_text_color(0, 0, 0)
        self.text(x, y + 4.5, w, 6, value, 10)


def _date(player: Player) -> str:
    d = player.date
    return f"{d.month:02d} / {d.day:02d} / {d.year:04d}" if d else "   /    /"


def _section(
    d: _Drawer,
    x: float,
    y: float,
    w: float,
    key: str,
    lines: tuple[Line, ...],
    rows: int,
    page: int,
    total: int,
) -> float:
    d.box(x, y, w, HEAD, fill=True)
    d.text(x, y, w, HEAD, TITLES[key], 9, bold=True)
    y += HEAD
    d.box(x, y, QTY, SUB)
    d.box(x + QTY, y, w - QTY, SUB)
    d.text(x, y, QTY, SUB, "Qty", 6, align="C")
    d.text(x + QTY, y, w - QTY, SUB, "Card Name", 6)
    y += SUB
    chunk = lines[page * rows : (page + 1) * rows]
    for i in range(rows):
        d.box(x, y, QTY, ROW)
        d.box(x + QTY, y, w - QTY, ROW)
        if i < len(chunk):
            d.text(x, y, QTY, ROW, str(chunk[i].count), 9, align="C")
            d.text(x + QTY, y, w - QTY, ROW, chunk[i].name, 8)
        y += ROW
    d.box(x, y, w - 14, HEAD, fill=True)
    d.text(x, y, w - 14, HEAD, TOTALS[key], 8, bold=True, align="R")
    d.box(x + w - 14, y, 14, HEAD)
    d.text(x + w - 14, y, 14, HEAD, str(total), 10, bold=True, align="C")
    return y + HEAD


def _page(d: _Drawer, sheet: Sheet, player: Player, page: int, pages: int) -> None:
    pdf = d.pdf
    pdf.add_page()
    inner = PAGE_W - 2 * M
    d.text(M, M, inner * 0.7, 7, "Yu-Gi-Oh! TRADING CARD GAME", 14, bold=True)
    d.text(M, M + 7, inner * 0.7, 5, "Decklist registration sheet", 10)
    label = f"Page {page + 1} of {pages}" + (" (continued)" if page else "")
    d.text(M + inner * 0.6, M, inner * 0.4, 7, label, 9, align="R")
    y = M + 14
    d.labelled(M, y, 80, "First & Middle Name(s)", player.first_middle)
    d.labelled(M + 80, y, 75, "Last Name(s)", player.last)
    d.labelled(M + 155, y, inner - 155, "Last Name Initial", player.initial)
    y += 11
    d.labelled(M, y, 50, "CARD GAME ID", player.card_game_id)
    d.labelled(M + 50, y, 45, "Country of Residency", player.country)
    d.labelled(M + 95, y, inner - 95 - 38, "Event Name", player.event)
    d.labelled(M + inner - 38, y, 38, "Event Date (MM/DD/YYYY)", _date(player))
    y += 11 + GAP
    w = (inner - 2 * GAP) / 3
    end = y
    for i, key in enumerate(("monster", "spell", "trap")):
        lines: tuple[Line, ...] = getattr(sheet, key)
        end = _section(d, M + i * (w + GAP), y, w, key, lines, MAIN_ROWS, page, sheet.total(key))
    y = end + 2
    d.box(M + inner - 60, y, 46, 8, fill=True)
    d.text(M + inner - 60, y, 46, 8, "Main Deck Total", 10, bold=True, align="R")
    d.box(M + inner - 14, y, 14, 8)
    d.text(M + inner - 14, y, 14, 8, str(sheet.main_total), 11, bold=True, align="C")
    if pages > 1 and page + 1 < pages:
        d.text(M, y, inner - 62, 8, f"Continued on page {page + 2}: more cards than rows.", 8)
    y += 8 + GAP
    w2 = (inner - GAP) / 2
    for i, key in enumerate(("extra", "side")):
        lines = getattr(sheet, key)
        _section(d, M + i * (w2 + GAP), y, w2, key, lines, SIDE_ROWS, page, sheet.total(key))
    pdf.set_text_color(110, 110, 110)
    foot = f"Made with deckcheck from {os.path.basename(sheet.source)}; card names: {sheet.lang}"
    d.text(M, PAGE_H - 8, inner, 4, foot, 6)
    pdf.set_text_color(0, 0, 0)


def render(sheet: Sheet, player: Player, *, first_page: int = 1) -> bytes:
    """The sheet as PDF bytes; ``first_page`` > 1 leaves out the pages before it
    (used to append the continuation of a filled Konami form)."""
    d = _Drawer(pick_font(sheet, player))
    d.pdf.set_title(f"Decklist: {player.full_name or os.path.basename(sheet.source)}")
    pages = sheet.pages
    for page in range(first_page - 1, pages):
        _page(d, sheet, player, page, pages)
    return bytes(d.pdf.output())
