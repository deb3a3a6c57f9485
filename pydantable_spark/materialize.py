"""Results out of Spark: fetched through Arrow, validated column by column, built into rows.

``collect`` fetches the reconciled result with ``toArrow()`` and turns each
Arrow column into Python values in C where it can (dates and timestamps go
through numpy, which is an order of magnitude faster than
``Array.to_pylist()`` for them). Validation then runs once per *column*: one
``TypeAdapter(list[field type])`` call checks every value of a field with the
field's own type, constraints and the model's config. Row objects are made last,
without a second validation, by a small function generated per model (the way
``dataclasses`` writes ``__init__``).

A model whose validation needs a whole row — ``@field_validator``,
``@model_validator``, ``model_post_init``, private attributes — is validated
row by row instead, in batches through one ``TypeAdapter(list[Model])`` call.

All of this runs with the cyclic garbage collector paused: Python object
creation, not the JVM nor pydantic-core, is the cost to beat.
"""

from __future__ import annotations

import copy
import datetime
import decimal
import functools
import gc
import json
import re
import types
import typing
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Union

import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import PydanticUndefined

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import OutOfRangeError, RowValidationError, UnsupportedTypeError
from pydantable_spark.ingest import adapter_for, validation_message

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pydantic.fields import FieldInfo

__all__ = ["BATCH_ROWS", "check_python_range", "loads_deep", "python_columns", "rows_from_arrow", "to_pandas"]

BATCH_ROWS = 65_536
"""Rows converted and validated per batch (bounds the intermediate Python lists)."""

_MAX_REPORTED = 10


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while millions of acyclic objects are made."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# --- values Python cannot hold ----------------------------------------------------------------

_EPOCH = datetime.date(1970, 1, 1)
_FIRST_DAY = (datetime.date.min - _EPOCH).days
_LAST_DAY = (datetime.date.max - _EPOCH).days
_DAY_US = 86_400_000_000
_FIRST_US = _FIRST_DAY * _DAY_US
_LAST_US = (_LAST_DAY + 1) * _DAY_US - 1
_US_PER_UNIT = {"s": 1_000_000, "ms": 1_000, "us": 1}


def _numbers(leaf: pa.Array[Any]) -> tuple[pa.Array[Any], int, int]:
    """A date or timestamp array as its integers, with the integers of years 1 and 9999's ends."""
    if pa.types.is_date32(leaf.type):
        return leaf.view(pa.int32()), _FIRST_DAY, _LAST_DAY
    scale = _US_PER_UNIT.get(leaf.type.unit, 1)
    return leaf.view(pa.int64()), _FIRST_US // scale, _LAST_US // scale


def _leaves_out_of_range(array: pa.Array[Any]) -> pa.Array[Any] | None:
    """The first date/timestamp array inside ``array`` holding a value outside years 1-9999 (None: none)."""
    t = array.type
    if pa.types.is_date32(t) or pa.types.is_timestamp(t):
        if len(array) == array.null_count:
            return None
        numbers, low, high = _numbers(array)
        extremes = pc.min_max(numbers)
        return array if extremes["min"].as_py() < low or extremes["max"].as_py() > high else None
    children: list[pa.Array[Any]] = []
    if pa.types.is_struct(t):
        children = list(array.flatten())  # type: ignore[attr-defined]
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        children = [array.flatten()]  # type: ignore[attr-defined]
    elif pa.types.is_map(t):  # no Arrow kernel flattens a map: seen as the list of entries it is laid out as
        entries = pa.list_(pa.field("entries", pa.struct([t.key_field, t.item_field]), nullable=False))
        children = [array.view(entries).flatten()]  # type: ignore[attr-defined]
    for child in children:
        found_in = _leaves_out_of_range(child)
        if found_in is not None:
            return found_in
    return None


def _shown(leaf: pa.Array[Any]) -> str:
    """The first value of ``leaf`` (a date or timestamp array) outside Python's range, as Arrow prints it."""
    numbers, low, high = _numbers(leaf)
    outside = pc.or_(pc.less(numbers, pa.scalar(low, numbers.type)), pc.greater(numbers, pa.scalar(high, numbers.type)))
    index = pc.index(outside, pa.scalar(True)).as_py()
    return str(pc.cast(leaf.slice(index, 1), pa.string())[0].as_py())


def check_python_range(table: pa.Table, first_row: int = 0) -> None:
    """``OutOfRangeError`` if a date or timestamp of ``table`` (at any depth) is outside years 1-9999.

    Python's ``date``/``datetime`` stop at 9999-12-31, Spark's go on for
    hundreds of thousands of years. Without this check such a value would
    reach Python as a number of days, a wrong date or an ``AttributeError``.
    One vectorized minimum/maximum per column; the row is found by bisection.
    """
    for name in table.column_names:
        column = table.column(name)
        if not _has_temporal(column.type):
            continue
        array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        leaf = _leaves_out_of_range(array)
        if leaf is None:
            continue
        start, stop = 0, len(array)
        while stop - start > 1:  # the first row holding such a value
            middle = (start + stop) // 2
            if _leaves_out_of_range(array.slice(start, middle - start)) is not None:
                stop = middle
            else:
                start = middle
        row_leaf = _leaves_out_of_range(array.slice(start, 1))
        value = _shown(row_leaf if row_leaf is not None else leaf)
        kind = "date" if pa.types.is_date32(leaf.type) else "timestamp"
        where = "" if leaf.type == array.type else " (nested inside the column)"
        python = "datetime.date" if kind == "date" else "datetime.datetime"
        msg = (
            f"column {name!r}, row {first_row + start}: the {kind} {value}{where} is outside the years 1-9999 "
            f"that Python's {python} can hold (Spark's range is wider); filter such rows out or clamp the value "
            "in the plan (F.least/F.greatest), turn it into a string, or take the result as Arrow with "
            "to_arrow(), which holds it exactly"
        )
        raise OutOfRangeError(msg, name, first_row + start)


def _has_temporal(t: pa.DataType) -> bool:
    if pa.types.is_date32(t) or pa.types.is_timestamp(t):
        return True
    if pa.types.is_struct(t):
        return any(_has_temporal(f.type) for f in t)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _has_temporal(t.value_type)
    if pa.types.is_map(t):
        return _has_temporal(t.key_type) or _has_temporal(t.item_type)
    return False


# --- Arrow → Python values -------------------------------------------------------------------


def _has_map(t: pa.DataType) -> bool:
    if pa.types.is_map(t):
        return True
    if pa.types.is_struct(t):
        return any(_has_map(f.type) for f in t)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _has_map(t.value_type)
    return False


def python_values(column: pa.ChunkedArray[Any] | pa.Array[Any]) -> list[Any]:
    """The column's values as Python objects (maps as dicts, timestamps aware in UTC)."""
    t = column.type
    if pa.types.is_date32(t):
        return column.to_numpy(zero_copy_only=False).tolist()  # type: ignore[no-any-return]
    if pa.types.is_timestamp(t):
        wall: list[Any] = column.cast(pa.timestamp("us")).to_numpy(zero_copy_only=False).tolist()
        if t.tz is None:
            return wall
        utc = datetime.timezone.utc  # Spark sends instants in UTC
        return [None if v is None else v.replace(tzinfo=utc) for v in wall]
    if _has_map(t):
        return column.to_pylist(maps_as_pydicts="strict")
    return column.to_pylist()


def python_columns(table: pa.Table, variants: frozenset[str] = frozenset()) -> dict[str, list[Any]]:
    """Column name → Python values, converted as ``python_values`` does (``check_python_range`` first).

    The columns named in ``variants`` hold a VARIANT's JSON text: their values are parsed (``variant_values``).
    """
    check_python_range(table)
    return {
        name: variant_values(values) if name in variants else values
        for name in table.column_names
        for values in (python_values(table.column(name)),)
    }


def variant_values(texts: list[str | None]) -> list[Any]:
    """VARIANT values from their JSON text (``to_json``), as Spark's ``VariantVal.toPython()`` gives them.

    JSON numbers with a fraction or an exponent become ``Decimal`` (a VARIANT
    keeps ``2.5`` exact); a SQL NULL stays ``None``, as does a JSON ``null``.

    >>> variant_values(['{"a":1,"b":[2.5,"x"],"c":null}', None])
    [{'a': 1, 'b': [Decimal('2.5'), 'x'], 'c': None}, None]
    """
    return [None if text is None else _variant_value(text) for text in texts]


def _variant_value(text: str) -> Any:
    try:
        return json.loads(text, parse_float=decimal.Decimal)
    except RecursionError:  # nested deeper than Python's recursion limit lets json.loads go (a VARIANT holds 1,000)
        return loads_deep(text)


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_SPACE = re.compile(r"[ \t\n\r]*")
_WORDS = {"true": True, "false": False, "null": None}


def loads_deep(text: str) -> Any:
    """``json.loads(text, parse_float=Decimal)`` without recursion: JSON nested to any depth.

    >>> loads_deep('{"a": [[1.5, "x"], {}], "b": null}')
    {'a': [[Decimal('1.5'), 'x'], {}], 'b': None}
    """
    open_: list[tuple[list[Any] | dict[str, Any], str | None]] = []  # the containers being read, with a pending key
    pos = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    while True:
        char = text[pos : pos + 1]
        if char in ("[", "{"):  # a container opens: read its first member, or its end
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            if text[pos : pos + 1] in ("]", "}"):
                value: Any = [] if char == "[" else {}
                pos += 1
            else:
                open_.append(([], None) if char == "[" else ({}, None))
                if char == "{":
                    pos = _key(text, pos, open_)
                continue
        elif char == '"':
            value, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
        else:
            number = _NUMBER.match(text, pos)
            word = next((w for w in _WORDS if text.startswith(w, pos)), None)
            if number is not None and number.end() > pos:
                digits = number.group()
                value = decimal.Decimal(digits) if number.group(1) or number.group(2) else int(digits)
                pos = number.end()
            elif word is not None:
                value, pos = _WORDS[word], pos + len(word)
            else:
                msg = f"not JSON at position {pos}: {text[pos : pos + 20]!r}"
                raise ValueError(msg)
        while True:  # the value is read: add it to the container it is in, closing the containers that end here
            if not open_:
                return value
            container, key = open_[-1]
            if isinstance(container, list):
                container.append(value)
            else:
                container[key] = value  # type: ignore[index]
            pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
            if text[pos : pos + 1] == ",":
                pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                if isinstance(container, dict):
                    pos = _key(text, pos, open_)
                break
            if text[pos : pos + 1] not in ("]", "}"):
                msg = f"not JSON at position {pos}: {text[pos : pos + 20]!r}"
                raise ValueError(msg)
            value, pos = open_.pop()[0], pos + 1


def _key(text: str, pos: int, open_: list[tuple[list[Any] | dict[str, Any], str | None]]) -> int:
    """Read an object's key and its ``:`` at ``pos``; the key waits on the innermost container."""
    if text[pos : pos + 1] != '"':
        msg = f"not JSON at position {pos}: {text[pos : pos + 20]!r}"
        raise ValueError(msg)
    key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if text[pos : pos + 1] != ":":
        msg = f"not JSON at position {pos}: {text[pos : pos + 20]!r}"
        raise ValueError(msg)
    open_[-1] = (open_[-1][0], key)
    return _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]


# --- building rows ----------------------------------------------------------------------------


def _needs_whole_rows(model: type[BaseModel]) -> bool:
    decorators = model.__pydantic_decorators__
    return bool(
        decorators.field_validators
        or decorators.model_validators
        or decorators.validators
        or decorators.root_validators
        or model.__pydantic_post_init__
        or model.__private_attributes__
    )


def _instance_builder(model: type[BaseModel], attributes: tuple[str, ...]) -> Callable[[list[list[Any]]], list[Any]]:
    """A function making ``model`` instances from equally long columns, without validation.

    The generated loop sets what ``BaseModel.model_construct`` sets (the field
    dict, the set of fields given, the extras, the private attributes' defaults)
    through the slot descriptors. The fields-given set is shared: it already holds every
    field, so pydantic's ``add`` on assignment never changes it.
    """
    names = ", ".join(f"v{i}" for i in range(len(attributes)))
    fields = ", ".join(f"{name!r}: v{i}" for i, name in enumerate(attributes))
    source = (
        "def build(columns):\n"
        "    out = []\n"
        "    append = out.append\n"
        f"    for {names}, in zip(*columns):\n"
        "        instance = new(model)\n"
        f"        set_dict(instance, {{{fields}}})\n"
        "        set_fields_set(instance, fields_set)\n"
        "        set_extra(instance, extra)\n"
        f"        set_private(instance, {'private()' if model.__private_attributes__ else 'None'})\n"
        "        append(instance)\n"
        "    return out\n"
    )
    slots = BaseModel.__dict__
    namespace: dict[str, Any] = {
        "new": object.__new__,
        "model": model,
        "set_dict": slots["__dict__"].__set__,
        "set_fields_set": slots["__pydantic_fields_set__"].__set__,
        "set_extra": slots["__pydantic_extra__"].__set__,
        "set_private": slots["__pydantic_private__"].__set__,
        "fields_set": set(attributes),
        "extra": {} if model.model_config.get("extra") == "allow" else None,
        "private": functools.partial(_private_defaults, model),
    }
    exec(compile(source, f"<pydantable-spark builder for {model.__name__}>", "exec"), namespace)
    return namespace["build"]  # type: ignore[no-any-return]


def _private_defaults(model: type[BaseModel]) -> dict[str, Any]:
    """Fresh default values of the model's private attributes (as ``model_construct`` makes them)."""
    values = {}
    for name, attr in model.__private_attributes__.items():
        if attr.default_factory is not None:
            values[name] = attr.default_factory()  # type: ignore[call-arg]
        elif attr.default is not PydanticUndefined:
            values[name] = copy.deepcopy(attr.default)
    return values


@dataclass(frozen=True, slots=True)
class _RowPlan:
    """How to turn the columns of one result into instances of one model."""

    model: type[BaseModel]
    columns: tuple[str, ...]
    build: Callable[[list[list[Any]]], list[Any]]
    validators: tuple[TypeAdapter[list[Any]], ...] | None  # None: validate whole rows
    trusted_converters: tuple[Callable[[Any], Any] | None, ...]
    variants: frozenset[int] = frozenset()
    """The positions of the VARIANT columns, which arrive as JSON text (``variant_values``)."""

    def python(self, batch: pa.Table) -> list[list[Any]]:
        """The batch's columns as Python values (each VARIANT parsed from its JSON text)."""
        columns = [python_values(column) for column in batch.columns]
        return [variant_values(c) if i in self.variants else c for i, c in enumerate(columns)]

    def trusted(self, columns: list[list[Any]]) -> list[Any]:
        prepared = [
            values if convert is None else [convert(v) for v in values]
            for values, convert in zip(columns, self.trusted_converters, strict=True)
        ]
        return self.build(prepared)

    def validated(self, columns: list[list[Any]], offset: int) -> list[Any]:
        if self.validators is None:
            dicts = [dict(zip(self.columns, values, strict=True)) for values in zip(*columns, strict=True)]
            try:
                return adapter_for(self.model).validate_python(dicts)
            except ValidationError as error:
                message = validation_message(error, f"in collected rows for {self.model.__name__}", offset)
                raise RowValidationError(message, error.errors()) from error
        checked: list[list[Any]] = []
        problems: list[tuple[int, str, dict[str, Any]]] = []
        for name, values, adapter in zip(self.columns, columns, self.validators, strict=True):
            try:
                checked.append(adapter.validate_python(values))
            except ValidationError as error:
                for item in error.errors():
                    index, *rest = item["loc"]
                    field = ".".join(str(p) for p in (name, *rest))
                    problems.append((int(index) + offset, field, dict(item)))
        if problems:
            raise RowValidationError(_column_problems(self.model, problems), [p[2] for p in problems])
        return self.build(checked)


def _column_problems(model: type[BaseModel], problems: list[tuple[int, str, dict[str, Any]]]) -> str:
    problems.sort(key=lambda p: p[0])
    lines = [
        f"  - row {row}, field {field!r}: {item['msg']} (got {item.get('input')!r})"
        for row, field, item in problems[:_MAX_REPORTED]
    ]
    more = len(problems) - len(lines)
    tail = f"\n  ... and {more} more" if more > 0 else ""
    head = f"{len(problems)} invalid value(s) in collected rows for {model.__name__}:\n"
    return head + "\n".join(lines) + tail


@functools.lru_cache(maxsize=256)
def _row_plan(model: type[BaseModel], columns: tuple[str, ...]) -> _RowPlan:
    by_column = {(info.alias or name): (name, info) for name, info in model.model_fields.items()}
    missing = [c for c in columns if c not in by_column]
    if missing:  # pragma: no cover - reconciliation guarantees the columns
        msg = f"columns {missing} are not fields of {model.__name__}"
        raise RowValidationError(msg)
    attributes = tuple(by_column[c][0] for c in columns)
    validators: tuple[TypeAdapter[list[Any]], ...] | None = None
    if not _needs_whole_rows(model):
        config = {k: v for k, v in model.model_config.items() if k not in ("title", "extra")}
        validators = tuple(
            TypeAdapter(list[_field_type(by_column[c][1])], config=config)  # type: ignore[arg-type,misc]
            for c in columns
        )
    converters = tuple(_converter(by_column[c][1].annotation) for c in columns)
    variants = frozenset(i for i, c in enumerate(columns) if _is_variant(c, by_column[c][1]))
    return _RowPlan(model, columns, _instance_builder(model, attributes), validators, converters, variants)


def _is_variant(column: str, info: FieldInfo) -> bool:
    """Whether the field is a VARIANT column (``Variant`` or ``Variant | None``)."""
    from pydantable_spark.annotations import field_of_annotation

    try:
        return isinstance(field_of_annotation(column, info.annotation, info.metadata).dtype, dt.Variant)
    except UnsupportedTypeError:  # a plain model's field with no Spark type: not a VARIANT
        return False


def _field_type(info: FieldInfo) -> Any:
    """The field's annotation with its constraints, as one type."""
    if not info.metadata:
        return info.annotation
    return Annotated.__class_getitem__((info.annotation, *info.metadata))  # type: ignore[attr-defined]


def rows_from_arrow(table: pa.Table, model: type[BaseModel], *, trusted: bool = False, first_row: int = 0) -> list[Any]:
    """Instances of ``model`` for every row of ``table`` (columns named as the model's columns).

    Validated by Pydantic unless ``trusted``; see ``DataFrame.collect``. Errors
    number rows from ``first_row`` (the table's place in a stream).
    """
    check_python_range(table, first_row)
    plan = _row_plan(model, tuple(table.column_names))
    out: list[Any] = []
    with _gc_paused():
        for offset in range(0, table.num_rows, BATCH_ROWS):
            batch = table.slice(offset, BATCH_ROWS)
            columns = plan.python(batch)
            out.extend(plan.trusted(columns) if trusted else plan.validated(columns, first_row + offset))
    return out


# --- trusted conversion of nested values ------------------------------------------------------


def _converter(annotation: Any) -> Callable[[Any], Any] | None:
    """How trusted mode turns an Arrow value into the annotation's value (None: as it is)."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _converter(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _converter(inner[0]) if len(inner) == 1 else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        nested = _nested_builder(annotation)
        return lambda v: None if v is None else nested(v)
    if origin in (list, tuple, set, frozenset):
        element = _converter(typing.get_args(annotation)[0])
        if element is not None:
            return lambda v: None if v is None else [element(x) for x in v]
    if origin is dict:
        value = _converter(typing.get_args(annotation)[1])
        if value is not None:
            return lambda v: None if v is None else {k: value(x) for k, x in v.items()}
    return None


def _nested_builder(model: type[BaseModel]) -> Callable[[dict[str, Any]], Any]:
    def make(values: dict[str, Any]) -> Any:
        plan = _row_plan(model, tuple(values))
        return plan.trusted([[v] for v in values.values()])[0]

    return make


# --- pandas ------------------------------------------------------------------------------------


def to_pandas(table: pa.Table) -> Any:
    """A pandas DataFrame where NULL stays distinct from every value.

    Integer and boolean columns use pandas' nullable dtypes (``Int64``,
    ``boolean``); a float column that can hold NULLs uses ``Float64``, in
    which NULL is ``<NA>`` and NaN stays NaN (``from_pandas`` reads them back
    the same way; see docs/nulls.md, "NaN is a value"). Lists, structs and
    maps are Arrow-backed (``pd.ArrowDtype``): a cell is the exact Python
    value (a list holding ``None`` and a 64-bit int stays so; numpy would make
    it float64, and NULL and NaN alike). Dates and timestamps
    outside years 1-9999 raise ``OutOfRangeError`` (``check_python_range``).
    """
    import pandas as pd

    check_python_range(table)
    nullable = {
        pa.int8(): pd.Int8Dtype(),
        pa.int16(): pd.Int16Dtype(),
        pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(),
        pa.bool_(): pd.BooleanDtype(),
    }

    def dtype_of(arrow: pa.DataType) -> Any:
        if pa.types.is_nested(arrow):  # exact values (ints, NULL apart from NaN) where numpy would use float64
            return pd.ArrowDtype(arrow)
        return nullable.get(arrow)

    frame = table.to_pandas(types_mapper=dtype_of)
    floats = {pa.float32(): pd.Float32Dtype(), pa.float64(): pd.Float64Dtype()}
    for f in table.schema:
        if f.nullable and f.type in floats:
            frame[f.name] = floats[f.type].__from_arrow__(table.column(f.name))
    return frame
