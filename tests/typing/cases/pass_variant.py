"""VARIANT columns, time-window keys and columns of unknown type: what mypy must accept, and the types it gives."""

from __future__ import annotations

import datetime
from typing import Any

from typing_extensions import assert_type

from pydantable_spark import DataFrame, DataFrameModel, Expr, F, Variant


class Device(DataFrameModel):
    id: int
    at: datetime.datetime
    local: datetime.date
    payload: Variant
    extra: Variant | None


devices = Device.from_rows([])

# a VARIANT column passes through the frame's methods, and is read with variant_get
assert_type(devices.filter(Device.id > 1), DataFrame[Device])
kept = devices.select("id", "payload", Device.extra).filter(~F.is_variant_null(Device.payload))
assert_type(kept.collect()[0].id, int)
assert_type(F.variant_get(Device.payload, "$.a", "int"), Expr[int | None])
assert_type(F.try_variant_get(Device.extra, "$.b[0]", "double"), Expr[float | None])
assert_type(F.variant_get(Device.payload, "$['k']", "string"), Expr[str | None])
assert_type(F.variant_get(Device.payload, "$", "decimal(10,2)").cast(float), Expr[float | None])
read = devices.with_columns(a=F.variant_get(Device.payload, "$.a", "bigint"), b=F.parse_json(F.lit("{}")))
assert_type(read.collect()[0].a, int | None)
grouped = read.group_by(F.variant_get(Device.payload, "$.kind", "string").alias("kind")).agg(n=F.count())
assert_type(grouped.collect()[0].kind, str)  # NULL keys are left out (drop_nulls)
devices.sort(F.variant_get(Device.payload, "$.a", "int")).unique(subset=["id"])
devices.join(devices.select("id", F.variant_get(Device.payload, "$.a", "int").alias("a")), on="id")
devices.filter(Device.payload.is_not_null() & Device.extra.is_null())


def by_name(type_name: str) -> None:
    assert_type(F.variant_get(Device.payload, "$.a", type_name), Expr[Any])  # the type name is not known


# the window key: struct<start, end> of the time column's type
windowed = devices.group_by(F.window(Device.at, "1 hour")).agg(n=F.count())
row = windowed.collect()[0]
assert_type(row.window.start, datetime.datetime | None)
assert_type(row.window.end, datetime.datetime | None)
assert_type(row.n, int)
windowed.select(F.col("window").struct.field("start"), F.col("window").struct.field("end").alias("e"))
windowed.sort(F.col("window").struct.field("start")).select("n")
sliding = devices.group_by(F.window(Device.at, "1 hour", "30 minutes")).agg(n=F.count())
slide = sliding.collect()[0].window
if slide is not None:
    assert_type(slide.start, datetime.datetime | None)
sessions = devices.group_by(F.session_window(Device.local, "1 day")).agg(n=F.count())
assert_type(sessions.collect()[0].session_window.start, datetime.datetime | None)


# a column of unknown type stays in the frame (as Any) and does not disturb the checks of the others
def untyped(e: Expr[Any]) -> None:
    framed = devices.with_columns(e.alias("y"))
    assert_type(framed.collect()[0].y, Any)
    assert_type(framed.filter(F.col("y") > 1).collect()[0].y, Any)
    assert_type(framed.sort("y").collect()[0].id, int)
    assert_type(framed.with_columns(z=F.col("y") * 2).collect()[0].y, Any)
    assert_type(framed.select("id").collect()[0].id, int)
    framed.group_by("y").agg(n=F.count(), top=F.max(F.col("y")))
    framed.select(F.col("y").str.upper(), F.col("y").dt.hour().alias("h"), F.col("y").struct.field("a"))
    framed.join(framed.select("id", "y"), on="y", how="left")
    framed.drop("payload", "extra").unique().drop("y").filter(F.col("id") > 0)
