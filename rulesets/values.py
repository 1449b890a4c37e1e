"""The values everything else is written in: counts, the unbounded number, cut points.

Below every other module of the domain: it imports nothing of loopcompare's, so the loop's data
(:mod:`.scenario`), the outcome (:mod:`.outcome`) and the engines all read the same types.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar, Union, overload

T = TypeVar("T")


class cached(Generic[T]):  # noqa: N801 - used as a decorator, like the functools one it replaces
    """A property computed once per instance and kept in its ``__dict__``: what
    :func:`functools.cached_property` does, without the lock Python 3.11's takes on every first
    access (about a tenth of a format 1 settle, issue 27).  Later reads find the value in the
    instance's ``__dict__`` and never call this descriptor; frozen dataclasses work too, since
    the value is written to ``__dict__``, not through ``__setattr__``."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, cls: type | None = None) -> "cached[T]": ...

    @overload
    def __get__(self, obj: object, cls: type | None = None) -> T: ...

    def __get__(self, obj: object | None, cls: type | None = None) -> "T | cached[T]":
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class Unbounded(enum.Enum):
    """The number a player names when they want a loop to go on: arbitrarily large, finite.

    "There's no such thing as infinity in Magic": a player who never deviates names some finite
    number larger than anything else in play.  Reports show it as ``unbounded``.  It has one
    member, :data:`UNBOUNDED`; test for it with ``is``.
    """

    UNBOUNDED = "unbounded"

    def __repr__(self) -> str:
        return "UNBOUNDED"

    def __str__(self) -> str:
        return "unbounded"


UNBOUNDED = Unbounded.UNBOUNDED
"""The single arbitrarily-large-but-finite value (see :class:`Unbounded`)."""

Count = Union[int, Unbounded]
Value = Union[bool, int, Unbounded]


def higher(a: Count, b: Count) -> bool:
    """True when the number ``a`` is higher than ``b``; :data:`UNBOUNDED` is higher than any other."""
    if a is UNBOUNDED:
        return b is not UNBOUNDED
    return b is not UNBOUNDED and a > b


@dataclass(frozen=True)
class CutPoint:
    """Where a shortcut stops: ``iterations`` complete iterations plus ``steps`` of the next.

    ``iterations`` may be :data:`UNBOUNDED` when a player's arbitrarily large number decides it.
    """

    iterations: Count
    steps: int = 0
    inner: "tuple[int, int] | None" = None
    """Format 3 (FORMAT item 29): a point inside the run of step ``steps + 1``: that many complete
    inner iterations and inner steps of the next; None for a point between steps."""

    @property
    def unbounded(self) -> bool:
        """True when the iteration count is the arbitrarily large number of a "never" player."""
        return self.iterations is UNBOUNDED

    def describe(self) -> str:
        """Plain words for transcripts."""
        n = "an unbounded number of" if self.unbounded else f"{self.iterations:,}"
        plural = "" if self.iterations == 1 else "s"
        if self.steps == 0 and self.inner is None:
            return f"after {n} iteration{plural}"
        text = f"after {n} iteration{plural} and {self.steps} step{'s' if self.steps != 1 else ''}"
        if self.inner is not None:
            m, t = self.inner
            text += f", inside the next step's inner loop after {m:,} inner iteration{'s' if m != 1 else ''}"
            if t:
                text += f" and {t} inner step{'s' if t != 1 else ''}"
        return text


class Unsettleable(ValueError):
    """A file the engine can't settle exactly (docs/FORMAT.md items 28-30): the command refuses it,
    exit status 2, naming the file and ``where`` (the part, step or key), never a guess."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message
