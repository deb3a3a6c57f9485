"""Logical types → Arrow types, matching what Spark's ``toArrow`` produces.

Spark sends timestamps as ``timestamp[us, tz=UTC]``, ``timestamp_ntz`` as
``timestamp[us]`` and intervals as ``duration[us]``; nullability flags follow
the schema, nested ones included. A VARIANT column crosses as its JSON text
(``string``): the lowering writes ``to_json`` on the way out and ``parse_json``
on the way in (PySpark's own Arrow form of a VARIANT, a struct of two binaries,
cannot hold a NULL variant in Spark 4.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from pydantable_spark.schema import Schema

__all__ = ["arrow_field", "arrow_schema", "arrow_type", "needs_relaxing", "without_empty_batches"]

_ATOMIC: dict[type[dt.DType], pa.DataType] = {
    dt.Boolean: pa.bool_(),
    dt.Int8: pa.int8(),
    dt.Int16: pa.int16(),
    dt.Int32: pa.int32(),
    dt.Int64: pa.int64(),
    dt.Float32: pa.float32(),
    dt.Float64: pa.float64(),
    dt.String: pa.string(),
    dt.Binary: pa.binary(),
    dt.Date: pa.date32(),
    dt.Datetime: pa.timestamp("us", tz="UTC"),
    dt.DatetimeNTZ: pa.timestamp("us"),
    dt.Duration: pa.duration("us"),
    dt.Variant: pa.string(),  # its JSON text
}


def arrow_type(dtype: dt.DType) -> pa.DataType:
    """The Arrow type Spark uses for ``dtype``.

    >>> arrow_type(dt.List(dt.Int64(), False))
    ListType(list<element: int64 not null>)
    """
    if type(dtype) in _ATOMIC:
        return _ATOMIC[type(dtype)]
    if isinstance(dtype, dt.Decimal):
        return pa.decimal128(dtype.precision, dtype.scale)
    if isinstance(dtype, dt.List):
        return pa.list_(pa.field("element", arrow_type(dtype.inner), dtype.contains_null))
    if isinstance(dtype, dt.Map):
        value = pa.field("value", arrow_type(dtype.value), dtype.value_contains_null)
        key = pa.field("key", arrow_type(dtype.key), False)
        return pa.map_(key, value)  # type: ignore[call-overload,no-any-return]  # the stubs miss the Field form
    if isinstance(dtype, dt.Struct):
        return pa.struct([arrow_field(f) for f in dtype.fields])
    msg = f"no Arrow type for {dtype}"  # pragma: no cover - every DType is handled above
    raise TypeError(msg)


def arrow_field(f: dt.Field) -> pa.Field[pa.DataType]:
    """The Arrow field for a column, nullability included."""
    return pa.field(f.name, arrow_type(f.dtype), f.nullable)


def arrow_schema(schema: Schema) -> pa.Schema:
    """The Arrow schema of a frame schema."""
    return pa.schema([arrow_field(f) for f in schema.fields])


def needs_relaxing(dtype: dt.DType, nullable: bool) -> bool:
    """Whether a column holds a struct that can be NULL yet has non-null fields.

    Arrow cannot hold such a column when a struct value is NULL (its fields'
    slots are NULL too), and PySpark's ``toArrow()`` fails on it; such columns
    are fetched with their nested fields marked nullable instead.
    """
    if isinstance(dtype, dt.Struct):
        if nullable and any(not f.nullable for f in dtype.fields):
            return True
        return any(needs_relaxing(f.dtype, f.nullable) for f in dtype.fields)
    if isinstance(dtype, dt.List):
        return needs_relaxing(dtype.inner, dtype.contains_null)
    if isinstance(dtype, dt.Map):
        return needs_relaxing(dtype.value, dtype.value_contains_null)
    return False


def without_empty_batches(table: pa.Table) -> pa.Table:
    """``table`` with its empty record batches left out (the same rows, in the same order).

    PySpark's ``createDataFrame`` of an Arrow table stops reading at the first
    empty record batch: ``pa.chunked_array([[1, 2], [], [3, 4]])`` would reach
    Spark as ``[1, 2]``. Every table goes through here before Spark sees it.

    >>> chunks = pa.chunked_array([[1, 2], [], [3]])
    >>> [len(b) for b in without_empty_batches(pa.table({"x": chunks})).to_batches()]
    [2, 1]
    """
    batches = table.to_batches()
    if all(batch.num_rows for batch in batches):
        return table
    return pa.Table.from_batches([batch for batch in batches if batch.num_rows], schema=table.schema)
