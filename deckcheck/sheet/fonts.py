"""Which font file a sheet embeds for a language, and the one clear error when it is missing.

Fonts come from Debian packages (installed by ``.ci/run``); nothing is downloaded. Latin
languages use DejaVu Sans when installed (it has the ★, α, Ω of some card names), else the
PDF core font Helvetica for names it can encode; Japanese, Korean and Chinese need
WenQuanYi Micro Hei (Apache-2.0, or GPL-3+ with a font embedding exception).
"""

from __future__ import annotations

import os

from deckcheck.errors import DataError
from deckcheck.records import Record, record

LANGS = ("en", "de", "fr", "it", "es", "pt", "ja", "ko", "zh-CN", "zh-TW")
CJK = ("ja", "ko", "zh-CN", "zh-TW")


@record
class FontFile(Record):
    """A font to embed: its file (a face of a .ttc collection), package and licence."""

    path: str
    family: str
    package: str
    licence: str
    collection_index: int = 0


#: candidates per script, best first (Debian's paths)
CANDIDATES: dict[str, tuple[FontFile, ...]] = {
    "latin": (
        FontFile(
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "DejaVuSans",
            "fonts-dejavu-core",
            "Bitstream Vera / DejaVu licence (free, embedding allowed)",
        ),
    ),
    "cjk": (
        FontFile(
            "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
            "WenQuanYiMicroHei",
            "fonts-wqy-microhei",
            "Apache-2.0 or GPL-3+ with font embedding exception",
        ),
    ),
}
#: DECKCHECK_SHEET_FONT=/path/to/font.ttf picks another font (any system, any script)
ENV = "DECKCHECK_SHEET_FONT"


def script_of(lang: str) -> str:
    return "cjk" if lang in CJK else "latin"


def find_font(lang: str) -> FontFile | None:
    """The font to embed for ``lang``; None means the core font Helvetica (Latin only).

    Raises DataError naming the Debian package when a CJK language has no font installed.
    """
    override = os.environ.get(ENV)
    if override:
        if not os.path.isfile(override):
            raise DataError(f"{ENV} names {override!r}, which is not a file")
        return FontFile(override, "SheetFont", "(DECKCHECK_SHEET_FONT)", "as its author says")
    script = script_of(lang)
    for font in CANDIDATES[script]:
        if os.path.isfile(font.path):
            return font
    if script == "latin":
        return None
    want = CANDIDATES[script][0]
    raise DataError(
        f"a {lang} decklist needs a font with Chinese, Japanese and Korean characters: install "
        f"the Debian package {want.package} (apt-get install {want.package}), which provides "
        f"{want.path}, or set {ENV} to a .ttf/.ttc file"
    )


def fallback_for_latin() -> FontFile | None:
    """A font for names Helvetica cannot encode when DejaVu is missing (any installed CJK font)."""
    for font in CANDIDATES["cjk"]:
        if os.path.isfile(font.path):
            return font
    return None
