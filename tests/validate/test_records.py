"""``@record`` (deckcheck/records.py), the one record mechanism: every record class of the
package gets the compiled ``__init__`` of its annotated fields (none writes one out), frozen
records refuse assignment, mutable ones take it, and all of them compare, copy and pickle
by their fields."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from typing import Any, ClassVar

import pytest

import deckcheck
from deckcheck.model import Deck, DeckEntry
from deckcheck.records import Record, _Factory, field, record

#: what an optional extra brings ([tui], [serve], [dask]): a module needing one is left out
#: where it is not installed
_OPTIONAL = {"textual", "textual_serve", "fastapi", "uvicorn", "dask", "distributed", "starlette"}


def _modules() -> list[Any]:
    out = []
    for info in pkgutil.walk_packages(deckcheck.__path__, "deckcheck."):
        if info.name.endswith("__main__"):
            continue
        try:
            out.append(importlib.import_module(info.name))
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] not in _OPTIONAL:
                raise
    return out


MODULES = _modules()
RECORDS = sorted(
    {
        c
        for m in MODULES
        for c in vars(m).values()
        if isinstance(c, type)
        and issubclass(c, Record)
        and c is not Record
        and c.__module__ == m.__name__
        and "_fields" in c.__dict__
    },
    key=lambda c: f"{c.__module__}.{c.__qualname__}",
)

#: the records built from any values (a __post_init__ checks or derives values: its own
#: module's tests build those)
PLAIN = [c for c in RECORDS if not hasattr(c, "__post_init__")]


def test_the_records_are_found() -> None:
    names = {c.__name__ for c in RECORDS}
    assert {"Card", "Finding", "Banlist", "Format", "Deck", "DeckEntry", "Match"} <= names


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_init_is_compiled_from_the_fields_in_order_with_their_defaults(cls: type[Any]) -> None:
    assert cls.__init__.__code__.co_filename == "<string>"  # compiled by @record, not written
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == list(cls._fields)
    for p in params:
        assert p.kind is p.POSITIONAL_OR_KEYWORD
        want = cls._defaults.get(p.name, inspect.Parameter.empty)
        if isinstance(want, _Factory):
            assert p.default is _Factory, p.name
        elif want is inspect.Parameter.empty:
            assert p.default is inspect.Parameter.empty, p.name
        else:
            assert p.default is want, p.name


def _values(cls: type[Any]) -> dict[str, Any]:
    return {n: object() for n in cls._fields}


@pytest.mark.parametrize("cls", PLAIN, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_init_stores_every_field(cls: type[Any]) -> None:
    values = _values(cls)
    for obj in (cls(*values.values()), cls(**values)):
        assert all(getattr(obj, n) is v for n, v in values.items())
        assert obj._astuple() == tuple(values.values())
        assert obj == cls(**values) and obj.replace() == obj
        assert pickle.loads(pickle.dumps(obj)).__class__ is cls


@pytest.mark.parametrize("cls", PLAIN, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_defaults_and_factories(cls: type[Any]) -> None:
    required = {n: 1 for n in cls._fields if n not in cls._defaults}
    bare, other = cls(**required), cls(**required)
    for n, want in cls._defaults.items():
        got = getattr(bare, n)
        if isinstance(want, _Factory):
            assert got == want.make(), n
            if want.make() is not want.make():  # (a tuple() factory gives one empty tuple)
                assert got is not getattr(other, n), n  # fresh per record
        else:
            assert got is want, n


def test_frozen_and_mutable() -> None:
    @record
    class Point(Record):
        x: int
        y: int = 0
        tags: tuple[str, ...] = field(default_factory=tuple)
        kind: ClassVar[str] = "point"  # not a field

    @record(frozen=False, slots=True)
    class Cell(Record):
        x: int
        y: int = 0

    p = Point(1)
    assert Point._fields == ("x", "y", "tags") and p == Point(1, 0, ()) and p != Point(2)
    assert hash(p) == hash(Point(1)) and repr(p) == "Point(x=1, y=0, tags=())"
    assert p.replace(y=5) == Point(1, 5) and Point.__match_args__ == ("x", "y", "tags")
    with pytest.raises(AttributeError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x  # type: ignore[misc]
    with pytest.raises(TypeError, match="unexpected field 'z'"):
        p.replace(z=1)
    c = Cell(1)
    c.y = 3
    assert c == Cell(1, 3) and not hasattr(c, "__dict__") and Cell.__hash__ is None
    with pytest.raises(AttributeError):
        c.z = 1  # type: ignore[attr-defined]  # slots: no other attribute


def test_compare_false_fields_are_kept_but_not_compared_or_shown() -> None:
    @record
    class Node(Record):
        name: str
        parent: object = field(default=None, compare=False)

    a, b = Node("x", parent=1), Node("x", parent=2)
    assert a == b and hash(a) == hash(b) and repr(a) == "Node(name='x')" and a.parent == 1
    assert a.__reduce__()[1] == ("x", 1) and a.replace(name="y").parent == 1  # what pickles


def test_a_record_subclass_adds_fields_after_its_base() -> None:
    @record
    class Base(Record):
        a: int
        b: int = 2

    @record
    class More(Base):
        c: int = 3

    assert More._fields == ("a", "b", "c") and More(1) == More(1, 2, 3)
    assert More(1) != Base(1)


def test_refused_shapes() -> None:
    with pytest.raises(TypeError, match="derive from Record"):

        @record
        class Plain:
            a: int

    with pytest.raises(TypeError, match="mutable records only"):

        @record(slots=True)
        class Frozen(Record):
            a: int


def test_the_deck_records_are_slotted_and_mutable() -> None:
    deck = Deck("x.ydk")
    deck.main.append(DeckEntry("main", 1, 1))
    assert not hasattr(deck, "__dict__") and not hasattr(deck.main[0], "__dict__")
    assert Deck("x.ydk").main is not Deck("x.ydk").main
    assert deck == Deck("x.ydk", [DeckEntry("main", 1, 1)])


def _shape() -> type[Any]:
    @record
    class Shape(Record):
        name: str
        sides: int = 4
        tags: list[str] = field(default_factory=list)

    return Shape


def test_the_init_code_cache_gives_the_plain_path_s_records(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled ``__init__`` code is kept in the cache folder (records.CODE_CACHE) and
    read back: the class built from it equals the one compiled afresh
    (``DECKCHECK_PLAIN_START=1``), and a damaged cache file is compiled again."""
    import deckcheck.records as records

    monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path))
    monkeypatch.setattr(records, "_codes", None)
    first = _shape()  # compiled, written
    cache = tmp_path / records.CODE_CACHE
    assert cache.is_file()
    monkeypatch.setattr(records, "_codes", None)
    monkeypatch.setattr(records, "compile", _no_compile, raising=False)
    cached = _shape()  # read back, not compiled
    monkeypatch.undo()
    monkeypatch.setenv("DECKCHECK_PLAIN_START", "1")
    plain = _shape()
    for cls in (first, cached, plain):
        a, b = cls("tri", 3), cls(name="sq")
        assert (a.name, a.sides, a.tags, b.sides) == ("tri", 3, [], 4)
        assert b.tags is not cls("x").tags
        assert str(inspect.signature(cls)) == str(inspect.signature(plain))
    assert cached.__init__.__code__.co_code == plain.__init__.__code__.co_code
    monkeypatch.delenv("DECKCHECK_PLAIN_START")
    monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path))
    cache.write_bytes(b"\x00 not marshal")
    monkeypatch.setattr(records, "_codes", None)
    assert _shape()("p", 5).sides == 5  # damaged: compiled again
    assert records._read_codes() != {}  # and written back whole


def _no_compile(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("compiled although the cache holds the code")
