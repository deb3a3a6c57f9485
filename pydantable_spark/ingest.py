"""Python data → an Arrow table with a frame's exact schema, checked before Spark sees it.

Rows are validated by Pydantic (``RowValidationError`` names the row index and
field). Arrow and pandas data are reconciled strictly with the model: their
types must convert by the rules of ``reconcile``, and a column Arrow calls
nullable is accepted for a non-null field when it holds no NULL (counted in
Python, without Spark).
"""

from __future__ import annotations

import collections.abc
import decimal
import enum
import functools
import json
import math
import re
import types
import typing
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from pydantable_spark import dtypes as dt
from pydantable_spark.arrow import arrow_schema, arrow_type
from pydantable_spark.errors import RowValidationError, UnsupportedTypeError
from pydantable_spark.reconcile import Reconciliation, Selection, reconcile, selected

if typing.TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping

    from pydantable_spark.schema import Schema

__all__ = [
    "adapter_for",
    "arrow_of_pandas",
    "arrow_of_polars",
    "arrow_table_from",
    "fields_of_arrow",
    "json_text",
    "plain_value",
    "rows_to_arrow",
    "trusted_rows",
    "unknown_keys_checker",
    "validation_message",
]

_MAX_REPORTED = 10


@functools.lru_cache(maxsize=256)
def adapter_for(model: type[BaseModel]) -> TypeAdapter[list[Any]]:
    """A cached ``TypeAdapter(list[model])`` for batch validation."""
    return TypeAdapter(list[model])  # type: ignore[valid-type]


def validation_message(error: ValidationError, what: str, offset: int = 0) -> str:
    """A message naming each failing row index (plus ``offset``) and field."""
    lines = []
    for item in error.errors()[:_MAX_REPORTED]:
        loc = list(item["loc"])
        index = loc.pop(0) if loc and isinstance(loc[0], int) else None
        where = f"row {index + offset}" if isinstance(index, int) else "input"
        field = ".".join(str(part) for part in loc) or "(row)"
        lines.append(f"  - {where}, field {field!r}: {item['msg']} (got {item.get('input')!r})")
    more = error.error_count() - len(lines)
    tail = f"\n  ... and {more} more" if more > 0 else ""
    return f"{error.error_count()} invalid value(s) {what}:\n" + "\n".join(lines) + tail


def rows_to_arrow(
    rows: Iterable[Mapping[str, Any] | BaseModel], model: type[BaseModel], schema: Schema, *, trusted: bool = False
) -> pa.Table:
    """Validate ``rows`` with ``model`` and lay them out as an Arrow table of ``schema``.

    ``trusted``: the rows are checked for their shape and types only
    (``trusted_rows``), not validated by the model.
    """
    items = rows if isinstance(rows, list) else list(rows)
    if trusted:
        return _table(trusted_rows(items, model), model, schema)
    adapter = adapter_for(model)
    try:
        validated = adapter.validate_python(items)
    except ValidationError as error:
        raise RowValidationError(validation_message(error, f"in rows for {model.__name__}"), error.errors()) from error
    _refuse_unknown_nested_keys(items, model)
    return _table(adapter.dump_python(validated, by_alias=True), model, schema)


def _table(dumped: list[dict[str, Any]], model: type[BaseModel], schema: Schema) -> pa.Table:
    """Rows of Python values of the fields' types as an Arrow table of ``schema`` (a key a row lacks is NULL)."""
    if _needs_plain(model):
        dumped = [{k: plain_value(v) for k, v in row.items()} for row in dumped]
    arrays = []
    for f in schema.fields:
        values = [row.get(f.name) for row in dumped]
        if isinstance(f.dtype, dt.Variant):  # crosses as its JSON text; Spark parses it (arrow.arrow_type)
            values = [_variant_text(v, f, i) for i, v in enumerate(values)]
        try:
            arrays.append(pa.array(values, type=arrow_type(f.dtype)))
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as error:
            msg = f"column {f.name!r} ({f.dtype}): a validated value does not fit the Spark type: {error}"
            raise RowValidationError(msg) from error
    return pa.Table.from_arrays(arrays, schema=arrow_schema(schema))


def _variant_text(value: Any, f: dt.Field, row: int) -> str | None:
    if value is None and f.nullable:
        return None  # SQL NULL; in a non-null column, None is the JSON null
    try:
        return json_text(value)
    except ValueError as error:
        msg = f"row {row}, column {f.name!r} (variant): {error}"
        raise RowValidationError(msg) from error


def json_text(value: Any, path: str = "value") -> str:
    """``value`` as JSON text, exactly: ``Decimal`` numbers keep their digits (a VARIANT holds them exactly).

    Takes ``dict`` (with ``str`` keys), ``list``/``tuple``, ``str``, ``int``,
    ``float`` (finite), ``Decimal`` (finite), ``bool`` and ``None``; anything
    else raises ``ValueError`` naming where it is, and so does a value a
    VARIANT cannot hold exactly: an ``int`` or ``Decimal`` of more than
    ``VARIANT_MAX_DIGITS`` digits (Spark would keep it as a rounded double),
    or lists and dicts nested deeper than ``VARIANT_MAX_DEPTH``. Written
    without recursion, so a value of any depth gets its answer.

    >>> json_text({"a": [1, decimal.Decimal("2.50"), None, True], "b": "x"})
    '{"a": [1, 2.50, null, true], "b": "x"}'
    >>> json_text({"when": b"x"})
    Traceback (most recent call last):
    ...
    ValueError: value['when'] is b'x' (bytes), which JSON cannot hold; a VARIANT takes dict (str keys), ...
    >>> json_text([10**38])
    Traceback (most recent call last):
    ...
    ValueError: value[0] is the int 100000000000000000000000000000000000000 (39 digits), which a VARIANT ...
    """
    out: list[str] = []
    pending: list[tuple[Any, str, int] | str] = [(value, path, 0)]  # values to write, or text as it is
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        current, where, depth = item
        if current is None or isinstance(current, bool | str):
            out.append(json.dumps(current))
        elif isinstance(current, int | float | decimal.Decimal):
            out.append(_number_text(current, where))
        elif isinstance(current, dict | list | tuple):
            if depth >= dt.VARIANT_MAX_DEPTH:
                msg = (
                    f"{path} nests lists and dicts more than {dt.VARIANT_MAX_DEPTH} levels deep, which a VARIANT "
                    f"cannot hold (Spark's JSON parser reads at most {dt.VARIANT_MAX_DEPTH} levels)"
                )
                raise ValueError(msg)
            pending.extend(reversed(_members(current, where, depth + 1)))
        else:
            _refuse(current, where)
    return "".join(out)


def _members(value: dict[Any, Any] | list[Any] | tuple[Any, ...], path: str, depth: int) -> list[Any]:
    """The pieces of a JSON object or array, in order: brackets and separators as text, members to write."""
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            _refuse(value, path)
        pieces: list[Any] = ["{"]
        for i, (k, v) in enumerate(value.items()):
            pieces += [f"{', ' if i else ''}{json.dumps(k)}: ", (v, f"{path}[{k!r}]", depth)]
        return [*pieces, "}"]
    pieces = ["["]
    for i, v in enumerate(value):
        pieces += [", "] if i else []
        pieces.append((v, f"{path}[{i}]", depth))
    return [*pieces, "]"]


def _number_text(value: int | float | decimal.Decimal, path: str) -> str:
    """A number as JSON text; one a VARIANT cannot hold exactly is a ``ValueError`` naming ``path``."""
    if isinstance(value, int):
        text = str(int(value))
        digits = len(text.lstrip("-"))
        if digits > dt.VARIANT_MAX_DIGITS:
            msg = (
                f"{path} is the int {text} ({digits} digits), which a VARIANT holds only as a rounded double: it "
                f"keeps numbers exactly up to {dt.VARIANT_MAX_DIGITS} digits; pass it as a str, or as a float to "
                "accept the rounding"
            )
            raise ValueError(msg)
        return text
    if not math.isfinite(value):
        _refuse(value, path)
    if isinstance(value, float):
        return repr(value)
    text = format(value, "f")
    plain = text.rstrip("0").rstrip(".") if "." in text else text  # trailing zeros: the same value, no digits
    whole, _, places = plain.lstrip("-").partition(".")
    digits = len((whole + places).lstrip("0")) or 1
    if digits > dt.VARIANT_MAX_DIGITS or len(places) > dt.VARIANT_MAX_DIGITS:
        msg = (
            f"{path} is Decimal({text!r}) ({digits} significant digits, {len(places)} places), which a VARIANT "
            f"holds only as a rounded double: it keeps decimals exactly up to {dt.VARIANT_MAX_DIGITS} digits and "
            f"{dt.VARIANT_MAX_DIGITS} places; pass it as a str, or as a float to accept the rounding"
        )
        raise ValueError(msg)
    return plain if len(text.partition(".")[2]) > dt.VARIANT_MAX_DIGITS else text


def _refuse(value: Any, path: str) -> typing.NoReturn:
    shown = f"{value!r:.60} ({type(value).__name__})"
    why = "a dict with a key that is not a str" if isinstance(value, dict) else shown
    msg = (
        f"{path} is {why}, which JSON cannot hold; a VARIANT takes dict (str keys), list, str, int, float, Decimal, "
        "bool or None"
    )
    raise ValueError(msg)


# --- trusted rows -------------------------------------------------------------------------------


def trusted_rows(rows: list[Any], model: type[BaseModel]) -> list[dict[str, Any]]:
    """Rows checked for shape and types, not validated: Pydantic's strict mode over the fields' bare types.

    Each value must already be of its field's Python type (``int`` for ``int``,
    a ``date`` for ``date``: no conversion, as ``"1"`` to ``1``), NULL only where
    the field is Optional, every key a field's (nested ones too) and every field
    given but those ``may_be_absent`` (Optional with the default None: NULL).
    The model's validators and constraints (``Field(ge=0)``, ``max_length``...)
    do not run: they run when the rows are collected (unless
    ``collect(trusted=True)``), on write, and in ``validate()``. Instances of
    ``model`` are valid already and taken as they dump.
    """
    items = [row.model_dump(by_alias=True) if isinstance(row, model) else row for row in rows]
    try:
        checked: list[dict[str, Any]] = _shape_adapter(model).validate_python(items)
    except ValidationError as error:
        what = f"in trusted rows for {model.__name__} (each value of its field's Python type, unconverted)"
        raise RowValidationError(validation_message(error, what), error.errors()) from error
    return checked


@functools.lru_cache(maxsize=256)
def _shape_adapter(model: type[BaseModel]) -> TypeAdapter[list[Any]]:
    rows: Any = types.GenericAlias(list, (_shape_of_model(model),))
    return TypeAdapter(rows)


def _shape_of_model(model: type[BaseModel]) -> Any:
    """A ``TypedDict`` of the model's columns and their bare types, checked strictly (no validators, no constraints).

    (Models are not recursive: a model that refers to itself is refused when it is defined.)
    """
    from typing_extensions import NotRequired, TypedDict

    from pydantable_spark.annotations import column_name, may_be_absent

    absent = may_be_absent(model)
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        column = column_name(name, info)
        shape = _shape(info.annotation)
        fields[column] = NotRequired[shape] if column in absent else shape
    make: Any = TypedDict  # the functional form, with the columns' names as keys
    shaped = make(f"{model.__name__}Shape", fields)
    extra = model.model_config.get("extra")
    strict = extra is None or extra == "forbid"  # as ``_struct_checker``: a nested model's unknown keys are refused
    shaped.__pydantic_config__ = ConfigDict(strict=True, extra="forbid" if strict else "ignore")
    return shaped


def _shape(annotation: Any) -> Any:
    """``annotation`` without its constraints and validators, nested models as their shapes."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _shape_of_model(annotation)
    if origin is typing.Annotated:
        if any(m is dt.Variant or isinstance(m, dt.Variant) for m in args[1:]):
            return Any  # any JSON value: ``json_text`` checks it
        return _shape(args[0])
    if origin in (typing.Union, types.UnionType):
        union: Any = typing.Union
        return union[tuple(_shape(a) for a in args)]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return types.GenericAlias(tuple, (_shape(args[0]), ...))
    if origin in (list, set, frozenset, collections.abc.Sequence) and args:
        return types.GenericAlias(origin, (_shape(args[0]),))
    if origin in (dict, collections.abc.Mapping) and len(args) == 2:
        return types.GenericAlias(dict, (args[0], _shape(args[1])))
    return annotation


# --- nested strictness --------------------------------------------------------------------------

_Checker = typing.Callable[[Any, str], typing.Iterator[str]]


def _refuse_unknown_nested_keys(rows: list[Any], model: type[BaseModel]) -> None:
    """Unknown keys of nested structs are refused as at the top level (``extra="forbid"``).

    A nested plain ``BaseModel`` ignores unknown keys by Pydantic's default,
    which would drop them silently on the way to Spark. Unless the nested
    model sets ``extra`` itself, its unknown keys are an error naming the row
    and the path, as a ``DataFrameModel`` row's are.
    """
    check = _nested_checker(model)
    if check is None:
        return
    problems: list[str] = []
    for index, row in enumerate(rows):
        if isinstance(row, typing.Mapping):
            problems.extend(
                f"  - row {index}, field {path!r}: Extra inputs are not permitted" for path in check(row, "")
            )
            if len(problems) >= _MAX_REPORTED:
                break
    if problems:
        msg = (
            f"{len(problems)} unknown key(s) in nested structs of rows for {model.__name__} (a struct holds its "
            "model's fields only; set extra='ignore' on the nested model to drop them):\n" + "\n".join(problems)
        )
        raise RowValidationError(msg)


@functools.lru_cache(maxsize=256)
def _nested_checker(model: type[BaseModel]) -> _Checker | None:
    """A function yielding the paths of unknown keys inside ``model``'s nested structs (None: none can have any)."""
    fields = []
    for name, info in model.model_fields.items():
        inner = unknown_keys_checker(info.annotation, set())
        if inner is not None:
            keys = [k for k in (info.alias, info.validation_alias, name) if isinstance(k, str)]
            fields.append((keys, inner))
    if not fields:
        return None

    def check(row: Any, path: str) -> typing.Iterator[str]:
        for keys, inner in fields:
            key = next((k for k in keys if k in row), None)
            if key is not None:
                yield from inner(row[key], f"{path}{key}")

    return check


def unknown_keys_checker(annotation: Any, seen: set[int]) -> _Checker | None:
    """A checker yielding the paths of unknown keys in values of ``annotation`` (None: no struct can get any)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if id(annotation) in seen:
            return None
        return _struct_checker(annotation, seen | {id(annotation)})
    if origin is typing.Annotated:
        return unknown_keys_checker(args[0], seen)
    if origin in (list, tuple, set, frozenset) and args:
        element = unknown_keys_checker(args[0], seen)
        if element is None:
            return None

        def each(value: Any, path: str) -> typing.Iterator[str]:
            if isinstance(value, list | tuple | set | frozenset):
                for i, item in enumerate(value):
                    yield from element(item, f"{path}[{i}]")

        return each
    if origin is dict and len(args) == 2:
        value_check = unknown_keys_checker(args[1], seen)
        if value_check is None:
            return None

        def values(value: Any, path: str) -> typing.Iterator[str]:
            if isinstance(value, typing.Mapping):
                for k, item in value.items():
                    yield from value_check(item, f"{path}[{k!r}]")

        return values
    checkers = [c for c in (unknown_keys_checker(a, seen) for a in args if a is not type(None)) if c is not None]
    if len(checkers) == 1:
        return checkers[0]
    return None


def _struct_checker(model: type[BaseModel], seen: set[int]) -> _Checker | None:
    strict = "extra" not in model.model_config or model.model_config.get("extra") == "forbid"
    known = set()
    inner_fields = []
    for name, info in model.model_fields.items():
        keys = [k for k in (info.alias, info.validation_alias, name) if isinstance(k, str)]
        known.update(keys)
        inner = unknown_keys_checker(info.annotation, seen)
        if inner is not None:
            inner_fields.append((keys, inner))
    if not strict and not inner_fields:
        return None

    def check(value: Any, path: str) -> typing.Iterator[str]:
        if not isinstance(value, typing.Mapping):
            return  # a model instance (already validated) or not a struct: Pydantic judged it
        if strict:
            for key in value:
                if key not in known:
                    yield f"{path}.{key}"
        for keys, inner in inner_fields:
            key = next((k for k in keys if k in value), None)
            if key is not None:
                yield from inner(value[key], f"{path}.{key}")

    return check


@functools.lru_cache(maxsize=256)
def _needs_plain(model: type[BaseModel]) -> bool:
    """Whether dumped rows can hold enums or sets, which Arrow does not take as they are."""
    return any(_annotation_needs_plain(info.annotation, set()) for info in model.model_fields.values())


def _annotation_needs_plain(annotation: Any, seen: set[int]) -> bool:
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return True
        if issubclass(annotation, BaseModel) and id(annotation) not in seen:
            seen.add(id(annotation))
            return any(_annotation_needs_plain(i.annotation, seen) for i in annotation.model_fields.values())
        return False
    if typing.get_origin(annotation) in (set, frozenset):
        return True
    return any(_annotation_needs_plain(arg, seen) for arg in typing.get_args(annotation))


def plain_value(value: Any) -> Any:
    """A dumped value as Arrow takes it: enums as their values, sets as lists, at any depth."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: plain_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain_value(v) for v in value]
    return value


# --- Arrow input -----------------------------------------------------------------------------


def fields_of_arrow(schema: pa.Schema) -> tuple[dt.Field, ...]:
    """Logical fields of an Arrow schema; an Arrow type with no mapping names its column."""
    return tuple(dt.Field(f.name, _dtype_of_arrow(f.type, f.name), f.nullable) for f in schema)


_ARROW_ATOMIC: dict[pa.DataType, dt.DType] = {
    pa.bool_(): dt.Boolean(),
    pa.int8(): dt.Int8(),
    pa.int16(): dt.Int16(),
    pa.int32(): dt.Int32(),
    pa.int64(): dt.Int64(),
    pa.uint8(): dt.Int16(),
    pa.uint16(): dt.Int32(),
    pa.uint32(): dt.Int64(),
    pa.float32(): dt.Float32(),
    pa.float64(): dt.Float64(),
    pa.string(): dt.String(),
    pa.large_string(): dt.String(),
    pa.string_view(): dt.String(),  # what newer Parquet writers and readers give (tpchgen-cli, DataFusion)
    pa.binary(): dt.Binary(),
    pa.large_binary(): dt.Binary(),
    pa.binary_view(): dt.Binary(),
    pa.date32(): dt.Date(),
    pa.date64(): dt.Date(),
}


def _dtype_of_arrow(t: pa.DataType, path: str, hint: dt.DType | None = None) -> dt.DType:
    """The logical type of an Arrow type; an all-NULL (``null``) type takes ``hint``, the target's."""
    if pa.types.is_null(t) and hint is not None:
        return hint
    if t in _ARROW_ATOMIC:
        return _ARROW_ATOMIC[t]
    if pa.types.is_decimal(t) and t.precision <= dt.MAX_DECIMAL_PRECISION:
        return dt.Decimal(t.precision, t.scale)
    if pa.types.is_timestamp(t):
        return dt.Datetime() if t.tz is not None else dt.DatetimeNTZ()
    if pa.types.is_duration(t):
        return dt.Duration()
    if pa.types.is_dictionary(t):
        return _dtype_of_arrow(t.value_type, path, hint)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        inner = hint.inner if isinstance(hint, dt.List) else None
        return dt.List(_dtype_of_arrow(t.value_type, f"{path}[]", inner), t.value_field.nullable)
    if pa.types.is_map(t):
        key = _dtype_of_arrow(t.key_type, f"{path}{{key}}")
        value = hint.value if isinstance(hint, dt.Map) else None
        if isinstance(key, dt.String):
            return dt.Map(key, _dtype_of_arrow(t.item_type, f"{path}{{value}}", value), t.item_field.nullable)
    if pa.types.is_struct(t):
        wanted = {f.name.lower(): f.dtype for f in hint.fields} if isinstance(hint, dt.Struct) else {}
        fields = tuple(
            dt.Field(f.name, _dtype_of_arrow(f.type, f"{path}.{f.name}", wanted.get(f.name.lower())), f.nullable)
            for f in t
        )
        return dt.Struct(fields)
    msg = f"column {path!r}: Arrow type {t} has no Spark mapping in pydantable-spark"
    raise UnsupportedTypeError(msg)


def _observed(f: dt.Field, column: pa.ChunkedArray[Any] | pa.Array[Any]) -> dt.Field:
    """``f`` with nullability narrowed to what the data shows (no NULLs → not nullable)."""
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    nullable = f.nullable and array.null_count > 0
    dtype = f.dtype
    if isinstance(dtype, dt.Struct) and isinstance(array, pa.StructArray):
        # the fields of the structs that are there (``flatten`` makes a field NULL where its struct is)
        parts = (array.filter(array.is_valid()) if array.null_count else array).flatten()
        dtype = dt.Struct(tuple(_observed(sub, part) for sub, part in zip(dtype.fields, parts, strict=True)))
    elif isinstance(dtype, dt.Map) and isinstance(array, pa.MapArray):
        value = _observed(dt.Field("", dtype.value, dtype.value_contains_null), array.items)
        dtype = dt.Map(dtype.key, value.dtype, value.nullable)
    elif isinstance(dtype, dt.List) and isinstance(array, pa.ListArray | pa.LargeListArray | pa.FixedSizeListArray):
        inner = _observed(dt.Field("", dtype.inner, dtype.contains_null), array.flatten())
        dtype = dt.List(inner.dtype, inner.nullable)
    return dt.Field(f.name, dtype, nullable)


def arrow_table_from(
    table: pa.Table,
    target: Schema,
    *,
    allow_lossy: Selection = False,
    null_check: Selection = False,
    absent: Collection[str] = (),
) -> tuple[pa.Table, Reconciliation]:
    """``table`` reconciled strictly with ``target``: renamed, reordered, cast, NULL-checked.

    ``absent`` names target columns the table may lack (``annotations.may_be_absent``:
    Optional fields with the default None, the readers' rule); a missing one is NULL.
    """
    have = {name.lower() for name in table.column_names}
    for wanted in target:
        if wanted.name in absent and wanted.name.lower() not in have:  # a case twin is reconcile's to judge
            missing = pa.array([None] * table.num_rows, type=arrow_type(wanted.dtype))
            table = table.append_column(pa.field(wanted.name, missing.type), missing)
    fields = _source_fields(table.schema, target)
    source = [_observed(f, column) for f, column in zip(fields, table.columns, strict=True)]
    reconciliation = reconcile(
        source, target, allow_lossy=allow_lossy, null_check=null_check, values_checked=True, exact_fields=True
    )
    arrays = []
    for match in reconciliation.columns:
        column = table.column(match.source.name)
        if match.null_check and column.null_count:
            msg = (
                f"column {match.result.name!r} holds {column.null_count} NULL(s) but the model declares "
                "it non-null (null_check)"
            )
            raise RowValidationError(msg)
        safe = not selected(allow_lossy, match.result.name)
        target_type = arrow_type(match.result.dtype)
        # cast to the type with every inner field nullable (Arrow's cast refuses a non-null field that holds
        # NULLs under NULL structs, which reconcile has judged already), then relabel: the same layout
        loose = _loosened(target_type)
        try:
            cast = pc.cast(column, loose, safe=safe) if column.type != loose else column
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as error:
            msg = f"column {match.result.name!r}: cannot convert Arrow {column.type} to {target_type}: {error}"
            raise RowValidationError(msg) from error
        if loose != target_type:
            cast = pa.chunked_array([chunk.view(target_type) for chunk in cast.chunks], type=target_type)  # type: ignore[call-overload]
        arrays.append(cast)
    return pa.Table.from_arrays(arrays, schema=arrow_schema(reconciliation.schema)), reconciliation


def _loosened(t: pa.DataType) -> pa.DataType:
    """``t`` with every field inside it nullable (map keys stay non-null, as Arrow's maps have them)."""
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _loosened(f.type), True) for f in t])
    if pa.types.is_map(t):
        item: Any = pa.field(t.item_field.name, _loosened(t.item_type), True)  # pyarrow takes a field, its stubs not
        return pa.map_(t.key_type, item)
    if pa.types.is_large_list(t):
        return pa.large_list(pa.field(t.value_field.name, _loosened(t.value_type), True))
    if pa.types.is_list(t):
        return pa.list_(pa.field(t.value_field.name, _loosened(t.value_type), True))
    return t


def _source_fields(schema: pa.Schema, target: Schema) -> list[dt.Field]:
    """Arrow fields as logical fields; all-NULL (``null``-typed) parts take the target's types."""
    out = []
    for f in schema:
        wanted = target.get(f.name) or next((t for t in target if t.name.lower() == f.name.lower()), None)
        out.append(dt.Field(f.name, _dtype_of_arrow(f.type, f.name, wanted.dtype if wanted else None), f.nullable))
    return out


def arrow_of_pandas(frame: Any) -> pa.Table:
    """A pandas DataFrame as an Arrow table (index left out); a column Arrow cannot type is a ``RowValidationError``.

    NaN is a value, as in ``from_rows`` and ``from_arrow``: a float column
    keeps its NaNs (Arrow's ``from_pandas`` would make them NULL), and only
    ``None``, ``pd.NA`` and ``NaT`` become NULL. In a column of another type
    (strings in an ``object`` column, ...) pandas' NaN can only mean missing,
    and is NULL. An ``object`` column mixing Python types (``["a", 3]``) has
    no Arrow type: the error names the column and says what Arrow met.
    """
    names = [str(name) for name in frame.columns]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        msg = (
            f"from_pandas: column name(s) {', '.join(map(repr, repeated))} appear more than once; a frame's "
            "columns need distinct names (rename them first, e.g. frame.columns = [...])"
        )
        raise RowValidationError(msg)
    try:
        table = pa.Table.from_pandas(frame, preserve_index=False)
    except OverflowError as error:  # Python ints beyond 64 bits in an object column: Arrow does not say which
        column = next((name for name in frame.columns if _overflows(frame[name])), None)
        named = f"column {column!r}" if column is not None else "a column"
        msg = (
            f"from_pandas: {named} holds an integer beyond 64 bits ({error}), which no Spark integer type "
            "holds; convert it to Decimal (a decimal column) or str first"
        )
        raise RowValidationError(msg) from error
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as error:
        reason, *where = error.args if len(error.args) > 1 else (str(error),)
        column = next((w for w in where if isinstance(w, str)), "")
        found = re.search(r"column (\S+) with type (\S+)", column)
        named = f"column {found.group(1)!r} (pandas dtype {found.group(2)})" if found else "a column"
        msg = (
            f"from_pandas: {named} cannot become an Arrow column: {reason}. An object column must hold one "
            "Python type (and None); convert it first, e.g. frame[col].astype(str)"
        )
        raise RowValidationError(msg) from error
    return _with_nans(frame, table)


def _overflows(values: Any) -> bool:
    """Whether a pandas column holds a Python int beyond 64 bits."""
    return bool(values.dtype == object) and any(type(v) is int and not -(2**63) <= v < 2**64 for v in values.tolist())


_POLARS_HINTS = {
    "UInt64": "cast it to Int64 if its values fit (frame.cast({COLUMN: pl.Int64})), else to Decimal",
    "UInt128": "cast it to Decimal (frame.cast({COLUMN: pl.Decimal(38, 0)}))",
    "Int128": "cast it to Int64 if its values fit, else to Decimal (frame.cast({COLUMN: pl.Decimal(38, 0)}))",
    "Time": "Spark 4.3 has no time-of-day type in pydantable-spark yet: cast it to a duration or a string",
    "Object": "a Polars Object column holds Python objects Arrow cannot carry: convert it to a typed column",
}
"""What to do with a Polars column type that has no Spark mapping, by its Polars type name."""


def arrow_of_polars(frame: Any) -> pa.Table:
    """A Polars DataFrame as an Arrow table; a column type with no Spark mapping is named, with what to do."""
    for name, dtype in frame.schema.items():
        kind = type(dtype).__name__ if not isinstance(dtype, type) else dtype.__name__
        hint = _POLARS_HINTS.get(kind)
        if hint is not None:
            what = hint.replace("COLUMN", repr(name))
            msg = f"from_polars: column {name!r} is Polars {dtype}, which has no Spark type: {what}"
            raise UnsupportedTypeError(msg)
    try:
        return frame.to_arrow()  # type: ignore[no-any-return]
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as error:
        msg = f"from_polars: the frame cannot become Arrow data: {error}"
        raise UnsupportedTypeError(msg) from error


def _with_nans(frame: Any, table: pa.Table) -> pa.Table:
    """``table`` with the NaNs of ``frame``'s float columns back (``Table.from_pandas`` made them NULL)."""
    arrays: list[Any] = list(table.columns)
    changed = False
    for index, f in enumerate(table.schema):
        if not pa.types.is_floating(f.type) or not arrays[index].null_count:
            continue
        values = frame.iloc[:, index]
        if isinstance(values.dtype, np.dtype) and values.dtype.kind == "f":  # NaN is its only NULL-like value
            arrays[index] = pa.array(values.to_numpy(), type=f.type, from_pandas=False)
        elif values.dtype == object:
            arrays[index] = pa.array(list(values), type=f.type, from_pandas=False)
        else:
            continue
        changed = True
    return pa.Table.from_arrays(arrays, schema=table.schema) if changed else table
