"""Logical types ↔ Spark ``DataType`` objects (docs/types.md, both directions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyspark.sql import types as st

from pydantable_spark import dtypes as dt
from pydantable_spark.arrow import needs_relaxing
from pydantable_spark.errors import UnsupportedTypeError

if TYPE_CHECKING:
    from pydantable_spark.schema import Schema

__all__ = ["comments_of_struct", "dtype_of_spark", "fields_of_struct", "spark_type", "struct_of"]

_ATOMIC: dict[type[dt.DType], st.DataType] = {
    dt.Boolean: st.BooleanType(),
    dt.Int8: st.ByteType(),
    dt.Int16: st.ShortType(),
    dt.Int32: st.IntegerType(),
    dt.Int64: st.LongType(),
    dt.Float32: st.FloatType(),
    dt.Float64: st.DoubleType(),
    dt.String: st.StringType(),
    dt.Binary: st.BinaryType(),
    dt.Date: st.DateType(),
    dt.Datetime: st.TimestampType(),
    dt.DatetimeNTZ: st.TimestampNTZType(),
    dt.Duration: st.DayTimeIntervalType(st.DayTimeIntervalType.DAY, st.DayTimeIntervalType.SECOND),
    dt.Variant: st.VariantType(),
}
_FROM_SPARK: dict[type[st.DataType], dt.DType] = {type(v): k() for k, v in _ATOMIC.items() if k is not dt.Duration}


def spark_type(dtype: dt.DType, *, loose: bool = False) -> st.DataType:
    """Spark's type for a logical type; ``loose`` marks everything nested in it nullable."""
    if type(dtype) in _ATOMIC:
        return _ATOMIC[type(dtype)]
    if isinstance(dtype, dt.Decimal):
        return st.DecimalType(dtype.precision, dtype.scale)
    if isinstance(dtype, dt.List):
        return st.ArrayType(spark_type(dtype.inner, loose=loose), dtype.contains_null or loose)
    if isinstance(dtype, dt.Map):
        value = spark_type(dtype.value, loose=loose)
        return st.MapType(spark_type(dtype.key), value, dtype.value_contains_null or loose)
    if isinstance(dtype, dt.Struct):
        return st.StructType([_spark_field(f, loose=loose) for f in dtype.fields])
    msg = f"no Spark type for {dtype}"  # pragma: no cover - every DType is handled above
    raise TypeError(msg)


def _spark_field(f: dt.Field, *, loose: bool = False) -> st.StructField:
    return st.StructField(f.name, spark_type(f.dtype, loose=loose), f.nullable or loose)


def struct_of(schema: Schema, *, relaxed: bool = False) -> st.StructType:
    """Spark's ``StructType`` for a frame schema.

    ``relaxed`` marks the nested fields, elements and values of the columns
    that ``arrow.needs_relaxing`` names nullable (what ``toArrow()`` can hold).
    """
    fields = []
    for f in schema.fields:
        loose = relaxed and needs_relaxing(f.dtype, f.nullable)
        fields.append(st.StructField(f.name, spark_type(f.dtype, loose=loose), f.nullable))
    return st.StructType(fields)


def dtype_of_spark(spark: st.DataType, path: str) -> dt.DType:
    """The logical type of a Spark type; ``UnsupportedTypeError`` names ``path`` otherwise."""
    found = _FROM_SPARK.get(type(spark))
    if found is not None:
        return found
    if isinstance(spark, st.CharType | st.VarcharType):
        return dt.String()
    if isinstance(spark, st.DecimalType):
        return dt.Decimal(spark.precision, spark.scale)
    if isinstance(spark, st.DayTimeIntervalType):
        if (spark.startField, spark.endField) == (st.DayTimeIntervalType.DAY, st.DayTimeIntervalType.SECOND):
            return dt.Duration()
    elif isinstance(spark, st.ArrayType):
        return dt.List(dtype_of_spark(spark.elementType, f"{path}[]"), spark.containsNull)
    elif isinstance(spark, st.MapType):
        key = dtype_of_spark(spark.keyType, f"{path}{{key}}")
        if not isinstance(key, dt.String):
            raise UnsupportedTypeError.of_map_key(path, spark.keyType.simpleString())
        value = dtype_of_spark(spark.valueType, f"{path}{{value}}")
        return dt.Map(key, value, spark.valueContainsNull)
    elif isinstance(spark, st.StructType):
        return dt.Struct(fields_of_struct(spark, prefix=f"{path}."))
    raise UnsupportedTypeError.of_spark(path, spark.simpleString())


def comments_of_struct(struct: st.StructType, path: tuple[str, ...] = ()) -> dict[str | tuple[str, ...], str]:
    """The column comments of a Spark schema (``StructField.metadata["comment"]``) by exact path.

    A path is the tuple of names from the top-level column down (``("ship",
    "city")``; lists and maps add none), as ``modelgen.model_source`` takes it:
    a name may hold any text, ``.`` too.
    """
    out: dict[str | tuple[str, ...], str] = {}
    for f in struct.fields:
        where = (*path, f.name)
        comment = (f.metadata or {}).get("comment")
        if isinstance(comment, str) and comment:
            out[where] = comment
        inner = f.dataType
        while isinstance(inner, st.ArrayType | st.MapType):
            inner = inner.elementType if isinstance(inner, st.ArrayType) else inner.valueType
        if isinstance(inner, st.StructType):
            out.update(comments_of_struct(inner, where))
    return out


def fields_of_struct(struct: st.StructType, *, prefix: str = "") -> tuple[dt.Field, ...]:
    """The logical fields of a Spark ``StructType`` (names may repeat; ``Schema`` checks that)."""
    return tuple(dt.Field(f.name, dtype_of_spark(f.dataType, prefix + f.name), f.nullable) for f in struct.fields)
