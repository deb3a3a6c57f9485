"""Parquet types as Spark's reader sees them, for the local read of Parquet files (``substrait.files``).

Spark types a Parquet column by its physical type and logical annotation
(``ParquetToSparkSchemaConverter``), not by the Arrow schema pyarrow keeps in a
file's metadata: an unsigned ``INT32 (UINT_8)`` is a ``smallint``, ``UINT_64``
a ``decimal(20,0)``, ``INT96`` a ``timestamp``, an unannotated ``INT64`` a
``bigint`` even where pyarrow reads a duration, a dictionary-encoded column its
values' type. ``file_fields`` types each column of one file so; ``merge``
merges the files' schemas as Spark's ``StructType.merge`` does (names matched
ignoring case, at every depth; decimals of one scale widen to the larger
precision; other differences are an error); ``conform`` turns the arrays pyarrow
reads into the Arrow form of those types. A type Spark refuses is refused with
Spark's reason; one Spark reads but the local read does not reproduce is an
``UnsupportedEngineError`` naming the column.

>>> import pyarrow as pa
>>> conform(pa.array([255, None], pa.uint8()), dt.Int16(), "n").to_pylist()
[255, None]
>>> conform(pa.array(["a", "b", "a"]).dictionary_encode(), dt.String(), "s").type
DataType(string)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pydantable_spark import dtypes as dt
from pydantable_spark.arrow import arrow_type
from pydantable_spark.errors import SparkJobError, UnsupportedEngineError, UnsupportedTypeError

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    import pyarrow.parquet as pq

__all__ = [
    "FileField",
    "MergeError",
    "check_mapped",
    "conform",
    "empty_column",
    "file_fields",
    "merge",
    "nullable",
    "spark_sql",
]

_MAX_DIGITS = {"INT32": 9, "INT64": 18}
"""The most digits Spark takes in a decimal of each physical type (``Decimal.MAX_INT_DIGITS``...)."""

_MAX_PRECISION = 38

_ILLEGAL, _CONVERSION, _PRECISION = (
    "PARQUET_TYPE_ILLEGAL",
    "PARQUET_CONVERSION_FAILURE",
    "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
)
_TIME, _TIME_TEXT = "UNSUPPORTED_TIME_TYPE", "The data type TIME is not supported"
"""Spark's error classes and messages for the Parquet types it refuses."""


@dataclass(frozen=True, slots=True)
class FileField:
    """A column of a file as Spark types it, with the nullability its footer declares (before ``asNullable``)."""

    name: str
    dtype: dt.DType
    nullable: bool


class _Refused(Exception):
    """A Parquet leaf Spark's reader refuses: its error class and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")


def file_fields(parquet: pq.ParquetFile, file: str, label: str) -> list[FileField]:
    """The columns of one Parquet file, typed as Spark's reader types them."""
    leaves = iter(parquet.schema.column(i) for i in range(len(parquet.schema)))
    fields = []
    for arrow in parquet.schema_arrow:
        try:
            dtype = _typed(arrow.type, leaves, arrow.name)
        except _Refused as refused:
            msg = f"Spark's Parquet reader refuses column {arrow.name!r} of {file}: {refused}"
            raise SparkJobError(label, msg) from None
        fields.append(FileField(arrow.name, dtype, arrow.nullable))
    return fields


def _typed(arrow: pa.DataType, leaves: Iterator[Any], path: str) -> dt.DType:
    """The Spark type of the column whose Arrow form is ``arrow``, its leaves read from ``leaves`` in order."""
    if isinstance(arrow, pa.StructType):
        fields = tuple(
            dt.Field(f.name, _typed(f.type, leaves, f"{path}.{f.name}"), f.nullable)
            for f in (arrow.field(i) for i in range(arrow.num_fields))
        )
        _no_case_twins([f.name for f in fields], path)
        return dt.Struct(fields)
    if isinstance(arrow, pa.MapType):
        key = _typed(arrow.key_type, leaves, f"{path}{{key}}")
        return dt.Map(key, _typed(arrow.item_type, leaves, f"{path}{{value}}"), arrow.item_field.nullable)
    if isinstance(arrow, pa.ListType | pa.LargeListType | pa.FixedSizeListType | pa.ListViewType):
        element = arrow.value_field
        return dt.List(_typed(element.type, leaves, f"{path}[]"), element.nullable)
    return _leaf(next(leaves), path)


def _no_case_twins(names: Sequence[str], path: str) -> None:
    folded = [name.lower() for name in names]
    twins = sorted({name for name in names if folded.count(name.lower()) > 1})
    if twins:
        msg = (
            f"the local read does not take struct {path!r}: its fields {', '.join(map(repr, twins))} differ only "
            "in case, which Spark's reader matches ignoring case; rename them, or read the file on Spark"
        )
        raise UnsupportedEngineError(msg)


def _leaf(column: Any, path: str) -> dt.DType:
    """Spark's type for a Parquet leaf (``ParquetToSparkSchemaConverter.convertPrimitiveField``)."""
    physical: str = column.physical_type
    logical = json.loads(column.logical_type.to_json())
    kind = logical.get("Type", "None")
    shown = f"{physical}" if kind == "None" else f"{physical} ({_annotation(logical)})"
    if physical == "BOOLEAN" and kind == "None":
        return dt.Boolean()
    if physical in ("FLOAT", "DOUBLE") and kind == "None":
        return dt.Float32() if physical == "FLOAT" else dt.Float64()
    if physical == "INT96" and kind == "None":
        return dt.Datetime()
    if physical in ("INT32", "INT64"):
        return _integer(physical, logical, shown, path)
    if physical in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        if kind in ("String", "Enum", "JSON") and physical == "BYTE_ARRAY":
            return dt.String()
        if kind == "None" or (kind == "BSON" and physical == "BYTE_ARRAY"):
            return dt.Binary()
        if kind == "Decimal":
            return _decimal(column, physical)
    raise _Refused(_ILLEGAL, f"Illegal Parquet type: {shown}")


def _integer(physical: str, logical: dict[str, Any], shown: str, path: str) -> dt.DType:
    kind = logical.get("Type", "None")
    if kind == "None":
        return dt.Int32() if physical == "INT32" else dt.Int64()
    if kind == "Int":
        width, signed = logical["bitWidth"], logical["isSigned"]
        widths: dict[tuple[int, bool], dt.DType] = {
            (8, True): dt.Int8(),
            (16, True): dt.Int16(),
            (32, True): dt.Int32(),
            (64, True): dt.Int64(),
            (8, False): dt.Int16(),
            (16, False): dt.Int32(),
            (32, False): dt.Int64(),
            (64, False): dt.Decimal(20, 0),
        }
        if (width > 32) == (physical == "INT64") and (width, signed) in widths:
            return widths[width, signed]
    if kind == "Date" and physical == "INT32":
        return dt.Date()
    if kind == "Decimal":
        precision, scale = logical["precision"], logical["scale"]
        if not 1 <= precision <= _MAX_DIGITS[physical]:
            digits = _MAX_DIGITS[physical]
            msg = f"Invalid decimal precision: {physical} cannot store {precision} digits (max {digits})"
            raise _Refused(_CONVERSION, msg)
        return dt.Decimal(precision, scale)
    if kind == "Timestamp" and physical == "INT64":
        unit = logical["timeUnit"]
        if unit in ("milliseconds", "microseconds"):
            return dt.Datetime() if logical["isAdjustedToUTC"] else dt.DatetimeNTZ()
    if kind == "Time" and physical == "INT64" and logical["timeUnit"] == "microseconds":
        raise _Refused(_TIME, _TIME_TEXT)
    if kind == "Null" and physical == "INT32":
        msg = (
            f"the local read does not take column {path!r}: it holds only NULLs (Parquet's Null annotation), "
            "which Spark reads as int; write it with a type, or read the file on Spark"
        )
        raise UnsupportedEngineError(msg)
    raise _Refused(_ILLEGAL, f"Illegal Parquet type: {shown}")


def _decimal(column: Any, physical: str) -> dt.DType:
    precision, scale = column.precision, column.scale
    if physical == "FIXED_LEN_BYTE_ARRAY":
        most = _max_precision_for_bytes(column.length)
        if not 1 <= precision <= most:
            msg = f"Invalid decimal precision: {physical} cannot store {precision} digits (max {most})"
            raise _Refused(_CONVERSION, msg)
    if precision > _MAX_PRECISION:
        msg = f"Decimal precision {precision} exceeds max precision 38"
        raise _Refused(_PRECISION, msg)
    return dt.Decimal(precision, scale)


def _max_precision_for_bytes(length: int) -> int:
    """The most decimal digits a signed integer of ``length`` bytes holds (Spark's ``Decimal.maxPrecisionForBytes``)."""
    digits = 0
    largest = 2 ** (8 * length - 1) - 1
    while 10 ** (digits + 1) <= largest:
        digits += 1
    return digits


def _annotation(logical: dict[str, Any]) -> str:
    """A logical annotation as parquet-mr prints it in Spark's errors (``TIMESTAMP(NANOS,true)``, ``UUID``)."""
    kind = logical["Type"]
    units = {"milliseconds": "MILLIS", "microseconds": "MICROS", "nanoseconds": "NANOS"}
    if kind in ("Timestamp", "Time"):
        return f"{kind.upper()}({units[logical['timeUnit']]},{str(logical['isAdjustedToUTC']).lower()})"
    if kind == "Int":
        return f"INTEGER({logical['bitWidth']},{str(logical['isSigned']).lower()})"
    if kind == "Decimal":
        return f"DECIMAL({logical['precision']},{logical['scale']})"
    return str(kind).upper()


# --- merging the files' schemas -------------------------------------------------------------------------------


class MergeError(Exception):
    """Two files' schemas that Spark cannot merge: the schema merged so far and the one that does not fit."""

    def __init__(self, merged: Sequence[FileField], other: Sequence[FileField]) -> None:
        super().__init__("the files' schemas do not merge")
        self.merged = list(merged)
        self.other = list(other)


def merge(schemas: Sequence[Sequence[FileField]]) -> list[FileField]:
    """The files' schemas merged in order, as Spark's ``StructType.merge`` (ignoring case) merges them."""
    merged = list(schemas[0])
    for other in schemas[1:]:
        try:
            merged = _merge_fields(merged, other)
        except _Clash:
            raise MergeError(merged, other) from None
    return merged


class _Clash(Exception):
    pass


def _merge_fields(left: Sequence[FileField], right: Sequence[FileField]) -> list[FileField]:
    by_name = {f.name.lower(): f for f in right}
    result = []
    for field in left:
        found = by_name.get(field.name.lower())
        if found is None:
            result.append(field)
        else:
            result.append(
                FileField(field.name, _merge_types(field.dtype, found.dtype), field.nullable or found.nullable)
            )
    seen = {f.name.lower() for f in left}
    result += [f for f in right if f.name.lower() not in seen]
    return result


def _merge_types(left: dt.DType, right: dt.DType) -> dt.DType:
    if isinstance(left, dt.List) and isinstance(right, dt.List):
        return dt.List(_merge_types(left.inner, right.inner), left.contains_null or right.contains_null)
    if isinstance(left, dt.Map) and isinstance(right, dt.Map):
        nulls = left.value_contains_null or right.value_contains_null
        return dt.Map(_merge_types(left.key, right.key), _merge_types(left.value, right.value), nulls)
    if isinstance(left, dt.Struct) and isinstance(right, dt.Struct):
        fields = _merge_fields(
            [FileField(f.name, f.dtype, f.nullable) for f in left.fields],
            [FileField(f.name, f.dtype, f.nullable) for f in right.fields],
        )
        return dt.Struct(tuple(dt.Field(f.name, f.dtype, f.nullable) for f in fields))
    if isinstance(left, dt.Decimal) and isinstance(right, dt.Decimal) and left.scale == right.scale:
        return dt.Decimal(max(left.precision, right.precision), left.scale)
    if left == right:
        return left
    raise _Clash


def check_mapped(fields: Sequence[FileField]) -> None:
    """The error Spark's read gives the façade for a type it has no mapping for (a map whose keys are not strings)."""

    def walk(dtype: dt.DType, path: str) -> None:
        if isinstance(dtype, dt.List):
            walk(dtype.inner, f"{path}[]")
        elif isinstance(dtype, dt.Map):
            walk(dtype.key, f"{path}{{key}}")
            if not isinstance(dtype.key, dt.String):
                raise UnsupportedTypeError.of_map_key(path, str(nullable(dtype.key)))
            walk(dtype.value, f"{path}{{value}}")
        elif isinstance(dtype, dt.Struct):
            for f in dtype.fields:
                walk(f.dtype, f"{path}.{f.name}")

    for f in fields:
        walk(f.dtype, f.name)


def nullable(dtype: dt.DType) -> dt.DType:
    """``dtype`` with every nested value nullable, as Spark reads files (``asNullable``)."""
    if isinstance(dtype, dt.List):
        return dt.List(nullable(dtype.inner), True)
    if isinstance(dtype, dt.Map):
        return dt.Map(dtype.key, nullable(dtype.value), True)
    if isinstance(dtype, dt.Struct):
        return dt.Struct(tuple(dt.Field(f.name, nullable(f.dtype), True) for f in dtype.fields))
    return dtype


def spark_sql(dtype: dt.DType, is_nullable: bool = True) -> str:
    """A type as Spark's errors print it, lower-cased (``struct<x: bigint not null>``, ``map<string, double>``)."""
    if isinstance(dtype, dt.List):
        text = f"array<{spark_sql(dtype.inner)}>"
    elif isinstance(dtype, dt.Map):
        text = f"map<{spark_sql(dtype.key)}, {spark_sql(dtype.value)}>"
    elif isinstance(dtype, dt.Struct):
        text = "struct<" + ", ".join(f"{f.name}: {spark_sql(f.dtype, f.nullable)}" for f in dtype.fields) + ">"
    else:
        text = str(dtype)
    return text if is_nullable else f"{text} not null"


# --- the values -----------------------------------------------------------------------------------------------


def conform(array: Any, dtype: dt.DType, path: str) -> Any:
    """``array`` (as pyarrow read it) in the Arrow form of Spark's ``dtype``, every value nullable.

    Struct fields are matched ignoring case, as Spark's reader matches them; a
    field the file lacks is NULL. Anything not converted exactly is an
    ``UnsupportedEngineError`` naming ``path``. (``array`` is a ``pa.Array`` or
    ``pa.ChunkedArray`` of any type, typed ``Any``: pyarrow's stubs type each
    kind of array apart.)
    """
    if isinstance(array, pa.ChunkedArray):
        chunks = [conform(chunk, dtype, path) for chunk in array.chunks]
        return pa.chunked_array(chunks, type=_arrow(dtype))
    if isinstance(array.type, pa.DictionaryType):
        array = array.dictionary_decode()
    if isinstance(array.type, pa.ExtensionType):
        array = array.storage
    target = _arrow(dtype)
    if isinstance(dtype, dt.Struct):
        return _struct(array, dtype, path)
    if isinstance(dtype, dt.List):
        return _list(array, dtype, path)
    if isinstance(dtype, dt.Map):
        return _map(array, dtype, path)
    if array.type == target:
        return array
    if _converts(array.type, dtype):
        return array.cast(target)
    msg = (
        f"the local read does not take column {path!r}: pyarrow reads it as {array.type}, and Spark's type is "
        f"{dtype}; read the file on Spark"
    )
    raise UnsupportedEngineError(msg)


def _converts(given: Any, dtype: dt.DType) -> bool:
    """Whether casting ``given`` to ``dtype``'s Arrow type keeps every value (pyarrow's forms of Spark's types)."""
    types = pa.types
    if isinstance(dtype, dt.String):
        return bool(types.is_large_string(given) or types.is_string_view(given))
    if isinstance(dtype, dt.Binary):
        return bool(types.is_large_binary(given) or types.is_binary_view(given) or types.is_fixed_size_binary(given))
    if isinstance(dtype, dt.Integral):
        unsigned: dict[Any, dt.DType] = {pa.uint8(): dt.Int16(), pa.uint16(): dt.Int32(), pa.uint32(): dt.Int64()}
        return unsigned.get(given) == dtype or (isinstance(dtype, dt.Int64) and types.is_duration(given))
    if isinstance(dtype, dt.Decimal):
        return bool(types.is_decimal(given)) or (given == pa.uint64() and dtype == dt.Decimal(20, 0))
    if isinstance(dtype, dt.Date):
        return bool(types.is_date64(given))
    if isinstance(dtype, dt.Datetime | dt.DatetimeNTZ):
        return bool(types.is_timestamp(given)) and given.unit in ("s", "ms", "us")
    return False


def _struct(array: Any, dtype: dt.Struct, path: str) -> Any:
    if not isinstance(array.type, pa.StructType):
        msg = f"the local read does not take column {path!r}: pyarrow reads it as {array.type}, not a struct"
        raise UnsupportedEngineError(msg)
    given = {array.type.field(i).name.lower(): i for i in range(array.type.num_fields)}
    children = []
    for f in dtype.fields:
        index = given.get(f.name.lower())
        inner = f"{path}.{f.name}"
        if index is None:
            children.append(empty_column(f.dtype, len(array)))
        else:
            children.append(conform(array.field(index), f.dtype, inner))
    fields = [pa.field(f.name, _arrow(f.dtype)) for f in dtype.fields]
    mask = array.is_null() if array.null_count else None
    return pa.StructArray.from_arrays(children, fields=fields, mask=mask)


def _list(array: Any, dtype: dt.List, path: str) -> Any:
    if isinstance(array.type, pa.FixedSizeListType | pa.LargeListType | pa.ListViewType):
        array = array.cast(pa.list_(array.type.value_field))
    if not isinstance(array.type, pa.ListType):
        msg = f"the local read does not take column {path!r}: pyarrow reads it as {array.type}, not a list"
        raise UnsupportedEngineError(msg)
    values = conform(array.values, dtype.inner, f"{path}[]")
    mask = array.is_null() if array.null_count else None
    target = _arrow(dtype)
    return pa.ListArray.from_arrays(array.offsets, values, type=target, mask=mask)


def _map(array: Any, dtype: dt.Map, path: str) -> Any:
    if not isinstance(array.type, pa.MapType):
        msg = f"the local read does not take column {path!r}: pyarrow reads it as {array.type}, not a map"
        raise UnsupportedEngineError(msg)
    keys = conform(array.keys, dtype.key, f"{path}{{key}}")
    items = conform(array.items, dtype.value, f"{path}{{value}}")
    mask = array.is_null() if array.null_count else None
    return pa.MapArray.from_arrays(array.offsets, keys, items, type=_arrow(dtype), mask=mask)


def empty_column(dtype: dt.DType, rows: int) -> Any:
    """``rows`` NULLs of Spark's ``dtype`` (a column a file lacks)."""
    return pa.nulls(rows, _arrow(dtype))


def _arrow(dtype: dt.DType) -> Any:
    """The Arrow type of Spark's ``dtype`` read from a file: every value nullable (``Any``: see ``conform``)."""
    return arrow_type(nullable(dtype))
