"""Strict typing of text formats: what Spark's CSV and JSON readers would convert silently is an error.

Spark's JSON reader turns any JSON value into a string for a ``StringType``
field (``12`` → ``"12"``, ``{"a": 1}`` → ``'{"a":1}'``, ``true`` → ``"true"``),
and both text readers round a decimal to the schema's scale (``1.555`` →
``1.56``). So the readers here ask Spark for less:

* a JSON string field is read as a ``VARIANT`` and kept only when the JSON
  value is a string (``schema_of_variant = 'STRING'``), at any depth;
* a decimal field is read as its text and cast to the model's type only when
  that loses nothing (its digits after the point, trailing zeros aside, fit the
  scale), unless ``allow_lossy`` names its column.

Anything else fails the Spark job with ``raise_error``; the message carries the
readable reason in hex after ``BAD_VALUE_MARK`` so ``_spark.storage.spark_errors``
recovers it exactly and raises ``MalformedDataError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyspark.sql import types as st

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.sql import BAD_VALUE_MARK, column_sql, string_sql, struct_field_sql
from pydantable_spark._spark.types import spark_type

if TYPE_CHECKING:
    from pydantable_spark.schema import Schema

__all__ = ["BAD_VALUE_MARK", "needs_checks", "read_type", "strict_sql"]


def needs_checks(dtype: dt.DType, fmt: str) -> bool:
    """Whether a column of ``dtype`` is read differently from its type in ``fmt`` (``csv`` or ``json``)."""
    if isinstance(dtype, dt.Decimal):
        return True
    if isinstance(dtype, dt.String):
        return fmt == "json"
    if isinstance(dtype, dt.Struct):
        return any(needs_checks(f.dtype, fmt) for f in dtype.fields)
    if isinstance(dtype, dt.List):
        return needs_checks(dtype.inner, fmt)
    if isinstance(dtype, dt.Map):
        return needs_checks(dtype.value, fmt)
    return False


def read_type(dtype: dt.DType, fmt: str) -> Any:
    """The Spark type a strict reader asks for in place of ``dtype``'s."""
    if isinstance(dtype, dt.Decimal):
        return st.StringType()
    if isinstance(dtype, dt.String) and fmt == "json":
        return st.VariantType()
    if isinstance(dtype, dt.Struct):
        return st.StructType([st.StructField(f.name, read_type(f.dtype, fmt), True) for f in dtype.fields])
    if isinstance(dtype, dt.List):
        return st.ArrayType(read_type(dtype.inner, fmt), True)
    if isinstance(dtype, dt.Map):
        return st.MapType(st.StringType(), read_type(dtype.value, fmt), True)
    return spark_type(dtype, loose=True)


def read_struct(schema: Schema, fmt: str) -> Any:
    """The ``StructType`` a strict reader reads with (every field nullable, as Spark reads files)."""
    return st.StructType([st.StructField(f.name, read_type(f.dtype, fmt), True) for f in schema])


def _fail(parts: list[str]) -> str:
    """``raise_error`` of the readable message made of SQL string expressions ``parts``."""
    mark = string_sql(f"[{BAD_VALUE_MARK}")
    return f"raise_error(concat({mark}, hex(concat({', '.join(parts)})), ']'))"


def strict_sql(sql: str, dtype: dt.DType, path: str, column: str, lossy_ok: bool, depth: int = 0) -> str:
    """``sql`` (a value of ``read_type(dtype)``) as ``dtype``, failing on what would change silently."""
    if isinstance(dtype, dt.String):
        where = string_sql(f"column {path!r}: a JSON ")
        why = string_sql(
            " where the model wants a string (str); Spark would have turned it into its JSON text. "
            "Quote the value in the file, or declare the field with the value's type"
        )
        return (
            f"CASE WHEN {sql} IS NULL OR is_variant_null({sql}) THEN CAST(NULL AS STRING) "
            f"WHEN schema_of_variant({sql}) = 'STRING' THEN variant_get({sql}, '$', 'string') "
            f"ELSE {_fail([where, f'lower(schema_of_variant({sql}))', why])} END"
        )
    if isinstance(dtype, dt.Decimal):
        return _decimal_sql(sql, dtype, path, column, lossy_ok)
    if isinstance(dtype, dt.Struct):
        parts = []
        for f in dtype.fields:
            inner = struct_field_sql(sql, f.name)
            value = strict_sql(inner, f.dtype, f"{path}.{f.name}", column, lossy_ok, depth) if needs_checks(
                f.dtype, "json"
            ) else inner  # fmt: skip
            parts += [string_sql(f.name), value]
        return f"IF({sql} IS NULL, NULL, named_struct({', '.join(parts)}))"
    if isinstance(dtype, dt.List):
        x = f"x{depth}"
        return f"transform({sql}, {x} -> {strict_sql(x, dtype.inner, f'{path}[]', column, lossy_ok, depth + 1)})"
    if isinstance(dtype, dt.Map):
        k, v = f"k{depth}", f"v{depth}"
        value = strict_sql(v, dtype.value, f"{path}{{value}}", column, lossy_ok, depth + 1)
        return f"transform_values({sql}, ({k}, {v}) -> {value})"
    return sql  # pragma: no cover - needs_checks sends nothing else here


def _decimal_sql(sql: str, dtype: dt.Decimal, path: str, column: str, lossy_ok: bool) -> str:
    p, s = dtype.precision, dtype.scale
    target = f"DECIMAL({p}, {s})"
    text = f"trim({sql})"
    parsed = f"try_cast({text} AS {target})"
    shown = f"column {path!r}: the value "
    reason = f" is not a decimal({p}, {s}): not a number, or more than {p - s} digits before the point"
    not_decimal = _fail([string_sql(shown), text, string_sql(reason)])
    if lossy_ok:
        exact = "TRUE"
    else:
        # digits after the point (trailing zeros aside) must fit the scale; an exponent form: compare finer
        digits = f"length(regexp_extract({text}, {string_sql('[.]([0-9]*?)0*$')}, 1))"
        finer = f"try_cast({text} AS DECIMAL(38, {38 - (p - s)}))"
        has_exponent = f"({text} RLIKE {string_sql('[eE]')})"
        exact = f"IF({has_exponent}, {finer} = {parsed}, {digits} <= {s})"
    rounded = _fail(
        [
            string_sql(shown),
            text,
            string_sql(
                f" has more than {s} digits after the point, so the model's decimal({p}, {s}) would round it; "
                f"declare more decimal places, or pass allow_lossy=[{column!r}] to accept the rounding"
            ),
        ]
    )
    return (
        f"CASE WHEN {sql} IS NULL THEN CAST(NULL AS {target}) WHEN {parsed} IS NULL THEN {not_decimal} "
        f"WHEN {exact} THEN {parsed} ELSE {rounded} END"
    )


def strict_columns(
    schema: Schema, fmt: str, read: Schema, allow_lossy: Any
) -> list[str] | None:  # fmt: skip
    """``selectExpr`` items turning a frame read with ``read_struct`` into ``read``'s types (None: nothing to do)."""
    if not any(needs_checks(f.dtype, fmt) for f in read):
        return None
    from pydantable_spark.reconcile import selected

    wanted = {f.name: f for f in schema}
    items = []
    for f in read:
        name = column_sql(f.name)
        if f.name in wanted and needs_checks(f.dtype, fmt):
            items.append(f"{strict_sql(name, f.dtype, f.name, f.name, selected(allow_lossy, f.name))} AS {name}")
        else:
            items.append(name)
    return items
