"""Models generated from existing data read that data back (issue 21 step 5)."""

from __future__ import annotations

import datetime
import decimal
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, UnsupportedTypeError
from pydantable_spark.modelgen import model_source, source_of_path, source_of_spark, source_of_table

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

DDL = (
    "id bigint not null, `order id` string, class int, count float, `1st` smallint, model_kind tinyint, "
    "total decimal(12,2), placed date, seen timestamp, local timestamp_ntz, raw binary, wait interval day to second, "
    "ship struct<city: string not null, zip: string>, "
    "items array<struct<sku: string, qty: int not null>>, tags map<string, array<bigint>>"
)
ROW: tuple[Any, ...] = (
    1,
    "o-1",
    7,
    1.5,
    3,
    2,
    decimal.Decimal("12.34"),
    datetime.date(2026, 1, 2),
    datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
    datetime.datetime(2026, 1, 2, 3, 4, 5),
    b"\x00\x01",
    datetime.timedelta(seconds=90),
    ("Paris", None),
    [("a", 2)],
    {"k": [1, None]},
)


def _load(source: str, name: str) -> Any:
    namespace: dict[str, Any] = {"__name__": f"generated_{name}"}
    exec(compile(source, f"<generated {name}>", "exec", dont_inherit=True), namespace)
    return namespace[name]


def test_a_generated_model_reads_the_files_it_came_from(tmp_path: Path, spark: SparkSession) -> None:
    sdf = spark.createDataFrame([ROW], DDL)
    sdf.write.parquet(str(tmp_path / "orders"))
    source = source_of_path(str(tmp_path / "orders"), "Order")
    assert "order_id: str | None = Field(alias='order id')" in source
    assert "c_class: Annotated[int, dtypes.Int32] | None = Field(alias='class')" in source
    assert "count: Annotated[float, dtypes.Float32] | None\n" in source
    assert "c_1st: Annotated[int, dtypes.Int16] | None = Field(alias='1st')" in source
    assert "total: Annotated[Decimal, Field(max_digits=12, decimal_places=2)] | None" in source
    assert "local: NaiveDatetime | None" in source
    assert "items: list[Items | None] | None" in source
    Order = _load(source, "Order")
    frame = Order.read_parquet(str(tmp_path / "orders"))
    (row,) = frame.collect()
    assert row.order_id == "o-1"
    assert row.ship.city == "Paris"
    assert row.items[0].qty == 2
    assert row.tags == {"k": [1, None]}
    assert row.total == decimal.Decimal("12.34")
    assert [tuple(r) for r in frame.to_spark().collect()] == [tuple(r) for r in sdf.collect()]


def test_non_null_columns_and_comments_of_a_table_reach_the_model(spark: SparkSession) -> None:
    spark.sql(
        "CREATE TABLE modelgen_orders (id BIGINT NOT NULL COMMENT 'the order key', "
        "note STRING COMMENT 'free text, it''s \"quoted\"', ship STRUCT<city: STRING COMMENT 'where to'>) USING parquet"
    )
    try:
        spark.sql("INSERT INTO modelgen_orders VALUES (1, 'x', named_struct('city', 'Oslo'))")
        source = source_of_table("modelgen_orders", "Orders")
        assert "id: int | None = Field(description='the order key')" in source or "id: int = Field(" in source
        assert "description='free text, it\\'s \"quoted\"'" in source
        assert "city: str | None = Field(description='where to')" in source
        Orders = _load(source, "Orders")
        assert Orders.read_table("modelgen_orders").collect()[0].ship.city == "Oslo"
    finally:
        spark.sql("DROP TABLE IF EXISTS modelgen_orders")


def test_field_descriptions_become_column_comments_on_write(tmp_path: Path, spark: SparkSession) -> None:
    from pydantic import Field

    from pydantable_spark import DataFrameModel

    class Commented(DataFrameModel):
        id: int = Field(description="the order key", ge=0)
        note: str | None = Field(default=None, alias="the note", description='free text, it\'s "quoted"')
        total: float

    frame = Commented.from_rows([{"id": 1, "the note": "x", "total": 2.5}])
    frame.save_as_table("modelgen_commented")
    try:
        comments = {r.col_name: r.comment for r in spark.sql("DESCRIBE TABLE modelgen_commented").collect()}
        assert comments["id"] == "the order key"
        assert comments["the note"] == 'free text, it\'s "quoted"'
        assert comments["total"] is None
        source = source_of_table("modelgen_commented", "Again")
        assert "Field(description='the order key')" in source
    finally:
        spark.sql("DROP TABLE IF EXISTS modelgen_commented")
    frame.write_parquet(tmp_path / "commented", constraints="report")
    stored = {f.name: f.metadata for f in spark.read.parquet(str(tmp_path / "commented")).schema.fields}
    assert stored["id"] == {"comment": "the order key"}
    assert stored["total"] == {}
    assert "Field(alias='the note', description=" in source_of_path(str(tmp_path / "commented"), "Again")


def test_a_non_null_column_of_a_dataframe_is_non_null_in_the_model(spark: SparkSession) -> None:
    sdf = spark.createDataFrame([(1, "a")], "id bigint not null, name string")
    source = source_of_spark(sdf, "Person")
    assert "    id: int\n" in source
    assert "    name: str | None\n" in source
    Person = _load(source, "Person")
    assert Person.from_spark(sdf).collect() == [Person(id=1, name="a")]


def test_names_that_collide_are_told_apart() -> None:
    fields = (
        dt.Field("a b", dt.Int64(), True),
        dt.Field("a_b", dt.Int64(), True),
        dt.Field("ship", dt.Struct((dt.Field("x", dt.Int64(), True),)), True),
        dt.Field("ship_", dt.Struct((dt.Field("y", dt.Int64(), True),)), True),
        dt.Field("schema", dt.String(), True),
    )
    source = model_source(fields, "Ship")
    assert "a_b: int | None = Field(alias='a b')" in source
    assert "a_b_2: int | None" in source or "a_b_2: int | None = Field(alias='a_b')" in source
    assert "class Ship2(DataFrameModel)" in source
    assert "class Ship3(DataFrameModel)" in source
    assert "c_schema: str | None = Field(alias='schema')" in source
    model = _load(source, "Ship")
    assert [f.name for f in model.frame_schema()] == ["a b", "a_b", "ship", "ship_", "schema"]


def test_what_a_model_cannot_hold_is_refused() -> None:
    with pytest.raises(UnsupportedTypeError, match=r"m: a map with bigint keys has no model type"):
        model_source((dt.Field("m", dt.Map(dt.Int64(), dt.String(), True), True),), "Row")
    with pytest.raises(ArgumentValueError, match="must be a Python class name"):
        model_source((dt.Field("a", dt.Int64(), True),), "not a name")
    with pytest.raises(ArgumentTypeError, match="must be a Python class name"):
        model_source((dt.Field("a", dt.Int64(), True),), 5)  # type: ignore[arg-type]


def test_only_formats_that_carry_a_schema_are_described(tmp_path: Path) -> None:
    with pytest.raises(ArgumentValueError, match=r"format='csv'.*CSV and JSON have no types"):
        source_of_path(str(tmp_path), "Row", format="csv")


@pytest.mark.slow
def test_the_models_command_writes_a_module_that_reads_the_files(tmp_path: Path, spark: SparkSession) -> None:
    spark.createDataFrame([(1, "a")], "id bigint, `user name` string").write.parquet(str(tmp_path / "users"))
    out = tmp_path / "users_model.py"
    command = [sys.executable, "-m", "pydantable_spark.stubgen", "models", "--from-path", str(tmp_path / "users")]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_CONNECT", "SPARK_REMOTE", "SPARK_LOCAL"))}
    run = {"capture_output": True, "text": True, "timeout": 300, "env": env}
    done = subprocess.run([*command, "--name", "User", "-o", str(out)], **run)  # type: ignore[call-overload]
    assert done.returncode == 0, done.stderr[-2000:]
    User = _load(out.read_text(), "User")
    assert [r.user_name for r in User.read_parquet(str(tmp_path / "users")).collect()] == ["a"]
    missing = subprocess.run([*command[:-1], str(tmp_path / "nowhere")], **run)  # type: ignore[call-overload]
    assert missing.returncode == 2
    assert "pydantable-spark models: Spark could not read the source" in missing.stderr
