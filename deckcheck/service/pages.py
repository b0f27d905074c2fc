"""The submission pages, rendered on the server (jinja2, autoescaped): plain HTML forms with
inline CSS, no script and nothing fetched from elsewhere, so they work without JavaScript
and behind any proxy."""

from __future__ import annotations

import os
from typing import Any

from deckcheck.service.submissions import MAX_PLAYER


class Pages:
    """The page templates of one app (loaded once, as the app starts)."""

    def __init__(self) -> None:
        import jinja2

        from deckcheck.render.common import markup_text

        self._env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")),
            autoescape=True,
            finalize=markup_text,  # control characters in a name: not valid HTML
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )

    def _render(self, name: str, **values: Any) -> str:
        return str(self._env.get_template(name).render(**values))

    def submit(self, format_name: str, date: str, max_body: int) -> str:
        """The upload form."""
        return self._render(
            "submit.html.j2",
            title="Deck submission",
            format_name=format_name,
            date=date,
            max_player=MAX_PLAYER,
            max_kib=max_body // 1024,
        )

    def verdict(self, player: str, sid: str, check: dict[str, Any]) -> str:
        """What a player sees after a submission: stored as ``sid``, and the verdict."""
        return self._render(
            "verdict.html.j2", title="Deck received", player=player, sid=sid, check=check
        )

    def problem(self, message: str) -> str:
        """Why a submission was refused (nothing stored)."""
        return self._render("problem.html.j2", title="Not submitted", message=message)


__all__ = ["Pages"]
