"""Every key and pane of the deck editor, driven by Textual's pilot on the built-in sample
(SPEC.md §8: the keys and the focus rules are an interface)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input, OptionList, Static

from deckcheck import deckedit
from tests.tui.conftest import (
    B_E_ULTIMATE,
    DATE,
    KURIBOH,
    OBELISK,
    POT,
    drive,
    open_builder,
)


def text_of(app: Any, selector: str) -> str:
    w = app.screen.query_one(selector, Static)
    return str(w.render())


def focused_id(app: Any) -> str | None:
    return app.focused.id if app.focused is not None else None


async def search(app: Any, pilot: Any, text: str, typed: bool = False) -> None:
    """``/``, the text (typed key by key, or pasted), and the debounced search shown."""
    before = app.editor_screen.searches
    if focused_id(app) != "search":
        await pilot.press("slash")
    if typed:
        await pilot.press(*text)
    else:
        box = app.screen.query_one("#search", Input)
        box.insert_text_at_cursor(text)
    for _ in range(50):
        await pilot.pause(0.02)
        if app.editor_screen.searches > before and not app.editor_screen.search_pending:
            return
    raise AssertionError("the search was not shown")


async def highlight(app: Any, pilot: Any, section: str, card_id: int) -> None:
    """Put the deck's highlight on a card (the test does with the list what the arrow
    keys do)."""
    deck = app.screen.query_one("#deck", OptionList)
    deck.focus()
    deck.highlighted = deck.get_option_index(f"{section}:{card_id}")
    await pilot.pause()


def held(app: Any) -> dict[tuple[str, int], int]:
    return dict(+deckedit.tally(app.builder.df.deck))


def test_opens_with_focus_on_the_deck_and_every_pane_drawn(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        assert isinstance(app.focused, OptionList) and focused_id(app) == "deck"
        status = text_of(app, "#status")
        assert "deck.ydk (ydk)" in status and "2002-08-01" in status and "2002.07 DM6" in status
        findings = text_of(app, "#findings")
        assert "illegal: 3 problems" in findings
        assert "main:31 DC403 [limited] Pot of Greed (55144522): 2 copies" in findings
        await pilot.pause(0.2)  # the card pane follows the highlight a moment later
        assert "Blue-Eyes White Dragon" in text_of(app, "#card")
        stats = text_of(app, "#stats")
        assert "Blue-Eyes White Dragon: 3 in Main" in stats and "33.8% (5)" in stats
        deck = app.screen.query_one("#deck", OptionList)
        prompts = [str(deck.get_option_at_index(i).prompt) for i in range(deck.option_count)]
        assert prompts[0].startswith("Main Deck 40") and "at least 40" in prompts[0]
        assert "  2 Pot of Greed  Limited" in prompts
        assert "  1 Obelisk the Tormentor  not in pool" in prompts  # card show: not released

    drive(open_builder(deck_file), script)


def test_letters_type_into_the_search_box_and_results_follow(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await search(app, pilot, "sqmf-q", typed=True)  # none of these act in the box
        box = app.screen.query_one("#search", Input)
        assert box.value == "sqmf-q" and app.is_running and not app.builder.dirty
        box.value = ""
        await search(app, pilot, "pot of", typed=True)
        names = [r.name for r in app.editor_screen.results]
        assert names[0] == "Pot of Greed"
        table = app.screen.query_one("#results", DataTable)
        assert str(table.get_row_at(0)[-1]) == "Limited"  # the status, in words
        assert "3 card(s)" in str(app.screen.query_one("#searchbox").border_subtitle)

    drive(open_builder(deck_file), script)


def test_a_change_after_a_pause_searches_at_once_a_burst_waits_for_the_box_to_be_still(
    deck_file: Path,
) -> None:
    async def script(app: Any, pilot: Any) -> None:
        screen = app.editor_screen
        await pilot.press("slash")
        await pilot.pause(2 * screen.DEBOUNCE)
        box = app.screen.query_one("#search", Input)
        before = screen.searches
        box.insert_text_at_cursor("pot of")  # after a pause: no debounce timer
        await pilot.pause(0)
        assert screen._search_timer is None
        for _ in range(50):
            if screen.searches > before and not screen.search_pending:
                break
            await pilot.pause(0.005)
        assert screen.searches == before + 1
        assert screen.results[0].name == "Pot of Greed"
        # a burst: each change within DEBOUNCE of the last one; one search, of the last text
        box.value = ""
        box.insert_text_at_cursor("ultimate")
        box.insert_text_at_cursor(" dragon")
        await pilot.pause(0)
        assert screen._search_timer is not None
        await search(app, pilot, "")
        assert "Blue-Eyes Ultimate Dragon" in [r.name for r in screen.results]

    drive(open_builder(deck_file), script)


def test_enter_in_the_box_adds_the_highlighted_result_extra_monsters_to_extra(
    deck_file: Path,
) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await search(app, pilot, "pot of greed")
        await pilot.press("enter")
        assert held(app)[("main", POT)] == 3
        assert "added Pot of Greed to the Main Deck (now 3)" in text_of(app, "#message")
        assert "3 copies" in text_of(app, "#findings")
        box = app.screen.query_one("#search", Input)
        box.value = ""
        await search(app, pilot, "ultimate dragon")
        await pilot.press("down", "up")  # the arrows move the results' highlight
        await pilot.press("enter")
        assert held(app)[("extra", B_E_ULTIMATE)] == 2
        assert focused_id(app) == "search"  # still typing

    drive(open_builder(deck_file), script)


def test_tab_and_esc_leave_the_box_then_single_letters_act(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await search(app, pilot, "kuriboh")
        await pilot.press("tab")
        assert focused_id(app) == "results"
        await pilot.press("s")  # add the highlighted result to the Side Deck
        assert held(app)[("side", KURIBOH)] == 1
        await pilot.press("enter")  # one copy to where it belongs
        assert held(app)[("main", KURIBOH)] == 3
        await pilot.press("tab")
        assert focused_id(app) == "deck"
        await pilot.press("tab")
        assert focused_id(app) == "results"
        await pilot.press("slash")
        assert focused_id(app) == "search"
        await pilot.press("escape")
        assert focused_id(app) == "results"

    drive(open_builder(deck_file), script)


def test_minus_and_m_act_on_the_highlighted_deck_card(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus")
        assert ("main", OBELISK) not in held(app)
        assert "DC402" not in text_of(app, "#findings")
        await highlight(app, pilot, "main", POT)
        await pilot.press("m")
        assert held(app)[("side", POT)] == 1 and held(app)[("main", POT)] == 1
        await highlight(app, pilot, "side", POT)
        await pilot.press("m")  # back from the Side Deck
        assert held(app)[("main", POT)] == 2 and ("side", POT) not in held(app)
        await pilot.press("s")  # the highlighted deck card, a copy to the Side Deck
        assert held(app)[("side", POT)] == 1
        await highlight(app, pilot, "main", KURIBOH)
        await pilot.press("enter")  # one more copy where it is
        assert held(app)[("main", KURIBOH)] == 3

    drive(open_builder(deck_file), script)


def test_ctrl_z_undoes_and_ctrl_y_redoes_every_edit_even_from_the_box(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        start = held(app)
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus")
        await search(app, pilot, "pot of greed")
        await pilot.press("enter")
        await pilot.press("ctrl+z")  # in the search box: undo, not the box's own
        assert held(app)[("main", POT)] == 2
        assert app.screen.query_one("#search", Input).value == "pot of greed"
        await pilot.press("ctrl+z")
        assert held(app) == start and not app.builder.dirty
        await pilot.press("ctrl+y", "ctrl+y")
        assert held(app)[("main", POT)] == 3 and ("main", OBELISK) not in held(app)
        assert "redone" in text_of(app, "#message")

    drive(open_builder(deck_file), script)


def test_ctrl_s_saves_all_of_it_and_the_status_says_so(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus")
        assert "unsaved" in text_of(app, "#status")
        await pilot.press("ctrl+s")
        assert "saved deck.ydk" in text_of(app, "#message")
        assert "unsaved" not in text_of(app, "#status")

    drive(open_builder(deck_file), script)
    text = deck_file.read_text()
    assert text.startswith("#created by deckcheck examples\n") and str(OBELISK) not in text


def test_f_changes_format_and_date(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await pilot.press("f")
        from deckcheck.tui.screens import FormatScreen

        assert isinstance(app.screen, FormatScreen)
        from textual.widgets import Select

        app.screen.query_one("#format-select", Select).value = "legacy"
        box = app.screen.query_one("#format-date", Input)
        box.value = "not a date"
        box.focus()
        await pilot.press("enter")
        assert isinstance(app.screen, FormatScreen)  # refused, said in the dialog
        assert "is not a date" in str(app.screen.query_one("#format-error").render())
        box.value = "2010-01-01"
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, FormatScreen)
        assert app.builder.checking.fmt.id == "legacy"
        assert app.builder.checking.date == dt.date(2010, 1, 1)
        assert "Legacy" in text_of(app, "#status") and "2010-01-01" in text_of(app, "#status")
        assert "DC402" not in text_of(app, "#findings")
        await pilot.press("f", "escape")  # cancelled: nothing changes
        assert app.builder.checking.fmt.id == "legacy"

    drive(open_builder(deck_file), script)


def test_q_quits_at_once_without_edits(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running

    drive(open_builder(deck_file), script)


def test_q_asks_with_unsaved_edits(deck_file: Path) -> None:
    from deckcheck.tui.screens import QuitScreen

    original = deck_file.read_text()

    async def cancel_then_discard(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus", "q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")
        assert app.is_running and not isinstance(app.screen, QuitScreen)
        await pilot.press("q", "d")
        await pilot.pause()
        assert not app.is_running

    drive(open_builder(deck_file), cancel_then_discard)
    assert deck_file.read_text() == original

    async def save_and_quit(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus", "ctrl+q", "s")
        await pilot.pause()
        assert not app.is_running

    drive(open_builder(deck_file), save_and_quit)
    assert str(OBELISK) not in deck_file.read_text()


def test_a_file_changed_on_disk_asks_reload_or_overwrite(deck_file: Path) -> None:
    from deckcheck.cli import main
    from deckcheck.tui.screens import ConflictScreen

    async def script(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus")
        assert main(["deck", "add", str(deck_file), str(KURIBOH), "-f", "dm6"]) == 0
        theirs = deck_file.read_text()
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ConflictScreen)
        assert deck_file.read_text() == theirs  # nothing written yet
        await pilot.press("escape")
        assert "not saved" in text_of(app, "#message")
        await pilot.press("ctrl+s", "r")  # reload: their edit and mine
        await pilot.pause()
        assert held(app)[("main", KURIBOH)] == 3 and ("main", OBELISK) not in held(app)
        await pilot.press("ctrl+s")
        assert "saved" in text_of(app, "#message")

    drive(open_builder(deck_file), script)
    text = deck_file.read_text()
    assert text.count(str(KURIBOH)) == 3 and str(OBELISK) not in text


def test_overwrite_from_the_dialog(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "main", OBELISK)
        await pilot.press("minus")
        deck_file.write_text("#main\n")
        await pilot.press("ctrl+s", "o")
        await pilot.pause()

    app = drive(open_builder(deck_file), script)
    assert deck_file.read_text() == app.builder.df.text  # this session's deck, whole


def test_read_only_deck_refuses_edits_and_saving(workdir: Path) -> None:
    Path("bad.ydk").write_text(f"#main\n{POT}\nnot a passcode\n", encoding="utf-8")

    async def script(app: Any, pilot: Any) -> None:
        assert "read-only" in text_of(app, "#status")
        assert "DC101" in text_of(app, "#findings")
        await highlight(app, pilot, "main", POT)
        await pilot.press("minus")
        assert "read-only" in text_of(app, "#message") and held(app)[("main", POT)] == 1
        await pilot.press("ctrl+s")
        assert "not saved" in text_of(app, "#message")
        Path("bad.ydk").write_text(f"#main\n{POT}\n", encoding="utf-8")
        await pilot.press("ctrl+r")  # fixed in the file: read again, editable
        assert "read-only" not in text_of(app, "#status")
        await highlight(app, pilot, "main", POT)
        await pilot.press("minus")
        assert ("main", POT) not in held(app)

    drive(open_builder("bad.ydk"), script)


def test_the_empty_findings_pane_says_legal_in_format_on_date(legal_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        assert text_of(app, "#findings") == (
            "legal in Duel Monsters 6 Expert 2 (GBA) on 2002-08-01 "
            "(2002.07 DM6, effective 2002-07-01)"
        )

    drive(open_builder(legal_file), script)


def test_card_pane_gives_card_shows_answer(deck_file: Path) -> None:
    from deckcheck.cli import main

    async def script(app: Any, pilot: Any) -> None:
        await highlight(app, pilot, "extra", B_E_ULTIMATE)
        await pilot.pause(0.2)
        card = text_of(app, "#card")
        assert card.startswith(f"Blue-Eyes Ultimate Dragon  {B_E_ULTIMATE}\nUnlimited")
        assert "Fusion · 4500/3800" in card and "ja 青眼の究極竜" in card
        stats = text_of(app, "#stats")
        assert "0 in Main" in stats and "Extra: 2 fusion" in stats

    drive(open_builder(deck_file), script)
    assert main(["card", "show", str(B_E_ULTIMATE), "-d", DATE.isoformat()]) == 0


def test_mouse_click_highlights_then_a_second_click_adds(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await search(app, pilot, "pot of")
        second = app.editor_screen.results[1].card_id
        table = app.screen.query_one("#results", DataTable)
        await pilot.click(table, offset=(3, 3))  # the second card (two lines a card)
        assert focused_id(app) == "results" and ("main", second) not in held(app)
        assert app.editor_screen.highlighted_result().card_id == second
        await pilot.click(table, offset=(3, 3))
        assert held(app)[("main", second)] == 1
        deck = app.screen.query_one("#deck", OptionList)
        before = held(app)
        await pilot.click(deck, offset=(4, 3))
        assert focused_id(app) == "deck" and held(app) == before  # a click edits nothing

    drive(open_builder(deck_file), script)


def test_a_query_of_the_search_language_and_a_bad_one(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await search(app, pilot, "t:fusion atk>=4000")
        names = [r.name for r in app.editor_screen.results]
        assert "Blue-Eyes Ultimate Dragon" in names
        assert all(r.kind == "Fusion" for r in app.editor_screen.results)
        app.screen.query_one("#search", Input).value = ""
        await search(app, pilot, "atk>=x")
        assert app.editor_screen.results == []
        assert "whole number" in str(app.screen.query_one("#searchbox").border_subtitle)

    drive(open_builder(deck_file), script)


def test_80x24_shows_every_pane(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        await search(app, pilot, "pot")
        for sel in ("#search", "#results", "#deck", "#card", "#findings", "#stats"):
            w = app.screen.query_one(sel)
            assert w.region.width > 10 and w.region.height >= 1, sel
        table = app.screen.query_one("#results", DataTable)
        assert [c.label.plain for c in table.columns.values()] == ["Card", "Status"]

    drive(open_builder(deck_file), script, size=(80, 24))


def test_a_new_deck_is_created_on_save(workdir: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        assert "new file" in text_of(app, "#status")
        await search(app, pilot, "pot of greed")
        await pilot.press("enter", "ctrl+s")

    drive(open_builder("fresh.ydk"), script)
    assert f"#main\n{POT}\n" in Path("fresh.ydk").read_text()
