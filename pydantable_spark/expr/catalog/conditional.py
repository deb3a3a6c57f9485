"""Conditional and NULL functions (PySpark's ``nvl``, ``nullif``, ``isnull``...).

``coalesce`` and ``when`` are special forms (``expr.forms``). Values meet in
one type where Spark makes them (``nvl``, the branches of ``nvl2``), with no
string-to-number conversion: arguments without a common type are refused,
where Spark would cast a string to a number. Compared arguments (``nullif``,
``equal_null``) must be comparable, as for ``==``.

Each entry is checked against Spark's analyzer and against plain PySpark's
values by ``tests/expr/test_catalog.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.spec import (
    Args,
    DTypeRule,
    EntryOptions,
    Function,
    Param,
    always,
    column,
    entry,
    fixed,
    never,
    null_if,
    same,
)
from pydantable_spark.expr.core import describe
from pydantable_spark.expr.operators import comparable
from pydantable_spark.typerules import supertype

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES"]


_AS_FIRST = same(0)
"""The default result: the first argument's type."""


def _entry(
    name: str, *params: Param, returns: DTypeRule = _AS_FIRST, summary: str, **options: Unpack[EntryOptions]
) -> Function:
    return entry(name, params, returns, summary, "conditional", **options)


def _comparable(args: Args) -> None:
    if not comparable(args.dtype(0), args.dtype(1), ordering=False):
        msg = f"{args.name}(): cannot compare {describe(args.nodes[0])} with {describe(args.nodes[1])}"
        raise ColumnTypeError(msg)


def _zero_or(args: Args) -> dt.DType:
    """The type of ``coalesce(col, 0)`` with an ``int`` 0: integers narrower than ``int`` widen to it."""
    result = supertype(args.dtype(0), dt.Int32())
    assert result is not None
    return result


def _both_null(args: Args) -> bool:
    return args.nullable(0) and args.nullable(1)


ENTRIES: tuple[Function, ...] = (
    _entry(
        "nvl",
        column("col1", accepts.ANY),
        column("col2", accepts.ANY),
        common=(0, 1),
        nullable=_both_null,
        aliases=("ifnull",),
        summary="``col1``, or ``col2`` where ``col1`` is NULL (``coalesce`` of two).",
    ),
    _entry(
        "nvl2",
        column("col1", accepts.ANY),
        column("col2", accepts.ANY),
        column("col3", accepts.ANY),
        returns=same(1),
        common=(1, 2),
        nullable=null_if(1, 2),
        summary="``col2`` where ``col1`` is not NULL, else ``col3``.",
    ),
    _entry(
        "nullif",
        column("col1", accepts.ANY),
        column("col2", accepts.ANY),
        weak=(0, 1),
        check=_comparable,
        nullable=always,
        summary="NULL where ``col1`` equals ``col2``, else ``col1``.",
    ),
    _entry(
        "nullifzero",
        column("col", accepts.NUMBER),
        nullable=always,
        summary="NULL where the number is 0, else the number.",
    ),
    _entry(
        "zeroifnull",
        column("col", accepts.NUMBER),
        returns=_zero_or,
        nullable=never,
        summary="0 where the number is NULL (integers narrower than int become int).",
    ),
    _entry(
        "equal_null",
        column("col1", accepts.ANY),
        column("col2", accepts.ANY),
        returns=returns.BOOLEAN,
        weak=(0, 1),
        check=_comparable,
        nullable=never,
        summary="Whether the values are equal, NULL equal to NULL (``<=>``); never NULL.",
    ),
    _entry(
        "isnull",
        column("col", accepts.ANY),
        returns=returns.BOOLEAN,
        nullable=never,
        summary="Whether the value is NULL.",
    ),
    _entry(
        "isnotnull",
        column("col", accepts.ANY),
        returns=returns.BOOLEAN,
        nullable=never,
        summary="Whether the value is not NULL.",
    ),
    _entry(
        "typeof",
        column("col", accepts.ANY),
        returns=fixed(dt.String()),
        nullable=never,
        summary="Spark's name of the value's type (``'bigint'``, ``'decimal(10,2)'``...).",
    ),
)
