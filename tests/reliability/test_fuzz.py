"""Fuzzing: every reader and `deckcheck validate` end to end give a result or one clear error.

Quick profile (default run): a few hundred examples per test. Long profile: ``pytest -m fuzz``
runs the same properties with ``DECKCHECK_FUZZ_EXAMPLES`` examples each (100,000 by default).
The deck readers' own totality properties live in tests/decks/test_decks_props.py and
tests/formats/test_lflist.py; here are the file-level readers (YAML lists and formats, lflist files)
and the whole command on random and mutated real deck files, ydke:// links and text lists.
"""

from __future__ import annotations

import base64
import datetime as dt
import itertools
import os
import shutil
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckcheck.inputs  # noqa: F401  (installs the encoding scorer text lists are read with)
from deckcheck import decks
from deckcheck.cli import main
from deckcheck.decks import ydke
from deckcheck.errors import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK, DeckcheckError
from deckcheck.formats import lflist
from deckcheck.formats.formatfiles import load_formats
from deckcheck.formats.listref import load_list_file
from deckcheck.model import Banlist, Deck
from tests.builders import run_process
from tests.conftest import FIXTURES, REPO, SHARED_DATA
from tests.reliability import fuzzcount
from tests.reliability.fuzzcount import fuzz_counts_printed  # noqa: F401 (autouse)

HOSTILE = FIXTURES / "hostile"
QUICK = 100
LONG = int(os.environ.get("DECKCHECK_FUZZ_EXAMPLES", "100000"))
_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


def fuzz(strategy: st.SearchStrategy[Any], quick: int = QUICK) -> Callable[..., Any]:
    """``test_x, test_x_long = fuzz(strategy)(body)``: a quick test and its -m fuzz twin."""

    def deco(body: Callable[..., None]) -> tuple[Any, Any]:
        def make(n: int) -> Any:
            # database=None: examples are not saved under the working tree.
            cfg = settings(
                max_examples=n, deadline=None, database=None, suppress_health_check=_HEALTH
            )
            return cfg(given(strategy)(body))

        return make(quick), pytest.mark.fuzz(make(LONG))

    return deco


_counter = itertools.count()


def fresh(folder: Path, suffix: str) -> Path:
    """A new file name per example (caches keyed on stat must never mix two examples)."""
    return folder / f"f{next(_counter)}{suffix}"


# --------------------------------------------------------------------------- mutations

_JUNK = st.one_of(
    st.binary(max_size=12),
    st.sampled_from(
        [
            b"\x00",
            b"\xff\xfe",
            b"\r",
            b"\n#main\n",
            b"!side\n",
            b"#extra",
            b"\xe2\x80\xa8",
            b"\xef\xbb\xbf",
            b"9" * 60,
            b"-1",
            b" x3",
            b"ydke://",
            b"!",
            b"\t",
            b"&a *a",
            b"[",
            b"{",
            b": ",
            b"- ",
            b"\xc3",
            b"\x85",
            b"0" * 12,
            b"4294967296",
        ]
    ),
)
_OP = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 1 << 20), st.integers(0, 7)),
    st.tuples(st.just("truncate"), st.integers(0, 1 << 20)),
    st.tuples(st.just("dup"), st.integers(0, 1 << 12), st.integers(1, 40)),
    st.tuples(st.just("insert"), st.integers(0, 1 << 20), _JUNK),
    st.tuples(st.just("delete"), st.integers(0, 1 << 20), st.integers(1, 64)),
)
_OPS = st.lists(_OP, min_size=1, max_size=6)


_MAX_MUTANT = 1024 * 1024 + 4096


def mutate(data: bytes, ops: list[tuple[Any, ...]]) -> bytes:
    """Byte flips, truncation, line duplication, inserted junk and deletions."""
    b = bytearray(data)
    for op in ops:
        if op[0] == "flip" and b:
            b[op[1] % len(b)] ^= 1 << op[2]
        elif op[0] == "truncate":
            del b[op[1] % (len(b) + 1) :]
        elif op[0] == "dup":
            lines = bytes(b).splitlines(keepends=True)
            if lines:
                i = op[1] % len(lines)
                lines[i:i] = [lines[i]] * op[2]
                # Repeated duplication of a one-line file grows as 40**k: keep it just past
                # the 1 MiB deck limit (the size refusal is still exercised).
                b = bytearray(b"".join(lines)[:_MAX_MUTANT])
        elif op[0] == "insert":
            i = op[1] % (len(b) + 1)
            b[i:i] = op[2]
        elif op[0] == "delete" and b:
            i = op[1] % len(b)
            del b[i : i + op[2]]
    return bytes(b)


def _seed_decks() -> list[Path]:
    found = sorted((SHARED_DATA / "decks").glob("*/*.ydk")) if SHARED_DATA else []
    found += sorted((REPO / "examples").glob("*/*.*"))
    return [p for p in found if p.suffix in (".ydk", ".txt")]


SEED_DECKS = _seed_decks()
SEED_LISTS = sorted((REPO / "banlists").glob("*/*.yaml"))
SEED_FORMATS = sorted((REPO / "banlists" / "formats").glob("*.yaml"))
SEED_CONFS = [*sorted((FIXTURES / "lflist").glob("*.conf")), HOSTILE / "tiny.lflist.conf"]


# --------------------------------------------------------------------------- outcomes


def check_outcome(rc: int, out: str, err: str) -> None:
    """A report with exit 0/1, or exactly one `deckcheck: error:` line with exit 2."""
    assert "Traceback" not in err and "internal error" not in err, err
    errors = [ln for ln in err.splitlines() if ln.startswith("deckcheck: error:")]
    if rc == EXIT_ERROR:
        assert len(errors) == 1 and out == "", (out, err)
    else:
        assert rc in (EXIT_OK, EXIT_ILLEGAL), (rc, err)
        assert errors == [] and out, (out, err)


def reader_outcome(read: Callable[[], Any], kinds: tuple[type, ...], reader: str = "") -> Any:
    """The reader returns one of ``kinds`` or raises a one-line DeckcheckError (anything else
    is an internal error and fails the test); ``reader`` counts the input (fuzzcount)."""
    try:
        got = read()
    except DeckcheckError as exc:
        assert str(exc) and "\n" not in str(exc) and "\r" not in str(exc), str(exc)
        if reader:
            fuzzcount.count(reader, True)
        return None
    assert isinstance(got, kinds), type(got)
    if reader:
        fuzzcount.count(reader, False)
    return got


# --------------------------------------------------------------------------- YAML lists

_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.dates(),
    st.sampled_from(["tcg", "blacklist", "whitelist", "2025-04-01", "0", "-1", "~", "null"]),
)
_VALUE = st.recursive(
    _SCALAR,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=12,
)
_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "id": st.one_of(st.integers(-5, 2**40), _SCALAR),
        "card": st.one_of(st.text(max_size=15), _SCALAR),
        "name": _SCALAR,
        "limit": st.one_of(st.integers(-2, 5), _SCALAR),
        "points": st.one_of(st.integers(-2, 200), _SCALAR),
        "x": _VALUE,
    },
)
_LIST_DOC = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.text(max_size=20), _SCALAR),
        "family": st.one_of(st.sampled_from(["tcg", "ocg", "x", "TCG", "../x", ""]), _SCALAR),
        "effective": st.one_of(st.dates(), _SCALAR),
        "date_exact": _SCALAR,
        "source": _SCALAR,
        "mode": st.one_of(st.sampled_from(["blacklist", "whitelist"]), _SCALAR),
        "notes": st.one_of(st.lists(st.text(max_size=10), max_size=3), _VALUE),
        "entries": st.one_of(st.lists(_ENTRY, max_size=6), _VALUE),
        "groups": st.one_of(
            st.lists(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "name": _SCALAR,
                        "limit": _SCALAR,
                        "cards": st.lists(_SCALAR, max_size=4),
                    },
                ),
                max_size=3,
            ),
            _VALUE,
        ),
        "points": st.one_of(st.lists(_ENTRY, max_size=4), _VALUE),
        "extra": _VALUE,
    },
)


def _dump(doc: Any) -> bytes:
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False).encode("utf-8", "surrogatepass")


_LIST_BYTES = st.one_of(
    _LIST_DOC.map(_dump),
    st.tuples(st.sampled_from(SEED_LISTS or [HOSTILE / "huge-id.yaml"]), _OPS).map(
        lambda t: mutate(t[0].read_bytes()[:20000], t[1])
    ),
    st.binary(max_size=300),
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return tmp_path


def _list_file(work: Path, data: bytes) -> None:
    p = fresh(work, ".yaml")
    p.write_bytes(data)
    try:
        reader_outcome(lambda: load_list_file(str(p)), (Banlist,), "list YAML")
    finally:
        p.unlink()


test_yaml_list_file, test_yaml_list_file_long = fuzz(_LIST_BYTES, quick=200)(_list_file)


# --------------------------------------------------------------------------- YAML formats

_SIZE = st.one_of(
    st.fixed_dictionaries({}, optional={"min": _SCALAR, "max": _SCALAR}),
    st.fixed_dictionaries(
        {"min": st.integers(-1, 80), "max": st.one_of(st.none(), st.integers(-1, 80))}
    ),
    _VALUE,
)
_FORMAT_DOC = st.fixed_dictionaries(
    {"id": st.one_of(st.sampled_from(["fz", "tcg", "FZ", ""]), _SCALAR)},
    optional={
        "name": _SCALAR,
        "extends": st.one_of(st.sampled_from(["tcg", "ocg", "fz", "nope", "speed"]), _SCALAR),
        "main": _SIZE,
        "extra": _SIZE,
        "side": _SIZE,
        "copies": st.one_of(st.integers(-1, 10), _SCALAR),
        "list_family": st.one_of(st.sampled_from(["tcg", "ocg", "dm6"]), _SCALAR),
        "forbidden_as_limited": _SCALAR,
        "pool": st.one_of(
            st.lists(st.sampled_from(["tcg", "ocg", "rush", "speed", "x"]), max_size=3), _VALUE
        ),
        "release_region": _SCALAR,
        "release_cutoff": st.one_of(st.dates(), _SCALAR),
        "skills": st.one_of(_SIZE, st.none()),
        "legend": st.one_of(st.sampled_from(["none", "one_total", "one_per_type"]), _SCALAR),
        "extra_deck_types": st.one_of(
            st.lists(st.sampled_from(["fusion", "xyz", "ritual", "x"])), _VALUE
        ),
        "banned_types": st.one_of(st.lists(st.sampled_from(["link", "pendulum", "x"])), _VALUE),
        "points_cap": st.one_of(st.integers(-1, 200), _SCALAR),
        "changes": st.one_of(
            st.lists(
                st.fixed_dictionaries(
                    {"since": st.one_of(st.dates(), _SCALAR)},
                    optional={
                        "set": st.one_of(
                            st.dictionaries(
                                st.sampled_from(["copies", "main", "pool", "x"]), _VALUE
                            ),
                            _VALUE,
                        )
                    },
                ),
                max_size=3,
            ),
            _VALUE,
        ),
    },
)
_FORMAT_BYTES = st.one_of(
    _FORMAT_DOC.map(_dump),
    st.tuples(st.sampled_from(SEED_FORMATS), _OPS).map(lambda t: mutate(t[0].read_bytes(), t[1])),
    st.binary(max_size=300),
)


def _format_file(work: Path, data: bytes) -> None:
    from deckcheck import paths

    p = fresh(work, ".yaml")
    p.write_bytes(data)
    try:
        got = reader_outcome(lambda: load_formats(extra_files=[p]), (dict,), "format YAML")
        if got is not None:
            for fmt in got.values():
                fmt.at(dt.date(2021, 1, 1))  # date-dependent changes apply without error
    finally:
        p.unlink()
        # One compiled cache per distinct file set: drop them, or a long run fills the disk.
        shutil.rmtree(paths.cache_dir(), ignore_errors=True)


test_yaml_format_file, test_yaml_format_file_long = fuzz(_FORMAT_BYTES, quick=200)(_format_file)


# --------------------------------------------------------------------------- lflist files

_CONF_BYTES = st.one_of(
    st.tuples(st.sampled_from(SEED_CONFS), _OPS).map(lambda t: mutate(t[0].read_bytes(), t[1])),
    st.binary(max_size=300),
)


def _conf_file(work: Path, data: bytes) -> None:
    p = fresh(work, ".lflist.conf")
    p.write_bytes(data)
    try:
        reader_outcome(lambda: load_list_file(str(p)), (Banlist,))
        reader_outcome(lambda: lflist.parse_file(p), (list,), "lflist")
    finally:
        p.unlink()


test_lflist_file, test_lflist_file_long = fuzz(_CONF_BYTES)(_conf_file)


# --------------------------------------------------------------------------- deck readers (long)

_DECK_BYTES = st.one_of(
    st.tuples(st.sampled_from(SEED_DECKS or [HOSTILE / "ok.ydk"]), _OPS).map(
        lambda t: mutate(t[0].read_bytes(), t[1])
    ),
    st.binary(max_size=400),
)


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(_DECK_BYTES, st.sampled_from([None, "ydk", "text", "ydke"]))
def test_deck_bytes_long(data: bytes, kind: str | None) -> None:
    reader_outcome(lambda: decks.read_bytes(data, "f.ydk", kind=kind), (Deck,))


# One reader each (issue 20: at least 10,000 inputs per reader): the .ydk reader, and the text
# reader on mutated seeds, random bytes and real card names in legacy encodings (the
# charset-normalizer path).
_NAMES = ["灰流うらら", "増殖するＧ", "強欲な壺", "灰流丽", "强欲之壶", "灰流麗", "Pot of Greed"]
_LEGACY = st.tuples(
    st.lists(
        st.tuples(st.integers(-5, 1500), st.sampled_from(_NAMES), st.text(max_size=8)), max_size=12
    ),
    st.sampled_from(["shift_jis", "gbk", "big5", "euc_kr", "cp1252", "utf-8", "utf-16"]),
    _OPS,
).map(
    lambda t: mutate(
        "\n".join(f"{n} {name}{x}" for n, name, x in t[0]).encode(t[1], "ignore"), t[2]
    )
)


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(_DECK_BYTES)
def test_ydk_reader_long(data: bytes) -> None:
    reader_outcome(lambda: decks.read_bytes(data, "f.ydk", kind="ydk"), (Deck,), "ydk")


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(st.one_of(_DECK_BYTES, _LEGACY))
def test_text_reader_long(data: bytes) -> None:
    reader_outcome(lambda: decks.read_bytes(data, "f.txt", kind="text"), (Deck,), "text list")


@settings(max_examples=QUICK, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(_LEGACY)
def test_text_reader_legacy_encodings(data: bytes) -> None:
    reader_outcome(lambda: decks.read_bytes(data, "f.txt", kind="text"), (Deck,))


_YDKE = st.one_of(
    st.tuples(st.sampled_from(SEED_DECKS or [HOSTILE / "ok.ydk"]), _OPS).map(
        lambda t: _ydke_of(t[0], t[1])
    ),
    st.text(max_size=200).map(lambda s: "ydke://" + s),
)


def _ydke_of(path: Path, ops: list[tuple[Any, ...]]) -> str:
    ids = [int(x) for x in path.read_bytes().split() if x.isdigit() and len(x) < 11]
    part = base64.b64encode(struct.pack(f"<{len(ids)}I", *[i & 0xFFFFFFFF for i in ids]))
    url = b"ydke://" + part + b"!" + part[:40] + b"!!"
    return mutate(url, ops).decode("latin-1")


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(_YDKE)
def test_ydke_long(url: str) -> None:
    reader_outcome(lambda: ydke.parse(url), (Deck,), "ydke")


# --------------------------------------------------------------------------- validate end to end


_E2E = st.tuples(
    st.one_of(_DECK_BYTES, st.binary(max_size=200)),
    st.sampled_from([".ydk", ".txt", ".ydke", ".YDK", ""]),
    st.sampled_from(["text", "json", "csv", "github", "junit"]),
    st.sampled_from([[], ["--strict"], ["-f", "ocg", "-b", "tcg@2020-01-01"], ["-f", "dm6"]]),
)


def _validate(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    data, suffix, kind, extra = case
    p = fresh(tmp_path, suffix or ".deck")
    p.write_bytes(data)
    args = [str(p)] if suffix else [str(tmp_path)]  # a folder: the file must end .ydk/.txt/.ydke
    capsys.readouterr()
    rc = main(["validate", "-d", "2021-01-01", "-o", kind, *extra, *args, str(HOSTILE / "ok.ydk")])
    out, err = capsys.readouterr()
    p.unlink()
    check_outcome(rc, out, err)
    if kind == "json" and rc != EXIT_ERROR:
        import json

        assert json.loads(out)["summary"]["decks"] >= 1


def _validate_ydke(tiny_home: Path, capsys: pytest.CaptureFixture[str], url: str) -> None:
    capsys.readouterr()
    # "--": a mutant may start with "-" and would be read as an option (a usage error).
    rc = main(["validate", "-d", "2021-01-01", "--", url])
    out, err = capsys.readouterr()
    check_outcome(rc, out, err)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(case=_E2E)
def test_validate_end_to_end(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    _validate(tiny_home, tmp_path, capsys, case)


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(case=_E2E)
def test_validate_end_to_end_long(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    _validate(tiny_home, tmp_path, capsys, case)


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(url=_YDKE)
def test_validate_ydke_end_to_end(
    tiny_home: Path, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    _validate_ydke(tiny_home, capsys, url)


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(url=_YDKE)
def test_validate_ydke_end_to_end_long(
    tiny_home: Path, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    _validate_ydke(tiny_home, capsys, url)


_LIST_OPTION = st.one_of(
    st.tuples(st.just(".yaml"), _LIST_BYTES),
    st.tuples(st.just(".lflist.conf"), _CONF_BYTES),
    st.tuples(st.just("format"), _FORMAT_BYTES),
)


def _validate_with_list(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    suffix, data = case
    p = fresh(tmp_path, ".yaml" if suffix == "format" else suffix)
    p.write_bytes(data)
    option = ["--format-file", str(p), "-f", "fz"] if suffix == "format" else ["-b", str(p)]
    capsys.readouterr()
    rc = main(["validate", "-d", "2021-01-01", *option, str(HOSTILE / "ok.ydk")])
    out, err = capsys.readouterr()
    p.unlink()
    check_outcome(rc, out, err)


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(case=_LIST_OPTION)
def test_validate_with_fuzzed_banlist(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    _validate_with_list(tiny_home, tmp_path, capsys, case)


@pytest.mark.fuzz
@settings(max_examples=LONG, deadline=None, database=None, suppress_health_check=_HEALTH)
@given(case=_LIST_OPTION)
def test_validate_with_fuzzed_banlist_long(
    tiny_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Any
) -> None:
    _validate_with_list(tiny_home, tmp_path, capsys, case)


def test_long_profile_is_opt_in() -> None:
    """The default run deselects the long profile; `-m fuzz` on the command line selects it."""
    import sys

    def collected(*extra: str) -> list[str]:
        proc = run_process(
            [
                sys.executable,
                "-m",
                "pytest",
                "--collect-only",
                "-q",
                "-p",
                "no:cacheprovider",
                "tests/reliability/test_fuzz.py",
                *extra,
            ],
            cwd=REPO,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return [ln for ln in proc.stdout.splitlines() if "::" in ln]

    default, long = collected(), collected("-m", "fuzz")
    assert default and long and not set(default) & set(long)
    assert all(ln.endswith("_long") for ln in long)
    assert not any(ln.endswith("_long") for ln in default)
