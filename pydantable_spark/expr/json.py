"""JSON text typed by models: ``F.from_json(col, Model)``.

The schema of the JSON is a Pydantic model the user already has (a
``DataFrameModel`` or a plain ``BaseModel``), or a ``dtypes`` struct, list or
map. The result is typed as Spark's analyzer types it: the model's struct with
every field nullable, itself nullable (``from_json`` reads any field as
missing, and a NULL text as NULL).

A record that is not JSON of the schema follows the ``mode`` option:
``"PERMISSIVE"`` (the default, as in Spark) gives a struct whose fields are all
NULL; ``"FAILFAST"`` fails the job with ``MalformedDataError`` naming the
column and the record. No other option value reaches Spark as SQL: options
are string literals in a ``map``.

```pycon
>>> from pydantic import BaseModel
>>> from pydantable_spark import F
>>> class Address(BaseModel):
...     city: str
...     zip: int | None = None
>>> F.from_json("payload", Address)
Expr[?](F.from_json(payload, Address))
>>> F.from_json("payload", Address, {"mode": "DROPMALFORMED"})
Traceback (most recent call last):
...
pydantable_spark.errors.ArgumentValueError: F.from_json(): options['mode'] is 'DROPMALFORMED'; from_json takes ...

```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.api import Expr, into_node
from pydantable_spark.expr.core import Node, Typed, describe
from pydantable_spark.expr.options import option_pairs

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantable_spark.expr.api import Col

__all__ = ["FromJson", "as_nullable", "from_json"]

M = TypeVar("M", bound=BaseModel)

_MODES = ("PERMISSIVE", "FAILFAST")
_RESERVED = ("columnnameofcorruptrecord",)


def as_nullable(dtype: dt.DType) -> dt.DType:
    """``dtype`` with every nested field, element and value nullable (Spark's ``asNullable``)."""
    if isinstance(dtype, dt.Struct):
        return dt.Struct(tuple(dt.Field(f.name, as_nullable(f.dtype), True) for f in dtype.fields))
    if isinstance(dtype, dt.List):
        return dt.List(as_nullable(dtype.inner), True)
    if isinstance(dtype, dt.Map):
        return dt.Map(as_nullable(dtype.key), as_nullable(dtype.value), True)
    return dtype


@dataclass(frozen=True, slots=True)
class FromJson(Node):
    """``from_json(child, schema, options)``: JSON text parsed into ``schema`` (``name`` labels it in messages)."""

    label: ClassVar[str] = "from_json"

    child: Node
    schema: dt.DType
    name: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def failfast(self) -> bool:
        return any(k.lower() == "mode" and v.upper() == "FAILFAST" for k, v in self.options)

    def derive(self) -> Typed:
        if not isinstance(self.child.type.dtype, dt.String):
            msg = f"F.from_json(): col must be a string column of JSON text; got {describe(self.child)}"
            raise ColumnTypeError(msg)
        return Typed(as_nullable(self.schema), True)

    def render(self) -> str:
        return f"F.from_json({self.child.render()}, {self.name})"


def _schema(schema: object) -> tuple[dt.DType, str]:
    from pydantable_spark.annotations import fields_of_model

    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return dt.Struct(fields_of_model(schema)), schema.__name__
    if isinstance(schema, dt.Struct | dt.List | dt.Map):
        return schema, str(schema)
    msg = (
        f"F.from_json(): schema must be a Pydantic model class (a DataFrameModel or a BaseModel) or a "
        f"dtypes.Struct, List or Map; got {shown(schema)}"
    )
    raise ArgumentTypeError(msg)


def _options(options: object) -> tuple[tuple[str, str], ...]:
    if options is None:
        return ()
    found = option_pairs(options, "F.from_json(): options")
    for key, text in found:
        if key.lower() == "mode" and text.upper() not in _MODES:
            msg = f"F.from_json(): options['mode'] is {text!r}; from_json takes 'PERMISSIVE' or 'FAILFAST'"
            raise ArgumentValueError(msg)
        if key.lower() in _RESERVED:
            msg = (
                f"F.from_json(): option {key!r} is not offered: a malformed record gives NULL fields "
                "(mode='PERMISSIVE') or MalformedDataError (mode='FAILFAST')"
            )
            raise ArgumentValueError(msg)
    return found


def from_json(
    col: Expr[Any] | Col[Any] | str, schema: type[M], options: Mapping[str, Any] | None = None
) -> Expr[M | None]:
    """The JSON text in ``col`` parsed as ``schema`` (a model class, or a ``dtypes`` struct, list or map).

    Every field of the result may be NULL, as Spark types it (a field the JSON
    lacks is NULL); ``options`` are Spark's JSON options, ``mode`` one of
    ``"PERMISSIVE"`` (malformed: all fields NULL) or ``"FAILFAST"``
    (malformed: ``MalformedDataError`` naming the column).
    """
    dtype, name = _schema(schema)
    return Expr(FromJson(into_node(col, "F.from_json()'s col"), dtype, name, _options(options)))
