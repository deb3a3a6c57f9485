"""Regression tests for the wrong results the differential run found (issue 11), each against plain PySpark."""

from __future__ import annotations

import decimal
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pyspark.sql import Window as SparkWindow
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark._spark import lower as lowering
from pydantable_spark._spark.types import fields_of_struct
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.core import Column, Literal, RowId, Typed
from pydantable_spark.expr.over import Over
from pydantable_spark.steps.pending import is_barrier
from pydantable_spark.steps.push_down_filters import filter_commutes

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark


class T(DataFrameModel):
    id: int
    v: int | None


ROWS = [{"id": i, "v": None if i % 3 == 0 else i * 10} for i in range(1, 7)]


def _plain(spark: SparkSession) -> Any:
    return spark.createDataFrame([(r["id"], r["v"]) for r in ROWS], "id bigint not null, v bigint")


def _rows(frame: Any) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in frame.collect())


def _facade_rows(frame: Any) -> list[tuple[Any, ...]]:
    columns = frame.to_dict()
    return sorted(zip(*columns.values(), strict=True))


def test_a_filter_after_windows_and_whole_frame_aggregates_runs_after_them(spark: SparkSession) -> None:
    facade = (
        T.from_rows(ROWS)
        .with_columns(
            n=F.count(), r=F.row_number().over(Window.order_by("id")), p=F.lag(T.id).over(Window.order_by("id"))
        )
        .filter(T.id > 3)
    )
    w = SparkWindow.orderBy("id")
    plain = (
        _plain(spark)
        .select("id", "v", sf.count(sf.lit(1)).over(SparkWindow.partitionBy()).alias("n"))
        .select("id", "v", "n", sf.row_number().over(w).alias("r"), sf.lag("id").over(w).alias("p"))
        .filter(sf.col("id") > 3)
    )
    assert _facade_rows(facade) == _rows(plain) == [(4, 40, 6, 4, 3), (5, 50, 6, 5, 4), (6, None, 6, 6, 5)]


def test_drop_nulls_after_a_window_runs_after_it(spark: SparkSession) -> None:
    facade = T.from_rows(ROWS).with_columns(r=F.row_number().over(Window.order_by("id"))).drop_nulls(subset=["v"])
    plain = _plain(spark).withColumn("r", sf.row_number().over(SparkWindow.orderBy("id"))).dropna(subset=["v"])
    assert _facade_rows(facade) == _rows(plain) == [(1, 10, 1), (2, 20, 2), (4, 40, 4), (5, 50, 5)]


def test_filters_cross_only_projections_they_commute_with() -> None:
    ref = Column("id", Typed(dt.Int64(), False))
    plain = {"id": ref, "x": ref}
    assert filter_commutes(plain)
    window = Over(Call(CATALOG["row_number"], ()), (), (ref,), (False,), (False,))
    assert not filter_commutes({**plain, "r": window})
    assert not filter_commutes({**plain, "i": RowId()})
    assert not is_barrier(Literal(1, dt.Int64()))


def _steps(frame: Any) -> list[str]:
    return [line.strip().split(" ")[0] for line in lowering.render_steps(lowering.plan_steps(frame.plan))]


def test_a_filter_still_fuses_below_a_plain_projection() -> None:
    fused = T.from_rows(ROWS).with_columns(w=T.id * 2).filter(T.id > 3)
    assert _steps(fused) == ["to", "selectExpr", "filter", "scan"]
    held = T.from_rows(ROWS).with_columns(w=F.row_number().over(Window.order_by("id"))).filter(T.id > 3)
    assert _steps(held) == ["to", "filter", "selectExpr", "scan"]


class D(DataFrameModel):
    a: Annotated[decimal.Decimal, dt.Decimal(38, 12)]
    b: Annotated[decimal.Decimal, dt.Decimal(34, 13)]
    c: bool


def test_the_common_decimal_type_past_38_digits_keeps_integral_digits(spark: SparkSession, agrees: Any) -> None:
    frame = D.from_rows([{"a": decimal.Decimal("1.5"), "b": decimal.Decimal("2.25"), "c": True}])
    out = frame.select(
        co=F.coalesce(D.a, D.b), wh=F.when(D.c, D.a).otherwise(D.b), fi=D.a.fill_null(D.b), un=F.coalesce(D.b, D.a)
    )
    assert [str(f.dtype) for f in out.schema] == ["decimal(38,12)"] * 4
    agrees(out)
    plain = spark.createDataFrame(
        [(decimal.Decimal("1.5"), decimal.Decimal("2.25"))], "a decimal(38,12), b decimal(34,13)"
    )
    spark_types = fields_of_struct(plain.select(sf.coalesce("a", "b").alias("co")).schema)
    assert str(spark_types[0].dtype) == "decimal(38,12)"


def test_count_distinct_over_a_window_is_refused_when_built(spark: SparkSession) -> None:
    frame = T.from_rows(ROWS)
    with pytest.raises(ColumnTypeError, match="count_distinct.. cannot run over a window"):
        frame.with_columns(n=F.count_distinct(T.v).over(Window.partition_by("id")))
    with pytest.raises(ColumnTypeError, match="count_distinct.. cannot run over a window"):
        frame.with_columns(n=F.count_distinct(T.v))
    with pytest.raises(Exception, match="DISTINCT"):
        _plain(spark).select(sf.count_distinct("v").over(SparkWindow.partitionBy("id"))).schema  # noqa: B018
    assert frame.select(n=F.count_distinct(T.v)).to_dict() == {"n": [4]}


def test_nth_value_needs_an_ordered_window(spark: SparkSession) -> None:
    with pytest.raises(ColumnTypeError, match="nth_value.. needs an ordered window"):
        T.from_rows(ROWS).with_columns(x=F.nth_value(T.v, 2).over(Window.partition_by("id")))
    ordered = T.from_rows(ROWS).with_columns(x=F.nth_value(T.v, 2).over(Window.order_by("id")))
    plain = _plain(spark).withColumn("x", sf.nth_value("v", 2).over(SparkWindow.orderBy("id")))
    assert _facade_rows(ordered) == _rows(plain)


def test_is_in_an_empty_list_is_false_even_for_null(spark: SparkSession, agrees: Any) -> None:
    frame = T.from_rows(ROWS)
    out = frame.select(T.id, e=T.v.is_in([]), n=~T.v.is_in([]), k=T.id.is_in([]))
    agrees(out)
    plain = _plain(spark).select("id", sf.col("v").isin([]).alias("e"), (~sf.col("v").isin([])).alias("n"))
    plain = plain.withColumn("k", sf.col("id").isin([]))
    assert _facade_rows(out) == _rows(plain)
    assert [(f.name, f.nullable) for f in out.schema] == [(f.name, f.nullable) for f in fields_of_struct(plain.schema)]
    assert frame.filter(~T.v.is_in([])).count() == 6


def test_lag_and_lead_defaults_of_a_narrower_type_are_cast(spark: SparkSession, agrees: Any) -> None:
    class N(DataFrameModel):
        id: int
        d: Annotated[decimal.Decimal, dt.Decimal(10, 2)]

    frame = N.from_rows([{"id": i, "d": decimal.Decimal(i) / 4} for i in range(4)])
    w = Window.order_by("id")
    out = frame.select(
        N.id,
        l=F.lag(N.id, 1, F.lit(0, dtype=dt.Int32)).over(w),
        d=F.lag(N.d, 2, 1).over(w),
        e=F.lead(N.d, 1, F.lit(decimal.Decimal("0.5"))).over(w),
    )
    agrees(out)
    assert [str(f.dtype) for f in out.schema][1:] == ["bigint", "decimal(10,2)", "decimal(10,2)"]
    assert not out.schema["l"].nullable
    sw = SparkWindow.orderBy("id")
    plain = spark.createDataFrame(
        [(i, decimal.Decimal(i) / 4) for i in range(4)], "id bigint not null, d decimal(10,2) not null"
    )
    plain = plain.select(
        "id",
        sf.lag("id", 1, 0).over(sw).alias("l"),
        sf.lag("d", 2, 1).over(sw).alias("d"),
        sf.lead("d", 1, decimal.Decimal("0.5")).over(sw).alias("e"),
    )
    assert _facade_rows(out) == _rows(plain)
    with pytest.raises(ColumnTypeError, match="without loss"):
        frame.select(x=F.lag(N.id, 1, 1.5).over(w))
    with pytest.raises(ColumnTypeError, match="without loss"):
        frame.select(x=F.lag(N.id, 1, "0").over(w))


def test_a_dropped_column_is_never_computed(spark: SparkSession) -> None:
    """Seeds 101067 and 201157: Spark folded a dead column of local data (an ANSI overflow) that PySpark never ran."""
    big = [{"id": i, "v": 2**62 if i == 2 else i} for i in range(1, 4)]
    facade = (
        T.from_rows(big)
        .with_columns(h=T.v * 4)
        .with_columns(m=F.max(T.id).over(Window.partition_by()))
        .drop("h")
        .filter(T.id > 1)
    )
    plain = (
        spark.createDataFrame([(r["id"], r["v"]) for r in big], "id bigint not null, v bigint")
        .withColumn("m", sf.max("id").over(SparkWindow.partitionBy()))
        .filter(sf.col("id") > 1)
    )
    assert _facade_rows(facade) == _rows(plain) == [(2, 2**62, 3), (3, 3, 3)]
    assert "* CAST(4" not in " ".join(lowering.render_steps(lowering.plan_steps(facade.plan)))
    with pytest.raises(Exception, match="ARITHMETIC_OVERFLOW"):
        T.from_rows(big).with_columns(h=T.v * 4).to_dict()


def test_a_union_computes_only_the_columns_read_above_it(spark: SparkSession) -> None:
    """Seed 304835: a column a later aggregate never reads was computed in both frames of a union (an ANSI error)."""
    big = [{"id": i, "v": 2**62 if i == 2 else i} for i in range(1, 4)]
    frame = T.from_rows(big).with_columns(h=T.v * 4)
    facade = frame.union(frame).group_by("id").agg(n=F.count())
    plain = (
        spark.createDataFrame([(r["id"], r["v"]) for r in big], "id bigint not null, v bigint")
        .unionAll(spark.createDataFrame([(r["id"], r["v"]) for r in big], "id bigint not null, v bigint"))
        .groupBy("id")
        .agg(sf.count(sf.lit(1)).alias("n"))
    )
    assert sorted(_facade_rows(facade)) == sorted(_rows(plain)) == [(1, 2), (2, 2), (3, 2)]
    assert "* CAST(4" not in " ".join(lowering.render_steps(lowering.plan_steps(facade.plan)))
    positional = T.from_rows(big).select(T.id, T.v).union(frame.select(T.id, v=T.v * 4)).select(T.id)
    assert sorted(_facade_rows(positional)) == [(1,), (1,), (2,), (2,), (3,), (3,)]
    other = T.from_rows(big).select(T.v, T.id)  # no h: NULLs there, and the columns in another order
    by_name = frame.union_by_name(other, allow_missing_columns=True).select("id", "v")
    assert sorted(_facade_rows(by_name)) == sorted([(1, 1), (2, 2**62), (3, 3)] * 2)


def test_floor_division_at_the_edge_of_the_range_does_not_overflow(agrees: Any) -> None:
    """Seed 200485: subtracting the remainder before dividing overflowed at the type's minimum."""
    low = -(2**63)
    frame = T.from_rows([{"id": 1, "v": low}, {"id": 2, "v": low + 1}, {"id": 3, "v": 7}, {"id": 4, "v": -7}])
    out = frame.select(T.id, q=T.v // 3, r=T.v // -2, s=(T.v + 0) // (T.id + 1))
    agrees(out)
    got = out.to_dict()
    values = [low, low + 1, 7, -7]
    assert got["q"] == [v // 3 for v in values]
    assert got["r"] == [v // -2 for v in values]
    assert got["s"] == [v // (i + 1) for i, v in enumerate(values, start=1)]
