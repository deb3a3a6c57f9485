"""VARIANT columns, time-window keys and columns of unknown type: what mypy must report (messages after "# E:").

A frame with one column mypy cannot type (``Any``) is still checked for every
other column; a VARIANT is a type of its own, refused where the runtime refuses
it; a window key is ``struct<start, end>``.
"""

from __future__ import annotations

import datetime
from typing import Any

from pydantable_spark import DataFrameModel, Expr, F, Variant


class Device(DataFrameModel):
    id: int
    at: datetime.datetime
    payload: Variant
    extra: Variant | None


class Reading(DataFrameModel):
    device_id: int
    payload: Variant


devices = Device.from_rows([])
readings = Reading.from_rows([])

# a frame with a VARIANT column is checked like any other
devices.select(F.col("nope"))  # E: select(): unknown column 'nope' in the frame; existing columns: id, at, payload
devices.filter(F.col("idd") > 1)  # E: filter(): unknown column 'idd'
devices.with_columns(n=F.col("id").str.upper())  # E: str.upper(): col must be a string

# the runtime's refusals of a VARIANT
devices.group_by("payload").agg(n=F.count())  # E: cannot group by column 'payload' of type Variant (variant)
devices.group_by(Device.extra).count()  # E: count(): cannot group by column 'Device.extra' of type Variant | None
devices.sort(Device.payload)  # E: sort(): cannot sort by column 'Device.payload' of type Variant (variant)
devices.sort("extra", descending=True)  # E: cannot sort by column 'extra' of type Variant
devices.unique()  # E: unique() cannot compare VARIANT columns (payload, extra)
devices.unique(subset=["id", "payload"])  # E: VARIANT is not comparable
devices.join(readings, on="payload")  # E: join keys cannot be compared: column 'payload' of type Variant
devices.filter(Device.payload < 1)  # E: Unsupported operand types for < ("Col[Any]" and "int")
devices.filter(Device.payload == 1)  # E: Argument 1 to "filter" of "DataFrame" has incompatible type "bool"
Device.payload.struct.field("a")  # E: struct.field(): col must be a struct; got column 'Device.payload' of type Variant
Device.payload.str.upper()  # E: str.upper(): col must be a string; got column 'Device.payload' of type Variant
devices.select(F.col("payload").struct.field("a"))  # E: struct.field(): col must be a struct; got column 'payload'

# variant_get / try_variant_get: the path and the type name checked, the result typed by the type name
F.variant_get(Device.payload, "a.b", "int")  # E: F.variant_get(): path must be a VARIANT path
F.try_variant_get(Device.payload, "$.a", "integr")  # E: F.try_variant_get(): targetType must name a type
n: Expr[int] = F.variant_get(Device.payload, "$.n", "int")  # E: Incompatible types in assignment
devices.select(F.variant_get(Device.payload, "$.n", "int").str.upper())  # E: str.upper(): col must be a string

# the window key is struct<start, end> of the time column's type
windowed = devices.group_by(F.window(Device.at, "1 hour")).agg(n=F.count())
windowed.collect()[0].window.begin  # E: has no attribute "begin"
windowed.select(F.col("window").struct.field("begin"))  # E: unknown column 'begin' in column 'window'
windowed.sort("window.start")  # E: sort(): unknown column 'window.start' in the frame
windowed.select(F.col("window").dt.hour())  # E: dt.hour(): col must be a date or datetime; got column 'window'
windowed.select(F.col("nope"))  # E: select(): unknown column 'nope' in the frame; existing columns: window, n
sessions = devices.group_by(F.session_window(Device.at, "30 minutes")).agg(n=F.count())
sessions.collect()[0].session_window.stop  # E: has no attribute "stop"
sliding = devices.group_by(F.window(Device.at, "1 hour", "30 minutes")).agg(n=F.count())
sliding.collect()[0].window.start  # E: Item "None" of "Row[start: datetime | None, end: datetime | None] | None"


# a column of unknown type: what reads it is unchecked, everything else is checked
def untyped(e: Expr[Any]) -> None:
    framed = devices.with_columns(e.alias("y"))
    framed.select(F.col("nope"))  # E: select(): unknown column 'nope' in the frame; existing columns: id, at
    framed.filter(F.col("y") > 1, F.col("idd") > 1)  # E: filter(): unknown column 'idd'
    framed.select("y", F.col("id").str.upper())  # E: str.upper(): col must be a string
    framed.sort("y").select(F.col("nope"))  # E: select(): unknown column 'nope'
    framed.group_by("y").agg(n=F.sum(F.col("y")), m=F.max(F.col("nope")))  # E: agg(): unknown column 'nope'
    framed.with_columns(z=F.col("y") + F.col("nope"))  # E: with_columns(): unknown column 'nope'
