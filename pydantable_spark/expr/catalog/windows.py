"""Window functions: they exist only ``.over(window)``, most need an ordered window.

Aggregates work over windows too (``catalog.aggregates``); the ones here have no
meaning without a window: ranks, row numbers, offsets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Args,
    Built,
    DTypeRule,
    EntryOptions,
    Function,
    Kind,
    Param,
    always,
    column,
    entry,
    fixed,
    never,
    same,
    value,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES"]

_INT32_MAX = 2**31 - 1


def _entry(name: str, *params: Param, returns: DTypeRule, summary: str, **options: Unpack[EntryOptions]) -> Function:
    options.setdefault("needs_order", True)
    options.setdefault("kind", Kind.WINDOW)
    return entry(name, params, returns, summary, "window", **options)


def _offset_range(offset: int) -> str | None:
    return None if abs(offset) <= _INT32_MAX else f"must fit in an int (|offset| <= {_INT32_MAX})"


def _bucket_range(n: int) -> str | None:
    return None if 1 <= n <= _INT32_MAX else f"must be between 1 and {_INT32_MAX}"


def _offset_nullable(args: Args) -> bool:
    """NULL where no row is that far, unless a default fills it."""
    return len(args) < 3 or args.nullable(0) or args.nullable(2)


_DEFAULT = Param("default", accepts.ANY, (bool, int, float, str), names=False, default=ABSENT, like=0)
"""A value or expression of the column's type (a lossless conversion: Spark casts it)."""

ENTRIES: tuple[Function, ...] = (
    _entry("row_number", returns=fixed(dt.Int32()), nullable=never, summary="1, 2, 3, ... in window order."),
    _entry("rank", returns=fixed(dt.Int32()), nullable=never, summary="The rank, with gaps after ties."),
    _entry("dense_rank", returns=fixed(dt.Int32()), nullable=never, summary="The rank, without gaps."),
    _entry("percent_rank", returns=fixed(dt.Float64()), nullable=never, summary="(rank - 1) / (rows - 1)."),
    _entry("cume_dist", returns=fixed(dt.Float64()), nullable=never, summary="The fraction of rows at or before."),
    _entry(
        "ntile",
        value("n", int, literal=dt.Int32(), check=_bucket_range),
        returns=fixed(dt.Int32()),
        nullable=never,
        summary="The row's bucket, 1..n, when the partition is split into n buckets.",
    ),
    _entry(
        "lag",
        column("col", accepts.ANY),
        value("offset", int, literal=dt.Int32(), default=1, check=_offset_range),
        _DEFAULT,
        returns=same(0),
        nullable=_offset_nullable,
        summary="The value ``offset`` rows before; ``default`` (else NULL) where there is none.",
    ),
    _entry(
        "lead",
        column("col", accepts.ANY),
        value("offset", int, literal=dt.Int32(), default=1, check=_offset_range),
        _DEFAULT,
        returns=same(0),
        nullable=_offset_nullable,
        summary="The value ``offset`` rows after; ``default`` (else NULL) where there is none.",
    ),
    _entry(
        "nth_value",
        column("col", accepts.ANY),
        value("offset", int, literal=dt.Int32(), check=_bucket_range),
        value("ignoreNulls", bool, default=False),
        returns=same(0),
        nullable=always,
        special=True,
        summary="The ``offset``-th value (1-based) of the window frame; NULLs skipped if asked.",
    ),
    _entry(
        "counter_diff",
        column("value", accepts.NUMBER),
        column("startTime", accepts.TIMESTAMP, default=ABSENT),
        returns=same(0),
        nullable=always,
        samples=((Built("lambda c: F.length(c)", (dt.String(),)),),),  # a counter is never negative
        summary=(
            "The increase of a cumulative counter since the previous row (a series per partition, in time order); "
            "NULL at the first row and where the counter resets (it decreases, or ``startTime`` moves on). "
            "A negative counter fails the job."
        ),
    ),
)
