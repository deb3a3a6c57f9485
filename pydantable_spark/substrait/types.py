"""The façade's column types as Substrait types, nullability included.

Every Substrait type carries its own nullability, so a field's ``nullable``
and a list's ``contains_null`` become the element types' nullability. Spark's
timestamps are microseconds: ``Datetime`` (Spark's ``TIMESTAMP``, an instant)
is ``precision_timestamp_tz<6>`` and ``DatetimeNTZ`` is ``precision_timestamp<6>``.

```pycon
>>> from pydantable_spark import dtypes as dt
>>> substrait_type(dt.Int32(), nullable=False).WhichOneof("kind")
'i32'
>>> substrait_type(dt.List(dt.String(), True), nullable=False).list.type.string.nullability == NULLABLE
True

```
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from substrait import type_pb2 as st

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError

if TYPE_CHECKING:
    from pydantable_spark.schema import Schema

__all__ = ["NULLABLE", "REQUIRED", "named_struct", "names_of", "nullability", "substrait_type"]

NULLABLE = st.Type.Nullability.NULLABILITY_NULLABLE
REQUIRED = st.Type.Nullability.NULLABILITY_REQUIRED

_ATOMIC: dict[type[dt.DType], str] = {
    dt.Boolean: "bool",
    dt.Int8: "i8",
    dt.Int16: "i16",
    dt.Int32: "i32",
    dt.Int64: "i64",
    dt.Float32: "fp32",
    dt.Float64: "fp64",
    dt.String: "string",
    dt.Binary: "binary",
    dt.Date: "date",
}
"""Types whose Substrait message has no parameter but the nullability."""

MICROSECONDS = 6
"""Spark's temporal precision, as Substrait counts it (digits after the second)."""


def nullability(nullable: bool) -> st.Type.Nullability.ValueType:
    """Substrait's nullability enum for a flag."""
    return NULLABLE if nullable else REQUIRED


def substrait_type(dtype: dt.DType, *, nullable: bool) -> st.Type:
    """``dtype`` as a Substrait ``Type``; a type Substrait cannot say raises ``UnsupportedEngineError``."""
    n = nullability(nullable)
    kind = _ATOMIC.get(type(dtype))
    if kind is not None:
        made = st.Type()
        getattr(made, kind).nullability = n
        return made
    if isinstance(dtype, dt.Decimal):
        return st.Type(decimal=st.Type.Decimal(precision=dtype.precision, scale=dtype.scale, nullability=n))
    if isinstance(dtype, dt.Datetime):
        timestamp = st.Type.PrecisionTimestampTZ(precision=MICROSECONDS, nullability=n)
        return st.Type(precision_timestamp_tz=timestamp)
    if isinstance(dtype, dt.DatetimeNTZ):
        return st.Type(precision_timestamp=st.Type.PrecisionTimestamp(precision=MICROSECONDS, nullability=n))
    if isinstance(dtype, dt.Duration):
        return st.Type(interval_day=st.Type.IntervalDay(precision=MICROSECONDS, nullability=n))
    if isinstance(dtype, dt.List):
        inner = substrait_type(dtype.inner, nullable=dtype.contains_null)
        return st.Type(list=st.Type.List(type=inner, nullability=n))
    if isinstance(dtype, dt.Map):
        key = substrait_type(dtype.key, nullable=False)
        value = substrait_type(dtype.value, nullable=dtype.value_contains_null)
        return st.Type(map=st.Type.Map(key=key, value=value, nullability=n))
    if isinstance(dtype, dt.Struct):
        fields = [substrait_type(f.dtype, nullable=f.nullable) for f in dtype.fields]
        return st.Type(struct=st.Type.Struct(types=fields, nullability=n))
    msg = f"Substrait has no type for {dtype.sql_name or type(dtype).__name__} (a Spark-only type); export refused"
    raise UnsupportedEngineError(msg)


def _names(dtype: dt.DType) -> list[str]:
    """The nested field names below a type, depth first, as a ``NamedStruct`` lists them."""
    if isinstance(dtype, dt.Struct):
        names = []
        for f in dtype.fields:
            names.append(f.name)
            names += _names(f.dtype)
        return names
    if isinstance(dtype, dt.List):
        return _names(dtype.inner)
    if isinstance(dtype, dt.Map):
        return _names(dtype.key) + _names(dtype.value)
    return []


def names_of(schema: Schema) -> list[str]:
    """Every column name and nested field name of a schema, depth first (Substrait's flattened names)."""
    names = []
    for f in schema:
        names.append(f.name)
        names += _names(f.dtype)
    return names


def named_struct(schema: Schema) -> st.NamedStruct:
    """A schema as Substrait's ``NamedStruct``: the flattened names and one struct of the column types."""
    types = [substrait_type(f.dtype, nullable=f.nullable) for f in schema]
    return st.NamedStruct(names=names_of(schema), struct=st.Type.Struct(types=types, nullability=REQUIRED))
