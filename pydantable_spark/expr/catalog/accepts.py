"""The column types an argument admits (``Accepts``), and the sets entries share: ``accepts.NUMBER``.

An entry's parameters name the set they admit (``column("col", accepts.STRING)``);
its result rules live apart, in ``returns`` (``returns.STRING`` is the rule "a
string results"), so the same word never means both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "ANY",
    "ARRAY",
    "BINARY",
    "BOOLEAN",
    "DATE",
    "DATE_LIKE",
    "DOUBLE",
    "INT32",
    "INTEGER",
    "MAP",
    "NUMBER",
    "ORDERABLE",
    "STRING",
    "STRING_OR_BINARY",
    "TIMESTAMP",
    "Accepts",
    "list_of",
]


@dataclass(frozen=True, slots=True)
class Accepts:
    """The column types an argument admits.

    ``to`` gives the type Spark receives when the façade converts the argument
    itself (the lowering writes the ``CAST``); ``label`` names the admitted
    types in error messages ("a string", "an integer").
    """

    label: str
    test: Callable[[dt.DType], bool]
    to: Callable[[dt.DType], dt.DType] | None = None
    examples: tuple[dt.DType, ...] = ()
    """Representative admitted types: the parity test tries each of them."""

    def admits(self, dtype: dt.DType) -> bool:
        """Whether ``dtype`` is admitted."""
        return self.test(dtype)

    def spark_type(self, dtype: dt.DType) -> dt.DType:
        """The type Spark receives for an admitted ``dtype``."""
        return dtype if self.to is None else self.to(dtype)


_INTEGRALS = (dt.Int8(), dt.Int16(), dt.Int32(), dt.Int64())
_NUMBERS = (*_INTEGRALS, dt.Float32(), dt.Float64(), dt.Decimal(10, 2), dt.Decimal(38, 18))


def _is(*classes: type[dt.DType]) -> Callable[[dt.DType], bool]:
    return lambda t: isinstance(t, classes)


ANY = Accepts("any value", lambda t: True, examples=(dt.Int64(), dt.String(), dt.Date()))
STRING = Accepts("a string", _is(dt.String), examples=(dt.String(),))
BINARY = Accepts("bytes", _is(dt.Binary), examples=(dt.Binary(),))
STRING_OR_BINARY = Accepts("a string or bytes", _is(dt.String, dt.Binary), examples=(dt.String(), dt.Binary()))
BOOLEAN = Accepts("a boolean", _is(dt.Boolean), examples=(dt.Boolean(),))
NUMBER = Accepts("a number", _is(dt.Numeric), examples=_NUMBERS)
INTEGER = Accepts("an integer", _is(dt.Integral), examples=_INTEGRALS)
DOUBLE = Accepts("a number", _is(dt.Numeric), to=lambda t: dt.Float64(), examples=_NUMBERS)
INT32 = Accepts(
    "an integer", _is(dt.Integral), to=lambda t: t if isinstance(t, dt.Int8 | dt.Int16 | dt.Int32) else dt.Int32(),
    examples=_INTEGRALS,
)  # fmt: skip
DATE = Accepts("a date", _is(dt.Date), examples=(dt.Date(),))
DATE_LIKE = Accepts(
    "a date or datetime",
    _is(dt.Date, dt.Datetime, dt.DatetimeNTZ),
    examples=(dt.Date(), dt.Datetime(), dt.DatetimeNTZ()),
)
TIMESTAMP = Accepts("a datetime", _is(dt.Datetime, dt.DatetimeNTZ), examples=(dt.Datetime(), dt.DatetimeNTZ()))
ARRAY = Accepts("a list", _is(dt.List), examples=(dt.List(dt.Int64(), False), dt.List(dt.String(), True)))
MAP = Accepts("a map", _is(dt.Map), examples=(dt.Map(dt.String(), dt.Int64(), True),))
ORDERABLE = Accepts(
    "a value with an order (not a map or VARIANT)", dt.has_equality,
    examples=(dt.Int64(), dt.String(), dt.Date(), dt.Decimal(10, 2)),
)  # fmt: skip


def list_of(inner: Accepts) -> Accepts:
    """Lists whose elements ``inner`` admits."""
    return Accepts(
        f"a list of {inner.label.removeprefix('a ').removeprefix('an ')}",
        lambda t: isinstance(t, dt.List) and inner.admits(t.inner),
        examples=tuple(dt.List(e, True) for e in inner.examples[:2]),
    )
