"""The ``model.record`` classes: a written-out ``__init__`` (no source compiled at start-up)
matches the annotated fields exactly, as the generated one does."""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import pytest

import deckcheck.batch
import deckcheck.decks.source
import deckcheck.model
import deckcheck.report
import deckcheck.request
import deckcheck.validate
from deckcheck.model import Record
from deckcheck.records import _Factory

MODULES = (
    deckcheck.model,
    deckcheck.batch,
    deckcheck.request,
    deckcheck.validate,
    deckcheck.report,
    deckcheck.decks.source,
)
RECORDS = sorted(
    {
        c
        for m in MODULES
        for c in vars(m).values()
        if isinstance(c, type) and issubclass(c, Record) and c is not Record
    },
    key=lambda c: c.__qualname__,
)
WRITTEN = {"Card", "Finding", "Group", "Banlist", "SizeRange", "Format"}


def test_the_validate_path_records_are_written_out() -> None:
    assert {c.__name__ for c in RECORDS if "__init__" in c.__dict__} >= WRITTEN


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_init_takes_the_fields_in_order_with_their_defaults(cls: type[Any]) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == list(cls._fields)
    for p in params:
        assert p.kind is p.POSITIONAL_OR_KEYWORD
        want = cls._defaults.get(p.name, inspect.Parameter.empty)
        if isinstance(want, _Factory):
            assert p.default is None or p.default is _Factory, p.name
        elif want is inspect.Parameter.empty:
            assert p.default is inspect.Parameter.empty, p.name
        else:
            assert type(p.default) is type(want) and p.default == want, p.name


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_init_stores_every_field(cls: type[Any]) -> None:
    values = [object() for _ in cls._fields]
    for obj in (cls(*values), cls(**dict(zip(cls._fields, values, strict=True)))):
        assert list(obj.__dict__) == list(cls._fields)
        assert all(obj.__dict__[n] is v for n, v in zip(cls._fields, values, strict=True))
        assert obj._astuple() == tuple(values)
    required = [n for n in cls._fields if n not in cls._defaults]
    bare = cls(**dict.fromkeys(required, 1))
    for n, want in cls._defaults.items():
        got = bare.__dict__[n]
        if isinstance(want, _Factory):
            assert got == want.make() and got is not cls(**dict.fromkeys(required, 1)).__dict__[n]
        else:
            assert type(got) is type(want) and got == want, n
    assert pickle.loads(pickle.dumps(bare)) == bare
    with pytest.raises(AttributeError):
        bare.x = 1
