"""Aggregate functions: over the rows of a group (``group_by().agg()``), a whole frame, or a window.

Over an all-NULL group every aggregate is NULL except the counts (0) and the
collections (empty), which are the only ones never NULL. The DISTINCT forms
are not ``windowable``: Spark has no DISTINCT window functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    DTypeRule,
    EntryOptions,
    Function,
    Kind,
    Lit,
    Param,
    always,
    at_least,
    column,
    either,
    entry,
    never,
    same,
    value,
)
from pydantable_spark.expr.core import describe

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES"]

EQUATABLE = Accepts(
    "a value with an equality (not a map or VARIANT)", dt.has_equality, examples=(dt.Int64(), dt.String())
)


def _percentages(value: object) -> str | None:
    """A percentage, or a non-empty list of them: each between 0 and 1."""
    values = list(value) if isinstance(value, list | tuple) else [value]
    if not values:
        return "must be a percentage or a non-empty list of them"
    for item in values:
        if isinstance(item, bool) or not isinstance(item, int | float):
            return f"must be numbers between 0 and 1 (a list holds {item!r})"
        if not 0 <= item <= 1:
            return f"must be between 0 and 1 ({item!r} is not)"
    return None


_PERCENTAGE = value("percentage", float, int, list, tuple, literal=dt.Float64(), check=_percentages, sample=0.5)
"""PySpark's ``percentage``: a number from 0 to 1, or a list (or tuple) of them."""


def _per_percentage(rule: DTypeRule) -> DTypeRule:
    """``rule``'s type for one percentage; a list of its values (never NULL) for a list of percentages."""
    return lambda args: dt.List(rule(args), False) if isinstance(args.dtype(1), dt.List) else rule(args)


def _union_of_lists(args: Args) -> dt.DType:
    """``collect_union``'s list: the elements' type, never a NULL element (measured: Spark drops them)."""
    listed = args.dtype(0)
    assert isinstance(listed, dt.List)
    return dt.List(listed.inner, False)


def _entry(name: str, *params: Param, returns: DTypeRule, summary: str, **options: Unpack[EntryOptions]) -> Function:
    options.setdefault("nullable", always)
    options.setdefault("kind", Kind.AGGREGATE)
    return entry(name, params, returns, summary, "aggregate", **options)


def _sum_type(args: Args) -> dt.DType:
    """``bigint`` for integers, ``double`` for floats, ``decimal(p + 10, s)`` for decimals."""
    source = args.dtype(0)
    if isinstance(source, dt.Integral):
        return dt.Int64()
    if isinstance(source, dt.Decimal):
        return dt.Decimal(min(source.precision + 10, dt.MAX_DECIMAL_PRECISION), source.scale)
    return dt.Float64()


def _avg_type(args: Args) -> dt.DType:
    """``double``, or ``decimal(p + 4, s + 4)`` for decimals (Spark's bounded rule)."""
    return _avg_of(args.dtype(0))


def _avg_of(source: dt.DType) -> dt.DType:
    if isinstance(source, dt.Decimal):
        precision = min(source.precision + 4, dt.MAX_DECIMAL_PRECISION)
        return dt.Decimal(precision, min(source.scale + 4, precision))
    return dt.Float64()


def _collected(args: Args) -> dt.DType:
    return dt.List(args.dtype(0), False)  # NULLs are skipped


def _relative_error(rsd: float) -> str | None:
    """HyperLogLog++'s error bound: at most 0.391 (Spark needs 4 bits of addressing, 1.106 / 2 ** 1.5).

    Below 0.001 the registers outgrow any aggregation buffer (2 ** 41 of them at
    1e-6, which crashes Spark's JVM): an exact count is ``F.count_distinct``.
    """
    if 0.001 <= rsd < 1.106 / 2**1.5:
        return None
    return "must be at least 0.001 and below 0.391 (HyperLogLog++'s bounds; F.count_distinct counts exactly)"


_COL = column("col", accepts.NUMBER)


def _delimiter_of_its_kind(args: Args) -> None:
    """A string delimiter for strings, bytes for bytes (Spark would not cast one to the other)."""
    if len(args) > 1 and type(args.dtype(0)) is not type(args.dtype(1)):
        msg = (
            f"{args.name}(): delimiter must be of the kind of col (strings or bytes); got {describe(args.nodes[1])} "
            f"for {describe(args.nodes[0])}"
        )
        raise ColumnTypeError(msg)


ENTRIES: tuple[Function, ...] = (
    # --- counts ---
    _entry(
        "count",
        column("col", accepts.ANY, default=ABSENT),
        returns=returns.BIGINT,
        nullable=never,
        special=True,
        summary="Rows (no argument) or non-NULL values of a column; 0 for an empty group.",
    ),
    _entry(
        "count_distinct",
        column("col", EQUATABLE),
        column("cols", EQUATABLE, variadic=True, default=()),
        returns=returns.BIGINT,
        nullable=never,
        windowable=False,
        template="count(DISTINCT {all})",
        aliases=("countDistinct", "n_unique"),
        summary="Distinct non-NULL values (of the combination of the columns).",
    ),
    _entry(
        "approx_count_distinct",
        column("col", EQUATABLE),
        value("rsd", float, default=ABSENT, check=_relative_error, sample=0.05),
        returns=returns.BIGINT,
        nullable=never,
        summary="An estimate of the distinct values (HyperLogLog++).",
    ),
    _entry(
        "count_if",
        column("col", accepts.BOOLEAN),
        returns=returns.BIGINT,
        nullable=never,
        summary="Rows where the value is true.",
    ),
    # --- sums and means ---
    _entry("sum", _COL, returns=_sum_type, summary="Sum: integers as bigint, floats as double, decimals wider."),
    _entry(
        "sum_distinct",
        _COL,
        returns=_sum_type,
        windowable=False,
        template="sum(DISTINCT {0})",
        summary="Sum of the distinct values.",
    ),
    _entry("try_sum", _COL, returns=_sum_type, summary="Sum, NULL instead of an overflow error."),
    _entry("avg", _COL, returns=_avg_type, aliases=("mean",), summary="Average: double, or a wider decimal."),
    _entry("try_avg", _COL, returns=_avg_type, summary="Average, NULL instead of an overflow error."),
    # --- order statistics ---
    _entry("min", column("col", accepts.ORDERABLE), returns=same(0), summary="The smallest value."),
    _entry("max", column("col", accepts.ORDERABLE), returns=same(0), summary="The largest value."),
    _entry(
        "min_by",
        column("col", accepts.ANY),
        column("ord", accepts.ORDERABLE),
        returns=same(0),
        summary="The value of ``col`` on the row where ``ord`` is smallest.",
    ),
    _entry(
        "max_by",
        column("col", accepts.ANY),
        column("ord", accepts.ORDERABLE),
        returns=same(0),
        summary="The value of ``col`` on the row where ``ord`` is largest.",
    ),
    _entry("median", _COL, returns=returns.DOUBLE, window_order=False, summary="The median, as double."),
    _entry(
        "mode",
        column("col", EQUATABLE),
        value("deterministic", bool, default=False),
        returns=same(0),
        summary="The most frequent value (the smallest of ties when ``deterministic``).",
    ),
    _entry(
        "percentile",
        _COL,
        _PERCENTAGE,
        either("frequency", accepts.INTEGER, int, default=1, check=at_least(1)),
        returns=_per_percentage(lambda args: dt.Float64()),
        samples=((dt.Float64(), [0.25, 0.75]), (dt.Int32(), (0, 0.5, 1), Lit(2)), (dt.Decimal(10, 2), 0.5, dt.Int8())),
        summary=(
            "The exact percentile (0..1) of the values, each counted ``frequency`` times (an integer column or "
            "value); a list of percentages gives the list of percentiles."
        ),
    ),
    _entry(
        "percentile_approx",
        _COL,
        _PERCENTAGE,
        value("accuracy", int, default=10000, check=at_least(1)),
        returns=_per_percentage(same(0)),
        aliases=("approx_percentile",),
        samples=((dt.Float64(), [0.25, 0.75]), (dt.Int32(), (0.5,))),
        summary="An approximate percentile (0..1) of the values; a list of percentages gives the list of them.",
    ),
    # --- dispersion and correlation ---
    _entry(
        "stddev",
        _COL,
        returns=returns.DOUBLE,
        sql="stddev_samp",
        aliases=("std", "stddev_samp"),
        summary="The sample standard deviation.",
    ),
    _entry("stddev_pop", _COL, returns=returns.DOUBLE, summary="The population standard deviation."),
    _entry(
        "variance",
        _COL,
        returns=returns.DOUBLE,
        sql="var_samp",
        aliases=("var_samp", "var"),
        summary="The sample variance.",
    ),
    _entry("var_pop", _COL, returns=returns.DOUBLE, summary="The population variance."),
    _entry("skewness", _COL, returns=returns.DOUBLE, summary="The skewness."),
    _entry("kurtosis", _COL, returns=returns.DOUBLE, summary="The excess kurtosis."),
    _entry(
        "corr",
        column("col1", accepts.NUMBER),
        column("col2", accepts.NUMBER),
        returns=returns.DOUBLE,
        summary="Pearson correlation.",
    ),
    _entry(
        "covar_pop",
        column("col1", accepts.NUMBER),
        column("col2", accepts.NUMBER),
        returns=returns.DOUBLE,
        summary="The population covariance.",
    ),
    _entry(
        "covar_samp",
        column("col1", accepts.NUMBER),
        column("col2", accepts.NUMBER),
        returns=returns.DOUBLE,
        summary="The sample covariance.",
    ),
    # --- logic and bits ---
    _entry(
        "bool_and", column("col", accepts.BOOLEAN), returns=same(0), aliases=("every",), summary="Whether all are true."
    ),
    _entry(
        "bool_or", column("col", accepts.BOOLEAN), returns=same(0), aliases=("some",), summary="Whether any is true."
    ),
    _entry("bit_and", column("col", accepts.INTEGER), returns=same(0), summary="Bitwise AND of the values."),
    _entry("bit_or", column("col", accepts.INTEGER), returns=same(0), summary="Bitwise OR of the values."),
    _entry("bit_xor", column("col", accepts.INTEGER), returns=same(0), summary="Bitwise XOR of the values."),
    # --- picking and collecting ---
    _entry(
        "first",
        column("col", accepts.ANY),
        value("ignorenulls", bool, default=False),
        returns=same(0),
        summary="A first value (in the frame's order only when sorted); NULLs skipped if asked.",
    ),
    _entry(
        "last",
        column("col", accepts.ANY),
        value("ignorenulls", bool, default=False),
        returns=same(0),
        summary="A last value (in the frame's order only when sorted); NULLs skipped if asked.",
    ),
    _entry(
        "first_value",
        column("col", accepts.ANY),
        value("ignoreNulls", bool, default=False),
        returns=same(0),
        summary="The first value (of the window frame, or of the group); NULLs skipped if asked.",
    ),
    _entry(
        "last_value",
        column("col", accepts.ANY),
        value("ignoreNulls", bool, default=False),
        returns=same(0),
        summary="The last value (of the window frame, or of the group); NULLs skipped if asked.",
    ),
    _entry(
        "any_value",
        column("col", accepts.ANY),
        value("ignoreNulls", bool, default=False),
        returns=same(0),
        summary="Some value of the group; NULLs skipped if asked.",
    ),
    _entry(
        "collect_list",
        column("col", accepts.ANY),
        returns=_collected,
        nullable=never,
        aliases=("array_agg",),
        summary="The non-NULL values as a list.",
    ),
    _entry(
        "collect_set",
        column("col", EQUATABLE),
        returns=_collected,
        nullable=never,
        summary="The distinct non-NULL values as a list.",
    ),
    *(
        _entry(
            name,
            column("col", accepts.STRING_OR_BINARY),
            either("delimiter", accepts.STRING_OR_BINARY, str, bytes, default=ABSENT, sample=", ", foldable=True),
            returns=same(0),
            check=_delimiter_of_its_kind,
            sql=sql,
            template=template,
            windowable=not distinct,
            deterministic=not distinct,  # DISTINCT concatenates in no set order (it differs on Connect, measured)
            samples=((dt.Binary(), b"|"),),
            summary=summary,
        )
        for name, sql, template, distinct, summary in (
            ("listagg", None, None, False, "The non-NULL strings (or bytes) end to end, ``delimiter`` between."),
            ("string_agg", None, None, False, "The non-NULL strings (or bytes) end to end, ``delimiter`` between."),
            (
                "listagg_distinct",
                "listagg",
                "listagg(DISTINCT {all})",
                True,
                "The distinct non-NULL strings (or bytes) end to end, ``delimiter`` between.",
            ),
            (
                "string_agg_distinct",
                "string_agg",
                "string_agg(DISTINCT {all})",
                True,
                "The distinct non-NULL strings (or bytes) end to end, ``delimiter`` between.",
            ),
        )
    ),
    _entry(
        "histogram_numeric",
        _COL,
        either(
            "nBins", accepts.INT32, int, literal=dt.Int32(), foldable=True, check=at_least(2), column_in_pyspark=True
        ),
        returns=lambda a: dt.List(
            dt.Struct((dt.Field("x", a.dtype(0), True), dt.Field("y", dt.Float64(), True))), True
        ),
        samples=((dt.Float64(), 3), (dt.Int64(), 2)),
        summary="A histogram of ``nBins`` bins: a list of (x: the bin's centre, y: its height).",
    ),
    _entry(
        "collect_union",
        column(
            "col",
            Accepts(
                "a list",
                lambda t: isinstance(t, dt.List),
                examples=(dt.List(dt.Int64(), False), dt.List(dt.String(), True)),
            ),
        ),
        returns=_union_of_lists,
        nullable=never,
        summary="The distinct non-NULL elements of every list, as one list (Spark leaves NULL elements out).",
    ),
    # --- regressions ---
    *(
        _entry(
            f"regr_{name}",
            column("y", accepts.NUMBER),
            column("x", accepts.NUMBER),
            returns=returns.DOUBLE,
            summary=summary,
        )
        for name, summary in (
            ("slope", "The slope of the least-squares line of y on x."),
            ("intercept", "The intercept of the least-squares line of y on x."),
            ("r2", "The coefficient of determination of y on x."),
            ("sxx", "The sum of squares of x where both are non-NULL."),
            ("syy", "The sum of squares of y where both are non-NULL."),
            ("sxy", "The sum of products where both are non-NULL."),
        )
    ),
    _entry(
        "regr_avgx",
        column("y", accepts.NUMBER),
        column("x", accepts.NUMBER),
        returns=lambda a: _avg_of(a.dtype(1)),
        summary="The average of x where both are non-NULL.",
    ),
    _entry(
        "regr_avgy",
        column("y", accepts.NUMBER),
        column("x", accepts.NUMBER),
        returns=lambda a: _avg_of(a.dtype(0)),
        summary="The average of y where both are non-NULL.",
    ),
    _entry(
        "regr_count",
        column("y", accepts.NUMBER),
        column("x", accepts.NUMBER),
        returns=returns.BIGINT,
        nullable=never,
        summary="Rows where both are non-NULL.",
    ),
)
