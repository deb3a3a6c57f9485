"""Strict typing of text formats: what Spark's CSV, JSON and XML parsers would convert silently is an error.

Spark's JSON parser turns any JSON value into a string for a ``StringType``
field (``12`` → ``"12"``, ``{"a": 1}`` → ``'{"a":1}'``, ``true`` → ``"true"``),
and every text parser rounds a decimal to the schema's scale (``1.555`` →
``1.56``). So the readers here, and ``F.from_json`` / ``F.from_csv`` /
``F.from_xml`` with them, ask Spark for less:

* a JSON string field is read as a ``VARIANT`` and kept only when the JSON
  value is a string (``schema_of_variant = 'STRING'``), at any depth;
* a decimal field is read as its text and cast to the model's type only when
  that loses nothing (its digits after the point, trailing zeros aside and
  an exponent counted, fit the scale), unless ``allow_lossy`` names its column
  (readers only). A file reader gives the number's text as written; Spark's
  JSON *functions* write a number read as a string back through a double
  (``0.1234567890123456789`` → ``"0.12345678901234568"``), so ``from_json``
  reads a decimal as a ``VARIANT``, which keeps up to 38 digits exactly.

A value that fails the checks fails the Spark job with ``raise_error``; the
message carries the readable reason in hex after ``BAD_VALUE_MARK`` so
``_spark.storage.spark_errors`` recovers it exactly and raises
``MalformedDataError``. ``Guard(fail=False)`` (``from_json``'s PERMISSIVE
mode) gives NULL in place of such a value instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.sql import (
    BAD_VALUE_MARK,
    column_sql,
    string_sql,
    struct_field_sql,
    to_sql,
    type_sql,
)
from pydantable_spark._spark.types import spark_type
from pydantable_spark.expr.core import describe

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.text_formats import FromText
    from pydantable_spark.schema import Schema

__all__ = [
    "BAD_VALUE_MARK",
    "Guard",
    "from_text_sql",
    "needs_checks",
    "places_sql",
    "read_dtype",
    "read_struct",
    "read_type",
    "reader_guard",
    "strict_columns",
    "strict_sql",
]

_PARSED = "__pydantable_parsed"
"""The lambda variable that holds Spark's parse of a record in ``from_text_sql`` (the lambda reads nothing else)."""

_CORRUPT = "__pydantable_corrupt"
"""The field a FAILFAST ``from_json`` (``_csv``, ``_xml``) asks Spark to put a malformed record's text in."""


@dataclass(frozen=True, slots=True)
class Guard:
    """How ``strict_sql`` treats a value that Spark would change: how it is named, what to do, fail or NULL."""

    fmt: str
    """``"json"``, ``"csv"`` or ``"xml"``: only JSON has typed values a string field could receive."""
    where: Callable[[str], str]
    """The value's path (``address.city``, ``tags[]``) → how a message names it."""
    quote_fix: str
    """What to do about a JSON value that is not a string, for a string field."""
    rounding_fix: str
    """What to do about a decimal with more digits after the point than the scale."""
    lossy_ok: bool = False
    """Round decimals as Spark does (``allow_lossy``)."""
    fail: bool = True
    """Fail the job (False: NULL in place of the value, as ``mode="PERMISSIVE"``)."""
    decimal_variant: bool = False
    """Decimals are read as ``VARIANT`` (``from_json``), not as their text."""


def needs_checks(dtype: dt.DType, fmt: str) -> bool:
    """Whether a value of ``dtype`` is read differently from its type in ``fmt`` (``csv``, ``json`` or ``xml``)."""
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


def read_dtype(dtype: dt.DType, fmt: str, *, decimal_variant: bool = False) -> dt.DType:
    """The type a strict read asks Spark for in place of ``dtype`` (nested parts nullable, as Spark reads text)."""
    if isinstance(dtype, dt.Decimal):
        return dt.Variant() if decimal_variant else dt.String()
    if isinstance(dtype, dt.String) and fmt == "json":
        return dt.Variant()
    if isinstance(dtype, dt.Struct):
        fields = (
            dt.Field(f.name, read_dtype(f.dtype, fmt, decimal_variant=decimal_variant), True) for f in dtype.fields
        )
        return dt.Struct(tuple(fields))
    if isinstance(dtype, dt.List):
        return dt.List(read_dtype(dtype.inner, fmt, decimal_variant=decimal_variant), True)
    if isinstance(dtype, dt.Map):
        return dt.Map(dtype.key, read_dtype(dtype.value, fmt, decimal_variant=decimal_variant), True)
    return dtype


def read_type(dtype: dt.DType, fmt: str) -> Any:
    """The Spark type a strict reader asks for in place of ``dtype``'s."""
    return spark_type(read_dtype(dtype, fmt), loose=True)


def read_struct(schema: Schema, fmt: str) -> Any:
    """The ``StructType`` a strict reader reads with (every field nullable, as Spark reads files)."""
    from pyspark.sql import types as st

    return st.StructType([st.StructField(f.name, read_type(f.dtype, fmt), True) for f in schema])


def _fail(parts: list[str]) -> str:
    """``raise_error`` of the readable message made of SQL string expressions ``parts``."""
    mark = string_sql(f"[{BAD_VALUE_MARK}")
    return f"raise_error(concat({mark}, hex(concat({', '.join(parts)})), ']'))"


def _bad(guard: Guard, parts: list[str], dtype: dt.DType) -> str:
    """What a value that fails a check becomes: the job's failure, or a NULL of ``dtype``."""
    return _fail(parts) if guard.fail else f"CAST(NULL AS {type_sql(dtype)})"


def strict_sql(sql: str, dtype: dt.DType, path: str, guard: Guard, depth: int = 0) -> str:
    """``sql`` (a value of ``read_dtype(dtype)``) as ``dtype``, failing (or NULL) where it would change silently."""
    if isinstance(dtype, dt.String):
        why = string_sql(
            " where the model wants a string (str); Spark would have turned it into its JSON text. "
            f"{guard.quote_fix}; the value: "
        )
        where = string_sql(f"{guard.where(path)}: a JSON ")
        shown = f"substr(to_json({sql}), 1, 100)"
        return (
            f"CASE WHEN {sql} IS NULL OR is_variant_null({sql}) THEN CAST(NULL AS STRING) "
            f"WHEN schema_of_variant({sql}) = 'STRING' THEN variant_get({sql}, '$', 'string') "
            f"ELSE {_bad(guard, [where, f'lower(schema_of_variant({sql}))', why, shown], dtype)} END"
        )
    if isinstance(dtype, dt.Decimal):
        text = f"variant_get({sql}, '$', 'string')" if guard.decimal_variant else sql
        return _decimal_sql(text, dtype, path, guard)
    if isinstance(dtype, dt.Struct):
        parts = []
        for f in dtype.fields:
            inner = struct_field_sql(sql, f.name)
            inner_path = f"{path}.{f.name}" if path else f.name
            value = strict_sql(inner, f.dtype, inner_path, guard, depth) if needs_checks(f.dtype, guard.fmt) else inner
            parts += [string_sql(f.name), value]
        return f"IF({sql} IS NULL, NULL, named_struct({', '.join(parts)}))"
    if isinstance(dtype, dt.List):
        x = f"x{depth}"
        return f"transform({sql}, {x} -> {strict_sql(x, dtype.inner, f'{path}[]', guard, depth + 1)})"
    if isinstance(dtype, dt.Map):
        k, v = f"k{depth}", f"v{depth}"
        value = strict_sql(v, dtype.value, f"{path}{{value}}", guard, depth + 1)
        return f"transform_values({sql}, ({k}, {v}) -> {value})"
    return sql  # pragma: no cover - needs_checks sends nothing else here


_MANTISSA = string_sql("^[+-]?([0-9]*[.]?[0-9]*)")
_FRACTION = string_sql("[.]([0-9]*?)0*$")
_TRAILING_ZEROS = string_sql("(0*)[.]?0*$")
_EXPONENT = string_sql("[eE]([+-]?[0-9]+)$")


def places_sql(text: str) -> str:
    """The decimal places the number ``text`` needs (``1.50`` → 1, ``1.5e-3`` → 4, ``100`` → -2); NULL if unknown.

    Trailing zeros need none; an exponent moves the point. An exponent too
    long for a ``bigint`` gives NULL.
    """
    mantissa = f"regexp_extract({text}, {_MANTISSA}, 1)"
    fraction = f"length(regexp_extract({mantissa}, {_FRACTION}, 1))"
    zeros = f"length(regexp_extract({mantissa}, {_TRAILING_ZEROS}, 1))"
    exponent_text = f"regexp_extract({text}, {_EXPONENT}, 1)"
    exponent = f"IF({exponent_text} = '', 0, try_cast({exponent_text} AS BIGINT))"
    return f"(IF({fraction} > 0, {fraction}, -{zeros}) - {exponent})"


def _decimal_sql(sql: str, dtype: dt.Decimal, path: str, guard: Guard) -> str:
    p, s = dtype.precision, dtype.scale
    target = f"DECIMAL({p}, {s})"
    text = f"trim({sql})"
    parsed = f"try_cast({text} AS {target})"
    shown = f"{guard.where(path)}: the value "
    reason = f" is not a decimal({p}, {s}): not a number, or more than {p - s} digits before the point"
    not_decimal = _bad(guard, [string_sql(shown), text, string_sql(reason)], dtype)
    exact = "TRUE" if guard.lossy_ok else f"coalesce({places_sql(text)} <= {s}, FALSE)"
    rounded = _bad(
        guard,
        [
            string_sql(shown),
            text,
            string_sql(
                f" has more than {s} digits after the point, so the model's decimal({p}, {s}) would round it; "
                f"{guard.rounding_fix}"
            ),
        ],
        dtype,
    )
    return (
        f"CASE WHEN {sql} IS NULL THEN CAST(NULL AS {target}) WHEN {parsed} IS NULL THEN {not_decimal} "
        f"WHEN {exact} THEN {parsed} ELSE {rounded} END"
    )


def reader_guard(fmt: str, column: str, lossy_ok: bool) -> Guard:
    """The guard of ``read_csv``/``read_json``'s column ``column``."""
    return Guard(
        fmt,
        lambda path: f"column {path!r}",
        "Quote the value in the file, or declare the field with the value's type",
        f"declare more decimal places, or pass allow_lossy=[{column!r}] to accept the rounding",
        lossy_ok=lossy_ok,
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
            guard = reader_guard(fmt, f.name, selected(allow_lossy, f.name))
            items.append(f"{strict_sql(name, f.dtype, f.name, guard)} AS {name}")
        else:
            items.append(name)
    return items


# --- F.from_json, F.from_csv, F.from_xml ----------------------------------------------------------------


def from_text_sql(node: FromText) -> str:
    """``from_json``/``from_csv``/``from_xml`` of ``node``: Spark's parser, then the strict checks of its schema.

    The schema and options reach Spark as string literals. Where the schema
    holds a value Spark would change (``needs_checks``), Spark parses the text
    into ``read_dtype`` and ``strict_sql`` converts it: in PERMISSIVE mode such
    a value is NULL, in FAILFAST it fails the job naming the column, the field
    and the value. FAILFAST on a struct is PERMISSIVE with a corrupt-record
    field, and a record that fills it fails the job naming the column (Spark's
    own FAILFAST names no column).

    The rebuilt struct reads Spark's parse once per field and once for each
    check, so the parse is bound to a lambda variable (``_PARSED``, in
    ``transform(array(parse), parsed -> struct)[0]``) and runs once a row:
    Spark evaluates each copy of an expression written out, and its common
    subexpression elimination skips the branches of an ``IF`` (a parse of a
    record of four fields ran twelve times, six times plain ``from_json``'s
    time). A lambda's result is typed nullable, so a ``from_csv`` of a
    non-null text, which Spark types non-null, keeps the copies.
    """
    child, function, fmt = to_sql(node.child), node.label, node.format
    checked = needs_checks(node.schema, fmt)
    guard = Guard(
        fmt,
        lambda path: f"{describe(node.child)}, field {path!r} of {node.name}" if path else describe(node.child),
        f"Quote the value in the {fmt.upper()} text, or declare the field with the value's type",
        f"declare more decimal places in {node.name} (and round the parsed value in the plan)",
        fail=node.failfast,
        decimal_variant=fmt == "json",
    )
    schema = read_dtype(node.schema, fmt, decimal_variant=guard.decimal_variant) if checked else node.schema
    options = [(k, v) for k, v in node.options if k.lower() != "mode"]
    rebuilt = isinstance(node.schema, dt.Struct) and node.schema.fields and (checked or node.failfast)
    if not rebuilt:  # Spark's own parse (and mode), then the checks of a list or map
        spark_options = [*options, ("mode", "FAILFAST" if node.failfast else "PERMISSIVE")]
        parsed = f"{function}({child}, {string_sql(type_sql(schema))}, {_options_sql(spark_options)})"
        return strict_sql(parsed, node.schema, "", guard) if checked else parsed
    assert isinstance(node.schema, dt.Struct)
    assert isinstance(schema, dt.Struct)
    malformed = None
    if node.failfast:
        schema = dt.Struct((*schema.fields, dt.Field(_CORRUPT, dt.String(), True)))
        options += [("columnNameOfCorruptRecord", _CORRUPT)]
    parse = f"{function}({child}, {string_sql(type_sql(schema))}, {_options_sql([*options, ('mode', 'PERMISSIVE')])})"
    bound = node.type.nullable  # the parse bound to _PARSED (see above)
    parsed = _PARSED if bound else parse
    if node.failfast:
        message = f"{describe(node.child)} holds a record that is not {fmt.upper()} of {node.name} (FAILFAST): "
        corrupt = struct_field_sql(parsed, _CORRUPT)
        shown = f"hex(concat({string_sql(message)}, substr({corrupt}, 1, 200)))"
        malformed = f"{corrupt} IS NOT NULL", f"raise_error(concat({string_sql(f'[{BAD_VALUE_MARK}')}, {shown}, ']'))"
    fields = []
    for i, f in enumerate(node.schema.fields):
        value = struct_field_sql(parsed, f.name)
        if needs_checks(f.dtype, fmt):
            value = strict_sql(value, f.dtype, f.name, guard)
        if i == 0 and malformed is not None:  # the record's check rides on a field: the struct stays as Spark types it
            value = f"IF({malformed[0]}, {malformed[1]}, {value})"
        fields += [string_sql(f.name), value]
    built = f"named_struct({', '.join(fields)})"
    if not bound:
        return built
    return f"transform(array({parse}), {_PARSED} -> IF({_PARSED} IS NULL, NULL, {built}))[0]"


def _options_sql(options: list[tuple[str, str]]) -> str:
    return "map(" + ", ".join(f"{string_sql(k)}, {string_sql(v)}" for k, v in options) + ")"
