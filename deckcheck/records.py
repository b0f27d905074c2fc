"""Immutable records from annotated fields (``@record``): what ``model`` and the services
build their plain data classes with, cheaper than frozen dataclasses at start-up and per
object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

__all__ = ["Record", "field", "record"]

_R = TypeVar("_R")
_T = TypeVar("_T")


class _Factory:
    """A record field's default made fresh for each record (``field(default_factory=...)``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make


def field(*, default_factory: Callable[[], _T]) -> _T:
    """A record field whose default is ``default_factory()``, called per record (as in a
    dataclass: no two records share a mutable default)."""
    return _Factory(default_factory)  # type: ignore[return-value]


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[_R]) -> type[_R]:
    """An immutable record from annotated fields, like a frozen dataclass but cheaper.

    ``dataclasses`` spends about a millisecond per class at import (start-up is a feature)
    and its frozen ``__init__`` pays an ``object.__setattr__`` per field, which the batch pays
    per card and per finding. Here one small ``__init__`` is compiled per class; equality,
    hash, repr, pickling and ``replace`` are shared. A field is one annotated line (with its
    default, if any; ``field(default_factory=dict)`` for a fresh one per record), as in a
    dataclass. ``dataclasses.replace`` does not apply: use ``obj.replace(**changes)``.
    """
    names = tuple(n for n in cls.__annotations__ if not n.startswith("_"))  # its own (3.10+)
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    cls._fields = names  # type: ignore[attr-defined]
    cls._defaults = defaults  # type: ignore[attr-defined]
    if "__init__" in cls.__dict__:
        # Written out in the class: no source compiled at import (~0.3 ms a class, and the
        # records on the validate path are many). tests/validate/test_records.py holds it to
        # the fields (same parameters and defaults, ``None`` standing for a factory default,
        # every field stored).
        for n, got in defaults.items():
            if isinstance(got, _Factory):
                delattr(cls, n)
        return cls
    params: list[str] = []
    body: list[str] = []
    env: dict[str, Any] = {}
    for n in names:
        got = defaults.get(n, _Factory)
        if isinstance(got, _Factory):
            env[f"_f_{n}"] = got.make
            params.append(f"{n}=_Factory")
            body.append(f"d[{n!r}] = _f_{n}() if {n} is _Factory else {n}")
            delattr(cls, n)  # no class attribute standing for a per-record default
        elif got is not _Factory:
            env[f"_d_{n}"] = got
            params.append(f"{n}=_d_{n}")
            body.append(f"d[{n!r}] = {n}")
        else:
            params.append(n)
            body.append(f"d[{n!r}] = {n}")
    env["_Factory"] = _Factory
    post = "self.__post_init__()" if hasattr(cls, "__post_init__") else ""
    src = (
        f"def __init__(self, {', '.join(params)}):\n d = self.__dict__\n "
        + "\n ".join(body)
        + f"\n {post}\n"
    )
    exec(src, env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc,method-assign]
    return cls


class Record:
    """Base of the ``@record`` classes: the shared methods of an immutable record."""

    _fields: tuple[str, ...] = ()
    __post_init__: Callable[[], None]

    def _astuple(self) -> tuple[Any, ...]:
        d = self.__dict__
        return tuple([d[n] for n in self._fields])

    def replace(self: _R, **changes: Any) -> _R:
        """A copy with some fields changed (``dataclasses.replace`` for records)."""
        d = self.__dict__  # type: ignore[attr-defined]
        return self.__class__(**{n: changes.get(n, d[n]) for n in self._fields})  # type: ignore[attr-defined]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")  # frozen, like a dataclass

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._astuple() == other._astuple()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __repr__(self) -> str:
        body = ", ".join(f"{n}={self.__dict__[n]!r}" for n in self._fields)
        return f"{self.__class__.__name__}({body})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, self._astuple())
