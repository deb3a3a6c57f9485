"""Text typed by models: ``F.from_json``, ``F.from_csv`` and ``F.from_xml`` of ``(col, Model)``.

The schema of the text is a Pydantic model the user already has (a
``DataFrameModel`` or a plain ``BaseModel``), or a ``dtypes`` struct (JSON
also takes a list or a map; a CSV record holds atomic fields only). The result
is typed as Spark's analyzer types it: the model's struct with every field
nullable, itself nullable (a field the text lacks is NULL, a NULL text too;
``from_csv`` of a text that is never NULL is never NULL).

A record that is not of the schema follows the ``mode`` option:
``"PERMISSIVE"`` (the default, as in Spark) gives a struct whose fields are
NULL where they do not parse; ``"FAILFAST"`` fails the job with
``MalformedDataError`` naming the column and the record. A value Spark would
change silently (a JSON number, object or boolean for a string field; a
decimal with more digits after the point than the scale) does not fit the
model either, by the strict readers' rules (``_spark.strict_text``): NULL
under ``"PERMISSIVE"``, ``MalformedDataError`` naming the column, the field
and the value under ``"FAILFAST"``. No other option value reaches Spark as
SQL: options are string literals in a ``map``.

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
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.api import Expr, into_node
from pydantable_spark.expr.core import Node, Typed, describe
from pydantable_spark.expr.options import option_pairs

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantable_spark.expr.api import Col

__all__ = ["FORMATS", "FromText", "as_nullable", "check_schema", "from_csv", "from_json", "from_xml", "text_options"]

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


FORMATS = ("json", "csv", "xml")
"""The text formats Spark parses into a struct (``from_<format>``)."""


@dataclass(frozen=True, slots=True)
class FromText(Node):
    """``from_<format>(child, schema, options)``: text parsed into ``schema`` (``name`` labels it in messages)."""

    child: Node
    schema: dt.DType
    name: str
    format: str = "json"
    options: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"from_{self.format}"

    @property
    def failfast(self) -> bool:
        return any(k.lower() == "mode" and v.upper() == "FAILFAST" for k, v in self.options)

    def derive(self) -> Typed:
        if not isinstance(self.child.type.dtype, dt.String):
            what = self.format.upper()
            msg = f"F.{self.label}(): col must be a string column of {what} text; got {describe(self.child)}"
            raise ColumnTypeError(msg)
        # Spark's from_csv is NULL only for a NULL text; from_json and from_xml are always typed nullable
        nullable = self.child.type.nullable if self.format == "csv" else True
        return Typed(as_nullable(self.schema), nullable)

    def render(self) -> str:
        return f"F.{self.label}({self.child.render()}, {self.name})"


def _schema(schema: object, format: str) -> tuple[dt.DType, str]:
    from pydantable_spark.annotations import fields_of_model

    what = f"F.from_{format}()"
    dtype: dt.DType
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        dtype, name = dt.Struct(fields_of_model(schema)), schema.__name__
    elif isinstance(schema, dt.Struct) or (format == "json" and isinstance(schema, dt.List | dt.Map)):
        dtype, name = schema, str(schema)
    else:
        kinds = "a dtypes.Struct, List or Map" if format == "json" else "a dtypes.Struct"
        msg = (
            f"{what}: schema must be a Pydantic model class (a DataFrameModel or a BaseModel) or {kinds}; "
            f"got {shown(schema)}"
        )
        raise ArgumentTypeError(msg)
    check_schema(dtype, name, format)
    return dtype, name


def check_schema(dtype: dt.DType, name: str, format: str) -> None:
    """The rule of the formats on the schema's type: a CSV record holds atomic fields only.

    Also the mypy plugin's rule, on the struct of a model it knows statically (``_mypy.text``).
    """
    if format == "csv":
        nested = [f for f in dtype.fields if f.dtype.is_nested] if isinstance(dtype, dt.Struct) else []
        if nested:
            msg = (
                f"F.from_{format}(): a CSV record holds atomic values only; field {nested[0].name!r} of {name} is "
                f"{nested[0].dtype} (read it as a string and parse it with F.from_json)"
            )
            raise ColumnTypeError(msg)


def text_options(options: object, format: str) -> tuple[tuple[str, str], ...]:
    """``options`` as (key, value) string pairs, checked: ``mode`` one of PERMISSIVE or FAILFAST, no reserved key."""
    if options is None:
        return ()
    what = f"F.from_{format}()"
    found = option_pairs(options, f"{what}: options")
    for key, text in found:
        if key.lower() == "mode" and text.upper() not in _MODES:
            msg = f"{what}: options['mode'] is {text!r}; from_{format} takes 'PERMISSIVE' or 'FAILFAST'"
            raise ArgumentValueError(msg)
        if key.lower() in _RESERVED:
            msg = (
                f"{what}: option {key!r} is not offered: a malformed record gives NULL fields "
                "(mode='PERMISSIVE') or MalformedDataError (mode='FAILFAST')"
            )
            raise ArgumentValueError(msg)
    return found


def _from_text(format: str, col: object, schema: object, options: object) -> FromText:
    dtype, name = _schema(schema, format)
    return FromText(into_node(col, f"F.from_{format}()'s col"), dtype, name, format, text_options(options, format))


def from_json(
    col: Expr[Any] | Col[Any] | str, schema: type[M], options: Mapping[str, Any] | None = None
) -> Expr[M | None]:
    """The JSON text in ``col`` parsed as ``schema`` (a model class, or a ``dtypes`` struct, list or map).

    Every field of the result may be NULL, as Spark types it (a field the JSON
    lacks is NULL); ``options`` are Spark's JSON options, ``mode`` one of
    ``"PERMISSIVE"`` (malformed: all fields NULL) or ``"FAILFAST"``
    (malformed: ``MalformedDataError`` naming the column). A string field takes
    JSON strings only, and a decimal field numbers its scale holds without
    rounding: another value is NULL (``"PERMISSIVE"``) or a
    ``MalformedDataError`` naming the field and the value (``"FAILFAST"``).
    """
    return Expr(_from_text("json", col, schema, options))


def from_csv(
    col: Expr[Any] | Col[Any] | str, schema: type[M], options: Mapping[str, Any] | None = None
) -> Expr[M | None]:
    """The CSV line in ``col`` parsed as ``schema`` (a model class of atomic fields, or a ``dtypes`` struct).

    As ``from_json``: every field may be NULL (a value that does not parse, or
    a decimal its scale would round, is NULL under ``mode="PERMISSIVE"``, a
    ``MalformedDataError`` under ``"FAILFAST"``); the struct is NULL only for a
    NULL text; ``options`` are Spark's CSV options (``sep``...).
    """
    return Expr(_from_text("csv", col, schema, options))


def from_xml(
    col: Expr[Any] | Col[Any] | str, schema: type[M], options: Mapping[str, Any] | None = None
) -> Expr[M | None]:
    """The XML record in ``col`` parsed as ``schema`` (a model class, or a ``dtypes`` struct).

    As ``from_json``: every field may be NULL; ``options`` are Spark's XML
    options (``rowTag``...), ``mode`` as for ``from_json``.
    """
    return Expr(_from_text("xml", col, schema, options))
