"""The local engine (``engine="local"``): DataFusion runs the exported plan and gives Spark's rows, or refuses.

The Spark-tier test runs every frame of ``frames.py`` on both engines and compares the Arrow results (schema with
nullability, then rows); the differential suite (``tests/differential``) does the same for random pipelines.
"""

from __future__ import annotations

import datetime
import math
import struct
import subprocess
import sys
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
import pytest
from frames import Sale, frames, local_frames, sales, spark_answer

from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    IncompatibleCastError,
    LocalEngineError,
    MissingColumnError,
    NullabilityError,
    SparkJobError,
    UnsupportedEngineError,
)
from pydantable_spark.schema import Schema
from pydantable_spark.substrait import to_substrait
from pydantable_spark.substrait.local import reconcile

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pyspark.sql import SparkSession

    from pydantable_spark import DataFrame

ORDERED = {"sort_limit", "offset"}
REFUSED_LOCALLY = {"except_all", "range_offsets"}
"""Exported, not run locally: DataFusion keeps fewer duplicates in EXCEPT ALL and reads a RANGE frame's offsets
otherwise (each measured). (Its grouped min of infinities is wrong too: a kernel computes ``float_extremes``.)"""


def _rows(table: pa.Table, *, ordered: bool) -> list[tuple[Any, ...]]:
    rows = list(zip(*table.to_pydict().values(), strict=True)) if table.num_columns else []
    return rows if ordered else sorted(rows, key=lambda row: [(v is None, repr(v)) for v in row])


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", sorted(frames()) + sorted(local_frames()))
def test_the_local_engine_gives_sparks_result(spark: SparkSession, name: str) -> None:
    frame = {**frames(), **local_frames()}[name]
    on_spark = spark_answer(name)
    try:
        local = frame.to_arrow(engine="local")
    except UnsupportedEngineError:
        assert name in REFUSED_LOCALLY
        return
    assert name not in REFUSED_LOCALLY
    assert local.schema == on_spark.schema
    ordered = name in ORDERED
    ours, theirs = _rows(local, ordered=ordered), _rows(on_spark, ordered=ordered)
    assert len(ours) == len(theirs)
    for mine, spark_row in zip(ours, theirs, strict=True):
        assert all(_same(a, b) for a, b in zip(mine, spark_row, strict=True)), (mine, spark_row)


def test_except_all_would_differ_on_the_local_engine(spark: SparkSession) -> None:
    """Why ``except_all`` is refused: Spark keeps each duplicate the right side does not remove."""
    frame = frames()["except_all"]
    assert sorted(frame.to_dict()["shop"]) == ["a", "b"]
    with pytest.raises(UnsupportedEngineError, match=r"except_all\(\)"):
        frame.collect(engine="local")


# --- without a JVM -----------------------------------------------------------------------------------------


@pytest.mark.jvm_free
def test_collect_validates_the_local_rows() -> None:
    rows = sales().filter(Sale.amount > 1).sort(Sale.id).collect(engine="local")
    assert [(r.id, r.note) for r in rows] == [(1, None), (2, " it's ")]
    assert isinstance(rows[0], Sale)
    totals = sales().group_by("shop").agg(F.sum(Sale.amount).alias("total")).sort("shop")
    assert totals.to_dict(engine="local") == {"shop": ["a", "b", "c"], "total": [3, -2, 0]}
    assert totals.collect(engine="local", as_lists=True) == totals.to_dict(engine="local")


class Big(DataFrameModel):
    k: str
    i: Annotated[int, dt.Int32()]
    n: int


BIG = [{"k": "a", "i": 2_147_483_647, "n": 9_223_372_036_854_775_807}, {"k": "a", "i": -2_147_483_648, "n": 1}]


OVERFLOWS = {
    "int plus": lambda b: b.select((Big.i + 1).alias("x")),
    "int times": lambda b: b.select((Big.i * 10).alias("x")),
    "bigint plus": lambda b: b.select((Big.n + 1).alias("x")),
    "bigint times": lambda b: b.select((Big.n * Big.n).alias("x")),
    "negate": lambda b: b.select((-Big.i).alias("x")),
    "sum": lambda b: b.group_by("k").agg(F.sum(Big.n).alias("x")),
    "sum over a window": lambda b: b.with_columns(F.sum(Big.n).over(Window.partition_by(Big.k)).alias("x")),
    "sum in an expression": lambda b: b.group_by("k").agg((F.sum(Big.n) + 0).alias("x")),
}


@pytest.mark.parametrize("case", list(OVERFLOWS))
def test_integer_overflow_fails_on_both_engines(spark: SparkSession, case: str) -> None:
    """Spark (ANSI) raises on integer overflow; DataFusion's integer arithmetic wraps, so the local plan checks it."""
    frame = OVERFLOWS[case](Big.from_rows(BIG))
    with pytest.raises(SparkJobError, match="ARITHMETIC_OVERFLOW|overflow"):
        frame.to_arrow()
    with pytest.raises(LocalEngineError, match=r"to_arrow\(\): the local engine failed: .*(out of range|Can't cast)"):
        frame.to_arrow(engine="local")


class Fl(DataFrameModel):
    id: int
    x: float
    n: int | None


FLOATS = [
    {"id": 1, "x": 0.0, "n": 1},
    {"id": 2, "x": -0.0, "n": 1},
    {"id": 3, "x": float("nan"), "n": 3},
    {"id": 4, "x": float("inf"), "n": None},
    {"id": 5, "x": 1.0, "n": 3},
]


def _nan_twice() -> DataFrame[Any]:
    """Two NaNs: ``float("nan")`` minus itself, and ``inf - inf`` (its sign bit set on x86)."""
    return Fl.from_rows(FLOATS).with_columns((Fl.x - Fl.x).alias("z"))


FLOAT_EDGES: dict[str, Callable[[], DataFrame[Any]]] = {
    "nan filter": lambda: _nan_twice().filter(F.col("z") > 1.0).select(Fl.id),
    "nan equality": lambda: _nan_twice().select(Fl.id, (F.col("z") == float("nan")).alias("n")),
    "nan sort": lambda: _nan_twice().sort("z", "id").select("id"),
    "nan groups": lambda: _nan_twice().group_by("z").agg(F.count(Fl.id).alias("n")),
    "nan unique": lambda: _nan_twice().select("z").unique(),
    "nan dense rank": lambda: Fl.from_rows(FLOATS).select(
        Fl.id, F.dense_rank().over(Window.order_by(Fl.x - Fl.x)).alias("r")
    ),
    "negative nan from a negation": lambda: _nan_twice().select(Fl.id, (-F.col("z")).alias("m")).sort("m", "id"),
    "zero sort": lambda: Fl.from_rows(FLOATS).sort(Fl.x, Fl.id).select(Fl.id),
    "zero count distinct": lambda: Fl.from_rows(FLOATS).select(F.count_distinct(Fl.x).alias("n")),
    "zero partitions": lambda: Fl.from_rows(FLOATS).select(
        Fl.id, F.count(Fl.id).over(Window.partition_by(Fl.x)).alias("c")
    ),
    "zero rank": lambda: Fl.from_rows(FLOATS).select(Fl.id, F.rank().over(Window.order_by(Fl.x)).alias("r")),
    "float sums": lambda: Fl.from_rows(FLOATS).group_by("n").agg(F.sum(Fl.x).alias("s"), F.avg(Fl.x).alias("a")),
    "average of integers": lambda: Fl.from_rows(FLOATS).group_by("n").agg(F.avg(Fl.id).alias("a")),
}


@pytest.mark.parametrize("case", list(FLOAT_EDGES))
def test_floats_compare_as_spark_compares_them(spark: SparkSession, case: str) -> None:
    """Spark holds every NaN equal and largest and -0.0 equal to 0.0 in keys; the local plan normalizes both."""
    frame = FLOAT_EDGES[case]()
    ordered = "sort" in case
    on_spark, local = frame.to_arrow(), frame.to_arrow(engine="local")
    assert local.schema == on_spark.schema
    assert repr(_rows(local, ordered=ordered)) == repr(_rows(on_spark, ordered=ordered))


@pytest.mark.jvm_free
def test_a_nan_with_its_sign_bit_from_arrow_is_the_one_nan() -> None:
    negative_nan = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000000))[0]
    table = pa.table({"id": pa.array([1, 2], pa.int64()), "x": [negative_nan, 1.0], "n": pa.array([1, 1], pa.int64())})
    frame = Fl.from_arrow(table).sort(Fl.x).select(Fl.id)
    assert frame.to_dict(engine="local") == {"id": [2, 1]}  # NaN last, as Spark sorts it


class Dec(DataFrameModel):
    k: str
    d: Annotated[Decimal, dt.Decimal(38, 0)]
    small: Annotated[Decimal, dt.Decimal(10, 0)]


REFUSED_AGGREGATES = {
    "mode without deterministic": (
        lambda d: d.group_by("k").agg(F.mode(Dec.small).alias("m")),
        "mode\\(\\) only with deterministic=True",
    ),
    "a list of percentiles": (
        lambda d: d.group_by("k").agg(F.percentile(Dec.small, [0.25, 0.5]).alias("p")),
        "cannot return a NULL list from percentile",
    ),
    "the first of lists": (
        lambda d: d.group_by("k").agg(F.first(F.array(Dec.small)).alias("p")),
        "cannot return a NULL list from first",
    ),
    "collect_set of decimals": (
        lambda d: d.select(F.collect_set(Dec.small).over(Window.partition_by(Dec.k)).alias("s")),
        "the order Spark's set gives decimal\\(10,0\\) values",
    ),
    "histogram_numeric": (
        lambda d: d.group_by("k").agg(F.histogram_numeric(Dec.small, 3).alias("h")),
        "no kernel for histogram_numeric",
    ),
}


@pytest.mark.jvm_free
@pytest.mark.parametrize("case", list(REFUSED_AGGREGATES))
def test_aggregates_spark_computes_in_an_order_of_its_own_are_refused(case: str) -> None:
    build, reason = REFUSED_AGGREGATES[case]
    frame = build(Dec.from_rows([{"k": "a", "d": Decimal(1), "small": Decimal(v)} for v in (0, 0, 2)]))
    with pytest.raises(UnsupportedEngineError, match=reason):
        frame.to_dict(engine="local")


@pytest.mark.jvm_free
def test_percentile_approx_stops_where_spark_s_summary_is_no_longer_exact() -> None:
    """Past ``accuracy / 2`` values (or with a NaN) Spark's answer depends on how its partial summaries merged."""
    frame = Fl.from_rows([{"id": i, "x": float(i), "n": None} for i in range(3)])
    exact = frame.group_by(Fl.n, drop_nulls=False).agg(F.percentile_approx(Fl.x, 0.5, 8).alias("p"))
    assert exact.to_dict(engine="local") == {"n": [None], "p": [1.0]}
    beyond = frame.group_by(Fl.n, drop_nulls=False).agg(F.percentile_approx(Fl.x, 0.5, 4).alias("p"))
    with pytest.raises(LocalEngineError, match=r"exactly only over fewer than accuracy / 2 = 2 values"):
        beyond.to_dict(engine="local")


@pytest.mark.jvm_free
def test_an_aggregate_sees_a_group_in_row_order_across_batches() -> None:
    """A table of several Arrow batches: DataFusion would aggregate them in parallel and merge in no set order."""
    schema = pa.schema([("id", pa.int64()), ("x", pa.float64()), ("n", pa.int64())])
    chunks = [range(start, start + 1000) for start in range(0, 32000, 1000)]
    table = pa.concat_tables(pa.table([list(c), [0.5] * 1000, [i % 3 for i in c]], schema=schema) for c in chunks)
    frame = Fl.from_arrow(table).group_by(Fl.n).agg(F.collect_list(Fl.id).alias("ids"), F.first(Fl.id).alias("first"))
    for _ in range(5):  # the merge order varied from run to run
        for row in frame.to_arrow(engine="local").to_pylist():
            assert row["ids"] == sorted(row["ids"])
            assert row["first"] == row["n"]


@pytest.mark.jvm_free
def test_what_datafusion_names_or_casts_otherwise_runs_as_on_spark() -> None:
    """A date beside a timestamp is midnight in the session's zone (DataFusion would cast it to nanoseconds, which
    fail before 1677); one window expression twice is refused (DataFusion names both alike and refuses the plan)."""
    early = sales().filter(Sale.day < datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)).select(Sale.id)
    assert early.to_dict(engine="local") == {"id": [3]}
    twice = sales().with_columns(F.count(Sale.id).over(Window.partition_by(Sale.shop)).alias("a"))
    twice = twice.with_columns(F.count(Sale.id).over(Window.partition_by(Sale.shop)).alias("b"))
    with pytest.raises(UnsupportedEngineError, match="one window expression twice"):
        twice.to_dict(engine="local")
    to_substrait(twice)  # the export itself takes it


@pytest.mark.parametrize("value", ["6e37", "9" * 38])
def test_a_decimal_sum_past_38_digits_fails_on_both_engines(spark: SparkSession, value: str) -> None:
    """Spark raises; DataFusion's decimal sum would wrap around (or hold 39 digits), so the local plan guards it."""
    rows = [{"k": "a", "d": Decimal(value), "small": Decimal(1)}] * 2
    totals = Dec.from_rows(rows).group_by("k").agg(F.sum(Dec.d).alias("s"))
    with pytest.raises(SparkJobError, match="OVERFLOW|OUT_OF_RANGE"):
        totals.to_arrow()
    with pytest.raises(LocalEngineError, match="the local engine failed"):
        totals.to_arrow(engine="local")
    fits = Dec.from_rows(rows[:1]).group_by("k").agg(F.sum(Dec.d).alias("s"), F.sum(Dec.small).alias("t"))
    assert fits.to_dict(engine="local") == fits.to_dict()


@pytest.mark.jvm_free
def test_a_like_pattern_with_a_backslash_is_refused() -> None:
    """Spark refuses a pattern whose backslash escapes nothing (``INVALID_FORMAT``); DataFusion would run it."""
    with pytest.raises(UnsupportedEngineError, match=r"like\(\)"):
        sales().select(Sale.note.str.like("\\a%").alias("l")).to_dict(engine="local")


@pytest.mark.jvm_free
def test_integer_arithmetic_that_fits_runs_locally() -> None:
    frame = Big.from_rows(BIG).select((Big.i * 1 - 0).alias("same"), (Big.n - 1).alias("less"), (-Big.n).alias("neg"))
    assert frame.to_dict(engine="local") == {
        "same": [2_147_483_647, -2_147_483_648],
        "less": [9_223_372_036_854_775_806, 0],
        "neg": [-9_223_372_036_854_775_807, -1],
    }
    totals = Big.from_rows(BIG).group_by("k").agg(F.sum(Big.i).alias("i"), (F.sum(Big.i) - 5).alias("less"))
    assert totals.to_dict(engine="local") == {"k": ["a"], "i": [-1], "less": [-6]}


@pytest.mark.jvm_free
def test_a_local_parquet_file_read_by_pyarrow_runs_locally(tmp_path: Path) -> None:
    """``read_parquet`` reads through Spark; a test builds the frame from the file with ``from_arrow`` instead."""
    import pyarrow.parquet as pq

    path = tmp_path / "sales.parquet"
    pq.write_table(sales().to_arrow(engine="local"), path)
    again = Sale.from_arrow(pq.read_table(path))
    assert again.group_by("shop").agg(F.count(Sale.id).alias("n")).sort("shop").to_dict(engine="local") == {
        "shop": ["a", "b", "c"],
        "n": [1, 2, 1],
    }


@pytest.mark.jvm_free
def test_a_quote_in_a_value_is_data() -> None:
    frame = sales().filter(Sale.note == "x' OR '1'='1").select(Sale.id)
    assert frame.to_dict(engine="local") == {"id": [4]}


@pytest.mark.jvm_free
def test_the_engine_argument_is_checked_when_called() -> None:
    with pytest.raises(
        ArgumentValueError, match=r"collect\(\): engine must be 'spark', 'local' or 'auto', got 'datafusion'"
    ):
        sales().collect(engine="datafusion")  # type: ignore[call-overload]
    with pytest.raises(ArgumentTypeError, match=r"to_arrow\(\): engine must be str, got 1 \(int\)"):
        sales().to_arrow(engine=1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="got 'local; DROP TABLE x'"):
        sales().to_dict(engine="local; DROP TABLE x")  # type: ignore[arg-type]


@pytest.mark.jvm_free
def test_a_plan_the_local_engine_cannot_run_exactly_is_refused_by_name() -> None:
    with pytest.raises(UnsupportedEngineError, match=r"does not cast bigint to interval day to second"):
        sales().select(Sale.amount.cast(dt.Duration()).alias("p")).collect(engine="local")
    with pytest.raises(UnsupportedEngineError, match=r"sin\(\)"):  # Spark's Math.sin is HotSpot's own on x86-64
        sales().select(F.sin(Sale.price).alias("s")).to_arrow(engine="local")


@pytest.mark.jvm_free
def test_decimals_spark_rounds_and_zero_divisors_are_computed_as_spark_does() -> None:
    """Spark fits ``decimal(38,10) * decimal(38,10)`` to ``decimal(38,6)`` half up; a zero divisor fails (ANSI)."""
    huge = F.lit(Decimal("1.5")).cast(dt.Decimal(38, 10))
    product = sales().limit(1).select((huge * F.lit(Decimal("2.25")).cast(dt.Decimal(38, 10))).alias("d"))
    assert product.to_dict(engine="local") == {"d": [Decimal("3.375000")]}
    with pytest.raises(LocalEngineError, match=r"\[DIVIDE_BY_ZERO\]"):
        sales().select((Sale.price / (Sale.amount - Sale.amount)).alias("r")).to_dict(engine="local")


@pytest.mark.jvm_free
def test_the_local_engine_starts_no_jvm_and_imports_no_pyspark() -> None:
    script = (
        "import sys\n"
        "from pydantable_spark import DataFrameModel\n"
        "class P(DataFrameModel):\n    x: int\n"
        "assert P.from_rows([{'x': 1}]).to_dict(engine='local') == {'x': [1]}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyspark', 'py4j')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# --- reconciling a local result ----------------------------------------------------------------------------

_SCHEMA = Schema((dt.Field("id", dt.Int64(), False), dt.Field("name", dt.String(), True)))


@pytest.mark.jvm_free
def test_views_become_sparks_types_and_nothing_else_is_converted() -> None:
    table = pa.table({"id": pa.array([1], pa.int64()), "name": pa.array(["a"], pa.string_view())})
    reconciled = reconcile(table, _SCHEMA)
    assert reconciled.schema == pa.schema([pa.field("id", pa.int64(), False), pa.field("name", pa.string())])


@pytest.mark.jvm_free
def test_another_type_is_an_error_naming_the_column_and_both_types() -> None:
    table = pa.table({"id": pa.array([1], pa.int32()), "name": pa.array(["a"])})
    with pytest.raises(IncompatibleCastError, match="id: the local engine gave int32, Spark's type is int64"):
        reconcile(table, _SCHEMA)


@pytest.mark.jvm_free
def test_a_null_in_a_non_null_column_is_an_error() -> None:
    table = pa.table({"id": pa.array([1, None], pa.int64()), "name": pa.array(["a", "b"])})
    with pytest.raises(NullabilityError, match="id: 1 NULL"):
        reconcile(table, _SCHEMA)


@pytest.mark.jvm_free
def test_other_columns_are_an_error() -> None:
    table = pa.table({"name": pa.array(["a"]), "id": pa.array([1], pa.int64())})
    with pytest.raises(MissingColumnError, match=r"returned \['name', 'id'\], the plan derives \['id', 'name'\]"):
        reconcile(table, _SCHEMA)


@pytest.mark.jvm_free
def test_dates_and_an_empty_source_survive() -> None:
    empty = Sale.from_rows([])
    assert empty.to_dict(engine="local")["id"] == []
    days = sales().filter(Sale.day < datetime.date(2000, 1, 1)).select(Sale.day)
    assert days.to_dict(engine="local") == {"day": [datetime.date(1969, 12, 31)]}


def test_a_session_without_ansi_mode_is_refused_by_name(spark: SparkSession) -> None:
    previous = spark.conf.get("spark.sql.ansi.enabled")
    try:
        spark.conf.set("spark.sql.ansi.enabled", "false")
        with pytest.raises(UnsupportedEngineError, match=r"spark\.sql\.ansi\.enabled=false"):
            sales().to_dict(engine="local")
    finally:
        spark.conf.set("spark.sql.ansi.enabled", previous)
    assert sales().count(engine="local") == 4
