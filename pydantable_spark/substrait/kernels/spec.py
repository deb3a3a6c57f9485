"""What a kernel is: Spark's semantics of one catalog function, in Python, for the local engine.

The local engine runs a catalog call whose DataFusion function would not give
Spark's answer by calling a *kernel* instead: a Python function registered in
DataFusion under a name of its own. A kernel is written once per catalog
entry, from what Spark does (ANSI mode), and is proven equal to Spark by the
catalog's value tests before it counts (``tests/expr/test_catalog.py``).

A kernel is a *maker*: given the call's ``Site`` (its argument and result
types, the values of its literal arguments, the session's settings) it returns
the function that computes one row (``Scalar``) or one group (``Aggregate``).
Preparing per site keeps each row cheap (a pattern is translated once) and lets
a kernel refuse a call it cannot compute as Spark does (``refuse``), when the
plan is exported, before anything runs.

>>> from pydantable_spark import dtypes as dt
>>> from pydantable_spark.expr.core import Typed
>>> shout = Scalar("upper", rows(lambda s: s.upper()))
>>> site = Site((Typed(dt.String(), True),), Typed(dt.String(), True), (NOT_LITERAL,), Session("UTC"))
>>> shout.make(site)("abc")
'ABC'
"""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pydantable_spark.expr.call import Call
    from pydantable_spark.expr.core import Typed

__all__ = [
    "ARITHMETIC_OVERFLOW",
    "CAST_INVALID_INPUT",
    "CAST_OVERFLOW",
    "DIVIDE_BY_ZERO",
    "INVALID_ARRAY_INDEX",
    "NOT_LITERAL",
    "NUMERIC_VALUE_OUT_OF_RANGE",
    "USER_RAISED_EXCEPTION",
    "Aggregate",
    "Kernel",
    "Scalar",
    "Session",
    "Site",
    "SparkError",
    "groups",
    "non_null",
    "rows",
    "zone_of",
]


class SparkError(Exception):
    """Raised by a kernel where Spark (ANSI) fails on a value; ``condition`` is Spark's error class.

    >>> str(SparkError("DIVIDE_BY_ZERO", "Division by zero"))
    '[DIVIDE_BY_ZERO] Division by zero'
    """

    def __init__(self, condition: str, message: str) -> None:
        super().__init__(f"[{condition}] {message}")
        self.condition = condition


DIVIDE_BY_ZERO = "DIVIDE_BY_ZERO"
ARITHMETIC_OVERFLOW = "ARITHMETIC_OVERFLOW"
NUMERIC_VALUE_OUT_OF_RANGE = "NUMERIC_VALUE_OUT_OF_RANGE"
CAST_INVALID_INPUT = "CAST_INVALID_INPUT"
CAST_OVERFLOW = "CAST_OVERFLOW"
INVALID_ARRAY_INDEX = "INVALID_ARRAY_INDEX"
USER_RAISED_EXCEPTION = "USER_RAISED_EXCEPTION"
"""Spark's error classes for the ANSI failures kernels reproduce."""


class _NotLiteral:
    def __repr__(self) -> str:
        return "NOT_LITERAL"


NOT_LITERAL: Any = _NotLiteral()
"""In ``Site.literals``: the argument is not a literal (a column or a computed expression)."""


@dataclass(frozen=True, slots=True)
class Session:
    """The session settings a kernel may read: the time zone dates and timestamps are seen in.

    ``zone`` is an IANA name (``"Asia/Tokyo"``) or a fixed offset (``"+09:00"``), as Spark's
    ``spark.sql.session.timeZone`` takes.
    """

    zone: str = "UTC"

    @property
    def tzinfo(self) -> datetime.tzinfo:
        """The zone as a ``tzinfo``."""
        return zone_of(self.zone)


def zone_of(name: str) -> datetime.tzinfo:
    """A Spark time zone name as a ``tzinfo``: an IANA region, ``UTC``/``Z``, or an offset ``+hh:mm``/``GMT+h``.

    >>> zone_of("+09:30").utcoffset(None)
    datetime.timedelta(seconds=34200)
    """
    text = name.strip()
    if text.upper() in ("UTC", "Z", "GMT", "UT"):
        return datetime.timezone.utc
    for prefix in ("UTC", "GMT", "UT", ""):
        rest = text[len(prefix) :] if text.upper().startswith(prefix) else None
        if rest and rest[0] in "+-":
            sign = -1 if rest[0] == "-" else 1
            hours, _, minutes = rest[1:].partition(":")
            if hours.isdigit() and (not minutes or minutes.isdigit()):
                delta = datetime.timedelta(hours=int(hours), minutes=int(minutes or 0))
                return datetime.timezone(sign * delta)
    return zoneinfo.ZoneInfo(text)


@dataclass(frozen=True, slots=True)
class Site:
    """One call of a function in a plan, as its kernel sees it.

    ``args`` are the types the function receives (after the conversions Spark
    applies), ``result`` the type the façade derived, ``literals`` the value of
    each literal argument (``NOT_LITERAL`` for the others); ``over`` says whether
    an aggregate runs over a window frame.
    """

    args: tuple[Typed, ...]
    result: Typed
    literals: tuple[Any, ...]
    session: Session
    over: bool = False
    """For an aggregate: whether it runs over a window frame (True) or a group of ``group_by`` (False)."""


@dataclass(frozen=True, slots=True)
class Scalar:
    """A scalar function: ``make(site)`` returns the function of one row's argument values.

    With ``strict`` (Spark's usual rule) a row with a NULL argument is NULL and
    the function is not called; otherwise it receives ``None`` for NULL.
    ``refuse(call)`` names why a call cannot run locally (a pattern outside what
    Python's ``re`` reads as Java does), or returns None.
    """

    name: str
    make: Callable[[Site], Callable[..., Any]]
    strict: bool = True
    refuse: Callable[[Call], str | None] | None = None


@dataclass(frozen=True, slots=True)
class Aggregate:
    """An aggregate function: ``make(site)`` returns the function of one group's values.

    That function receives one list per argument, each holding the group's
    values in row order, NULLs included (``None``); ``refuse`` as for ``Scalar``.
    """

    name: str
    make: Callable[[Site], Callable[..., Any]]
    refuse: Callable[[Call], str | None] | None = None


Kernel = Scalar | Aggregate


def rows(function: Callable[..., Any]) -> Callable[[Site], Callable[..., Any]]:
    """A maker for a kernel whose row function needs nothing from the site."""
    return lambda site: function


def groups(function: Callable[..., Any]) -> Callable[[Site], Callable[..., Any]]:
    """A maker for an aggregate whose group function needs nothing from the site."""
    return lambda site: function


def non_null(values: Sequence[Any]) -> list[Any]:
    """The values that are not NULL (what most of Spark's aggregates see)."""
    return [v for v in values if v is not None]
