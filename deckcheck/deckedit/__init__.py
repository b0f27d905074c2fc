"""Deck building: load a deck file for editing, add/remove/move cards keeping the file's own
format and layout, check the deck before and after, group it by card kind, and opening-hand
odds (exact hypergeometric).

The package: ``cards`` (which card, artwork identity, where it belongs), ``files`` (load,
save, file kinds), ``editors`` (one line editor per file kind), ``operations`` (add, remove,
move, section choice), ``check`` (validation before and after an edit), ``stats`` (grouping,
composition, odds), ``session`` (database, index, date and format of a run). The names
below are the public API.
"""

from __future__ import annotations

from deckcheck.deckedit.cards import (
    SECTION_LABEL,
    EditError,
    NotResolved,
    art_root,
    card_in_deck,
    copies_of,
    goes_to_extra,
    home_section,
    is_passcode,
    resolve_card,
    tally,
)
from deckcheck.deckedit.check import Check, Checked, check, checked_edit, new_findings
from deckcheck.deckedit.editors import (
    EDITORS,
    Editor,
    TextEditor,
    YdkEditor,
    YdkeEditor,
    editor_for,
)
from deckcheck.deckedit.files import (
    KINDS,
    DeckFile,
    create,
    format_hint,
    format_id_for,
    kind_for_path,
    load,
    new_text,
    parse_text,
    save,
)
from deckcheck.deckedit.operations import Change, add, check_target, move, pick_section, remove
from deckcheck.deckedit.session import Session
from deckcheck.deckedit.stats import (
    ATTRIBUTES,
    EXTRA_KINDS,
    GROUP_SEP,
    RACES,
    Group,
    Line,
    Odds,
    card_odds,
    composition,
    group_odds,
    grouped,
    kind_of_card,
    main_copies,
    named_group_odds,
    p_at_least_one,
    p_each,
    p_exactly,
    split_group,
)

__all__ = [
    "p_each",
    "ATTRIBUTES", "EDITORS", "EXTRA_KINDS", "GROUP_SEP", "KINDS", "RACES", "SECTION_LABEL",
    "Change", "Check", "Checked", "DeckFile", "EditError", "Editor", "Group", "Line",
    "NotResolved", "Odds", "Session", "TextEditor", "YdkEditor", "YdkeEditor", "add", "art_root",
    "card_in_deck", "card_odds", "check", "check_target", "checked_edit", "composition",
    "copies_of", "create", "editor_for", "format_hint", "format_id_for", "goes_to_extra",
    "group_odds", "grouped", "home_section", "is_passcode", "kind_for_path", "kind_of_card",
    "load", "main_copies", "move", "named_group_odds", "new_findings", "new_text",
    "p_at_least_one", "p_exactly", "parse_text", "pick_section", "remove", "resolve_card", "save",
    "split_group", "tally",
]  # fmt: skip
