"""Round trips with Spark, Arrow and pandas keep nullability and Spark's column metadata."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import pyarrow as pa
from pyspark.sql import types as st

from pydantable_spark import DataFrame, DataFrameModel, F

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

SCHEMA = st.StructType(
    [
        st.StructField("id", st.LongType(), True, {"comment": "the key"}),
        st.StructField("name", st.StringType(), True, {"pii": True}),
        st.StructField("tags", st.ArrayType(st.StringType(), False), False, {"source": "crm"}),
    ]
)


class Person(DataFrameModel):
    id: int
    name: str | None
    tags: list[str]


def _source(spark: SparkSession) -> Any:
    return spark.createDataFrame([(1, "a", ["x"]), (2, None, [])], SCHEMA)


def _metadata(frame: DataFrame[Any]) -> dict[str, Any]:
    return {f.name: f.metadata for f in frame.to_spark().schema.fields}


def test_from_spark_to_spark_keeps_schema_and_metadata(spark: SparkSession) -> None:
    sdf = _source(spark)
    assert DataFrame.from_spark(sdf).to_spark().schema == SCHEMA
    typed = Person.from_spark(sdf, null_check=["id"])  # id: a run-time check wraps the column
    out = typed.to_spark().schema
    assert [(f.name, f.nullable, f.metadata) for f in out.fields] == [
        ("id", False, {"comment": "the key"}),
        ("name", True, {"pii": True}),
        ("tags", False, {"source": "crm"}),
    ]


def test_metadata_follows_columns_through_transformations(spark: SparkSession) -> None:
    frame = DataFrame.from_spark(_source(spark))
    assert _metadata(frame.rename({"id": "key"}))["key"] == {"comment": "the key"}
    assert _metadata(frame.filter(F.col("id") > 0).sort("id").limit(5))["name"] == {"pii": True}
    grouped = frame.group_by("name").agg(F.count().alias("n"))  # NULL keys dropped: the key is rewritten
    assert _metadata(grouped) == {"name": {"pii": True}, "n": {}}
    assert _metadata(frame.join(frame, on="id"))["name_right"] == {"pii": True}


def test_metadata_of_checked_columns_follows_them_through_a_join(spark: SparkSession) -> None:
    class Named(DataFrameModel):
        id: int
        name: str

    # both sides NULL-check name (not a join key): the checks run above the join, on the right's private names
    typed = Named.from_spark(_source(spark).filter("name IS NOT NULL").select("id", "name"), null_check=["id", "name"])
    assert _metadata(typed.join(typed, on="id")) == {
        "id": {"comment": "the key"},
        "name": {"pii": True},
        "name_right": {"pii": True},
    }


def test_arrow_round_trip_keeps_nullability(spark: SparkSession) -> None:
    table = pa.table(
        {"id": pa.array([1, 2], pa.int64()), "name": ["a", None], "tags": [["x"], []]},
        schema=pa.schema(
            [
                pa.field("id", pa.int64(), nullable=False),
                pa.field("name", pa.string()),
                pa.field("tags", pa.list_(pa.field("element", pa.string(), nullable=False)), nullable=False),
            ]
        ),
    )
    frame = Person.from_arrow(table)
    back = frame.to_arrow()
    assert [(f.name, f.nullable) for f in back.schema] == [("id", False), ("name", True), ("tags", False)]
    assert back.schema.field("tags").type.value_field.nullable is False
    assert back.to_pylist() == table.to_pylist()


def test_pandas_round_trip_keeps_values_and_nulls(spark: SparkSession) -> None:
    class Reading(DataFrameModel):
        id: int
        value: int | None
        day: datetime.date

    rows = [
        {"id": 1, "value": None, "day": datetime.date(2024, 1, 1)},
        {"id": 2, "value": 5, "day": datetime.date(2024, 1, 2)},
    ]
    pdf = Reading.from_rows(rows).to_pandas()
    assert str(pdf["value"].dtype) == "Int64"  # pandas' nullable integers, not floats with NaN
    back = Reading.from_pandas(pdf)
    assert back.schema == Reading.frame_schema()
    assert sorted(back.collect(), key=lambda r: r.id) == [Reading(**r) for r in rows]
