"""Results out of Spark: reconciled, fetched through Arrow, validated in batches.

``collect`` lowers the plan, passes the result through the strict
reconciliation gate and ``DataFrame.to(schema)``, fetches it with ``toArrow()``
and turns the Arrow columns into row models. Validation runs a whole batch of
rows through one ``TypeAdapter(list[Model])`` call with the garbage collector
paused; per-row ``model_validate`` calls and pandas are avoided (pandas turns
an ``int | None`` column into floats).
"""

from __future__ import annotations

import functools
import gc
import types
import typing
from contextlib import contextmanager
from typing import Annotated, Any, Union

import pyarrow as pa
from pydantic import BaseModel, ValidationError

from pydantable_spark.errors import RowValidationError
from pydantable_spark.ingest import adapter_for, validation_message

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["BATCH_ROWS", "rows_from_arrow", "to_pandas"]

BATCH_ROWS = 65_536
"""Rows converted and validated per batch (bounds the intermediate dicts)."""


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: creating millions of objects otherwise triggers it often."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _columns(table: pa.Table) -> list[list[Any]]:
    return [column.to_pylist(maps_as_pydicts="strict") for column in table.columns]


def rows_from_arrow(table: pa.Table, model: type[BaseModel], *, trusted: bool = False) -> list[Any]:
    """Row models for every row of ``table`` (columns named as the model's columns).

    Validated by Pydantic unless ``trusted``; see ``DataFrame.collect``.
    """
    names = table.column_names
    out: list[Any] = []
    build = _constructor(model) if trusted else None
    adapter = adapter_for(model)
    with _gc_paused():
        for offset in range(0, table.num_rows, BATCH_ROWS):
            batch = _columns(table.slice(offset, BATCH_ROWS))
            if build is not None:
                out.extend(build(names, batch))
                continue
            dicts = [dict(zip(names, values, strict=True)) for values in zip(*batch, strict=True)]
            try:
                out.extend(adapter.validate_python(dicts))
            except ValidationError as error:
                message = validation_message(error, f"in collected rows for {model.__name__}", offset)
                raise RowValidationError(message, error.errors()) from error
    return out


# --- trusted construction ---------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _constructor(model: type[BaseModel]) -> Callable[[list[str], list[list[Any]]], list[Any]]:
    """A function building ``model`` instances from columns without validation."""
    by_column = {(info.alias or name): name for name, info in model.model_fields.items()}
    converters = {(info.alias or name): _converter(info.annotation) for name, info in model.model_fields.items()}
    make = _instance_factory(model)

    def build(names: list[str], columns: list[list[Any]]) -> list[Any]:
        keys = [by_column.get(n, n) for n in names]
        prepared = [
            column if converters.get(n) is None else [converters[n](v) for v in column]  # type: ignore[misc]
            for n, column in zip(names, columns, strict=True)
        ]
        return [make(dict(zip(keys, values, strict=True))) for values in zip(*prepared, strict=True)]

    return build


def _instance_factory(model: type[BaseModel]) -> Callable[[dict[str, Any]], Any]:
    if model.__private_attributes__:
        return lambda values: model.model_construct(**values)
    fields_set = set(model.model_fields)
    new = object.__new__
    setattr_ = object.__setattr__

    def make(values: dict[str, Any]) -> Any:
        instance = new(model)
        setattr_(instance, "__dict__", values)
        setattr_(instance, "__pydantic_fields_set__", fields_set)
        setattr_(instance, "__pydantic_extra__", None)
        setattr_(instance, "__pydantic_private__", None)
        return instance

    return make


def _converter(annotation: Any) -> Callable[[Any], Any] | None:
    """How to turn an Arrow value into the annotation's Python value (None: as it is)."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _converter(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _converter(inner[0]) if len(inner) == 1 else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        nested = _nested_factory(annotation)
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


def _nested_factory(model: type[BaseModel]) -> Callable[[dict[str, Any]], Any]:
    build = _constructor(model)

    def make(values: dict[str, Any]) -> Any:
        return build(list(values), [[v] for v in values.values()])[0]

    return make


# --- pandas ------------------------------------------------------------------------------------


def to_pandas(table: pa.Table) -> Any:
    """A pandas DataFrame where integer and boolean columns with NULLs stay integers and booleans."""
    import pandas as pd

    nullable = {
        pa.int8(): pd.Int8Dtype(),
        pa.int16(): pd.Int16Dtype(),
        pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(),
        pa.bool_(): pd.BooleanDtype(),
    }
    return table.to_pandas(types_mapper=nullable.get)
