"""The app's dialogs: the format and date (``f``), the question before quitting with unsaved
edits (``q``), and the choice when the file changed on disk since it was read (a save)."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 70; max-width: 100%; height: auto; max-height: 100%;
    border: thick $accent; background: $surface; padding: 0 1;
}}
{name} Label {{ width: 100%; margin-bottom: 1; }}
{name} Horizontal {{ height: auto; width: 100%; }}
{name} Button {{ margin-right: 1; min-width: 10; }}
"""


class FormatScreen(ModalScreen[tuple[str, dt.date] | None]):
    """``f``: another format or event date; returns (format id, date) or None."""

    DEFAULT_CSS = (
        _DIALOG_CSS.format(name="FormatScreen")
        + """
    FormatScreen Select { width: 100%; margin-bottom: 1; }
    FormatScreen Input { width: 100%; margin-bottom: 1; }
    FormatScreen #format-error { color: $error; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, formats: dict[str, Any], current: str, date: dt.date):
        super().__init__()
        self.formats = formats
        self.current = current
        self.date = date

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Check the deck in which format, on which date?")
            yield Select(
                [(f"{fid}  {fmt.name}", fid) for fid, fmt in sorted(self.formats.items())],
                value=self.current,
                allow_blank=False,
                id="format-select",
            )
            yield Input(self.date.isoformat(), placeholder="YYYY-MM-DD", id="format-date")
            yield Label("", id="format-error")
            with Horizontal():
                yield Button("Check", variant="primary", id="ok")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#format-select", Select).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._done()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self._done()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _done(self) -> None:
        from deckcheck import dates

        text = self.query_one("#format-date", Input).value.strip()
        try:
            day = dates.parse_date(text)
        except ValueError:
            day = None
        if day is None:
            self.query_one("#format-error", Label).update(f"{text!r} is not a date (YYYY-MM-DD)")
            return
        fid = self.query_one("#format-select", Select).value
        self.dismiss((str(fid), day))


class _ChoiceScreen(ModalScreen[str]):
    """A question answered by one of its buttons or keys: dismissed with the button's id
    (for a key, the argument of its ``choose`` binding)."""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class QuitScreen(_ChoiceScreen):
    """``q`` with unsaved edits: "save" (then quit), "quit" (discard), or "cancel"."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="QuitScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose('cancel')", "Cancel"),
        Binding("s", "choose('save')", "Save and quit"),
        Binding("d", "choose('quit')", "Discard and quit"),
    ]

    def __init__(self, what: str):
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.what} has unsaved edits.")
            with Horizontal():
                yield Button("Save and quit (s)", variant="primary", id="save")
                yield Button("Discard and quit (d)", variant="error", id="quit")
                yield Button("Cancel (esc)", id="cancel")


class ConflictScreen(_ChoiceScreen):
    """A save found the file changed on disk: "reload" (read it again and apply this
    session's edits to it), "overwrite" (write this deck over it), or "cancel"."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="ConflictScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose('cancel')", "Cancel"),
        Binding("r", "choose('reload')", "Reload"),
        Binding("o", "choose('overwrite')", "Overwrite"),
    ]

    def __init__(self, message: str):
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.message)
            yield Label(
                "Reload reads the file as it is now and applies your unsaved edits to it, "
                "card by card; Overwrite writes your deck over it."
            )
            with Horizontal():
                yield Button("Reload (r)", variant="primary", id="reload")
                yield Button("Overwrite (o)", variant="error", id="overwrite")
                yield Button("Cancel (esc)", id="cancel")


__all__ = ["ConflictScreen", "FormatScreen", "QuitScreen"]
