"""Exact comparison of a frame's rows on Spark and on the local engine, for the kernel tests.

Floats are compared by their bits (``-0.0`` is not ``0.0``; every NaN is one NaN), dates by their days
(Spark's ``date_add`` reaches past year 9999, which Python's ``date`` cannot hold), the rest by value.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any

import pyarrow as pa

if TYPE_CHECKING:
    from pydantable_spark import DataFrame


def _exact(value: Any) -> Any:
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else struct.pack("<d", value).hex()
    if isinstance(value, list):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    return value


def _values(column: pa.ChunkedArray) -> list[Any]:
    if pa.types.is_date32(column.type):
        column = column.cast(pa.int32())
    return [_exact(v) for v in column.to_pylist()]


def differences(frame: DataFrame[Any]) -> list[str]:
    """Every value (by column and row) where the local engine's result is not Spark's, exactly."""
    theirs, mine = frame.to_arrow(), frame.to_arrow(engine="local")
    if mine.schema != theirs.schema:
        return [f"schema: local {mine.schema} vs Spark {theirs.schema}"]
    found = []
    for name in theirs.column_names:
        for row, (a, b) in enumerate(zip(_values(mine.column(name)), _values(theirs.column(name)), strict=True)):
            if a != b:
                found.append(f"{name}[{row}]: local {mine.column(name)[row]} vs Spark {theirs.column(name)[row]}")
    return found
