"""Sketches past what the generated catalog test tries: a column of sketches merged by an aggregate.

A merging aggregate (``hll_union_agg``, ``kll_merge_agg_*``, ``theta_union_agg``...)
takes a column of sketches, which only an earlier aggregation makes: each is
tried on a two-step pipeline (sketches per group, then merged, then read), the
façade's against the same pipeline written in plain PySpark, for every such
entry of the catalog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentValueError, ColumnTypeError
from pydantable_spark.expr.catalog import Kind, sketches
from pydantable_spark.expr.catalog.spec import REQUIRED, sample_of

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark


class Values(DataFrameModel):
    g: int
    x: int
    y: int
    f: float


ROWS = [{"g": i % 3, "x": (i * 7) % 11, "y": i % 4 - 1, "f": (i % 5) / 2} for i in range(30)]

MERGES = {
    e.name: e
    for e in sketches.ENTRIES
    if e.placement.kind is Kind.AGGREGATE and e.signature.params[0] is sketches.SKETCH
}


def _family(name: str) -> tuple[str, tuple[str, ...], str]:
    """The aggregate making the sketches a merging aggregate takes, its columns, and a function reading one."""
    if name.startswith("hll_"):
        return "hll_sketch_agg", ("x",), "hll_sketch_estimate"
    if name.startswith("kll_"):
        kind = name.rsplit("_", 1)[1]
        return f"kll_sketch_agg_{kind}", ("f" if kind == "double" else "x",), f"kll_sketch_get_n_{kind}"
    if name.startswith("theta_"):
        return "theta_sketch_agg", ("x",), "theta_sketch_estimate"
    kind = name.rsplit("_", 1)[1]
    return f"tuple_sketch_agg_{kind}", ("x", "y"), f"tuple_sketch_summary_{kind}"


def test_every_merging_aggregate_is_tried() -> None:
    assert set(MERGES) == {
        "hll_union_agg", "kll_merge_agg_bigint", "kll_merge_agg_double", "kll_merge_agg_float", "theta_union_agg",
        "theta_intersection_agg", "tuple_union_agg_double", "tuple_union_agg_integer",
        "tuple_intersection_agg_double", "tuple_intersection_agg_integer",
    }  # fmt: skip


@pytest.mark.parametrize("name", sorted(MERGES))
def test_merging_aggregates_give_the_values_of_pysparks(spark: SparkSession, name: str) -> None:
    entry = MERGES[name]
    make, columns, read = _family(name)
    extra = [sample_of(p) for p in entry.signature.params[1:] if p.default is not REQUIRED]
    frame = Values.from_rows(ROWS)
    plain = spark.createDataFrame(ROWS)
    if name == "kll_merge_agg_float":
        make, columns = "kll_sketch_agg_float", ("f32",)
        frame = Values.from_rows(ROWS).select("g", f32=F.col("f").cast(dt.Float32()))
        plain = plain.select("g", sf.col("f").cast("float").alias("f32"))
    ours = (
        frame.group_by("g")
        .agg(s=getattr(F, make)(*columns))
        .select(all=getattr(F, name)("s"), some=getattr(F, name)("s", *extra))
        .select(read_all=getattr(F, read)("all"), read_some=getattr(F, read)("some"), merged=F.col("all"))
    )
    theirs = (
        plain.groupBy("g")
        .agg(getattr(sf, make)(*columns).alias("s"))
        .agg(getattr(sf, name)("s").alias("all"), getattr(sf, name)("s", *extra).alias("some"))
        .select(
            getattr(sf, read)("all").alias("read_all"),
            getattr(sf, read)("some").alias("read_some"),
            sf.col("all").alias("merged"),
        )
    )
    got = ours.to_dict()
    expected = theirs.collect()[0]
    assert (got["read_all"][0], got["read_some"][0]) == (expected["read_all"], expected["read_some"])
    assert got["read_all"][0] not in (None, 0)  # the pipeline read a sketch of the values
    assert got["merged"][0] == expected["merged"]
    assert [(f.name, f.dataType, f.nullable) for f in ours.to_spark().schema] == [
        (f.name, f.dataType, f.nullable) for f in theirs.schema
    ]


@pytest.mark.parametrize(
    ("make", "kind", "message"),
    [
        (lambda: F.hll_sketch_agg("x", 22), ArgumentValueError, r"lgConfigK must be between 4 and 21, got 22"),
        (lambda: F.kll_sketch_agg_bigint("x", 7), ArgumentValueError, r"k must be between 8 and 65535, got 7"),
        (lambda: F.theta_sketch_agg("x", 3), ArgumentValueError, r"lgNomEntries must be between 4 and 26, got 3"),
        (lambda: F.tuple_union_agg_double("x", 12, "avg"), ArgumentValueError, r"mode must be one of sum, min, max"),
        (lambda: F.kll_sketch_get_quantile_bigint("x", 1.5), ArgumentValueError, r"rank must be ranks between 0"),
        (lambda: Values.from_rows(ROWS).select(F.hll_sketch_agg("f")), ColumnTypeError, r"col must be an int, a"),
        (
            lambda: Values.from_rows(ROWS).select(F.kll_sketch_get_quantile_bigint(F.lit(b"x"), F.col("f"))),
            ColumnTypeError,
            r"rank must be a constant",
        ),
    ],
)
def test_sketch_arguments_are_checked_when_the_call_is_made(make: Any, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind, match=message):
        make()
