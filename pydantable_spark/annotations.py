"""Python annotations → logical types (the type mapping, docs/types.md), and the names used to show them.

``field_of_annotation`` reads one Pydantic field; ``fields_of_model`` a whole
model, nested models becoming structs. An annotation with no mapping raises
``UnsupportedTypeError`` naming the field, so a bad model fails when its class
is defined.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, Union

import pydantic
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from pydantable_spark import dtypes as dt
from pydantable_spark.descriptors import is_column_marker
from pydantable_spark.errors import UnsupportedTypeError

__all__ = [
    "Variant",
    "column_comments",
    "column_name",
    "declared_absent",
    "field_of_annotation",
    "fields_of_model",
    "may_be_absent",
    "python_name",
]

Variant = Annotated[Any, dt.Variant]
"""A VARIANT column: ``payload: Variant`` (``Variant | None`` when SQL NULL may occur).

Its Python value is the parsed JSON of the variant (``dict``, ``list``, ``str``,
``int``, ``Decimal``, ``bool`` or ``None`` for a JSON null), as Spark's own
``VariantVal.toPython()`` gives it; rows written in take any JSON-serializable
value. Type checkers see ``Any``.

```pycon
>>> print(field_of_annotation("payload", Variant | None))
payload: variant

```
"""

_SCALARS: dict[Any, dt.DType] = {
    bool: dt.Boolean(),
    int: dt.Int64(),
    float: dt.Float64(),
    str: dt.String(),
    bytes: dt.Binary(),
    decimal.Decimal: dt.Decimal(),
    datetime.datetime: dt.Datetime(),
    pydantic.AwareDatetime: dt.Datetime(),
    pydantic.NaiveDatetime: dt.DatetimeNTZ(),
    datetime.date: dt.Date(),
    datetime.timedelta: dt.Duration(),
}
_SEQUENCES = {list, tuple, set, frozenset, Sequence, typing.Sequence}
_MAPPINGS = {dict, Mapping, typing.Mapping}
_SUPPORTED = (
    "bool, int, float, str, bytes, Decimal, date, datetime, timedelta, str/int Enum, "
    "Literal, list[T], tuple[T, ...], set[T], dict[str, V], nested models, Variant (a top-level column), T | None"
)


def column_name(name: str, info: pydantic.fields.FieldInfo) -> str:
    """The Spark column name of a model field: its alias when it has one."""
    return info.alias if isinstance(info.alias, str) else name


def column_comments(model: type[BaseModel]) -> dict[str, str]:
    """Each column's ``Field(description=...)``, by column name: the comments a write gives the columns.

    >>> from pydantic import BaseModel, Field
    >>> class Order(BaseModel):
    ...     key: int = Field(description="the order key")
    ...     total: float
    >>> column_comments(Order)
    {'key': 'the order key'}
    """
    return {
        column_name(name, info): info.description
        for name, info in model.model_fields.items()
        if isinstance(info.description, str) and info.description
    }


def fields_of_model(model: type[BaseModel], *, _stack: tuple[type, ...] = ()) -> tuple[dt.Field, ...]:
    """The columns of a Pydantic model, in declaration order.

    >>> from pydantic import BaseModel
    >>> class Point(BaseModel):
    ...     x: float
    ...     label: str | None = None
    >>> [str(f) for f in fields_of_model(Point)]
    ['x: double not null', 'label: string']
    """
    if model in _stack:
        chain = " -> ".join(m.__name__ for m in (*_stack, model))
        msg = f"model {model.__name__} refers to itself ({chain}); Spark schemas cannot be recursive"
        raise UnsupportedTypeError(msg)
    out = []
    for name, info in model.model_fields.items():
        path = f"{model.__name__}.{name}"
        if any(is_column_marker(m) for m in info.metadata):
            _check_model_column(model, path, info.annotation)
        out.append(
            field_of_annotation(
                column_name(name, info), info.annotation, info.metadata, path=path, _stack=(*_stack, model)
            )
        )
    return tuple(out)


def _check_model_column(model: type[BaseModel], path: str, annotation: Any) -> None:
    """A ``ModelColumn[T]`` field declares a column: only a ``DataFrameModel`` has columns as class attributes."""
    from pydantable_spark.model import DataFrameModel  # imported here: the model module imports this one

    if not issubclass(model, DataFrameModel):
        shown = getattr(annotation, "__name__", None) or repr(annotation)
        msg = (
            f"field {path!r}: ModelColumn[{shown}] declares a column of a DataFrameModel, but {model.__name__} is a "
            f"plain Pydantic model, whose class attributes are no columns; annotate the field {shown}, or derive "
            f"{model.__name__} from DataFrameModel"
        )
        raise UnsupportedTypeError(msg)


def may_be_absent(model: type[BaseModel]) -> frozenset[str]:
    """The columns of ``model`` that data may lack: Optional fields whose default is ``None``.

    The readers' schema-evolution rule, Pydantic's own: a field with a
    default may be missing from the input; one without is required, Optional
    or not. A column added to a model as ``channel: str | None = None`` reads
    as NULL from data written before it existed.

    >>> from pydantic import BaseModel
    >>> class Event(BaseModel):
    ...     id: int
    ...     note: str | None
    ...     channel: str | None = None
    >>> sorted(may_be_absent(Event))
    ['channel']
    """
    return frozenset(
        column_name(name, info)
        for name, info in model.model_fields.items()
        if not info.is_required() and info.default is None and info.default_factory is None
    )


def declared_absent(model: type[BaseModel], absent: object, action: str) -> frozenset[str]:
    """The column names of a reader's ``absent=``: fields the data lacks on purpose, checked by type and name.

    ``absent`` is a list, tuple or set of field names (a field's Python name or
    its alias); each must name a field of ``model`` that data may lack
    (``may_be_absent``). Such a field reads NULL where the data lacks it even
    when a column no field reads has a near name (``reconcile.check_near_names``).

    >>> from pydantic import BaseModel, Field
    >>> class Event(BaseModel):
    ...     id: int
    ...     chanel: str | None = Field(default=None, alias="chan")
    >>> sorted(declared_absent(Event, ["chanel"], "read_parquet('x')"))
    ['chan']
    >>> declared_absent(Event, ["id"], "read_parquet('x')")
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ArgumentValueError: read_parquet('x'): absent= names 'id', which has no default None: ...
    """
    from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown

    if isinstance(absent, str) or not isinstance(absent, list | tuple | set | frozenset):
        msg = (
            f"{action}: absent= takes a list of field names (absent=['channel']), got {shown(absent)} "
            f"({type(absent).__name__})"
        )
        raise ArgumentTypeError(msg)
    optional = may_be_absent(model)
    columns = {name: column_name(name, info) for name, info in model.model_fields.items()}
    by_name = {**{column: column for column in columns.values()}, **columns}
    chosen = set()
    for item in absent:
        if not isinstance(item, str):
            msg = f"{action}: absent= takes field names (str), got {shown(item)} ({type(item).__name__})"
            raise ArgumentTypeError(msg)
        column = by_name.get(item)
        listing = ", ".join(sorted(optional)) or "(none)"
        if column is None:
            msg = (
                f"{action}: absent= names {item!r}, which is not a field of {model.__name__}; the fields the data "
                f"may lack (Optional with the default None): {listing}"
            )
            raise ArgumentValueError(msg)
        if column not in optional:
            msg = (
                f"{action}: absent= names {item!r}, which has no default None: data without it is an error "
                f"whatever absent= says. Declare it `{item}: ... | None = None` to read NULL where the data lacks "
                f"it; the fields that may be absent: {listing}"
            )
            raise ArgumentValueError(msg)
        chosen.add(column)
    return frozenset(chosen)


def field_of_annotation(
    name: str,
    annotation: Any,
    metadata: Iterable[Any] = (),
    *,
    path: str | None = None,
    _stack: tuple[type, ...] = (),
) -> dt.Field:
    """The column ``name`` typed by a Python ``annotation`` (plus Pydantic ``metadata``).

    >>> from typing import Annotated
    >>> str(field_of_annotation("n", Annotated[int, dt.Int32] | None))
    'n: int'
    """
    dtype, nullable = _parse(annotation, list(metadata), path or name, _stack)
    if dt.contains_variant(dtype) and not isinstance(dtype, dt.Variant):
        raise _unsupported(
            path or name, annotation, f"a VARIANT inside {dtype} is not supported yet: only a column may be a Variant"
        )
    return dt.Field(name, dtype, nullable)


def _unsupported(path: str, annotation: Any, why: str = "") -> UnsupportedTypeError:
    shown = getattr(annotation, "__name__", None) or repr(annotation)
    reason = f" ({why})" if why else ""
    msg = f"field {path!r}: annotation {shown} has no Spark type{reason}; supported: {_SUPPORTED}"
    return UnsupportedTypeError(msg)


def _parse(annotation: Any, metadata: list[Any], path: str, stack: tuple[type, ...]) -> tuple[dt.DType, bool]:
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        base, *extra = typing.get_args(annotation)
        expanded = [m for item in extra for m in (item.metadata if isinstance(item, FieldInfo) else [item])]
        return _parse(base, [*metadata, *expanded], path, stack)
    if origin in (Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) != 1:
            raise _unsupported(path, annotation, "a union of several types")
        dtype, _ = _parse(members[0], metadata, path, stack)
        return dtype, True
    if annotation is Any and any(m is dt.Variant or isinstance(m, dt.Variant) for m in metadata):
        return dt.Variant(), False  # the Variant annotation: Annotated[Any, dt.Variant]
    dtype = _parse_base(annotation, origin, path, stack)
    return _apply_markers(dtype, annotation, metadata, path), False


def _parse_base(annotation: Any, origin: Any, path: str, stack: tuple[type, ...]) -> dt.DType:
    if annotation is None or annotation is type(None):
        raise _unsupported(path, annotation, "a column cannot only hold None")
    scalar = _scalar(annotation)
    if scalar is not None:
        return scalar
    if annotation in (list, tuple, set, frozenset, dict):
        raise _unsupported(path, annotation, "give the element type, e.g. list[int] or dict[str, int]")
    if origin is Literal:
        return _literal_type(annotation, path)
    if origin in _SEQUENCES:
        return _sequence_type(annotation, origin, path, stack)
    if origin in _MAPPINGS:
        key, value = typing.get_args(annotation) or (Any, Any)
        key_type, key_nullable = _parse(key, [], f"{path} (key)", stack)
        if not isinstance(key_type, dt.String) or key_nullable:
            raise _unsupported(path, annotation, "map keys must be str")
        value_type, value_nullable = _parse(value, [], f"{path} (value)", stack)
        return dt.Map(dt.String(), value_type, value_nullable)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _enum_type(annotation, path)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return dt.Struct(fields_of_model(annotation, _stack=stack), annotation)
    if annotation is datetime.time:
        why = (
            "Spark 4.3's TIME type is a preview it refuses unless spark.sql.timeType.enabled; store a time of day as "
            "a timedelta since midnight, or as a str"
        )
        raise _unsupported(path, annotation, why)
    raise _unsupported(path, annotation)


def _scalar(annotation: Any) -> dt.DType | None:
    try:
        return _SCALARS.get(annotation)
    except TypeError:  # an unhashable annotation is never a scalar
        return None


def _sequence_type(annotation: Any, origin: Any, path: str, stack: tuple[type, ...]) -> dt.DType:
    args = typing.get_args(annotation)
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        raise _unsupported(path, annotation, "use tuple[T, ...] for a homogeneous array")
    if not args:
        raise _unsupported(path, annotation, "give the element type, e.g. list[int]")
    inner, inner_nullable = _parse(args[0], [], f"{path}[]", stack)
    return dt.List(inner, inner_nullable)


def _literal_type(annotation: Any, path: str) -> dt.DType:
    values = typing.get_args(annotation)
    for kinds, dtype in (((str,), dt.String()), ((bool,), dt.Boolean()), ((int,), dt.Int64())):
        if all(type(v) in kinds for v in values):
            return dtype
    raise _unsupported(path, annotation, "Literal values must all be str, all int or all bool")


def _enum_type(annotation: type[enum.Enum], path: str) -> dt.DType:
    values = [m.value for m in annotation]
    if values and all(isinstance(v, str) for v in values):
        return dt.String()
    if values and all(type(v) is int for v in values):
        return dt.Int64()
    raise _unsupported(path, annotation, "enum values must all be str or all be int")


def _decimal_marker(metadata: list[Any]) -> dt.Decimal | None:
    """Precision and scale from Pydantic's ``max_digits`` / ``decimal_places`` constraints."""
    digits = places = None
    for item in metadata:
        digits = _attribute(item, "max_digits", digits)
        places = _attribute(item, "decimal_places", places)
    if digits is None and places is None:
        return None
    return dt.Decimal(digits or dt.MAX_DECIMAL_PRECISION, places or 0)


def _attribute(item: Any, name: str, default: int | None) -> int | None:
    value = getattr(item, name, None)
    return default if value is None else int(value)


def _apply_markers(dtype: dt.DType, annotation: Any, metadata: list[Any], path: str) -> dt.DType:
    if isinstance(dtype, dt.Decimal):
        dtype = _decimal_marker(metadata) or dtype
    for item in metadata:
        marker = item() if isinstance(item, type) and issubclass(item, dt.DType) else item
        if not isinstance(marker, dt.DType):
            continue
        if python_name(marker, nullable=False) != python_name(dtype, nullable=False):
            shown = getattr(annotation, "__name__", repr(annotation))
            msg = (
                f"field {path!r}: marker {type(marker).__name__} ({marker}) does not fit "
                f"annotation {shown} ({dtype}); use it on a {python_name(marker, nullable=False)} field"
            )
            raise UnsupportedTypeError(msg)
        dtype = marker
    return dtype


_PYTHON_NAMES: dict[type[dt.DType], str] = {
    dt.Boolean: "bool",
    dt.Int8: "int",
    dt.Int16: "int",
    dt.Int32: "int",
    dt.Int64: "int",
    dt.Float32: "float",
    dt.Float64: "float",
    dt.Decimal: "Decimal",
    dt.String: "str",
    dt.Binary: "bytes",
    dt.Date: "date",
    dt.Datetime: "datetime",
    dt.DatetimeNTZ: "datetime",
    dt.Duration: "timedelta",
    dt.Variant: "Variant",
}


def python_name(dtype: dt.DType, *, nullable: bool) -> str:
    """How the type reads as a Python annotation, e.g. ``"list[int | None]"``.

    >>> python_name(dt.List(dt.Int64(), True), nullable=True)
    'list[int | None] | None'
    """
    if isinstance(dtype, dt.List):
        base = f"list[{python_name(dtype.inner, nullable=dtype.contains_null)}]"
    elif isinstance(dtype, dt.Map):
        value = python_name(dtype.value, nullable=dtype.value_contains_null)
        base = f"dict[{python_name(dtype.key, nullable=False)}, {value}]"
    elif isinstance(dtype, dt.Struct):
        model = dtype.model
        base = "struct" if model is None else getattr(model, "__name__", str(model).rpartition(".")[2])
    else:
        base = _PYTHON_NAMES[type(dtype)]
    return f"{base} | None" if nullable else base
