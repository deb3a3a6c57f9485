"""The interface contract's remaining clauses: time windows and rolling aggregates, struct helpers, trusted rows,
missing Optional fields on ingest.

Values are compared with plain PySpark (``F.window``'s groups, ``to_json``, ``withField``) or with a reference
computed in Python from the rows (rolling windows); derived schemas with Spark's analyzer (``agrees``). Error
paths need no JVM (``jvm_free``).
"""

from __future__ import annotations

import datetime
import enum
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest
from pydantic import BaseModel, Field, NaiveDatetime
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    MissingColumnError,
    RowValidationError,
    UnknownColumnError,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

UTC = datetime.timezone.utc
T0 = datetime.datetime(2024, 3, 1, tzinfo=UTC)


class Tick(DataFrameModel):
    at: datetime.datetime
    local: NaiveDatetime | None = None  # a timestamp_ntz column
    day: datetime.date
    seq: int
    sym: str | None
    px: float | None


def _ticks() -> list[dict[str, Any]]:
    """Times minutes apart, two symbols and a NULL one, NULL prices, ties (equal times, equal days)."""
    minutes = [0, 7, 7, 25, 59, 60, 61, 118, 240, 241, 300, 1440, 1500, 2900]
    rows = []
    for i, m in enumerate(minutes):
        at = T0 + datetime.timedelta(minutes=m)
        rows.append(
            {
                "at": at,
                "day": (at + datetime.timedelta(days=i % 3)).date(),
                "seq": m // 10,
                "sym": [None, "a", "b"][i % 3] if i % 5 else "a",
                "px": None if i % 4 == 3 else float(i * 3 % 11),
            }
        )
    return rows


# --- group_by_dynamic -------------------------------------------------------------------------


def test_group_by_dynamic_groups_as_pysparks_window(spark: SparkSession, agrees: Any) -> None:
    ticks = Tick.from_rows(_ticks())
    sliding = ticks.group_by_dynamic("at", every="1h", period="2h", offset="15m", by="sym").agg(
        n=F.count(), total=F.sum(Tick.px)
    )
    agrees(sliding)
    assert sliding.columns == ["sym", "at", "n", "total"]
    assert not sliding.schema["at"].nullable
    plain = (
        ticks.to_spark()
        .where(sf.col("sym").isNotNull())
        .groupBy("sym", sf.window("at", "2 hours", "1 hour", "15 minutes"))
        .agg(sf.count(sf.lit(1)).alias("n"), sf.sum("px").alias("total"))
        .select("sym", sf.col("window.start").alias("at"), "n", "total")
    )
    ours = sorted((r.sym, r.at, r.n, r.total) for r in sliding.collect())
    theirs = sorted((r.sym, r.at.replace(tzinfo=UTC), r.n, r.total) for r in plain.collect())  # the session's UTC
    assert ours == theirs
    # two-hour windows start at a quarter past each hour: the rows of "a" at 00:00 and 00:07 are in two
    assert ours[:2] == [
        ("a", T0 - datetime.timedelta(minutes=105), 2, 3.0),
        ("a", T0 - datetime.timedelta(minutes=45), 4, 8.0),
    ]


def test_group_by_dynamic_tumbles_over_dates_and_naive_times(spark: SparkSession, agrees: Any) -> None:
    rows = _ticks()
    for row in rows:
        row["local"] = row["at"].replace(tzinfo=None)
    ticks = Tick.from_rows(rows).drop_nulls(subset=["local"])
    by_days = ticks.group_by_dynamic(Tick.day, every=datetime.timedelta(days=2)).agg(n=F.count())
    agrees(by_days)
    expected: dict[datetime.datetime, int] = {}
    for row in rows:  # windows of two days from 1970-01-01 (an even day count), at UTC midnights
        days = (row["day"] - datetime.date(1970, 1, 1)).days
        start = datetime.datetime(1970, 1, 1, tzinfo=UTC) + datetime.timedelta(days=days - days % 2)
        expected[start] = expected.get(start, 0) + 1
    assert {r.day: r.n for r in by_days.collect()} == expected
    naive = ticks.group_by_dynamic("local", every="4h", drop_nulls=False).agg(hi=F.max(Tick.px))
    agrees(naive)
    assert str(naive.schema["local"].dtype) == "timestamp_ntz"
    got = {r.local: r.hi for r in naive.collect()}
    assert got[datetime.datetime(2024, 3, 1, 4)] == max(r["px"] for r in rows[8:11] if r["px"] is not None)
    assert sorted(got) == sorted(
        {datetime.datetime(2024, 3, 1) + datetime.timedelta(hours=4 * (m // 240)) for m in (0, 240, 1440, 1500, 2900)}
    )


@pytest.mark.jvm_free
def test_group_by_dynamic_refuses_what_spark_cannot_window() -> None:
    ticks = Tick.from_rows([])
    with pytest.raises(ColumnTypeError, match=r"index_column 'seq' is int \(bigint\); it must be a date or a datetime"):
        ticks.group_by_dynamic("seq", every="1h")
    with pytest.raises(UnknownColumnError, match="did you mean 'at'"):
        ticks.group_by_dynamic("att", every="1h")
    with pytest.raises(ArgumentValueError, match="every holds months, quarters or years"):
        ticks.group_by_dynamic("at", every="1mo")
    with pytest.raises(ArgumentValueError, match="period holds months or years"):
        ticks.group_by_dynamic("at", every="1h", period="1 month")
    with pytest.raises(
        ArgumentValueError, match=r"period \('30m'\) is shorter than every \('1h'\): the windows would leave gaps"
    ):
        ticks.group_by_dynamic("at", every="1h", period="30m")
    with pytest.raises(ArgumentValueError, match="every must be a positive duration"):
        ticks.group_by_dynamic("at", every="0s")
    with pytest.raises(ArgumentTypeError, match="every must be a duration"):
        ticks.group_by_dynamic("at", every=3600)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="is not an interval"):
        ticks.group_by_dynamic("at", every="hourly")
    with pytest.raises(ArgumentValueError, match="'at' is the index column; it cannot also be a key in by="):
        ticks.group_by_dynamic("at", every="1h", by=["sym", "at"])
    with pytest.raises(ColumnTypeError, match="drop_nulls=False"):  # the NULL times cannot be kept
        ticks.group_by_dynamic("local", every="1h", drop_nulls=False).agg(n=F.count())
    # an offset of whole slides or more is the same windows: taken modulo every
    shifted = ticks.group_by_dynamic("at", every="1h", offset="75m").agg(n=F.count())
    same = ticks.group_by_dynamic("at", every="1h", offset=datetime.timedelta(minutes=-45)).agg(n=F.count())
    assert shifted.plan == same.plan


# --- rolling_agg -------------------------------------------------------------------------------


def _rolled(rows: list[dict[str, Any]], on: str, size: int, by: str | None, op: str, periods: int) -> list[Any]:
    """The contract's trailing window, computed from the rows: values of rows of the group with on in [t - size, t]."""

    def key(value: Any) -> int:
        if isinstance(value, datetime.datetime):
            return (value - T0) // datetime.timedelta(microseconds=1)
        if isinstance(value, datetime.date):
            return value.toordinal()
        return int(value)

    out = []
    for row in rows:
        window = [
            other["px"]
            for other in rows
            if (by is None or other[by] == row[by]) and 0 <= key(row[on]) - key(other[on]) <= size
        ]
        values = [v for v in window if v is not None]
        if op == "count":
            out.append(len(values))
        elif len(values) < periods:
            out.append(None)
        else:
            out.append({"sum": sum, "min": min, "max": max, "mean": lambda v: sum(v) / len(v)}[op](values))
    return out


def test_rolling_agg_aggregates_each_rows_trailing_window(spark: SparkSession, agrees: Any) -> None:
    rows = _ticks()
    for row in rows:
        row["local"] = row["at"].replace(tzinfo=None)
    hour = 3_600_000_000
    frame = (
        Tick.from_rows(rows)
        .drop_nulls(subset=["local"])
        .rolling_agg(on="local", column="px", window_size="90m", op="max", out_name="max_90m_naive")
        .rolling_agg(on="at", column="px", window_size="1h", op="sum", out_name="sum_1h", by="sym")
        .rolling_agg(on="at", column=Tick.px, window_size=datetime.timedelta(hours=2), op="mean", out_name="mean_2h")
        .rolling_agg(on=Tick.seq, column="px", window_size=6, op="max", out_name="max_6", by=[Tick.sym])
        .rolling_agg(on="day", column="px", window_size="1d", op="min", out_name="min_1d", min_periods=2)
        .rolling_agg(on="at", column="px", window_size="3h", op="count", out_name="count_3h", by="sym")
        .rolling_agg(on="at", column="px", window_size="5h", op="sum", out_name="px", min_periods=3)  # replaces px
    )
    agrees(frame)
    assert frame.columns == [
        "at",
        "local",
        "day",
        "seq",
        "sym",
        "px",
        "max_90m_naive",
        "sum_1h",
        "mean_2h",
        "max_6",
        "min_1d",
        "count_3h",
    ]
    assert not frame.schema["count_3h"].nullable
    got = frame.sort("at", "seq", "day").to_dict()
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["at"], rows[i]["seq"], rows[i]["day"]))
    tied = {rows[i]["at"] for i in order if sum(r["at"] == rows[i]["at"] for r in rows) > 1}
    assert tied  # two rows at 00:07: each is in the other's window, whatever their order

    def expect(values: list[Any]) -> list[Any]:
        return [values[i] for i in order]

    assert got["max_90m_naive"] == expect(_rolled(rows, "at", 90 * 60_000_000, None, "max", 1))
    assert got["sum_1h"] == expect(_rolled(rows, "at", hour, "sym", "sum", 1))
    assert got["mean_2h"] == pytest.approx(expect(_rolled(rows, "at", 2 * hour, None, "mean", 1)))
    assert got["max_6"] == expect(_rolled(rows, "seq", 6, "sym", "max", 1))
    days = [dict(r, at=r["day"]) for r in rows]
    assert got["min_1d"] == expect(_rolled(days, "at", 1, None, "min", 2))
    assert got["count_3h"] == expect(_rolled(rows, "at", 3 * hour, "sym", "count", 1))
    assert got["px"] == expect(_rolled(rows, "at", 5 * hour, None, "sum", 3))
    assert None in got["sum_1h"]  # a window of NULLs: NULL for sum, 0 for count
    assert 0 in got["count_3h"]


@pytest.mark.jvm_free
def test_rolling_agg_refuses_what_it_cannot_window() -> None:
    ticks = Tick.from_rows([])
    args: dict[str, Any] = {"column": "px", "out_name": "r"}
    with pytest.raises(ColumnTypeError, match=r"on 'local' is nullable .* df.drop_nulls\(subset=\['local'\]\)"):
        ticks.rolling_agg(on="local", window_size="1h", op="sum", **args)
    with pytest.raises(
        ColumnTypeError, match="on 'px' is float .*; it must be a date, a datetime or an integer column"
    ):
        ticks.drop_nulls(subset=["px"]).rolling_agg(on="px", window_size=1, op="sum", **args)
    with pytest.raises(ArgumentTypeError, match="on 'seq' is int .*, so window_size is an int in its unit; got '1h'"):
        ticks.rolling_agg(on="seq", window_size="1h", op="sum", **args)
    with pytest.raises(ArgumentValueError, match="window_size must be positive, got 0"):
        ticks.rolling_agg(on="seq", window_size=0, op="sum", **args)
    with pytest.raises(ArgumentValueError, match="on 'day' is a date, so window_size must be whole days, got '36h'"):
        ticks.rolling_agg(on="day", window_size="36h", op="sum", **args)
    with pytest.raises(ArgumentTypeError, match="window_size must be a duration"):
        ticks.rolling_agg(on="at", window_size=3, op="sum", **args)
    with pytest.raises(ArgumentValueError, match="op='median' is not a rolling aggregate; use one of sum, mean"):
        ticks.rolling_agg(on="at", window_size="1h", op="median", **args)  # type: ignore[arg-type]
    with pytest.raises(
        ArgumentValueError, match="op='count' counts the non-NULL values .* min_periods=2 does not apply"
    ):
        ticks.rolling_agg(on="at", window_size="1h", op="count", min_periods=2, **args)
    with pytest.raises(ArgumentValueError, match="min_periods must be at least 1"):
        ticks.rolling_agg(on="at", window_size="1h", op="sum", min_periods=0, **args)
    with pytest.raises(UnknownColumnError, match=r"rolling_agg\(\): column"):
        ticks.rolling_agg(on="at", column="pxx", window_size="1h", op="sum", out_name="r")
    with pytest.raises(UnknownColumnError, match=r"rolling_agg\(\): by"):
        ticks.rolling_agg(on="at", window_size="1h", op="sum", by="symbol", **args)
    with pytest.raises(ColumnTypeError, match=r"F.sum\(\): col must be a number; got column 'sym'"):
        ticks.rolling_agg(on="at", column="sym", window_size="1h", op="sum", out_name="r")
    with pytest.raises(ArgumentTypeError, match="out_name"):
        ticks.rolling_agg(on="at", column="px", window_size="1h", op="sum", out_name=1)  # type: ignore[arg-type]


# --- struct helpers ----------------------------------------------------------------------------


class Point(BaseModel):
    x: int
    y: int | None
    tags: list[str]


class Shape(DataFrameModel):
    id: int
    at: Point | None
    p: Point


SHAPES: list[dict[str, Any]] = [
    {"id": 1, "at": None, "p": {"x": 1, "y": None, "tags": ["a"]}},
    {"id": 2, "at": {"x": 5, "y": 6, "tags": []}, "p": {"x": 2, "y": 3, "tags": ["b", "c"]}},
    {"id": 3, "at": {"x": 7, "y": None, "tags": ["q"]}, "p": {"x": 4, "y": 5, "tags": []}},
]


def test_struct_helpers_give_pysparks_values(spark: SparkSession, agrees: Any) -> None:
    frame = Shape.from_rows(SHAPES)
    ours = frame.select(
        "id",
        json=Shape.at.struct.json_encode(),
        json_p=Shape.p.struct.struct_json_encode(),
        x=Shape.at.struct.json_path_match("$.x"),
        tag=Shape.p.struct.struct_json_path_match("$.tags[1]"),
        renamed=Shape.at.struct.rename_fields(["u", "v", "w"]),
        renamed_p=Shape.p.struct.struct_rename_fields(["U", "V", "W"]),
        added=Shape.p.struct.with_fields(z=Shape.id, x=F.lit("s")),
        added_at=Shape.at.struct.struct_with_fields(Shape.id, y=Shape.at.struct.field("x") * 10),
    )
    agrees(ours)
    at, p = sf.col("at"), sf.col("p")
    plain = frame.to_spark().select(
        "id",
        sf.to_json(at).alias("json"),
        sf.to_json(p).alias("json_p"),
        sf.get_json_object(sf.to_json(at), "$.x").alias("x"),
        sf.get_json_object(sf.to_json(p), "$.tags[1]").alias("tag"),
        sf.when(at.isNotNull(), sf.struct(at.x.alias("u"), at.y.alias("v"), at.tags.alias("w"))).alias("renamed"),
        sf.struct(p.x.alias("U"), p.y.alias("V"), p.tags.alias("W")).alias("renamed_p"),
        p.withField("z", sf.col("id")).withField("x", sf.lit("s")).alias("added"),
        at.withField("id", sf.col("id")).withField("y", at.x * 10).alias("added_at"),
    )
    got = ours.sort("id").to_dict()
    rows = plain.orderBy("id").collect()
    for name in got:
        values = [row[name] for row in rows]
        assert got[name] == [v.asDict(recursive=True) if hasattr(v, "asDict") else v for v in values], name
    assert got["renamed"][1] == {"u": 5, "v": 6, "w": []}
    # Spark's own withField keeps the struct's declared nullability: so do these, on a nullable struct too
    added_at = plain.schema["added_at"].dataType
    assert [f.nullable for f in added_at.fields] == [f.nullable for f in ours.schema["added_at"].dtype.fields]  # type: ignore[attr-defined]
    assert not ours.schema["renamed"].dtype.fields[0].nullable  # type: ignore[attr-defined]


@pytest.mark.jvm_free
def test_struct_helpers_refuse_wrong_names_when_called() -> None:
    with pytest.raises(ColumnTypeError, match=r"has 3 field\(s\) \(x, y, tags\) but 2 new name\(s\) were given"):
        Shape.from_rows([]).select(Shape.at.struct.rename_fields(["a", "b"]))
    with pytest.raises(ColumnTypeError, match="two fields would be named 'a' and 'A'"):
        Shape.from_rows([]).select(Shape.at.struct.rename_fields(["a", "A", "b"]))
    with pytest.raises(ArgumentValueError, match="names must hold strings"):
        Shape.at.struct.rename_fields(["a", 1, "b"])
    with pytest.raises(ArgumentTypeError, match="names must be list or tuple"):
        Shape.at.struct.rename_fields("abc")  # type: ignore[arg-type]
    with pytest.raises(
        ColumnTypeError, match=r"with_fields\(\): expression on 'id' .* has no name; pass it by keyword"
    ):
        Shape.from_rows([]).select(Shape.p.struct.with_fields(Shape.id + 1))
    with pytest.raises(ColumnTypeError, match="new field 'X' differs from the field 'x' of .* only in case"):
        Shape.from_rows([]).select(Shape.p.struct.with_fields(X=Shape.id))
    with pytest.raises(ArgumentTypeError, match="needs at least one fields"):
        Shape.p.struct.with_fields()
    with pytest.raises(ColumnTypeError, match="col must be a struct"):
        Shape.from_rows([]).select(Shape.id.struct.with_fields(a=Shape.id))
    with pytest.raises(ArgumentValueError, match="path must be a JSONPath starting at the root, '\\$'"):
        Shape.at.struct.json_path_match("x")


# --- trusted rows ------------------------------------------------------------------------------


class Color(str, enum.Enum):
    RED = "red"


class Place(BaseModel):
    city: str
    zip: str | None = None


class Order(DataFrameModel):
    id: int = Field(ge=0)
    qty: int | None = None
    note: str | None
    color: Color
    tags: set[str]
    place: Place | None
    when: datetime.date


ORDERS: list[dict[str, Any]] = [
    {
        "id": 1,
        "qty": 3,
        "note": None,
        "color": Color.RED,
        "tags": {"x"},
        "place": {"city": "Oslo"},
        "when": datetime.date(2024, 1, 2),
    },
    {"id": 2, "note": "n", "color": Color.RED, "tags": set(), "place": None, "when": datetime.date(2024, 1, 3)},
]


@pytest.mark.jvm_free
def test_trusted_rows_give_the_table_validated_rows_give() -> None:
    from pydantable_spark.ingest import rows_to_arrow

    schema = Order.frame_schema()
    assert rows_to_arrow(ORDERS, Order, schema, trusted=True) == rows_to_arrow(ORDERS, Order, schema)
    instance = Order.model_validate(ORDERS[0])
    assert rows_to_arrow([instance], Order, schema, trusted=True) == rows_to_arrow([instance], Order, schema)
    columns = {name: [row.get(name) for row in ORDERS] for name in ("id", "note", "color", "tags", "place", "when")}
    assert Order.from_columns(columns, trusted=True).plan == Order.from_columns(columns).plan


@pytest.mark.jvm_free
def test_trusted_rows_still_refuse_wrong_shapes_and_types() -> None:
    def refused(change: dict[str, Any], match: str) -> None:
        with pytest.raises(RowValidationError, match=match):
            Order.from_rows([ORDERS[0], {**ORDERS[1], **change}], trusted=True)

    refused({"id": "2"}, r"row 1, field 'id': Input should be a valid integer \(got '2'\)")
    refused({"id": None}, "row 1, field 'id': Input should be a valid integer")
    refused({"color": "red"}, "row 1, field 'color': Input should be an instance of Color")
    refused({"when": datetime.datetime(2024, 1, 3, 5)}, "row 1, field 'when': Input should be a valid date")
    refused({"tags": ["x"]}, "row 1, field 'tags': Input should be a valid set")
    refused(
        {"place": {"city": "Oslo", "country": "NO"}}, "row 1, field 'place.country': Extra inputs are not permitted"
    )
    refused({"place": {"zip": "0150"}}, "row 1, field 'place.city': Field required")
    refused({"extra": 1}, "row 1, field 'extra': Extra inputs are not permitted")
    with pytest.raises(RowValidationError, match="row 0, field 'note': Field required"):
        Order.from_rows([{k: v for k, v in ORDERS[0].items() if k != "note"}], trusted=True)
    with pytest.raises(ArgumentTypeError, match="trusted"):
        Order.from_rows(ORDERS, trusted="yes")  # type: ignore[arg-type]


def test_trusted_rows_meet_their_constraints_when_collected(spark: SparkSession) -> None:
    frame = Order.from_rows([{**ORDERS[0], "id": -1}], trusted=True)  # Field(ge=0) is not checked on the way in
    with pytest.raises(RowValidationError, match="greater than or equal to 0"):
        frame.collect()
    assert frame.collect(trusted=True)[0].id == -1
    report = frame.validate()
    assert not report.ok
    assert "id" in str(report)


# --- missing Optional fields on ingest ---------------------------------------------------------


class Person(DataFrameModel):
    id: int
    age: int | None = None  # may be missing: NULL, as Pydantic fills it
    note: str | None  # Optional without a default: required, as Pydantic requires it
    home: Place | None


@pytest.mark.jvm_free
def test_a_missing_optional_field_is_null_only_with_the_default_none() -> None:
    rows = Person.from_rows([{"id": 1, "note": None, "home": {"city": "Oslo"}}]).plan.data.table  # type: ignore[attr-defined]
    assert rows.to_pylist() == [{"id": 1, "age": None, "note": None, "home": {"city": "Oslo", "zip": None}}]
    with pytest.raises(RowValidationError, match="row 0, field 'note': Field required"):
        Person.from_rows([{"id": 1, "home": None}])
    table = pa.table({"id": [1, 2], "note": ["a", None], "home": pa.array([None, {"city": "x", "zip": None}])})
    arrow = Person.from_arrow(table).plan.data.table  # type: ignore[attr-defined]
    assert arrow.column("age").to_pylist() == [None, None]
    assert arrow.column("home").to_pylist() == [None, {"city": "x", "zip": None}]  # a NULL struct, a non-null city
    with pytest.raises(MissingColumnError, match="note: missing from the source"):
        Person.from_arrow(table.drop_columns(["note"]))
    with pytest.raises(MissingColumnError, match="home.city: missing"):
        Person.from_arrow(table.set_column(2, "home", pa.array([None, {"zip": "1"}])))


def test_frames_of_arrow_with_missing_and_null_structs_collect(spark: SparkSession, agrees: Any) -> None:
    table = pa.table({"id": [1, 2], "note": ["a", None], "home": pa.array([None, {"city": "x", "zip": None}])})
    frame = Person.from_pandas(table.to_pandas())
    agrees(frame)
    assert [p.model_dump() for p in frame.sort("id").collect()] == [
        {"id": 1, "age": None, "note": "a", "home": None},
        {"id": 2, "age": None, "note": None, "home": {"city": "x", "zip": None}},
    ]
