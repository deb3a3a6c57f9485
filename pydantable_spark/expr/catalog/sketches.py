"""Sketches: approximate distinct counts and quantiles kept as bytes (HLL, KLL, Theta, Tuple).

A ``*_sketch_agg`` aggregate summarizes a column as a sketch (``bytes``); the
scalar functions read one (``*_estimate``, ``kll_sketch_get_quantile_*``) or
combine two (``*_union``, ``*_intersection``, ``*_difference``), and the
``*_union_agg``/``*_merge_agg`` aggregates combine a column of them. A sketch
reaches a scalar function or a merging aggregate through a frame: aggregate it
in one step (``group_by().agg``), read or merge it in the next
(``tests/expr/test_catalog_sketches.py`` compares such pipelines with PySpark).

Measured on Spark 4.3 (and checked by ``tests/expr/test_catalog.py``):

- Every aggregate gives a sketch, never NULL, also over no rows or only NULLs
  (an empty sketch, whose estimate is 0).
- Bytes that are no sketch of the family fail the job
  (``HLL_INVALID_INPUT_SKETCH_BUFFER``...): no function returns NULL for them.
- The size parameters must be constants in a range; Spark checks the KLL ``k``
  (8..65535) when it analyses the plan, but HLL's ``lgConfigK`` (4..21) and the
  Theta/Tuple ``lgNomEntries`` (4..26) only when the job runs: the façade
  checks all of them when the call is made.
- ``kll_sketch_get_quantile_*`` and ``kll_sketch_get_rank_*`` need a constant
  rank/quantile (a column is refused by Spark's analyzer); a list of them gives
  a list of results.
- The Tuple summary of ``tuple_sketch_agg_integer`` is an ``int``: Spark casts a
  bigint summary to it (failing on overflow) and, left alone, a double or a
  string too; the façade takes integers only. The summary ``mode`` is one of
  ``sum`` (the default), ``min``, ``max``, ``alwaysone``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Built,
    DTypeRule,
    EntryOptions,
    Function,
    Kind,
    Param,
    column,
    either,
    entry,
    fixed,
    never,
    one_of,
    value,
)
from pydantable_spark.expr.core import literal_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Unpack

    from pydantable_spark.expr.core import Node

__all__ = ["ENTRIES"]


def _is(*classes: type[dt.DType]) -> Callable[[dt.DType], bool]:
    return lambda t: isinstance(t, classes)


def _between(low: int, high: int) -> Callable[[Any], str | None]:
    return lambda v: None if low <= v <= high else f"must be between {low} and {high}"


def _size(name: str, low: int, high: int, sample: int) -> Param:
    """A sketch's size parameter (``lgConfigK``, ``k``, ``lgNomEntries``): a constant int in a range."""
    return either(
        name,
        accepts.INT32,
        int,
        literal=dt.Int32(),
        default=ABSENT,
        check=_between(low, high),
        foldable=True,
        sample=sample,
    )


_LG_CONFIG_K = _size("lgConfigK", 4, 21, sample=10)
_K = _size("k", 8, 65535, sample=100)
_LG_NOM_ENTRIES = _size("lgNomEntries", 4, 26, sample=10)
_MODE = value("mode", str, default=ABSENT, check=one_of("sum", "min", "max", "alwaysone"), sample="max")
SKETCH = column("col", accepts.BINARY)

_HLL_INPUT = Accepts(
    "an int, a bigint, a string or bytes",
    _is(dt.Int32, dt.Int64, dt.String, dt.Binary),
    examples=(dt.Int32(), dt.Int64(), dt.String(), dt.Binary()),
)
_THETA_INPUT = Accepts(
    "an int, bigint, float, double, string, bytes, or a list of ints or bigints",
    lambda t: (
        isinstance(t, dt.Int32 | dt.Int64 | dt.Float32 | dt.Float64 | dt.String | dt.Binary)
        or (isinstance(t, dt.List) and isinstance(t.inner, dt.Int32 | dt.Int64))
    ),
    examples=(dt.Int64(), dt.Float64(), dt.String(), dt.Binary(), dt.List(dt.Int32(), False)),
)
_KLL: dict[str, tuple[dt.DType, Accepts]] = {
    "bigint": (
        dt.Int64(),
        Accepts("an integer", _is(dt.Integral), examples=(dt.Int8(), dt.Int16(), dt.Int32(), dt.Int64())),
    ),
    "double": (
        dt.Float64(),
        Accepts("a float or double", _is(dt.Float32, dt.Float64), examples=(dt.Float32(), dt.Float64())),
    ),
    "float": (dt.Float32(), Accepts("a float", _is(dt.Float32), examples=(dt.Float32(),))),
}
_TUPLE: dict[str, tuple[dt.DType, Accepts]] = {
    "double": (dt.Float64(), accepts.DOUBLE),
    "integer": (dt.Int64(), accepts.INT32),
}


def _aggregate(name: str, *params: Param, summary: str, **options: Unpack[EntryOptions]) -> Function:
    """An aggregate making a sketch: never NULL (an empty sketch over no rows)."""
    options.setdefault("kind", Kind.AGGREGATE)
    options.setdefault("nullable", never)
    return entry(name, params, returns.BINARY, summary, "sketch", **options)


def _scalar(name: str, *params: Param, returns: DTypeRule, summary: str, **options: Unpack[EntryOptions]) -> Function:
    return entry(name, params, returns, summary, "sketch", **options)


def _fractions(value: object) -> str | None:
    """A rank (0..1), or a non-empty list of them."""
    values = list(value) if isinstance(value, list | tuple) else [value]
    if not values:
        return "must be a rank or a non-empty list of them"
    for item in values:
        if isinstance(item, bool) or not isinstance(item, int | float) or not 0 <= item <= 1:
            return f"must be ranks between 0 and 1 ({item!r} is not)"
    return None


def _numbers(value: object) -> str | None:
    """A number, or a non-empty list of them."""
    values = list(value) if isinstance(value, list | tuple) else [value]
    if not values or any(isinstance(v, bool) or not isinstance(v, int | float) for v in values):
        return "must be a number or a non-empty list of numbers"
    return None


def _one_or_list(dtype: dt.DType) -> DTypeRule:
    """``dtype``, or a list of it (never NULL elements) when argument 1 is a list."""
    return lambda args: dt.List(dtype, False) if isinstance(args.dtype(1), dt.List) else dtype


def _number_or_list(label: str, element: Callable[[dt.DType], bool], to: dt.DType) -> Accepts:
    return Accepts(
        f"{label} or a list of them",
        lambda t: element(t) or (isinstance(t, dt.List) and element(t.inner)),
        to=lambda t: dt.List(to, False) if isinstance(t, dt.List) else to,
        examples=(to,),
    )


def _hll() -> tuple[Function, ...]:
    made = Built("lambda c: F.hll_sketch_agg(c)", (dt.Int64(),))
    positive = Built("lambda c: F.hll_sketch_agg(F.when(c > 0, c))", (dt.Int64(),))
    return (
        _aggregate(
            "hll_sketch_agg",
            column("col", _HLL_INPUT),
            _LG_CONFIG_K,
            summary="A HyperLogLog sketch of the distinct values (``lgConfigK``: log2 of its buckets, 4..21).",
        ),
        _aggregate(
            "hll_union_agg",
            SKETCH,
            value("allowDifferentLgConfigK", bool, default=ABSENT, sample=True),
            summary="The union of a column of HLL sketches (of one ``lgConfigK`` unless allowed to differ).",
        ),
        _scalar(
            "hll_sketch_estimate",
            SKETCH,
            returns=returns.BIGINT,
            samples=((made,), (positive,)),
            summary="The estimated distinct count of an HLL sketch.",
        ),
        _scalar(
            "hll_union",
            column("col1", accepts.BINARY),
            column("col2", accepts.BINARY),
            value("allowDifferentLgConfigK", bool, default=ABSENT, sample=True),
            returns=returns.BINARY,
            samples=((made, positive), (positive, made, True)),
            summary="The union of two HLL sketches (of one ``lgConfigK`` unless allowed to differ).",
        ),
    )


def _kll(kind: str, dtype: dt.DType, admits: Accepts) -> tuple[Function, ...]:
    source = dt.Int64() if kind == "bigint" else dtype
    made = Built(f"lambda c: F.kll_sketch_agg_{kind}(c)", (source,))
    other = Built(f"lambda c: F.kll_sketch_agg_{kind}(F.when(c > 0, c))", (source,))
    quantile = dt.Int64() if kind == "bigint" else dtype
    integral = kind == "bigint"
    return (
        _aggregate(
            f"kll_sketch_agg_{kind}",
            column("col", admits),
            _K,
            summary=f"A KLL quantiles sketch of the values (as {kind}s; ``k``: its accuracy, 8..65535).",
        ),
        _aggregate(
            f"kll_merge_agg_{kind}",
            SKETCH,
            _K,
            summary=f"The merge of a column of KLL {kind} sketches.",
        ),
        _scalar(
            f"kll_sketch_get_n_{kind}",
            SKETCH,
            returns=returns.BIGINT,
            samples=((made,), (other,)),
            summary=f"How many values a KLL {kind} sketch has seen.",
        ),
        _scalar(
            f"kll_sketch_get_quantile_{kind}",
            column("sketch", accepts.BINARY),
            Param(
                "rank",
                _number_or_list("a number", _is(dt.Numeric), dt.Float64()),
                (float, int, list, tuple),
                dt.Float64(),
                names=False,
                check=_fractions,
                sample=0.5,
                foldable=True,
                column_in_pyspark=True,
            ),
            returns=_one_or_list(dtype),
            samples=((made, 0.5), (made, [0.0, 0.25, 1.0]), (other, 1)),
            summary=f"The {kind} at a rank (0..1) of a KLL sketch; a list of ranks gives the list of them.",
        ),
        _scalar(
            f"kll_sketch_get_rank_{kind}",
            column("sketch", accepts.BINARY),
            Param(
                "quantile",
                _number_or_list(
                    "an integer" if integral else "a number", _is(dt.Integral if integral else dt.Numeric), quantile
                ),
                (int, list, tuple) if integral else (float, int, list, tuple),
                quantile,
                names=False,
                check=_numbers,
                sample=1,
                foldable=True,
                column_in_pyspark=True,
            ),
            returns=_one_or_list(dt.Float64()),
            samples=((made, 1), (made, [0, 7]), (other, 1)),
            summary=f"The rank (0..1) of a {kind} in a KLL sketch; a list of values gives the list of ranks.",
        ),
        _scalar(
            f"kll_sketch_merge_{kind}",
            column("left", accepts.BINARY),
            column("right", accepts.BINARY),
            returns=returns.BINARY,
            samples=((made, other),),
            summary=f"The merge of two KLL {kind} sketches.",
        ),
        _scalar(
            f"kll_sketch_to_string_{kind}",
            SKETCH,
            returns=fixed(dt.String()),
            samples=((made,),),
            summary=f"A readable summary of a KLL {kind} sketch.",
        ),
    )


def _theta() -> tuple[Function, ...]:
    made = Built("lambda c: F.theta_sketch_agg(c)", (dt.Int64(),))
    positive = Built("lambda c: F.theta_sketch_agg(F.when(c > 0, c))", (dt.Int64(),))
    pair = (column("col1", accepts.BINARY), column("col2", accepts.BINARY))
    return (
        _aggregate(
            "theta_sketch_agg",
            column("col", _THETA_INPUT),
            _LG_NOM_ENTRIES,
            summary="A Theta sketch of the distinct values (``lgNomEntries``: log2 of its entries, 4..26).",
        ),
        _aggregate(
            "theta_union_agg",
            SKETCH,
            _LG_NOM_ENTRIES,
            summary="The union of a column of Theta sketches.",
        ),
        _aggregate(
            "theta_intersection_agg",
            SKETCH,
            summary="The intersection of a column of Theta sketches.",
        ),
        _scalar(
            "theta_sketch_estimate",
            SKETCH,
            returns=returns.BIGINT,
            samples=((made,), (positive,)),
            summary="The estimated distinct count of a Theta sketch.",
        ),
        _scalar(
            "theta_union",
            *pair,
            _LG_NOM_ENTRIES,
            returns=returns.BINARY,
            samples=((made, positive), (positive, made, 10)),
            summary="The union of two Theta sketches.",
        ),
        _scalar(
            "theta_intersection",
            *pair,
            returns=returns.BINARY,
            samples=((made, positive),),
            summary="The intersection of two Theta sketches.",
        ),
        _scalar(
            "theta_difference",
            *pair,
            returns=returns.BINARY,
            samples=((made, positive), (positive, made)),
            summary="The values of the first Theta sketch not in the second (A not B).",
        ),
    )


def _tuple(kind: str, summary_type: dt.DType, summaries: Accepts) -> tuple[Function, ...]:
    made = Built(f"lambda k, s: F.tuple_sketch_agg_{kind}(k, s)", (dt.Int64(), dt.Int32()))
    positive = Built(f"lambda k, s: F.tuple_sketch_agg_{kind}(F.when(k > 0, k), s)", (dt.Int64(), dt.Int32()))
    theta = Built("lambda c: F.theta_sketch_agg(F.when(c > 0, c))", (dt.Int64(),))
    pair = (column("col1", accepts.BINARY), column("col2", accepts.BINARY))
    return (
        _aggregate(
            f"tuple_sketch_agg_{kind}",
            column("key", _THETA_INPUT),
            column("summary", summaries),
            _LG_NOM_ENTRIES,
            _MODE,
            summary=(
                f"A Tuple sketch of the distinct keys, each with a {kind} summary of its values (``mode``: sum, "
                "min, max or alwaysone)."
            ),
        ),
        _aggregate(
            f"tuple_union_agg_{kind}",
            SKETCH,
            _LG_NOM_ENTRIES,
            _MODE,
            summary=f"The union of a column of Tuple {kind} sketches (summaries combined by ``mode``).",
        ),
        _aggregate(
            f"tuple_intersection_agg_{kind}",
            SKETCH,
            _MODE,
            summary=f"The intersection of a column of Tuple {kind} sketches (summaries combined by ``mode``).",
        ),
        _scalar(
            f"tuple_sketch_estimate_{kind}",
            SKETCH,
            returns=returns.DOUBLE,
            samples=((made,), (positive,)),
            summary=f"The estimated distinct count of a Tuple {kind} sketch.",
        ),
        _scalar(
            f"tuple_sketch_summary_{kind}",
            SKETCH,
            _MODE,
            returns=fixed(summary_type),
            samples=((made,), (made, "max"), (positive, "min")),
            summary=f"The summaries of a Tuple {kind} sketch combined by ``mode`` (sum by default).",
        ),
        _scalar(
            f"tuple_sketch_theta_{kind}",
            SKETCH,
            returns=returns.DOUBLE,
            samples=((made,),),
            summary=f"The theta (sampling rate) of a Tuple {kind} sketch.",
        ),
        _scalar(
            f"tuple_union_{kind}",
            *pair,
            _LG_NOM_ENTRIES,
            _MODE,
            returns=returns.BINARY,
            samples=((made, positive), (made, positive, 10, "max")),
            summary=f"The union of two Tuple {kind} sketches.",
        ),
        _scalar(
            f"tuple_union_theta_{kind}",
            *pair,
            _LG_NOM_ENTRIES,
            _MODE,
            returns=returns.BINARY,
            samples=((made, theta),),
            summary=f"The union of a Tuple {kind} sketch and a Theta sketch.",
        ),
        _scalar(
            f"tuple_intersection_{kind}",
            *pair,
            _MODE,
            returns=returns.BINARY,
            samples=((made, positive), (made, positive, "min")),
            summary=f"The intersection of two Tuple {kind} sketches.",
        ),
        _scalar(
            f"tuple_intersection_theta_{kind}",
            *pair,
            _MODE,
            returns=returns.BINARY,
            samples=((made, theta),),
            summary=f"The intersection of a Tuple {kind} sketch and a Theta sketch.",
        ),
        _scalar(
            f"tuple_difference_{kind}",
            *pair,
            returns=returns.BINARY,
            samples=((made, positive),),
            summary=f"The keys of the first Tuple {kind} sketch not in the second.",
        ),
        _scalar(
            f"tuple_difference_theta_{kind}",
            *pair,
            returns=returns.BINARY,
            samples=((made, theta),),
            summary=f"The keys of a Tuple {kind} sketch not in a Theta sketch.",
        ),
    )


def _random_seed() -> Node:
    """PySpark's default seed of ``count_min_sketch``: a random one, drawn when the call is made."""
    return literal_of(random.getrandbits(62), dt.Int64())


def _positive(value: float) -> str | None:
    return None if value > 0 else "must be positive"


def _probability(value: float) -> str | None:
    return None if 0 < value < 1 else "must be between 0 and 1 (exclusive)"


_COUNT_MIN = entry(
    "count_min_sketch",
    (
        column("col", Accepts("an integer, a string or bytes", _is(dt.Integral, dt.String, dt.Binary),
                              examples=(dt.Int64(), dt.String(), dt.Binary()))),
        value("eps", float, literal=dt.Float64(), check=_positive, sample=0.5),
        value("confidence", float, literal=dt.Float64(), check=_probability, sample=0.9),
        value("seed", int, literal=dt.Int64(), default=None, none=_random_seed, sample=1),
    ),
    returns.BINARY,
    "A count-min sketch of the values (relative error ``eps`` with probability ``confidence``), as bytes.",
    "sketch",
    kind=Kind.AGGREGATE,
    nullable=never,
    samples_only=True,  # without a seed each side draws its own
    samples=((dt.Int64(), 0.5, 0.9, 1), ((dt.String(), True), 0.01, 0.95, 42)),
)  # fmt: skip

ENTRIES: tuple[Function, ...] = (
    *_hll(),
    _COUNT_MIN,
    *(made for kind, (dtype, admits) in _KLL.items() for made in _kll(kind, dtype, admits)),
    *_theta(),
    *(made for kind, (dtype, summaries) in _TUPLE.items() for made in _tuple(kind, dtype, summaries)),
)
