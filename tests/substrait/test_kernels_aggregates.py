"""The aggregate kernels against Spark: one frame of edge rows, grouped, windowed and empty.

Each result is computed by Spark and by the local engine (``to_arrow`` of both)
and every column must agree, row by row (doubles within a relative ``1e-12``:
Spark merges partial aggregates of its partitions, which moves the last digit
of a streaming moment); where Spark fails on a value (ANSI), the local engine
must fail with the same error class.

The frame holds several groups under two keys, NULL keys among them
(``drop_nulls=False``), a group of one row and a group whose values are all
NULL; NaN, both infinities, ``-0.0``, 38-digit decimals, strings outside the
BMP and empty bytes. Windows run over sliding, growing, whole-partition and
empty frames.
"""

from __future__ import annotations

import datetime
import math
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
import pytest

from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import LocalEngineError, SparkJobError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark import DataFrame

pytestmark = pytest.mark.spark

UTC = datetime.timezone.utc
INF, NAN = math.inf, math.nan
BIG = Decimal("12345678901234567890.123456789012345678")


class Row(DataFrameModel):
    k1: str | None
    k2: int | None
    o: int
    n: int | None
    i: Annotated[int, dt.Int32()] | None
    x: float | None
    y: float | None
    d: Annotated[Decimal, dt.Decimal(38, 18)] | None
    m: Annotated[Decimal, dt.Decimal(10, 2)] | None
    s: str | None
    b: bytes | None
    flag: bool | None
    day: datetime.date | None
    ts: datetime.datetime | None
    f: Annotated[int, dt.Int8()]
    pos: int | None
    tags: list[str | None] | None


_COLUMNS = ("k1", "k2", "n", "i", "x", "y", "d", "m", "s", "b", "flag", "day", "ts", "f", "pos", "tags")
_ROWS: list[tuple[Any, ...]] = [
    # k1, k2, n, i, x, y, d, m, s, b, flag, day, ts, f, pos, tags
    ("a", 1, 7, 3, 1.5, 1.5, BIG, Decimal("1.25"), "Ünï", b"\x00\xff", True, datetime.date(2024, 2, 29),
     datetime.datetime(2024, 2, 29, 13, 5, 9, 123456, tzinfo=UTC), 1, 0, ["x", None, "y"]),
    ("a", 1, -2, -5, -0.0, -2.25, Decimal("-1E-18"), Decimal("-2.50"), "", b"", False, datetime.date(1970, 1, 1),
     datetime.datetime(1970, 1, 1, tzinfo=UTC), 2, 9, []),
    ("a", 1, 2**62, 2**31 - 1, 0.0, 1000.0, -BIG, Decimal("99999999.99"), "😀 astral", b"xyz", None,
     datetime.date(1, 1, 1), datetime.datetime(1, 1, 1, tzinfo=UTC), 0, 32767, ["y", "z"]),
    ("a", 1, None, None, INF, 7.0, None, None, None, None, True, None, None, 3, None, None),
    ("a", None, 0, 0, -INF, 0.1, Decimal(0), Decimal("0.00"), "a", b"a", True, datetime.date(2024, 3, 10),
     datetime.datetime(2024, 3, 10, 2, 30, tzinfo=UTC), 1, 8, ["x"]),
    ("a", None, -(2**63), -(2**31), NAN, -7.5, Decimal("0.000000000000000001"), Decimal("-0.01"), "b", b"\x80",
     False, datetime.date(9999, 12, 31), datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC), 5, 1, [None]),
    ("a", None, 5, 12, NAN, 3.25, Decimal("5.5"), Decimal("5.50"), "b", b"\x80", True, datetime.date(2024, 3, 10),
     datetime.datetime(2024, 3, 10, 2, 30, tzinfo=UTC), 2, 8, ["z", "x"]),
    (None, 1, 3, 7, 1e300, 2.5e-7, Decimal("1.000000000000000001"), Decimal("3.33"), "Ab c1", b"ab", False,
     datetime.date(2000, 2, 29), datetime.datetime(2000, 2, 29, tzinfo=UTC), 4, 100, ["a"]),
    (None, 1, 3, -7, -1e300, -2.5e-7, Decimal("-1.000000000000000001"), Decimal("-3.33"), "Ab c1", b"ab", True,
     datetime.date(2000, 2, 29), datetime.datetime(2000, 2, 29, tzinfo=UTC), 4, 100, ["a"]),
    (None, None, 11, 1, 2.0, 4.0, Decimal("2"), Decimal("2.00"), "x,y  ", b"\x01", None, None, None, 1, 3, None),
    (None, None, None, None, None, None, None, None, None, None, None, None, None, 0, None, None),
    ("b", 2, 42, 42, -1.0, -1.0, Decimal("-42.5"), Decimal("-42.50"), "𝔘nicode", b"\xfe", True,
     datetime.date(1969, 12, 31), datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), 1, 5, ["q"]),
    ("c", 3, None, None, None, None, None, None, None, None, None, None, None, 2, None, None),
    ("c", 3, None, None, None, None, None, None, None, None, None, None, None, 1, None, None),
]  # fmt: skip


def _frame() -> DataFrame[Row]:
    rows = [dict(zip(_COLUMNS, values, strict=True)) | {"o": index} for index, values in enumerate(_ROWS)]
    return Row.from_rows(rows)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-12) and (a != 0 or math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _rows(table: pa.Table, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    rows = table.to_pylist()
    return sorted(rows, key=lambda row: [repr(row[k]) for k in keys])


def _differences(frame: DataFrame[Any], keys: tuple[str, ...]) -> list[str]:
    """Each column whose values differ between Spark and the local engine, with the first differing row."""
    theirs, mine = frame.to_arrow(), frame.to_arrow(engine="local")
    found = [] if mine.schema == theirs.schema else [f"schema: {mine.schema} vs Spark {theirs.schema}"]
    spark_rows, local_rows = _rows(theirs, keys), _rows(mine, keys)
    assert len(spark_rows) == len(local_rows)
    for name in theirs.column_names:
        for spark_row, local_row in zip(spark_rows, local_rows, strict=True):
            if not _same(local_row[name], spark_row[name]):
                shown = {k: spark_row[k] for k in keys}
                found.append(f"{name} at {shown}: local {local_row[name]!r} vs Spark {spark_row[name]!r}")
                break
    return found


def _aggregates(r: type[Row]) -> dict[str, Any]:
    """Every aggregate kernel, on the columns holding its edge values."""
    return {
        "count": F.count(r.n),
        "count_rows": F.count(),
        "count_distinct": F.count_distinct(r.n, r.s),
        "count_if": F.count_if(r.flag),
        "approx_count_distinct": F.approx_count_distinct(r.s),
        "approx_count_distinct_x": F.approx_count_distinct(r.x, 0.2),
        "approx_count_distinct_d": F.approx_count_distinct(r.d),
        "sum_n": F.sum(r.n),
        "sum_i": F.sum(r.i),
        "sum_d": F.sum(r.d),
        "sum_distinct": F.sum_distinct(r.i),
        "sum_distinct_x": F.sum_distinct(r.y),
        "try_sum_n": F.try_sum(r.n),
        "try_sum_d": F.try_sum(r.d),
        "avg_d": F.avg(r.d),
        "avg_m": F.avg(r.m),
        "mean_i": F.mean(r.i),
        "try_avg_m": F.try_avg(r.m),
        "try_avg_n": F.try_avg(r.n),
        "min_x": F.min(r.x),
        "max_x": F.max(r.x),
        "min_by": F.min_by(r.s, r.x),
        "max_by": F.max_by(r.n, r.y),
        "max_by_day": F.max_by(r.s, r.day),
        "median_x": F.median(r.x),
        "median_m": F.median(r.m),
        "percentile": F.percentile(r.n, 0.3),
        "percentile_f": F.percentile(r.y, 0.75, r.f),
        "percentile_approx": F.percentile_approx(r.y, 0.5, 100),
        "approx_percentile": F.approx_percentile(r.n, 0.25),
        "mode_s": F.mode(r.s, True),
        "mode_day": F.mode(r.day, True),
        "stddev": F.stddev(r.y),
        "std_x": F.std(r.x),
        "stddev_pop": F.stddev_pop(r.y),
        "variance": F.variance(r.n),
        "var_pop": F.var_pop(r.d),
        "skewness": F.skewness(r.y),
        "kurtosis": F.kurtosis(r.y),
        "corr": F.corr(r.y, r.n),
        "covar_pop": F.covar_pop(r.y, r.i),
        "covar_samp": F.covar_samp(r.m, r.d),
        "regr_slope": F.regr_slope(r.y, r.i),
        "regr_intercept": F.regr_intercept(r.y, r.n),
        "regr_r2": F.regr_r2(r.y, r.i),
        "regr_sxx": F.regr_sxx(r.y, r.n),
        "regr_syy": F.regr_syy(r.y, r.i),
        "regr_sxy": F.regr_sxy(r.y, r.n),
        "regr_avgx": F.regr_avgx(r.y, r.m),
        "regr_avgy": F.regr_avgy(r.d, r.n),
        "regr_count": F.regr_count(r.y, r.x),
        "bool_and": F.bool_and(r.flag),
        "bool_or": F.bool_or(r.flag),
        "every": F.every(r.flag),
        "some": F.some(r.flag),
        "bit_and": F.bit_and(r.n),
        "bit_or": F.bit_or(r.i),
        "bit_xor": F.bit_xor(r.n),
        "first": F.first(r.s),
        "first_skip": F.first(r.s, True),
        "last": F.last(r.x),
        "last_skip": F.last(r.x, True),
        "first_value": F.first_value(r.n),
        "last_value": F.last_value(r.d, True),
        "any_value": F.any_value(r.s, True),
        "collect_list": F.collect_list(r.s),
        "array_agg": F.array_agg(r.b),
        "collect_set_s": F.collect_set(r.s),
        "collect_set_n": F.collect_set(r.n),
        "collect_set_ts": F.collect_set(r.ts),
        "collect_union": F.collect_union(r.tags),
        "listagg": F.listagg(r.s, "|"),
        "listagg_plain": F.listagg(r.s),
        "string_agg": F.string_agg(r.b, b"--"),
        "bitmap_construct": F.bitmap_construct_agg(r.pos),
        "bitmap_or": F.bitmap_or_agg(r.b),
        "bitmap_and": F.bitmap_and_agg(r.b),
    }


def test_grouped_by_several_keys_with_null_keys() -> None:
    grouped = _frame().group_by(Row.k1, Row.k2, drop_nulls=False).agg(**_aggregates(Row))
    problems = _differences(grouped, ("k1", "k2"))
    assert problems == [], "\n".join(problems)


def test_over_no_rows_counts_are_zero_collections_empty_and_the_rest_null() -> None:
    empty = _frame().filter(Row.o < 0).select(**_aggregates(Row))
    problems = _differences(empty, ())
    assert problems == [], "\n".join(problems)
    row = empty.to_arrow(engine="local").to_pylist()[0]
    assert (row["count"], row["count_if"], row["regr_count"], row["collect_list"], row["sum_d"]) == (0, 0, 0, [], None)


def _windows(r: type[Row]) -> dict[str, Any]:
    part = Window.partition_by(r.k1)
    ordered = part.order_by(r.o)
    sliding, growing, ahead, behind = (
        ordered.rows_between(-1, 1),
        ordered.rows_between(None, 0),
        ordered.rows_between(1, 2),
        ordered.rows_between(-3, -2),
    )
    return {
        "o": r.o,
        # sliding frames: the accumulator retracts the rows that leave the frame
        "sum_d_sliding": F.sum(r.d).over(sliding),
        "avg_m_sliding": F.avg(r.m).over(sliding),
        "sum_x_sliding": F.sum(r.x).over(sliding),  # DataFusion's own subtracts leaving rows: -1e300 + 1e300 is 0
        "avg_x_sliding": F.avg(r.x).over(sliding),
        "min_x_sliding": F.min(r.x).over(sliding),
        "max_x_sliding": F.max(r.x).over(sliding),
        "list_sliding": F.collect_list(r.s).over(sliding),
        "set_sliding": F.collect_set(r.n).over(sliding),
        "first_sliding": F.first(r.s).over(sliding),
        "last_sliding": F.last(r.s, True).over(sliding),
        "max_by_sliding": F.max_by(r.s, r.x).over(sliding),
        "stddev_sliding": F.stddev(r.y).over(sliding),
        "corr_sliding": F.corr(r.y, r.n).over(sliding),
        "count_if_sliding": F.count_if(r.flag).over(sliding),
        # growing frames
        "sum_d_growing": F.sum(r.d).over(growing),
        "set_growing": F.collect_set(r.s).over(growing),
        "union_growing": F.collect_union(r.tags).over(growing),
        "listagg_growing": F.listagg(r.s, ",").over(growing),
        "bitmap_growing": F.bitmap_or_agg(r.b).over(growing),
        "mode_growing": F.mode(r.n, True).over(growing),
        "kurtosis_growing": F.kurtosis(r.y).over(growing),
        "first_value_growing": F.first_value(r.n, True).over(growing),
        "last_value_growing": F.last_value(r.x).over(growing),
        "bool_and_growing": F.bool_and(r.flag).over(growing),
        "bit_xor_growing": F.bit_xor(r.n).over(growing),
        "regr_slope_growing": F.regr_slope(r.y, r.n).over(growing),
        "try_sum_growing": F.try_sum(r.n).over(growing),
        "approx_count_distinct_growing": F.approx_count_distinct(r.ts, 0.1).over(growing),
        "percentile_approx_growing": F.percentile_approx(r.i, 0.75, 20).over(growing),
        # the default frame (RANGE from the partition's start to the current row's peers)
        "avg_m_default": F.avg(r.m).over(ordered),
        "list_default": F.collect_list(r.d).over(ordered),
        "percentile_default": F.percentile(r.y, 0.5).over(ordered),
        # empty frames: Spark's value over no rows
        "count_if_ahead": F.count_if(r.flag).over(ahead),
        "list_ahead": F.collect_list(r.s).over(ahead),
        "set_ahead": F.collect_set(r.s).over(ahead),
        "regr_count_behind": F.regr_count(r.y, r.n).over(behind),
        "bitmap_behind": F.bitmap_construct_agg(r.pos).over(behind),
        "stddev_behind": F.stddev(r.y).over(behind),
        # the whole partition
        "median_whole": F.median(r.y).over(part),
        "set_whole": F.collect_set(r.day).over(part),
    }


def test_over_sliding_growing_default_empty_and_whole_frames() -> None:
    windowed = _frame().select(**_windows(Row))
    problems = _differences(windowed, ("o",))
    assert problems == [], "\n".join(problems)


def test_a_set_of_more_than_eleven_values_in_spark_s_hash_order() -> None:
    """Past 11 values Scala's set grows its table: a window adds each row (duplicates too), a group the distinct."""
    values = [*range(11), 3, *range(11, 30), 5, *range(30, 48), 7]
    rows = [{"k": "g", "o": o, "v": v, "s": f"v{v}"} for o, v in enumerate(values)]
    frame = _Wide.from_rows(rows)
    sets = frame.select(
        _Wide.o,
        grown=F.collect_set(_Wide.v).over(Window.partition_by(_Wide.k).order_by(_Wide.o).rows_between(None, 0)),
        text=F.collect_set(_Wide.s).over(Window.partition_by(_Wide.k)),
    )
    problems = _differences(sets, ("o",))
    grouped = frame.filter(_Wide.o < 13).group_by(_Wide.k).agg(s=F.collect_set(_Wide.v))
    problems += _differences(grouped, ("k",))
    assert problems == [], "\n".join(problems)


class _Wide(DataFrameModel):
    k: str
    o: int
    v: int
    s: str


def _error_class(error: BaseException) -> str:
    text = str(error) + " " + str(error.__cause__ or "")
    found = re.search(r"\[([A-Z_]+)", text)
    return found.group(1) if found else text[:200]


class _Big(DataFrameModel):
    k: str
    o: int
    d: Annotated[Decimal, dt.Decimal(38, 0)]
    e: Annotated[Decimal, dt.Decimal(38, 18)]
    n: int
    f: Annotated[int, dt.Int8()]


_FAILURES: dict[str, Callable[[DataFrame[_Big]], Any]] = {
    "decimal sum past 38 digits": lambda b: b.group_by(_Big.k).agg(s=F.sum(_Big.d)),
    "decimal sum past 38 digits over a window": lambda b: b.select(
        s=F.sum(_Big.d).over(Window.partition_by(_Big.k).order_by(_Big.o).rows_between(None, 0))
    ),
    "decimal average past its type": lambda b: b.group_by(_Big.k).agg(a=F.avg(_Big.e)),
    "a negative percentile frequency": lambda b: b.group_by(_Big.k).agg(p=F.percentile(_Big.n, 0.5, _Big.f)),
    "a bitmap position past the bitmap": lambda b: b.group_by(_Big.k).agg(p=F.bitmap_construct_agg(_Big.n)),
}


@pytest.mark.parametrize("case", list(_FAILURES))
def test_where_spark_fails_the_local_engine_fails_with_its_error_class(case: str) -> None:
    big = _Big.from_rows(
        [
            {"k": "a", "o": 0, "d": Decimal("9" * 38), "e": Decimal("99999999999999999999.5"), "n": 40000, "f": 1},
            {"k": "a", "o": 1, "d": Decimal(1), "e": Decimal(0), "n": 1, "f": -1},
        ]
    )
    frame = _FAILURES[case](big)
    with pytest.raises(SparkJobError) as on_spark:
        frame.to_arrow()
    with pytest.raises(LocalEngineError) as on_local:
        frame.to_arrow(engine="local")
    assert _error_class(on_local.value) == _error_class(on_spark.value)
