"""Records from annotated fields (``@record``): the one way deckcheck defines a record type,
immutable (the default) or mutable, each field written once."""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable
from types import CodeType
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["Record", "field", "record"]

_R = TypeVar("_R")
_T = TypeVar("_T")


class _Factory:
    """A record field's default made fresh for each record (``field(default_factory=...)``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make


class _Field:
    """What ``field(...)`` puts in a class body until ``@record`` reads it."""

    __slots__ = ("compare", "default")

    def __init__(self, default: Any, compare: bool):
        self.default = default  # a value, a _Factory, or _NO_DEFAULT
        self.compare = compare


_NO_DEFAULT: Any = _Field  # a field without a default (never a real default value)


def field(
    *,
    default: Any = _NO_DEFAULT,
    default_factory: Callable[[], Any] | None = None,
    compare: bool = True,
) -> Any:
    """A record field with options: ``default_factory`` (called per record, as in a dataclass:
    no two records share a mutable default) or ``default``; ``compare=False``: left out of
    equality, hash and repr (a derived index, a back link, an open lock), still a field."""
    if default_factory is not None:
        default = _Factory(default_factory)
    return _Field(default, compare)


@overload
def record(cls: type[_R], /) -> type[_R]: ...


@overload
def record(*, frozen: bool = True, slots: bool = False) -> Callable[[type[_R]], type[_R]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(
    cls: type[_R] | None = None, /, *, frozen: bool = True, slots: bool = False
) -> type[_R] | Callable[[type[_R]], type[_R]]:
    """A record class from annotated fields, like a dataclass but cheaper to define and build.

    The class derives from ``Record``. A field is one annotated line (with its default, if
    any; ``field(default_factory=dict)`` for a fresh one per record); fields of a record base
    class come first. ``@record`` is frozen (assignment raises, hashable by its fields);
    ``@record(frozen=False)`` is mutable (no hash), ``slots=True`` gives it ``__slots__``
    instead of a ``__dict__`` (the class is made again, so its methods cannot use a bare
    ``super()``). Each gets one small ``__init__`` compiled from its fields, taking them in
    order, positionally or by name, and calling ``__post_init__`` if the class has one;
    equality, repr, pickling, ``__match_args__`` and ``obj.replace(**changes)`` (what
    ``dataclasses.replace`` is for a dataclass) are shared.

    ``dataclasses`` spends about a millisecond per class at import (start-up is a feature)
    and its frozen ``__init__`` pays an ``object.__setattr__`` per field, which a batch pays
    per card and per finding; here a frozen ``__init__`` writes the instance dict.
    """
    if cls is None:
        return lambda c: _build(c, frozen, slots)
    return _build(cls, frozen, slots)


def _build(cls: type[_R], frozen: bool, slots: bool) -> type[_R]:
    if not issubclass(cls, Record):
        raise TypeError(f"@record class {cls.__qualname__} must derive from Record")
    if slots and frozen:
        raise TypeError(f"{cls.__qualname__}: slots=True is for mutable records only")
    own = cls.__annotations__  # the class's own (Python 3.10+), as written
    inherited = [n for n in cls._fields if n not in own]
    names = (*inherited, *(n for n, a in own.items() if not _skipped(n, a)))
    defaults = {n: d for n, d in cls._defaults.items() if n in inherited}
    hidden = {n for n in cls._uncompared if n in inherited}
    for n in names:
        got = cls.__dict__.get(n, _NO_DEFAULT)
        if isinstance(got, _Field):
            if not got.compare:
                hidden.add(n)
            got = got.default
            if got is _NO_DEFAULT or isinstance(got, _Factory):
                delattr(cls, n)  # no class attribute standing for a per-record default
            else:
                setattr(cls, n, got)
        if got is not _NO_DEFAULT:
            defaults[n] = got
    c: Any = _slotted(cls, names) if slots else cls
    c._fields = names
    c._defaults = defaults
    c._uncompared = frozenset(hidden)
    if hidden:
        c._key = _key_without(tuple(i for i, n in enumerate(names) if n not in hidden))
    if "__match_args__" not in c.__dict__:
        c.__match_args__ = names  # type: ignore[misc]
    c.__init__ = _compile_init(c, names, defaults, store_dict=not slots)
    if frozen:
        c.__setattr__ = _refuse_set
        c.__delattr__ = _refuse_del
    else:
        c.__hash__ = None  # mutable, like a non-frozen dataclass
    if slots:
        c._astuple = _astuple_attrs
    return c


def _skipped(name: str, annotation: Any) -> bool:
    """Not a field: a private name or a ``ClassVar``."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return name.startswith("_") or text.startswith(("ClassVar", "typing.ClassVar"))


def _slotted(cls: type[_R], names: tuple[str, ...]) -> type[_R]:
    """``cls`` made again with ``__slots__`` for its own fields (as ``dataclass(slots=True)``)."""
    for f in cls.__dict__.values():
        code = getattr(f, "__code__", None)
        if code is not None and "__class__" in code.co_freevars:
            raise TypeError(f"{cls.__qualname__}: a slotted record's methods cannot use super()")
    base_slots = {s for b in cls.__mro__[1:] for s in b.__dict__.get("__slots__", ())}
    ns = {
        k: v
        for k, v in cls.__dict__.items()
        if k not in names and k not in ("__dict__", "__weakref__")
    }
    ns["__slots__"] = tuple(n for n in names if n not in base_slots)
    new: Any = type(cls)(cls.__name__, cls.__bases__, ns)  # type: ignore[misc]
    new.__qualname__ = cls.__qualname__
    return new


def _compile_init(
    cls: type[Any], names: tuple[str, ...], defaults: dict[str, Any], store_dict: bool
) -> Callable[..., None]:
    params: list[str] = []
    body: list[str] = ["d = self.__dict__"] if store_dict else []
    env: dict[str, Any] = {"_Factory": _Factory}
    for n in names:
        got = defaults.get(n, _Factory)
        value = n
        if isinstance(got, _Factory):
            env[f"_f_{n}"] = got.make
            params.append(f"{n}=_Factory")
            value = f"_f_{n}() if {n} is _Factory else {n}"
        elif got is not _Factory:
            env[f"_d_{n}"] = got
            params.append(f"{n}=_d_{n}")
        else:
            params.append(n)
        body.append(f"d[{n!r}] = {value}" if store_dict else f"self.{n} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    src = f"def __init__(self, {', '.join(params)}):\n " + "\n ".join(body or ["pass"]) + "\n"
    exec(_code(src), env)  # the compiled __init__: one line per field, no loop at run time
    init: Callable[..., None] = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


# The compiled ``__init__`` code of each source, kept in the cache folder as Python keeps a
# module's bytecode: compiling them costs 4% of a one-deck ``validate`` (9.6M of 240.9M
# instructions, callgrind, 2026-12-03); ``DECKCHECK_PLAIN_START=1`` compiles every time.
#: the cache's file name: marshal's format is the interpreter's own
CODE_CACHE = f"records-{sys.implementation.cache_tag}-marshal{marshal.version}.marshal"
_MAX_CODES = 400  # more than every record class of the package; a full cache starts again
_codes: dict[str, CodeType] | None = None


def _code(src: str) -> CodeType:
    """``compile(src)``, from the code cache when it holds ``src`` (then written back)."""
    from deckcheck import startup

    if startup.plain():
        return compile(src, "<string>", "exec")
    global _codes
    if _codes is None:
        _codes = _read_codes()
    code = _codes.get(src)
    if code is None:
        if len(_codes) >= _MAX_CODES:
            _codes = {}
        code = _codes[src] = compile(src, "<string>", "exec")
        _write_codes(_codes)
    return code


def _code_file() -> str:
    from deckcheck import paths

    return paths.join(paths.cache_folder(), CODE_CACHE)


def _read_codes() -> dict[str, CodeType]:
    """The cached code; in a read-only home (``paths.read_only_cache_folder``), what an
    earlier command cached there, as the compiled lists are read (issue 32)."""
    from deckcheck import paths

    got = _read_code_file(_code_file())
    if not got and (ro := paths.read_only_cache_folder()) is not None:
        got = _read_code_file(paths.join(ro, CODE_CACHE))
    return got


def _read_code_file(path: str) -> dict[str, CodeType]:
    try:
        with open(path, "rb") as f:
            got = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}  # none yet, or damaged: compiled again
    ok = isinstance(got, dict) and all(
        isinstance(k, str) and isinstance(v, CodeType) for k, v in got.items()
    )
    return got if ok else {}


def _write_codes(codes: dict[str, CodeType]) -> None:
    tmp = None
    try:
        path = _code_file()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(marshal.dumps(codes))
        os.replace(tmp, path)  # all or nothing: a reader sees the old file or this one
    except OSError:  # a read-only cache: compiled again next time
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _refuse_set(self: Any, name: str, value: Any) -> None:
    raise AttributeError(f"cannot assign to field {name!r}")  # frozen, like a dataclass


def _refuse_del(self: Any, name: str) -> None:
    raise AttributeError(f"cannot delete field {name!r}")


def _astuple_attrs(self: Any) -> tuple[Any, ...]:
    return tuple([getattr(self, n) for n in self._fields])


def _key_without(kept: tuple[int, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """``_key`` of a record with ``compare=False`` fields: the other fields' values."""

    def _key(self: Any) -> tuple[Any, ...]:
        values = self._astuple()
        return tuple([values[i] for i in kept])

    return _key


_Self = TypeVar("_Self", bound="Record")


class Record:
    """Base of the ``@record`` classes: the shared methods of a record."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}  # noqa: RUF012 (set per class by @record, never changed)
    _uncompared: frozenset[str] = frozenset()  # the compare=False fields
    #: the class ``repr``, ``replace`` and pickling name (the class itself when None): a
    #: subclass that stands for its base (``decks.packed.PackedDeck`` for ``Deck``) sets it
    _record_class: type[Any] | None = None
    __post_init__: Callable[[], None]

    def _astuple(self) -> tuple[Any, ...]:
        d = self.__dict__
        return tuple([d[n] for n in self._fields])

    def _key(self) -> tuple[Any, ...]:
        """What equality and hash compare: every field but the ``compare=False`` ones."""
        return self._astuple()

    def replace(self: _Self, **changes: Any) -> _Self:
        """A copy with some fields changed (``dataclasses.replace`` for records)."""
        cls = self._record_class or self.__class__
        bad = [n for n in changes if n not in self._fields]
        if bad:
            raise TypeError(f"{cls.__name__}.replace() got an unexpected field {bad[0]!r}")
        values = dict(zip(self._fields, self._astuple(), strict=True))
        values.update(changes)
        return cls(**values)  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ or (
            isinstance(other, Record) and other._fields is self._fields
        ):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        hidden = self._uncompared
        body = ", ".join(
            f"{n}={v!r}"
            for n, v in zip(self._fields, self._astuple(), strict=True)
            if n not in hidden
        )
        return f"{(self._record_class or self.__class__).__name__}({body})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (self._record_class or self.__class__, self._astuple())
