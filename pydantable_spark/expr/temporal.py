"""Date and timestamp nodes and the ``.dt`` namespace.

Fields of a ``datetime`` (instant) column are read in the session time zone,
which the embedded session sets to UTC. Spark converts a ``timestamp_ntz``
value to a date with a cast it marks as possibly failing, so functions of a
``timestamp_ntz`` column are nullable; the rules below say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.core import Literal, Node, Typed, check_param, describe

if TYPE_CHECKING:
    from pydantable_spark.expr.api import Expr

__all__ = ["DateAdd", "DateDiff", "DateTimeNamespace", "Day", "Month", "Year"]

_DATES = (dt.Date, dt.Datetime, dt.DatetimeNTZ)


def _require_date(node: Node, what: str) -> Typed:
    """The node's type, which must be a date or timestamp; nullable if Spark must cast it."""
    typed = node.type
    if not isinstance(typed.dtype, _DATES):
        msg = f"{what} needs a date or datetime; got {describe(node)}"
        raise ColumnTypeError(msg)
    return Typed(typed.dtype, typed.nullable or isinstance(typed.dtype, dt.DatetimeNTZ))


@dataclass(frozen=True, slots=True)
class _DatePart(Node):
    child: Node

    def derive(self) -> Typed:
        source = _require_date(self.child, f"dt.{type(self).__name__.lower()}()")
        return Typed(dt.Int32(), source.nullable)


@dataclass(frozen=True, slots=True)
class Year(_DatePart):
    """The year, as Spark's ``int``."""


@dataclass(frozen=True, slots=True)
class Month(_DatePart):
    """The month (1-12)."""


@dataclass(frozen=True, slots=True)
class Day(_DatePart):
    """The day of the month (1-31)."""


@dataclass(frozen=True, slots=True)
class DateAdd(Node):
    """The date ``days`` days after ``start`` (a timestamp is truncated to its date)."""

    start: Node
    days: Node

    def prepare(self) -> None:
        if isinstance(self.days, Literal):
            object.__setattr__(self, "days", self.days.adopt(dt.Int32()))

    def derive(self) -> Typed:
        start = _require_date(self.start, "date_add()")
        days = self.days.type
        if not isinstance(days.dtype, dt.Integral):
            msg = f"date_add() needs an integer number of days; got {describe(self.days)}"
            raise ColumnTypeError(msg)
        return Typed(dt.Date(), start.nullable or days.nullable)


@dataclass(frozen=True, slots=True)
class DateDiff(Node):
    """Days from ``start`` to ``end`` (``end - start``), as ``int``."""

    end: Node
    start: Node

    def derive(self) -> Typed:
        end = _require_date(self.end, "datediff()")
        start = _require_date(self.start, "datediff()")
        return Typed(dt.Int32(), end.nullable or start.nullable)


D_co = TypeVar("D_co", covariant=True)


_DATE_UNITS = ("year", "quarter", "month", "week")
_TIME_UNITS = (*_DATE_UNITS, "day", "hour", "minute", "second")


@dataclass(frozen=True, slots=True)
class Truncate(Node):
    """The start of the ``unit`` the value falls in (a date stays a date)."""

    child: Node
    unit: str

    def prepare(self) -> None:
        check_param("dt.truncate()", "unit", self.unit, str)

    def derive(self) -> Typed:
        source = _require_date(self.child, "dt.truncate()")
        units = _DATE_UNITS if isinstance(source.dtype, dt.Date) else _TIME_UNITS
        if self.unit not in units:
            msg = f"dt.truncate({self.unit!r}) on {describe(self.child)}: use one of {', '.join(units)}"
            raise ColumnTypeError(msg)
        return Typed(source.dtype, True)  # Spark marks truncation nullable (the unit could be invalid)


_STRFTIME = {
    "%Y": "yyyy", "%y": "yy", "%m": "MM", "%d": "dd", "%H": "HH", "%I": "hh", "%M": "mm", "%S": "ss",
    "%f": "SSSSSS", "%b": "MMM", "%B": "MMMM", "%a": "EEE", "%A": "EEEE", "%j": "DDD", "%p": "a", "%z": "xx",
    "%Z": "z", "%%": "%",
}  # fmt: skip


def spark_pattern(fmt: str) -> str:
    """A Python ``strftime`` format as a Spark datetime pattern (literal text quoted)."""
    out: list[str] = []
    text: list[str] = []
    i = 0
    while i < len(fmt):
        code = fmt[i : i + 2]
        if fmt[i] == "%":
            if code not in _STRFTIME:
                msg = f"dt.strftime(): {code!r} has no Spark equivalent; supported: {' '.join(_STRFTIME)}"
                raise ColumnTypeError(msg)
            if text:
                out.append("'" + "".join(text).replace("'", "''") + "'")
                text = []
            out.append(_STRFTIME[code])
            i += 2
        else:
            text.append(fmt[i])
            i += 1
    if text:
        out.append("'" + "".join(text).replace("'", "''") + "'")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Strftime(Node):
    """The value formatted as text with a Python ``strftime`` format."""

    child: Node
    format: str

    def prepare(self) -> None:
        check_param("dt.strftime()", "format", self.format, str)

    def derive(self) -> Typed:
        spark_pattern(self.format)
        return Typed(dt.String(), _require_date(self.child, "dt.strftime()").nullable)


class DateTimeNamespace(Generic[D_co]):
    """Date functions of an expression, reached as ``expr.dt``; ``D_co`` is its date type."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Expr[Any]) -> None:
        self._expr = expr

    def year(self) -> Expr[Any]:
        """The year (``year``)."""
        return self._expr._derived(Year(self._expr.node))

    def month(self) -> Expr[Any]:
        """The month, 1-12 (``month``)."""
        return self._expr._derived(Month(self._expr.node))

    def day(self) -> Expr[Any]:
        """The day of the month, 1-31 (``dayofmonth``)."""
        return self._expr._derived(Day(self._expr.node))

    def truncate(self, unit: str) -> Expr[Any]:
        """The start of the year, quarter, month, week (dates) or also day, hour, minute, second."""
        return self._expr._derived(Truncate(self._expr.node, unit))

    def strftime(self, format: str) -> Expr[Any]:
        """Text formatted with Python ``strftime`` codes (``"%Y-%m-%d"``)."""
        return self._expr._derived(Strftime(self._expr.node, format))
