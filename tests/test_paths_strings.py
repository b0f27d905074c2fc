"""The plain-string path helpers of ``deckcheck.paths`` (what the one-deck ``validate`` uses
instead of ``pathlib``) give what ``pathlib`` gives, on any spelling of a path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import paths

_PARTS = st.sampled_from(["", ".", "..", "a", "b c", "~", "~root", "é", "x.ydk", "\\", ":"])
_PATHS = st.tuples(
    st.sampled_from(["", "/", "//", "///", "./", "~/", "~"]),
    st.lists(_PARTS, max_size=5),
    st.sampled_from(["", "/", "//"]),
).map(lambda t: t[0] + "/".join(t[1]) + t[2])


@settings(max_examples=400, deadline=None)
@given(_PATHS)
def test_str_path_is_str_of_path(p: str) -> None:
    assert paths.str_path(p) == str(Path(p))


@settings(max_examples=300, deadline=None)
@given(_PATHS, st.lists(st.sampled_from(["a", "b c", "x.ydk", "é"]), max_size=3))
def test_join_is_str_of_path_join(folder: str, names: list[str]) -> None:
    base = paths.str_path(folder)
    assert paths.join(base, *names) == str(Path(base, *names))


@settings(max_examples=300, deadline=None)
@given(_PATHS)
def test_expand_user_is_path_expanduser(p: str) -> None:
    try:
        want: str | type[BaseException] = str(Path(p).expanduser())
    except RuntimeError:
        want = RuntimeError
    if want is RuntimeError:
        with pytest.raises(RuntimeError):
            paths.expand_user(p)
    else:
        assert paths.expand_user(p) == want


def test_is_file_is_dir_exists_as_pathlib(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_text("x")
    d = tmp_path / "d"
    d.mkdir()
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for p in (f, d, tmp_path / "missing", f / "under-a-file", tmp_path / "loop"):
        s = str(p)
        assert (paths.is_file(s), paths.is_dir(s), paths.exists(s)) == (
            p.is_file(),
            p.is_dir(),
            p.exists(),
        ), s
    assert paths.exists(os.fspath(tmp_path)) and not paths.is_file("a\x00b")


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=24)
    | st.sampled_from(["a b", "?#%", "/x/y z/é.db", "~/.local/☃", "%41", ""])
)
def test_quote_path_is_urllib_quote(s: str) -> None:
    from urllib.parse import quote

    from deckcheck.sqlite import quote_path

    assert quote_path(s) == quote(s)


def test_ro_uri_opens_a_database_with_an_odd_name(tmp_path: Path) -> None:
    import sqlite3

    from deckcheck import sqlite as dc_sqlite

    path = tmp_path / "a b?#%é.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.execute("INSERT INTO t VALUES (7)")
    con.commit()
    con.close()
    ro = dc_sqlite.connect_ro(path)
    assert ro.execute("SELECT x FROM t").fetchall() == [(7,)]
    with pytest.raises(sqlite3.OperationalError):
        ro.execute("INSERT INTO t VALUES (8)")  # read-only
    ro.close()
