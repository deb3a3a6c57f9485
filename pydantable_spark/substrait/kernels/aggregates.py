"""Kernels of the catalog's aggregate functions: each group (or window frame) as Spark aggregates it.

A kernel's group function receives the group's values in row order, NULLs
included, one list per argument, and returns the result. Spark's rules:

- NULLs are skipped; over no value every aggregate is NULL, except the counts
  (0), the collections (empty) and the bitmaps (all zeros).
- Order statistics compare as Spark does: NaN above every number, ``-0.0``
  equal to ``0.0`` (the first of equal values is kept: ``max(-0.0, 0.0)`` is
  ``-0.0``); ``max_by``/``min_by`` keep the last row of equal orderings.
- Sums of integers fail (ANSI) as soon as the running sum leaves ``bigint``;
  decimal sums are exact: in ``group_by`` a running sum that leaves the type
  fails (``ARITHMETIC_OVERFLOW``), over a window a final sum that does not fit
  (``NUMERIC_VALUE_OUT_OF_RANGE``); averages of decimals divide to 38 places and
  round half up to the type. ``try_`` forms give NULL instead.
- Variances, moments, covariances and correlations follow Spark's streaming
  updates (``statistics``); a sample statistic of one value is NULL, and so is
  a final division by zero (the correlation of a constant).
- ``percentile`` sorts the values and interpolates between the two nearest
  ranks; ``percentile_approx`` is exact where Spark's summary is (fewer than
  ``accuracy / 2`` values), ``approx_count_distinct`` is Spark's HyperLogLog++
  outside the band its bias tables correct: beyond those the kernel stops with
  an error naming the limit.
- ``collect_set`` and ``collect_union`` return their elements in the order of
  Spark's Scala hash set (``scala_sets``).

Calls whose answer Spark leaves to the order of a hash table (``mode`` without
``deterministic``) are refused when the plan is exported, and so are results
that are lists and may be NULL (DataFusion fails on a NULL list a kernel
returns).

>>> from pydantable_spark import dtypes as dt
>>> from pydantable_spark.expr.core import Typed
>>> from pydantable_spark.substrait.kernels.spec import NOT_LITERAL, Session, Site
>>> site = Site((Typed(dt.Float64(), True),), Typed(dt.Float64(), True), (NOT_LITERAL,), Session())
>>> _KERNELS["max"].make(site)([-0.0, 0.0, None, float("nan")])
nan
>>> _KERNELS["stddev"].make(site)([1.0])  # one value: no sample deviation
"""

from __future__ import annotations

import bisect
import dataclasses
import decimal
import functools
import math
import operator
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr import core
from pydantable_spark.substrait.kernels.hashing import xxhash64_values
from pydantable_spark.substrait.kernels.numbers import EXACT, divide_decimals, fit_decimal, fit_integer
from pydantable_spark.substrait.kernels.scala_sets import hash_set_order, scala_hash_of, set_hashable
from pydantable_spark.substrait.kernels.spec import ARITHMETIC_OVERFLOW, Aggregate, SparkError, groups, non_null
from pydantable_spark.substrait.kernels.statistics import (
    CoMoments,
    Correlation,
    Moments,
    java_sqrt,
    spark_divide,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Kernel, Site

__all__ = ["KERNELS", "spark_order"]

_UNSET: Any = object()
_NAN_KEY: Any = object()
"""The one key every NaN has (Spark groups all NaNs together)."""

NEGATIVE_FREQUENCY = "NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION"
INVALID_BITMAP_POSITION = "INVALID_BITMAP_POSITION"
"""Spark's error classes for a negative ``percentile`` frequency and a bit position outside a bitmap."""

BITMAP_BYTES = 4096
"""The size of Spark's bitmaps (``bitmap_construct_agg``): 32768 bit positions."""


def spark_order(value: Any) -> Any:
    """A sort key ordering values as Spark does: NaN above every number, ``-0.0`` equal to ``0.0``.

    Arrays compare element by element (a NULL element first, a prefix first), structs field by field.

    >>> sorted([float("nan"), 1.0, -float("inf")], key=spark_order)
    [-inf, 1.0, nan]
    >>> spark_order(-0.0) == spark_order(0.0)
    True
    """
    if isinstance(value, float):
        return (1, 0.0) if math.isnan(value) else (0, value + 0.0)
    if isinstance(value, list | tuple):
        return tuple((0,) if v is None else (1, spark_order(v)) for v in value)
    if isinstance(value, dict):
        return tuple((0,) if v is None else (1, spark_order(v)) for v in value.values())
    return value


def _equality_key(value: Any) -> Any:
    """A hashable key under which Spark's DISTINCT holds values equal (``-0.0 = 0.0``, one NaN)."""
    if isinstance(value, float):
        return _NAN_KEY if math.isnan(value) else value + 0.0
    if isinstance(value, list | tuple):
        return tuple(_equality_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(_equality_key(v) for v in value.values())
    return value


def _distinct_key(value: Any) -> Any:
    """A key under which Java's ``equals`` holds boxed values equal: ``-0.0`` apart from ``0.0``, one NaN."""
    if isinstance(value, float):
        return _NAN_KEY if math.isnan(value) else (value, math.copysign(1.0, value))
    if isinstance(value, list | tuple):
        return tuple(_distinct_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(_distinct_key(v) for v in value.values())
    return value


def _literal(site: Site, index: int, default: Any) -> Any:
    """The value of the literal argument at ``index`` (``default`` when the call has no such argument)."""
    return site.literals[index] if len(site.literals) > index else default


def _literal_of(call: Call, index: int) -> Any:
    """The value of the call's literal argument at ``index`` (``_UNSET`` if absent or not a literal)."""
    if len(call.args) <= index:
        return _UNSET
    arg = call.args[index]
    return arg.value if isinstance(arg, core.Literal) else _UNSET


def _to_double(value: Any) -> float:
    """A number as Spark's implicit cast to ``double`` gives it (a decimal correctly rounded)."""
    return float(value)


# --- counts ----------------------------------------------------------------------------------------


def _count_distinct(*columns: list[Any]) -> int:
    """``count(DISTINCT a, b, ...)``: the distinct combinations of rows where no column is NULL."""
    return len({tuple(_equality_key(v) for v in row) for row in zip(*columns, strict=True) if None not in row})


def _count_if(values: list[Any]) -> int:
    return sum(1 for v in values if v is True)


# --- sums and averages -----------------------------------------------------------------------------


_SUM_OVERFLOW = (
    "Overflow in sum of decimals. Use 'try_sum' to tolerate overflow and return NULL instead. If necessary set "
    '"spark.sql.ansi.enabled" to "false" to bypass this error.'
)


def _decimal_sum(values: Sequence[decimal.Decimal], dtype: dt.Decimal, site: Site) -> decimal.Decimal:
    """The exact sum of decimals, as Spark's buffer of type ``dtype`` holds it.

    In ``group_by`` Spark keeps the running sum in a row of ``dtype``: a sum that leaves it there becomes
    NULL, and the result an ``ARITHMETIC_OVERFLOW`` (measured), even if later values bring it back. Over a
    window only the final sum is checked (``fit_decimal``'s error).
    """
    limit = decimal.Decimal(10) ** (dtype.precision - dtype.scale)
    total = decimal.Decimal(0)
    for v in values:
        total = EXACT.add(total, v)
        if not site.over and not -limit < total < limit:  # (abs() would round to the context's 28 digits)
            raise SparkError(ARITHMETIC_OVERFLOW, _SUM_OVERFLOW)
    return total


def _double_sum(values: Sequence[Any]) -> float:
    """Spark's sum of doubles: from ``0.0``, each value added in row order."""
    total = 0.0
    for v in values:
        total += _to_double(v)
    return total


def _sum(*, tolerant: bool, distinct: bool = False) -> Callable[[Site], Callable[..., Any]]:
    """``sum`` (ANSI: overflow fails), ``try_sum`` (``tolerant``: NULL instead), and their DISTINCT form."""

    def make(site: Site) -> Callable[..., Any]:
        result = site.result.dtype

        def run(values: list[Any]) -> Any:
            present = non_null(values)
            if distinct:
                present = list({_equality_key(v): v + 0.0 if isinstance(v, float) else v for v in present}.values())
            if not present:
                return None
            if isinstance(result, dt.Decimal):
                try:
                    return fit_decimal(_decimal_sum(present, result, site), result)
                except SparkError:
                    if tolerant:
                        return None
                    raise
            if isinstance(result, dt.Int64):
                total = 0
                for v in present:  # Spark adds in row order: the first sum past bigint fails
                    total += v
                    try:
                        fit_integer(total, result)
                    except SparkError:
                        if tolerant:
                            return None
                        raise
                return total
            return _double_sum(present)

        return run

    return make


def _sum_type(given: dt.Decimal) -> dt.Decimal:
    """The type Spark sums decimals of type ``given`` in: ten more digits, at most 38."""
    return dt.Decimal(min(given.precision + 10, dt.MAX_DECIMAL_PRECISION), given.scale)


def _avg(*, tolerant: bool) -> Callable[[Site], Callable[..., Any]]:
    """``avg`` and ``try_avg``: a double average, or a decimal one rounded half up to the result type."""

    def make(site: Site) -> Callable[..., Any]:
        result = site.result.dtype
        given = site.args[0].dtype
        summed = _sum_type(given) if isinstance(given, dt.Decimal) else None

        def run(values: list[Any], *_: Any) -> Any:
            present = non_null(values)
            if not present:
                return None
            if isinstance(result, dt.Decimal):
                assert summed is not None
                try:
                    total = _decimal_sum(present, summed, site)
                    return divide_decimals(total, decimal.Decimal(len(present)), result)
                except SparkError:
                    if tolerant:
                        return None
                    raise
            return _double_sum(present) / len(present)

        return run

    return make


# --- order statistics ------------------------------------------------------------------------------


def _extreme(better: Callable[[Any, Any], bool]) -> Callable[[list[Any]], Any]:
    """``min``/``max``: the first value no later one beats (Spark keeps the first of equal values)."""

    def run(values: list[Any]) -> Any:
        best = _UNSET
        for v in values:
            if v is not None and (best is _UNSET or better(spark_order(v), spark_order(best))):
                best = v
        return None if best is _UNSET else best

    return run


def _by(kept: Callable[[Any, Any], bool]) -> Callable[[list[Any], list[Any]], Any]:
    """``max_by``/``min_by``: the value of the row with the extreme ordering (the last of equal ones).

    Spark's update keeps the current value only where ``kept(current ordering, new ordering)`` holds
    (``current > new`` for ``max_by``); rows whose ordering is NULL are skipped.
    """

    def run(values: list[Any], orderings: list[Any]) -> Any:
        value, best = None, _UNSET
        for v, o in zip(values, orderings, strict=True):
            if o is None:
                continue
            if best is _UNSET or not kept(spark_order(best), spark_order(o)):
                value, best = v, o
        return value

    return run


def _percentile_of(counted: list[tuple[Any, int]], percentage: float) -> float:
    """Spark's ``getPercentile``: the value at ``(count - 1) * percentage``, interpolated between ranks."""
    accumulated = []
    total = 0
    for _, count in counted:
        total += count
        accumulated.append(total)
    position = (total - 1) * percentage
    lower, higher = math.floor(position), math.ceil(position)
    lower_key = counted[bisect.bisect_left(accumulated, lower + 1)][0]
    if higher == lower:
        return _to_double(lower_key)
    higher_key = counted[bisect.bisect_left(accumulated, higher + 1)][0]
    if higher_key == lower_key:
        return _to_double(lower_key)
    return (higher - position) * _to_double(lower_key) + (position - lower) * _to_double(higher_key)


def _percentile(site: Site) -> Callable[..., Any]:
    """``percentile(col, percentage[, frequency])`` and ``median``: exact, each value counted ``frequency`` times."""
    percentage = _literal(site, 1, 0.5)
    listed = isinstance(percentage, list | tuple)
    percentages = [float(p) for p in percentage] if listed else [float(percentage)]

    def run(values: list[Any], _percentages: Any = None, frequencies: list[Any] | None = None) -> Any:
        counts: dict[Any, list[Any]] = {}
        for index, v in enumerate(values):
            frequency = 1 if frequencies is None else frequencies[index]
            if v is None or frequency is None:
                continue
            if frequency < 0:
                msg = f'Found the negative value in "frequency": {frequency}L, but expected a positive integral value.'
                raise SparkError(NEGATIVE_FREQUENCY, msg)
            if frequency > 0:
                found = counts.setdefault(_distinct_key(v), [v, 0])
                found[1] += frequency
        if not counts:
            return None
        counted = sorted(((v, c) for v, c in counts.values()), key=lambda pair: spark_order(pair[0]))
        found = [_percentile_of(counted, p) for p in percentages]
        return found if listed else found[0]

    return run


def _java_double_order(value: float) -> tuple[bool, float, bool]:
    """``Double.compare``'s total order: ``-0.0`` before ``0.0``, NaN last (how Spark's summaries sort)."""
    return (math.isnan(value), 0.0 if math.isnan(value) else value, math.copysign(1.0, value) > 0)


def _from_double(value: float, dtype: dt.DType) -> Any:
    """A percentile back in its column's type, as Spark converts it (``toLong``; a decimal from its text)."""
    if isinstance(dtype, dt.Integral):
        return int(value)
    if isinstance(dtype, dt.Decimal):
        try:
            return fit_decimal(decimal.Decimal(repr(value)), dtype)
        except SparkError:  # Spark's row of the result type holds NULL where the value does not fit
            return None
    return value


def _percentile_approx(site: Site) -> Callable[..., Any]:
    """``percentile_approx``: exact where Spark's Greenwald-Khanna summary is (fewer than ``accuracy / 2`` values).

    Below that count the summary keeps every value with no rank uncertainty (its deltas,
    ``floor(2 * count / accuracy)``, are 0, and no two samples merge), so the answer is the value of
    rank ``ceil(percentage * count)`` (the smallest at a percentage up to ``1 / accuracy``, the largest
    from ``1 - 1 / accuracy``: the summary's ends are exact at any count). Beyond it Spark's answer
    between the ends depends on how its partitions' summaries merge, or on a window's evaluations so
    far, and so does the place of a NaN (its merges compare with ``<``): the local engine stops with an
    error rather than guess. (Where ``-0.0`` and ``0.0`` meet, Spark may return either zero.)
    """
    percentage = _literal(site, 1, 0.5)
    listed = isinstance(percentage, list | tuple)
    percentages = [float(p) for p in percentage] if listed else [float(percentage)]
    accuracy = int(_literal(site, 2, 10000))
    error = 1.0 / accuracy
    result = site.result.dtype
    element = result.inner if isinstance(result, dt.List) else result

    def one(ordered: list[float], quantile: float) -> Any:
        if quantile <= error:
            found = ordered[0]
        elif quantile >= 1 - error:
            found = ordered[-1]
        else:
            found = ordered[min(math.ceil(quantile * len(ordered)), len(ordered)) - 1]
        return _from_double(found, element)

    def run(values: list[Any], *_: Any) -> Any:
        ordered = sorted((_to_double(v) for v in values if v is not None), key=_java_double_order)
        if not ordered:
            return None
        inexact = 2 * error * len(ordered) >= 1 and any(error < p < 1 - error for p in percentages)
        if inexact or math.isnan(ordered[-1]):
            msg = (
                f"the local engine computes percentile_approx() exactly only over fewer than accuracy / 2 = "
                f"{accuracy / 2:g} values of a group or window frame ({len(ordered)} here), none of them NaN: "
                "Spark's summary of more values, or where a NaN stands in it, depends on how its partitions merged "
                "and its window evaluated; run it on Spark (collect() without engine=)"
            )
            raise NotImplementedError(msg)
        found = [one(ordered, p) for p in percentages]
        return found if listed else found[0]

    return run


def _mode(values: list[Any], *_: Any) -> Any:
    """``mode(col, true)``: the most frequent value, the smallest of equally frequent ones."""
    counts: dict[Any, list[Any]] = {}
    for v in values:
        if v is not None:
            counts.setdefault(_distinct_key(v), [v, 0])[1] += 1
    if not counts:
        return None
    most = max(c for _, c in counts.values())
    return min((v for v, c in counts.values() if c == most), key=spark_order)


def _refuse_null_list(call: Call) -> str | None:
    """An aggregate whose result is a list that may be NULL: DataFusion fails on a NULL list from a kernel.

    (It reads a kernel's result through ``pa.array([scalar])``, which raises on a NULL list scalar: measured.)
    """
    if isinstance(call.type.dtype, dt.List) and call.type.nullable:
        return (
            f"the local engine cannot return a NULL list from {call.function.name}() yet (DataFusion fails on a "
            "NULL list a kernel returns: measured)"
        )
    return None


def _refuse_mode(call: Call) -> str | None:
    if (listed := _refuse_null_list(call)) is not None:
        return listed
    if _literal_of(call, 1) is True:
        return None
    return (
        "the local engine runs mode() only with deterministic=True: without it Spark returns whichever of "
        "equally frequent values its hash map holds first"
    )


# --- dispersion and correlation --------------------------------------------------------------------


def _doubles(values: list[Any]) -> list[float]:
    return [_to_double(v) for v in values if v is not None]


def _pairs(first: list[Any], second: list[Any]) -> list[tuple[float, float]]:
    """The rows where neither value is NULL, as doubles."""
    return [
        (_to_double(a), _to_double(b)) for a, b in zip(first, second, strict=True) if a is not None and b is not None
    ]


def _stddev_pop(m: Moments) -> float | None:
    return None if m.n == 0 else java_sqrt(m.m2 / m.n)


def _stddev_samp(m: Moments) -> float | None:
    return None if m.n <= 1 else java_sqrt(m.m2 / (m.n - 1.0))


def _var_pop(m: Moments) -> float | None:
    return None if m.n == 0 else m.m2 / m.n


def _var_samp(m: Moments) -> float | None:
    return None if m.n <= 1 else m.m2 / (m.n - 1.0)


def _skewness(m: Moments) -> float | None:
    if m.n == 0 or m.m2 == 0:
        return None
    return spark_divide(math.sqrt(m.n) * m.m3, java_sqrt(m.m2 * m.m2 * m.m2))


def _kurtosis(m: Moments) -> float | None:
    if m.n == 0 or m.m2 == 0:
        return None
    ratio = spark_divide(m.n * m.m4, m.m2 * m.m2)
    return None if ratio is None else ratio - 3.0


def _moment(evaluate: Callable[[Moments], float | None]) -> Callable[[list[Any]], float | None]:
    return lambda values: evaluate(Moments(_doubles(values)))


def _covar(*, sample: bool) -> Callable[[list[Any], list[Any]], float | None]:
    def run(first: list[Any], second: list[Any]) -> float | None:
        m = CoMoments(_pairs(first, second))
        if m.n == 0 or (sample and m.n == 1):
            return None
        return m.ck / (m.n - 1.0 if sample else m.n)

    return run


def _corr(first: list[Any], second: list[Any]) -> float | None:
    m = Correlation(_pairs(first, second))
    if m.n <= 1:
        return None
    return spark_divide(m.ck, java_sqrt(m.x_mk * m.y_mk))


# --- regressions (y, x): over the rows where neither is NULL -------------------------------------


def _regr_squares(side: int) -> Callable[[list[Any], list[Any]], float | None]:
    """``regr_sxx`` (``side`` 1: x) and ``regr_syy`` (0: y): the second central moment of one side."""

    def run(y: list[Any], x: list[Any]) -> float | None:
        m = Moments(pair[side] for pair in _pairs(y, x))
        return None if m.n == 0 else m.m2

    return run


def _regr_sxy(y: list[Any], x: list[Any]) -> float | None:
    m = CoMoments(_pairs(y, x))
    return None if m.n == 0 else m.ck


def _regr_slope(y: list[Any], x: list[Any]) -> float | None:
    pairs = _pairs(y, x)
    covariance = CoMoments((b, a) for a, b in pairs)
    variance = Moments(b for _, b in pairs)
    return spark_divide(covariance.ck, variance.m2)


def _regr_intercept(y: list[Any], x: list[Any]) -> float | None:
    pairs = _pairs(y, x)
    covariance = CoMoments((b, a) for a, b in pairs)
    variance = Moments(b for _, b in pairs)
    slope = spark_divide(covariance.ck, variance.m2)
    return None if slope is None else covariance.y_avg - slope * covariance.x_avg


def _regr_r2(y: list[Any], x: list[Any]) -> float | None:
    m = Correlation((b, a) for a, b in _pairs(y, x))
    if m.x_mk == 0:
        return None
    if m.y_mk == 0:
        return 1.0
    correlation = spark_divide(m.ck, java_sqrt(m.x_mk * m.y_mk))
    return None if correlation is None else correlation * correlation


def _regr_count(y: list[Any], x: list[Any]) -> int:
    return sum(1 for a, b in zip(y, x, strict=True) if a is not None and b is not None)


def _regr_avg(side: int) -> Callable[[Site], Callable[..., Any]]:
    """``regr_avgy`` (``side`` 0) and ``regr_avgx`` (1): ``avg`` of one side over the rows where both are set."""

    def make(site: Site) -> Callable[..., Any]:
        average = _avg(tolerant=False)(dataclasses.replace(site, args=(site.args[side],)))

        def run(y: list[Any], x: list[Any]) -> Any:
            both = [(a, b) for a, b in zip(y, x, strict=True) if a is not None and b is not None]
            return average([pair[side] for pair in both])

        return run

    return make


# --- logic and bits --------------------------------------------------------------------------------


def _folded(function: Callable[[Any, Any], Any]) -> Callable[[list[Any]], Any]:
    """An aggregate folding the non-NULL values with ``function`` (NULL over none)."""

    def run(values: list[Any]) -> Any:
        present = non_null(values)
        return functools.reduce(function, present) if present else None

    return run


# --- picking and collecting ------------------------------------------------------------------------


def _pick(*, last: bool) -> Callable[[Site], Callable[..., Any]]:
    """``first``/``last`` (and ``first_value``, ``last_value``, ``any_value``): the frame's first or last value.

    With ``ignoreNulls`` the first (last) non-NULL value; without it the first (last) row's, NULL or not.
    """

    def make(site: Site) -> Callable[..., Any]:
        skip_nulls = _literal(site, 1, False) is True

        def run(values: list[Any], *_: Any) -> Any:
            candidates = non_null(values) if skip_nulls else values
            if not candidates:
                return None
            return candidates[-1] if last else candidates[0]

        return run

    return make


def _collect_list(values: list[Any]) -> list[Any]:
    return non_null(values)


def _collected_set(site: Site, element: dt.DType) -> Callable[[list[Any]], list[Any]]:
    """The distinct values in the order Spark's ``mutable.HashSet`` returns them (``jvm_hashing``).

    Over a window frame Spark adds the frame's values one by one; for a group it rebuilds the set from the
    distinct values of its partial sets, so only the distinct values count (with at most 11 of them both
    orders are the same).
    """
    hashed = scala_hash_of(element)

    def run(values: list[Any]) -> list[Any]:
        added = values if site.over else list(dict.fromkeys(values))
        return hash_set_order(added, hashed)

    return run


def _collect_set(site: Site) -> Callable[..., Any]:
    ordered = _collected_set(site, site.args[0].dtype)
    return lambda values: ordered(non_null(values))


def _collect_union(site: Site) -> Callable[..., Any]:
    """``collect_union``: the distinct non-NULL elements of every list, in ``collect_set``'s order."""
    listed = site.args[0].dtype
    assert isinstance(listed, dt.List)
    ordered = _collected_set(site, listed.inner)
    return lambda lists: ordered([e for values in non_null(lists) for e in values if e is not None])


_HLL_THRESHOLDS = (10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 15500, 20000, 50000, 120000, 350000)
"""HLL++'s linear-counting thresholds by precision (4 to 18), as Spark's ``HyperLogLogPlusPlusHelper`` has them."""


def _approx_count_distinct(site: Site) -> Callable[..., Any]:
    """``approx_count_distinct``: Spark's HyperLogLog++ over its ``xxhash64`` of each value (``hashing``).

    Spark's registers are the maximum of the leading zeros of each hash (a maximum: the same however its
    partitions merge). Its estimate is linear counting while that stays below the precision's threshold,
    and the raw HLL estimate above ``5 m``; between them it subtracts a bias read from tables of the
    HLL++ paper, which the local engine does not hold: there it stops with an error.
    """
    rsd = float(_literal(site, 1, 0.05))
    p = math.ceil(2.0 * math.log(1.106 / rsd) / math.log(2.0))
    m = 1 << p
    alpha_m2 = {4: 0.673 * m * m, 5: 0.697 * m * m, 6: 0.709 * m * m}.get(p, (0.7213 / (1.0 + 1.079 / m)) * m * m)
    dtypes = (site.args[0].dtype,)
    padding = 1 << (p - 1)

    def corrected(raw: float) -> float:
        if p < 19 and raw < 5.0 * m:
            msg = (
                f"the local engine cannot compute approx_count_distinct() where HLL++ corrects its raw estimate "
                f"({raw:.1f}) with the bias tables of its paper; run it on Spark (collect() without engine=)"
            )
            raise NotImplementedError(msg)
        return raw

    def run(values: list[Any], *_: Any) -> int:
        registers: dict[int, int] = {}
        for v in values:
            if v is None:
                continue
            x = xxhash64_values((v,), dtypes) & 0xFFFFFFFFFFFFFFFF
            index = x >> (64 - p)
            w = ((x << p) & 0xFFFFFFFFFFFFFFFF) | padding
            registers[index] = max(registers.get(index, 0), 64 - w.bit_length() + 1)
        zeros = float(m - len(registers))
        z_inverse = 0.0
        for index in range(m):  # in register order, as Spark sums them
            z_inverse += 1.0 / (1 << registers.get(index, 0))
        raw = alpha_m2 / z_inverse
        if zeros > 0:
            linear = m * math.log(m / zeros)
            estimate = linear if (p < 19 and linear <= _HLL_THRESHOLDS[p - 4]) or raw <= 2.5 * m else corrected(raw)
        else:
            estimate = corrected(raw)
        return math.floor(estimate + 0.5)  # Math.round

    return run


_XXHASHED = (
    dt.Boolean,
    dt.Integral,
    dt.Floating,
    dt.Decimal,
    dt.String,
    dt.Binary,
    dt.Date,
    dt.Datetime,
    dt.DatetimeNTZ,
)
"""The types ``hashing.xxhash64_values`` hashes as Spark does (and lists and structs of them)."""


def _xxhashed(dtype: dt.DType) -> bool:
    if isinstance(dtype, dt.List):
        return _xxhashed(dtype.inner)
    if isinstance(dtype, dt.Struct):
        return all(_xxhashed(f.dtype) for f in dtype.fields)
    return isinstance(dtype, _XXHASHED)


def _refuse_unhashable(call: Call) -> str | None:
    given = call.args[0].type.dtype
    if _xxhashed(given):
        return None
    return f"the local engine does not hash {given} values as Spark's approx_count_distinct() does yet"


def _refuse_unhashed(call: Call) -> str | None:
    given = call.args[0].type.dtype
    element = given.inner if isinstance(given, dt.List) else given
    if set_hashable(element):
        return None
    return (
        f"the local engine does not know the order Spark's set gives {element} values yet (it follows "
        "their JVM hash codes)"
    )


def _listagg(site: Site) -> Callable[..., Any]:
    """``listagg``/``string_agg``: the non-NULL strings (or bytes) in row order, ``delimiter`` between them."""
    delimiter = _literal(site, 1, None)
    if delimiter is None:
        delimiter = b"" if isinstance(site.args[0].dtype, dt.Binary) else ""

    def run(values: list[Any], *_: Any) -> Any:
        present = non_null(values)
        return delimiter.join(present) if present else None

    return run


def _refuse_delimiter(call: Call) -> str | None:
    if len(call.args) > 1 and _literal_of(call, 1) is _UNSET:
        return "the local engine takes a listagg delimiter only as a literal (Spark also wants a constant)"
    return None


# --- bitmaps ---------------------------------------------------------------------------------------


def _bitmap_construct(positions: list[Any]) -> bytes:
    """``bitmap_construct_agg``: 4096 bytes with the bit at each position set (bit 0 the lowest of byte 0)."""
    bitmap = bytearray(BITMAP_BYTES)
    for position in positions:
        if position is None:
            continue
        if not 0 <= position < 8 * BITMAP_BYTES:
            msg = (
                f"The 0-indexed bitmap position {position} is out of bounds. The bitmap has {8 * BITMAP_BYTES} bits "
                f"({BITMAP_BYTES} bytes)."
            )
            raise SparkError(INVALID_BITMAP_POSITION, msg)
        bitmap[position // 8] |= 1 << (position % 8)
    return bytes(bitmap)


def _bitmap_or(bitmaps: list[Any]) -> bytes:
    """``bitmap_or_agg``: the bytes OR-ed (a shorter bitmap leaves the bytes past its end as they are)."""
    result = bytearray(BITMAP_BYTES)
    for bitmap in non_null(bitmaps):
        for i, byte in enumerate(bitmap[:BITMAP_BYTES]):
            result[i] |= byte
    return bytes(result)


def _bitmap_and(bitmaps: list[Any]) -> bytes:
    """``bitmap_and_agg``: the bytes AND-ed from all ones (a shorter bitmap's missing bytes are zeros)."""
    result = bytearray(b"\xff" * BITMAP_BYTES)
    for bitmap in non_null(bitmaps):
        given = bytes(bitmap[:BITMAP_BYTES]).ljust(BITMAP_BYTES, b"\x00")
        for i in range(BITMAP_BYTES):
            result[i] &= given[i]
    return bytes(result)


_KERNELS: dict[str, Kernel] = {
    kernel.name: kernel
    for kernel in (
        Aggregate("count_distinct", groups(_count_distinct)),
        Aggregate("count_if", groups(_count_if)),
        Aggregate("approx_count_distinct", _approx_count_distinct, refuse=_refuse_unhashable),
        Aggregate("sum", _sum(tolerant=False)),
        Aggregate("try_sum", _sum(tolerant=True)),
        Aggregate("sum_distinct", _sum(tolerant=False, distinct=True)),
        Aggregate("avg", _avg(tolerant=False)),
        Aggregate("try_avg", _avg(tolerant=True)),
        Aggregate("min", groups(_extreme(operator.lt))),
        Aggregate("max", groups(_extreme(operator.gt))),
        Aggregate("min_by", groups(_by(operator.lt)), refuse=_refuse_null_list),
        Aggregate("max_by", groups(_by(operator.gt)), refuse=_refuse_null_list),
        Aggregate("median", _percentile),
        Aggregate("percentile", _percentile, refuse=_refuse_null_list),
        Aggregate("mode", groups(_mode), refuse=_refuse_mode),
        Aggregate("percentile_approx", _percentile_approx, refuse=_refuse_null_list),
        Aggregate("stddev", groups(_moment(_stddev_samp))),
        Aggregate("stddev_pop", groups(_moment(_stddev_pop))),
        Aggregate("variance", groups(_moment(_var_samp))),
        Aggregate("var_pop", groups(_moment(_var_pop))),
        Aggregate("skewness", groups(_moment(_skewness))),
        Aggregate("kurtosis", groups(_moment(_kurtosis))),
        Aggregate("corr", groups(_corr)),
        Aggregate("covar_pop", groups(_covar(sample=False))),
        Aggregate("covar_samp", groups(_covar(sample=True))),
        Aggregate("regr_sxx", groups(_regr_squares(1))),
        Aggregate("regr_syy", groups(_regr_squares(0))),
        Aggregate("regr_sxy", groups(_regr_sxy)),
        Aggregate("regr_slope", groups(_regr_slope)),
        Aggregate("regr_intercept", groups(_regr_intercept)),
        Aggregate("regr_r2", groups(_regr_r2)),
        Aggregate("regr_count", groups(_regr_count)),
        Aggregate("regr_avgx", _regr_avg(1)),
        Aggregate("regr_avgy", _regr_avg(0)),
        Aggregate("bool_and", groups(_folded(operator.and_))),
        Aggregate("bool_or", groups(_folded(operator.or_))),
        Aggregate("bit_and", groups(_folded(operator.and_))),
        Aggregate("bit_or", groups(_folded(operator.or_))),
        Aggregate("bit_xor", groups(_folded(operator.xor))),
        Aggregate("first", _pick(last=False), refuse=_refuse_null_list),
        Aggregate("last", _pick(last=True), refuse=_refuse_null_list),
        Aggregate("first_value", _pick(last=False), refuse=_refuse_null_list),
        Aggregate("last_value", _pick(last=True), refuse=_refuse_null_list),
        Aggregate("any_value", _pick(last=False), refuse=_refuse_null_list),
        Aggregate("collect_list", groups(_collect_list)),
        Aggregate("collect_set", _collect_set, refuse=_refuse_unhashed),
        Aggregate("collect_union", _collect_union, refuse=_refuse_unhashed),
        Aggregate("listagg", _listagg, refuse=_refuse_delimiter),
        Aggregate("string_agg", _listagg, refuse=_refuse_delimiter),
        Aggregate("bitmap_construct_agg", groups(_bitmap_construct)),
        Aggregate("bitmap_or_agg", groups(_bitmap_or)),
        Aggregate("bitmap_and_agg", groups(_bitmap_and)),
    )
}

KERNELS: tuple[Kernel, ...] = tuple(_KERNELS.values())
