"""Konami's fillable decklist (``KDE_DeckList.pdf``) filled in through its AcroForm fields (pypdf).

Konami's file cannot ship with deckcheck; the user passes it with ``--template``. Its field
names are fixed (note the two spaces in ``First  Middle Names``). Cards beyond the form's 18
(Monster/Spell/Trap) or 15 (Extra/Side) rows are not dropped: the continuation pages of
deckcheck's own sheet are appended, and the totals always count the whole deck.
"""

from __future__ import annotations

import io
from typing import Any

from deckcheck.errors import InputError
from deckcheck.sheet.data import MAIN_ROWS, SIDE_ROWS, TOTALS, Player, Sheet

PLAYER_FIELDS = (
    "First  Middle Names",
    "Last Names",
    "Last Name Initial",
    "CARD GAME ID",
    "Country of Residency",
    "Event Name",
    "Event Date - Month",
    "Event Date - Day",
    "Event Date - Year",
)
MAIN_TOTAL = "Main Deck Total"


def row_fields(section: str, n: int) -> tuple[str, str]:
    """(name field, count field) of row ``n`` (1-based) of a section, as Konami names them."""
    if section in ("monster", "spell", "trap"):
        label = section.capitalize()
        return f"{label} {n}", f"{label} Card {n} Count"
    label = "Extra Deck" if section == "extra" else "Side Deck"
    return f"{label} {n}", f"{label} {n} Count"


def field_names() -> list[str]:
    """Every field deckcheck fills: a template must have them all."""
    names = list(PLAYER_FIELDS)
    for section in ("monster", "spell", "trap"):
        for n in range(1, MAIN_ROWS + 1):
            names += row_fields(section, n)
    for section in ("extra", "side"):
        for n in range(1, SIDE_ROWS + 1):
            names += row_fields(section, n)
    return names + list(TOTALS.values()) + [MAIN_TOTAL]


def values(sheet: Sheet, player: Player) -> dict[str, str]:
    """The text of every field for ``sheet`` (empty rows are blank)."""
    d = player.date
    out = {
        "First  Middle Names": player.first_middle,
        "Last Names": player.last,
        "Last Name Initial": player.initial,
        "CARD GAME ID": player.card_game_id,
        "Country of Residency": player.country,
        "Event Name": player.event,
        "Event Date - Month": f"{d.month:02d}" if d else "",
        "Event Date - Day": f"{d.day:02d}" if d else "",
        "Event Date - Year": f"{d.year:04d}" if d else "",
    }
    for section, rows in (
        ("monster", MAIN_ROWS),
        ("spell", MAIN_ROWS),
        ("trap", MAIN_ROWS),
        ("extra", SIDE_ROWS),
        ("side", SIDE_ROWS),
    ):
        lines = getattr(sheet, section)
        for n in range(1, rows + 1):
            name_f, count_f = row_fields(section, n)
            line = lines[n - 1] if n <= len(lines) else None
            out[name_f] = line.name if line else ""
            out[count_f] = str(line.count) if line else ""
        out[TOTALS[section]] = str(sheet.total(section))
    out[MAIN_TOTAL] = str(sheet.main_total)
    return out


def fill(template: str, sheet: Sheet, player: Player) -> bytes:
    """Konami's form at ``template`` filled for ``sheet``, continuation pages appended."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(template)
        fields: dict[str, Any] = reader.get_fields() or {}
    except (OSError, PyPdfError, ValueError) as exc:
        raise InputError(f"cannot read the PDF form: {exc}", where=template) from None
    missing = [n for n in field_names() if n not in fields]
    if missing:
        shown = ", ".join(repr(n) for n in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise InputError(
            f"not Konami's fillable decklist: it lacks the field(s) {shown}{more}", where=template
        )
    writer = PdfWriter(clone_from=reader)
    writer.update_page_form_field_values(None, values(sheet, player), auto_regenerate=False)
    writer.set_need_appearances_writer(True)  # viewers redraw the fields in their own fonts
    if sheet.pages > 1:
        from deckcheck.sheet.pdf import render

        more_pages = PdfReader(io.BytesIO(render(sheet, player, first_page=2)))
        for page in more_pages.pages:
            writer.add_page(page)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()
