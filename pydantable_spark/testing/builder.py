"""``build_frame``: a validated test frame from partial rows, every other column filled with a valid value."""

from __future__ import annotations

import copy
import datetime
import decimal
import enum
import math
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import column_name, field_of_annotation
from pydantable_spark.constructors import schema_of_model
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, RowValidationError, UnknownColumnError
from pydantable_spark.expr.core import check_param
from pydantable_spark.frame import DataFrame
from pydantable_spark.testing.rows import spell

__all__ = ["ModelKeys", "build_frame", "check_keys", "check_rows"]

M = TypeVar("M", bound=BaseModel)


def build_frame(model: type[M], rows: Sequence[Mapping[str, Any]] | int, /, **defaults: Any) -> DataFrame[M]:
    """A validated frame of ``model`` from rows that give only the columns a test is about.

    Each column a row leaves out takes, in this order: the keyword argument of
    that name (the same value for every row), the model's own default, or a
    placeholder that passes the field's type, nullability and constraints:

    * ``None`` for a nullable field (``T | None``);
    * ``False``, ``0``, ``0.0``, ``Decimal(0)``, ``""``, ``b""``, the epoch
      (``1970-01-01``, at UTC for aware timestamps), ``timedelta(0)``, ``[]``,
      ``{}`` for the other types; the first value of a ``Literal`` and the first
      member of an ``Enum``; a nested model is built the same way, field by field;
    * under constraints, the first of a few deterministic values that passes
      them: a bound (``Field(ge=5)`` gives 5, ``gt=5`` gives 6, ``lt=0`` gives -1),
      the next multiple (``multiple_of``), the middle of an interval, ``"a" * n``
      for ``min_length=n`` (``n`` copies of the element's placeholder for lists).

    Given values are completed too: a partial dict for a nested model (in a
    list or a map as well) gets its missing fields the same way. The rows are
    then validated by Pydantic as ``Model.from_rows`` validates them.

    The name follows the factories of test-data libraries (factory_boy's and
    polyfactory's ``build``): build an object, filling whatever the test does not
    specify; ``from_rows`` stays the constructor that wants every column.

    ```pycon
    >>> from typing import Literal
    >>> from pydantic import Field
    >>> from pydantable_spark import DataFrameModel
    >>> class Order(DataFrameModel):
    ...     id: int
    ...     qty: int = Field(ge=1)
    ...     code: str = Field(min_length=3)
    ...     status: Literal["new", "paid"]
    ...     tags: list[str] = Field(min_length=1)
    ...     note: str | None
    >>> orders = build_frame(Order, [{"id": 1}, {"id": 2, "qty": 5}], status="paid")
    >>> orders
    DataFrame[Order](id: int, qty: int, code: str, status: str, tags: list[str], note: str | None)
    >>> for row in orders.collect():
    ...     print(row)
    id=1 qty=1 code='aaa' status='paid' tags=[''] note=None
    id=2 qty=5 code='aaa' status='paid' tags=[''] note=None

    ```

    Args:
        model: The row model (a ``DataFrameModel`` or another Pydantic model).
        rows: Partial rows (dicts keyed by column names, or by field names where the model
            accepts them), or a number of rows made of defaults and placeholders only.
        **defaults: Values for columns the rows leave out, the same in every row.

    Returns:
        ``DataFrame[model]``, with the model's schema.

    Raises:
        ArgumentTypeError: ``model``, ``rows`` or a row of the wrong type (a ``TypeError``), named.
        UnknownColumnError: A row key or a keyword that is not a column of the model.
        RowValidationError: A row (or a nested dict) that gives a field twice, by its column name
            and its field name, as ``from_rows`` refuses it; or a row, completed, that fails the
            model's validation.
        ValueError: No placeholder passes a field's constraints (a ``pattern``, say); the message
            names the field and how to give it a value. Also for a negative number of rows.

    """
    what = "build_frame()"
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        msg = f"{what}: model must be a Pydantic model class (a DataFrameModel), got {model!r} ({type(model).__name__})"
        raise ArgumentTypeError(msg)
    schema_of_model(model)  # a model with forward references is completed here, or its error raised
    given = check_rows(ModelKeys.of(model), rows, defaults)
    builder = _Builder(model)
    filled = [
        builder.fill(model, row, (model.__name__,), defaults=defaults, where=f"rows[{i}]")
        for i, row in enumerate(given)
    ]
    return DataFrame.from_rows(filled, model)


def _given_rows(what: str, rows: object) -> list[Mapping[str, Any]]:
    if isinstance(rows, int) and not isinstance(rows, bool):
        if rows < 0:
            msg = f"{what}: the number of rows must be >= 0, got {rows}"
            raise ArgumentValueError(msg)
        return [{} for _ in range(rows)]
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence):
        msg = f"{what}: rows must be a list of dicts (partial rows) or a number of rows"
        msg += f", got {rows!r} ({type(rows).__name__})"
        raise ArgumentTypeError(msg)
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            msg = f"{what}: rows[{i}] must be a dict of column values, got {row!r} ({type(row).__name__})"
            raise ArgumentTypeError(msg)
        for key in row:
            check_param(what, f"a key of rows[{i}]", key, str)
    return list(rows)


@dataclass(frozen=True, slots=True)
class ModelKeys:
    """What a row of a model may be keyed by: its column names and its field names.

    ``pairs`` holds (field name, column name) for the fields whose column is an
    alias: a row may give such a field by either name, but not by both. The
    mypy plugin makes one from the static model (``_mypy.testing``) and runs
    ``check_rows`` with it, so a row key the model lacks is reported by mypy
    with the runtime's message.
    """

    model: str
    columns: tuple[str, ...]
    fields: frozenset[str]
    pairs: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, model: type[BaseModel]) -> ModelKeys:
        """The keys of a runtime model class."""
        columns = tuple(column_name(n, i) for n, i in model.model_fields.items())
        pairs = tuple((n, c) for n, c in zip(model.model_fields, columns, strict=True) if n != c)
        return cls(model.__name__, columns, frozenset(model.model_fields), pairs)


def check_keys(keys: ModelKeys, given: Mapping[str, Any], where: str) -> None:
    """Every key of ``given`` is a column or a field of the model, and no aliased field is given twice."""
    for key in given:
        if key not in keys.columns and key not in keys.fields:
            raise UnknownColumnError(key, list(keys.columns), where=f"{where} (model {keys.model})")
    for name, column in keys.pairs:
        if column in given and name in given:  # from_rows refuses the second as well
            msg = (
                f"{where} (model {keys.model}) gives field {name!r} twice: as its column name {column!r} "
                f"({given[column]!r}) and as its field name {name!r} ({given[name]!r}); give it once"
            )
            raise RowValidationError(msg)


def check_rows(keys: ModelKeys, rows: object, defaults: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``build_frame``'s checks of its rows and keywords before it fills them: the given rows.

    Raises:
        ArgumentTypeError: ``rows`` or a row of the wrong type, named.
        ArgumentValueError: A negative number of rows.
        UnknownColumnError: A row key or a keyword that is not a column of the model.
        RowValidationError: A row that gives an aliased field by both of its names.

    """
    given = _given_rows("build_frame()", rows)
    check_keys(keys, defaults, "the keyword arguments of build_frame()")
    for i, row in enumerate(given):
        check_keys(keys, row, f"rows[{i}]")
    return given


_SEQUENCES = {list, tuple, set, frozenset, Sequence, typing.Sequence}
_MAPPINGS = {dict, Mapping, typing.Mapping}


def _unwrapped(annotation: Any, metadata: list[Any]) -> tuple[Any, list[Any]]:
    """``annotation`` without ``Annotated[...]``, its metadata added to ``metadata``."""
    while typing.get_origin(annotation) is Annotated:
        base, *extra = typing.get_args(annotation)
        metadata = [
            *metadata,
            *(m for item in extra for m in (item.metadata if isinstance(item, FieldInfo) else [item])),
        ]
        annotation = base
    return annotation, metadata


def _optional(annotation: Any) -> Any | None:
    """The type ``T`` of ``T | None``, or None when ``annotation`` is not optional."""
    if typing.get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) < len(typing.get_args(annotation)) and len(members) == 1:
            return members[0]
    return None


def _bound(metadata: list[Any], name: str) -> Any:
    """The constraint ``name`` (``ge``, ``min_length``, ...) of annotated-types or Pydantic metadata."""
    found = None
    for item in metadata:
        value = getattr(item, name, None)
        if value is not None and not isinstance(item, type):
            found = value
    return found


class _Builder:
    """Fills partial rows of one model; each field's placeholder is derived once."""

    __slots__ = ("_model", "_placeholders")

    def __init__(self, model: type[BaseModel]) -> None:
        self._model = model
        self._placeholders: dict[tuple[str, ...], Any] = {}

    def check_keys(self, model: type[BaseModel], given: Mapping[str, Any], where: str) -> None:
        check_keys(ModelKeys.of(model), given, where)

    def fill(
        self,
        model: type[BaseModel],
        given: Mapping[str, Any],
        path: tuple[str, ...],
        *,
        defaults: Mapping[str, Any] | None = None,
        where: str,
    ) -> dict[str, Any]:
        """``given`` with every missing field of ``model`` filled, and given nested rows completed."""
        self.check_keys(model, given, where)
        out: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            column = column_name(name, info)
            here = (*path, column)
            source = next((s for s in (given, defaults or {}) if column in s or name in s), None)
            if source is not None:
                key = column if column in source else name
                out[key if source is given else column] = self.complete(info.annotation, source[key], here)
            elif info.is_required():
                out[column] = self.placeholder(info.annotation, list(info.metadata), here)
        return out

    def complete(self, annotation: Any, value: Any, path: tuple[str, ...]) -> Any:
        """A given value with the missing fields of the partial dicts it holds for nested models filled."""
        annotation, _ = _unwrapped(annotation, [])
        annotation = _optional(annotation) or annotation
        annotation, _ = _unwrapped(annotation, [])
        origin = typing.get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel) and isinstance(value, Mapping):
            return self.fill(annotation, value, path, where=f"the value of {_dotted(path)}")
        if origin in _SEQUENCES and isinstance(value, list | tuple) and typing.get_args(annotation):
            element = typing.get_args(annotation)[0]
            return [self.complete(element, v, (*path, "[]")) for v in value]
        if origin in _MAPPINGS and isinstance(value, Mapping) and len(typing.get_args(annotation)) == 2:
            inner = typing.get_args(annotation)[1]
            return {k: self.complete(inner, v, (*path, "{value}")) for k, v in value.items()}
        return value

    def placeholder(self, annotation: Any, metadata: list[Any], path: tuple[str, ...]) -> Any:
        """The first of the candidate values for the field at ``path`` that passes its type and constraints."""
        if path not in self._placeholders:
            self._placeholders[path] = self._derive(annotation, metadata, path)
        return copy.deepcopy(self._placeholders[path])

    def _derive(self, annotation: Any, metadata: list[Any], path: tuple[str, ...]) -> Any:
        annotation, metadata = _unwrapped(annotation, metadata)
        if _optional(annotation) is not None:
            return None
        candidates = self._candidates(annotation, metadata, path)
        constrained = Annotated.__class_getitem__((annotation, *metadata)) if metadata else annotation  # type: ignore[attr-defined]
        adapter: TypeAdapter[Any] = TypeAdapter(constrained)
        tried = []
        for candidate in candidates:
            try:
                adapter.validate_python(candidate)
            except ValidationError as error:
                tried.append(f"{spell(candidate)} ({error.errors()[0]['msg']})")
            else:
                return candidate
        raise ValueError(_no_placeholder(self._model, path, annotation, tried))

    def _candidates(self, annotation: Any, metadata: list[Any], path: tuple[str, ...]) -> list[Any]:
        origin = typing.get_origin(annotation)
        if origin is Literal:
            return list(typing.get_args(annotation))
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return list(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [self.fill(annotation, {}, path, where=_dotted(path))]
        count = _bound(metadata, "min_length") or 0
        if origin in _SEQUENCES:
            element = typing.get_args(annotation)[0] if typing.get_args(annotation) else Any
            inner = self.placeholder(element, [], (*path, "[]")) if count else None
            return [[copy.deepcopy(inner) for _ in range(count)]]
        if origin in _MAPPINGS:
            args = typing.get_args(annotation)
            inner = self.placeholder(args[1], [], (*path, "{value}")) if count and args else None
            return [{f"key{i}": copy.deepcopy(inner) for i in range(count)}]
        dtype = field_of_annotation(path[-1], annotation, metadata, path=_dotted(path)).dtype
        if isinstance(dtype, dt.Boolean):
            return [False, True]
        if isinstance(dtype, dt.String):
            return ["a" * count]
        if isinstance(dtype, dt.Binary):
            return [b"a" * count]
        return _ordered_candidates(dtype, metadata)


_STEPS: dict[type[dt.DType], Any] = {
    dt.Date: datetime.timedelta(days=1),
    dt.Datetime: datetime.timedelta(seconds=1),
    dt.DatetimeNTZ: datetime.timedelta(seconds=1),
    dt.Duration: datetime.timedelta(seconds=1),
}
"""How far past an exclusive bound (``gt``, ``lt``) a placeholder goes; 1 for numbers."""


def _ordered_candidates(dtype: dt.DType, metadata: list[Any]) -> list[Any]:
    """The zero value of an ordered type, then values at its bounds, midpoints and multiples."""
    base = dt.example_values(dtype)[0]
    gt, ge, lt, le, multiple = (_bound(metadata, name) for name in ("gt", "ge", "lt", "le", "multiple_of"))
    if isinstance(dtype, dt.Integral):
        low = math.ceil(ge) if ge is not None else (math.floor(gt) + 1 if gt is not None else None)
        high = math.floor(le) if le is not None else (math.ceil(lt) - 1 if lt is not None else None)
    else:
        step = _STEPS.get(type(dtype), 1)
        low = _as(dtype, ge) if ge is not None else (_as(dtype, gt) + step if gt is not None else None)
        high = _as(dtype, le) if le is not None else (_as(dtype, lt) - step if lt is not None else None)
    candidates = [base, low, high]
    lower, upper = (ge if ge is not None else gt), (le if le is not None else lt)
    if isinstance(dtype, dt.Floating | dt.Decimal) and lower is not None and upper is not None:
        candidates.append(_as(dtype, lower) + (_as(dtype, upper) - _as(dtype, lower)) / 2)
    if multiple is not None and isinstance(dtype, dt.Numeric):
        step = _as(dtype, multiple)
        if lower is not None:  # the first multiple inside the lower bound
            k = math.ceil(_as(dtype, lower) / step)
            candidates.append((k + 1 if ge is None and k * step <= _as(dtype, gt) else k) * step)
        if upper is not None:  # the last multiple inside the upper bound
            k = math.floor(_as(dtype, upper) / step)
            candidates.append((k - 1 if le is None and k * step >= _as(dtype, lt) else k) * step)
    return [c for c in candidates if c is not None]


def _as(dtype: dt.DType, value: Any) -> Any:
    """A bound in the field's own number type (a float bound of a decimal field as a decimal)."""
    if isinstance(dtype, dt.Floating):
        return float(value)
    if isinstance(dtype, dt.Decimal):
        return decimal.Decimal(str(value))
    return value


def _dotted(path: tuple[str, ...]) -> str:
    """``("Order", "items", "[]", "sku")`` as ``Order.items[].sku``."""
    return "".join(step if step.startswith(("[", "{")) or i == 0 else f".{step}" for i, step in enumerate(path))


def _no_placeholder(model: type[BaseModel], path: tuple[str, ...], annotation: Any, tried: list[str]) -> str:
    """Why no value could be derived for a field, and how to give one."""
    shown = annotation.__name__ if isinstance(annotation, type) else repr(annotation)
    field = _dotted(path)
    column = path[1]
    if len(path) == 2:
        how = f"give {column!r} a value in every row, or once as build_frame({model.__name__}, rows, {column}=...)"
    else:
        how = f"give {field!r} a value in the rows (a partial dict for {column!r} is completed)"
        how += f" or in build_frame({model.__name__}, rows, {column}=...)"
    return (
        f"build_frame(): no placeholder satisfies the constraints of field {field!r} ({shown}); "
        f"tried {'; '.join(tried) or 'nothing'}; {how}"
    )
