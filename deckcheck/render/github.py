"""GitHub Actions workflow commands: one ``::error``/``::warning`` annotation per finding.

Data is escaped for ``%``, CR and LF, properties also for ``:`` and ``,`` (card names such as
"Maxx "C"" or "Sky Striker Mobilize - Engage!" and file names may hold them).
"""

from __future__ import annotations

from deckcheck.render.base import Renderer
from deckcheck.render.common import one_line
from deckcheck.report import DeckReport


def escape_data(text: str) -> str:
    # Other control characters (and U+2028/U+2029, which some viewers break on) are shown
    # as escapes: a name can never end the annotation and start a line of its own.
    return one_line(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubRenderer(Renderer):
    def deck(self, report: DeckReport) -> None:
        for f in report.findings:
            props = [f"file={escape_property(report.input)}"]
            if f.line is not None:
                props.append(f"line={f.line}")
            props.append(f"title={escape_property(f'{f.code} {f.rule}')}")
            self.out.write(f"::{f.severity} {','.join(props)}::{escape_data(f.message)}\n")
