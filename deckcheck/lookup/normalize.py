"""Folding of card names and queries into one comparable key, across scripts and languages.

What is folded, and why (players type names every which way):

* Unicode NFKC: full-width ``ＡＢＣ１`` and half-width katakana become their usual forms.
* Case folding (``casefold``: German ``ß`` = ``ss``).
* Traditional Chinese to Simplified, character by character (OpenCC's ``TSCharacters``
  table, via the ``opencc-purepy`` package's data file): a query in either script finds a
  name stored in the other. Japanese kanji fold the same way, so ``強欲な壺`` and
  ``强欲之壶`` end up close.
* Japanese shinjitai and common variant kanji (itaiji) that the Traditional table does not
  cover fold to the same Simplified character (``竜``/``龍`` -> ``龙``, ``剣`` -> ``剑``,
  ``闘`` -> ``斗``, ``黒`` -> ``黑``, ``勅`` -> ``敕`` …; ``_ITAIJI`` below).
* Quotes of every kind (``" “ ” „ « » 「 」 『 』 ' ’``), ``! ? ! ? . , : ;`` are dropped;
  ``&`` and ``＆`` read as ``and``; dashes and middle dots (``- － ‐ – — · ・``) are word
  separators.
* The possessive particles 之 的 の are dropped from the key: fan translations and official
  names swap them freely (抹殺的使徒 = 抹殺の使徒).
* Spaces are dropped in the key: "Blue-Eyes", "Blue Eyes" and "BlueEyes" are one key, and a
  Korean or Japanese name matches with or without its spaces.

``normalize`` gives the key; ``normalize_words`` keeps single spaces between words (used for
display of what was matched and for word-level checks).
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

# Characters removed outright (quotes, sentence punctuation, brackets used as quotes).
_DROP = "\"'“”„‟«»‹›「」『』〈〉《》‘’‚‛`´!?¡¿.,:;、。"
# Characters that separate words.
_SPACE = "-‐‑‒–—―−·・･⋅•_/\\~〜～()[]{}（）【】［］＜＞<>"

_SPACES_RE = re.compile(r"\s+")

# Japanese shinjitai / variant kanji -> the Simplified character their Traditional form folds
# to (pairs; only characters absent from OpenCC's TSCharacters table). Japanese names use
# 竜 where Chinese names use 龍/龙, 剣 for 劍/剑, 闘 for 鬥/斗 …: without this a Japanese
# query misses the Chinese name by one character and falls to fuzzy matching.
_ITAIJI = (
    "両两 乗乘 亀龟 亜亚 仏佛 伝传 価价 円圆 処处 剣剑 剤剂 剰剩 労劳 効效 勅敕 勧劝 勲勋 "
    "単单 営营 団团 図图 圏圈 圧压 塩盐 壊坏 壱一 変变 奨奖 姫姬 実实 巣巢 巻卷 帯带 帰归 "
    "庁厅 広广 廃废 弐二 弾弹 従从 徳德 応应 恵惠 悩恼 悪恶 懐怀 戦战 戯戏 戻戾 抜拔 択择 "
    "拝拜 拡扩 挙举 挿插 捜搜 掲揭 揺摇 摂摄 撃击 斉齐 斎斋 晩晚 暁晓 暦历 曽曾 栄荣 桜樱 "
    "桟栈 検检 楽乐 様样 権权 歓欢 歩步 毎每 気气 沢泽 浄净 涙泪 渇渴 渋涩 渓溪 満满 滝泷 "
    "瀬濑 焔焰 焼烧 犠牺 猟猎 獣兽 畳叠 痩瘦 発发 県县 砕碎 稲稻 穂穗 穏稳 窓窗 竜龙 粋粹 "
    "粛肃 糸丝 経经 絵绘 継继 続续 総总 縁缘 縄绳 縦纵 繊纤 聴听 脳脑 臓脏 舎舍 舗铺 芸艺 "
    "荘庄 蔵藏 薫熏 薬药 蛍萤 覇霸 覚觉 覧览 観观 訳译 読读 譲让 豊丰 賎贱 賛赞 転转 軽轻 "
    "辺边 逓递 遅迟 郷乡 酔醉 醤酱 醸酿 釈释 鉄铁 鉱矿 銭钱 鋳铸 錬炼 関关 闘斗 陥陷 険险 "
    "隠隐 隣邻 隷隶 雑杂 霊灵 頼赖 顕显 駅驿 駆驱 騒骚 験验 髄髓 髪发 鬪斗 鶏鸡 麺面 黒黑 "
    "黙默 齢龄"
)


def _opencc_table_path() -> Path | None:
    # Locate the data file without importing opencc_purepy (its import costs ~20 ms).
    spec = importlib.util.find_spec("opencc_purepy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        p = Path(loc) / "dicts" / "TSCharacters.txt"
        if p.is_file():
            return p
    return None


@lru_cache(maxsize=1)
def t2s_table() -> dict[int, str]:
    """Traditional -> Simplified character table (empty if opencc-purepy is missing)."""
    path = _opencc_table_path()
    table: dict[int, str] = {}
    if path is None:
        return table
    with path.open(encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2 or len(parts[0]) != 1:
                continue
            target = parts[1].split(" ")[0]
            if len(target) == 1:
                table[ord(parts[0])] = target
    return table


@lru_cache(maxsize=1)
def _table() -> dict[int, str | None]:
    table: dict[int, str | None] = dict(t2s_table())
    for pair in _ITAIJI.split():
        table.setdefault(ord(pair[0]), pair[1])
    for ch in _DROP:
        table[ord(ch)] = None
    for ch in _SPACE:
        table[ord(ch)] = " "
    table[ord("&")] = " and "
    return table


def normalize_words(text: str) -> str:
    """Folded text with single spaces between words (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    # NFKC may leave a few full-width forms the table above does not list; second pass is cheap.
    text = text.translate(_table())
    return _SPACES_RE.sub(" ", text).strip()


# Possessive particles that Chinese fan names and Japanese names swap freely
# (强引之番兵 / 強引な番兵 ... 抹殺的使徒 / 抹殺の使徒): not part of the key.
_PARTICLES = str.maketrans("", "", "之的の")


def normalize(text: str) -> str:
    """The comparison key of a name or query: folded, without spaces (nor 之 的 の)."""
    key = normalize_words(text).replace(" ", "").translate(_PARTICLES)
    # Dropping a space can bring a combining mark next to a letter (NFKC of "¯" is
    # space + macron): compose again so the key is stable.
    return unicodedata.normalize("NFC", key)


_HANGUL_RE = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_CJK_RE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\U00020000-\U0010ffff]")


def script_of(key: str) -> int:
    """Coarse script class of a key: 0 Latin/other, 1 Han/kana, 2 Hangul.

    Fuzzy matching compares a query only with names of the same class (a Latin typo never
    looks like a Japanese name), which also keeps each comparison set small.
    """
    if key.isascii():
        return 0
    # Counted in C (the index build classifies every name: a Python loop per character
    # was a third of the build).
    hangul = len(_HANGUL_RE.findall(key))
    cjk = len(_CJK_RE.findall(key))  # CJK extension planes too
    if hangul and hangul >= cjk:
        return 2
    if cjk:
        return 1
    return 0


def raw_key(text: str) -> str:
    """A name with only case, width and spacing folded: "written exactly as typed"."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
