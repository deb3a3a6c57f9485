"""What mypy knows of a value, in the runtime's terms, and back.

The plugin types expressions with the *runtime's own rules*: it maps each
operand's static type to a logical type (``int`` → ``bigint``, ``str | None``
→ nullable ``string``, ...), builds the same IR node the runtime would build
over placeholder columns of those types, and maps the node's derived type back
to a Python type. Static and runtime rules therefore cannot drift apart;
``tests/typing/test_parity.py`` checks it on a corpus.

Static types are coarser than runtime ones: every integer is ``int``, every
decimal ``Decimal``, so results are typed by the widest member of each family
(``bigint``, ``double``, ``decimal(38,18)``).

Two logical types have no Python class of their own, and are mapped so:

* a VARIANT is ``Any`` to mypy (``Variant = Annotated[Any, dt.Variant]``), but
  mypy keeps the alias a field is annotated with (``payload: Variant``): an
  alias of the package's (``annotations.Variant``) is read as the runtime reads
  the annotation it stands for (``annotations.field_of_annotation`` on the alias'
  runtime value), and a VARIANT result is typed with that alias again, so that
  derived rows keep it.
* a struct that comes from no model (``F.window``'s bucket, ``F.struct``) is a
  synthesized row class of its fields (``Row[start: datetime | None, end: ...]``),
  as the runtime makes a row model for it (``model.annotation_for``).
"""

from __future__ import annotations

import datetime
import decimal
import functools
import importlib
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy.nodes import Expression, FloatExpr, IntExpr, StrExpr, TypeAlias, TypeInfo
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    NoneType,
    ProperType,
    Type,
    TypeAliasType,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.models import BASE_MODEL, METADATA, Output, model_columns
from pydantable_spark.expr.core import Column, Literal, Node, Typed, literal_of

if TYPE_CHECKING:
    from mypy.checker import TypeChecker

__all__ = [
    "EXPR",
    "SAMPLES",
    "Static",
    "expr_type",
    "instance_of",
    "is_literal",
    "mypy_type",
    "operand",
    "static_of",
    "static_of_expr",
    "value_of_expr",
]

EXPR = "pydantable_spark.expr.api.Expr"
COL = "pydantable_spark.expr.api.Col"

_FROM_PYTHON: dict[str, dt.DType] = {
    "builtins.bool": dt.Boolean(),
    "builtins.int": dt.Int64(),
    "builtins.float": dt.Float64(),
    "builtins.str": dt.String(),
    "builtins.bytes": dt.Binary(),
    "decimal.Decimal": dt.Decimal(),
    "datetime.date": dt.Date(),
    "datetime.datetime": dt.Datetime(),
    "datetime.timedelta": dt.Duration(),
}
SAMPLES: dict[type[dt.DType], object] = {
    dt.Boolean: False,
    dt.Int64: 0,
    dt.Float64: 0.0,
    dt.String: "",
    dt.Binary: b"",
    dt.Decimal: decimal.Decimal(0),
    dt.Date: datetime.date(1970, 1, 1),
    dt.Datetime: datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc),
    dt.Duration: datetime.timedelta(0),
}


@dataclass(frozen=True, slots=True)
class Static:
    """A value's logical type as mypy knows it; ``dtype`` None means unknown (``Any``).

    ``original`` keeps mypy's own type of the non-null part, for types the
    logical type does not fully describe (a nested model, an enum).
    """

    dtype: dt.DType | None
    nullable: bool
    original: Type

    @property
    def known(self) -> bool:
        return self.dtype is not None


def _unknown(t: Type) -> Static:
    return Static(None, True, t)


_STATICS: dict[int, tuple[Type, Static]] = {}
"""``static_of`` per type object, for types whose logical type no class of the user's decides (``_by_name``)."""


def static_of(t: Type) -> Static:
    """The logical type of values of mypy type ``t`` (not an ``Expr``; see ``static_of_expr``).

    Asked for the same type objects over and over (a model's field types at every
    frame method); those of builtin types (``int | None``) are read once.
    """
    known = _STATICS.get(id(t))
    if known is not None and known[0] is t:
        return known[1]
    static = _static(t, frozenset())
    if _by_name(t):
        if len(_STATICS) > 100_000:  # a long-running daemon: forget the types of earlier runs
            _STATICS.clear()
        _STATICS[id(t)] = (t, static)  # the type is kept: its id is not reused while remembered
    return static


def _by_name(t: Type) -> bool:
    """Whether ``t``'s logical type follows from class names alone (``int``, ``str | None``, ``Literal["a"]``).

    Not a model's struct, an enum, a subclass or a type alias: those follow from a
    class's body or an alias' target, which may change while mypy's daemon keeps the
    type objects of other modules.
    """
    if isinstance(t, TypeAliasType):
        return False
    proper = get_proper_type(t)
    if isinstance(proper, UnionType):
        return all(_by_name(m) for m in proper.items)
    if isinstance(proper, NoneType):
        return True
    if isinstance(proper, LiteralType):
        proper = proper.fallback
    return isinstance(proper, Instance) and not proper.args and proper.type.fullname in _FROM_PYTHON


def _static(t: Type, expanding: frozenset[str]) -> Static:
    """``static_of``; ``expanding`` names the models whose structs are being built (a cycle is unknown)."""
    if isinstance(t, TypeAliasType) and t.alias is not None and not t.args:
        aliased = annotated_dtype(t.alias.fullname)
        if aliased is not None:
            return Static(aliased, False, t)
    proper = get_proper_type(t)
    if isinstance(proper, UnionType):
        members = [m for m in proper.items if not isinstance(get_proper_type(m), NoneType)]
        nullable = len(members) < len(proper.items)
        if len(members) != 1 and _literals_of_one_kind(members):  # Literal["a", "b"]: a string
            inner = _static(members[0], expanding)
            return Static(inner.dtype, nullable, UnionType.make_union(members))
        if len(members) != 1:
            return _unknown(t)
        inner = _static(members[0], expanding)
        return Static(inner.dtype, True, inner.original)
    if isinstance(proper, LiteralType):
        return Static(_static(proper.fallback, expanding).dtype, False, proper)
    if not isinstance(proper, Instance):
        return _unknown(t)
    return Static(_dtype_of_instance(proper, expanding), False, proper)


_PACKAGE = "pydantable_spark"
VARIANT_ALIAS = "pydantable_spark.annotations.Variant"
"""The alias a VARIANT result is typed with (``Variant``: ``Any`` to mypy, a VARIANT to the plugin)."""


@functools.cache
def annotated_dtype(fullname: str) -> dt.DType | None:
    """The logical type of a type alias of the package (``Variant``), as the runtime maps the annotation.

    mypy keeps no ``Annotated`` metadata, so the alias' runtime value is read
    (the package's own module, imported anyway by the plugin) and given to the
    runtime's mapping, ``annotations.field_of_annotation``. Aliases defined
    elsewhere are not read (their modules are the user's, never imported).
    """
    from pydantable_spark.annotations import field_of_annotation
    from pydantable_spark.errors import UnsupportedTypeError

    module, _, name = fullname.rpartition(".")
    if module != _PACKAGE and not module.startswith(f"{_PACKAGE}."):
        return None
    try:
        value = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    if typing.get_origin(value) is not typing.Annotated:
        return None
    try:
        return field_of_annotation(name, value).dtype
    except UnsupportedTypeError:
        return None


def _literals_of_one_kind(members: list[Type]) -> bool:
    kinds = set()
    for member in members:
        proper = get_proper_type(member)
        if not isinstance(proper, LiteralType) or proper.is_enum_literal():
            return False
        kinds.add(proper.fallback.type.fullname)
    return len(kinds) == 1


def is_literal(t: Type) -> bool:
    """Whether ``t`` is a ``Literal[...]`` type (of values, not enum members), ``| None`` or not."""
    proper = get_proper_type(t)
    members = proper.items if isinstance(proper, UnionType) else [proper]
    values = [m for m in members if not isinstance(get_proper_type(m), NoneType)]
    return bool(values) and _literals_of_one_kind(values)


def _dtype_of_instance(instance: Instance, expanding: frozenset[str]) -> dt.DType | None:
    info = instance.type
    if info.fullname in _FROM_PYTHON:
        return _FROM_PYTHON[info.fullname]
    if info.is_enum:
        values = {type(v) for v in _enum_values(info)}
        return dt.String() if values <= {str} else dt.Int64() if values <= {int} else None
    if info.fullname in ("builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset"):
        element = _static(instance.args[0], expanding) if instance.args else None
        if element is None or element.dtype is None:
            return None
        return dt.List(element.dtype, element.nullable)
    if info.fullname == "builtins.dict" and len(instance.args) == 2:
        key, value = _static(instance.args[0], expanding), _static(instance.args[1], expanding)
        if not isinstance(key.dtype, dt.String) or value.dtype is None:
            return None
        return dt.Map(dt.String(), value.dtype, value.nullable)
    if info.has_base(BASE_MODEL):
        return _struct_of(info, expanding)
    for base in info.mro[1:]:  # a subclass of a known type (e.g. an enum of str) counts as that type
        if base.fullname in _FROM_PYTHON and base.fullname != "builtins.object":
            return _FROM_PYTHON[base.fullname]
    return None


def _struct_of(info: TypeInfo, expanding: frozenset[str]) -> dt.Struct | None:
    """A nested model's struct type: its columns, in order, as at run time."""
    if info.fullname in expanding:
        return None
    fields = []
    for column in model_columns(info):
        static = _static(column.type, expanding | {info.fullname})
        if static.dtype is None:
            return None
        fields.append(dt.Field(column.name, static.dtype, static.nullable))
    synthesized = info.metadata.get(METADATA, {}).get("columns") is not None  # a row class of a struct of no model
    return dt.Struct(tuple(fields), model=None if synthesized else info.fullname)


def _enum_values(info: TypeInfo) -> list[object]:
    values: list[object] = []
    for name, symbol in info.names.items():
        node = symbol.node
        if name.startswith("_") or node is None or not hasattr(node, "final_value"):
            continue
        values.append(getattr(node, "final_value", None))
    return [v for v in values if v is not None]


def static_of_expr(t: Type) -> Static | None:
    """The logical type of an ``Expr[T]``'s values, or None when ``t`` is not an expression."""
    value = value_of_expr(t)
    return None if value is None else static_of(value)


def value_of_expr(t: Type) -> Type | None:
    """``T`` of an ``Expr[T]`` (``Any`` when not given), or None when ``t`` is not an expression."""
    proper = get_proper_type(t)
    if isinstance(proper, Instance) and proper.type.has_base(EXPR):
        expr = next(b for b in proper.type.mro if b.fullname == EXPR)
        mapped = _map_to(proper, expr)
        return mapped.args[0] if mapped.args else AnyType(TypeOfAny.special_form)
    return None


def _map_to(instance: Instance, target: TypeInfo) -> Instance:
    from mypy.maptype import map_instance_to_supertype

    return map_instance_to_supertype(instance, target)


def operand(t: Type, name: str, source: Expression | None = None) -> Node | None:
    """A placeholder IR node for an operand of mypy type ``t``, or None when its type is unknown.

    An ``Expr`` becomes a typed column called ``name``; a Python value a weak
    literal of its type, as the runtime makes it (with the written value when
    ``source`` is a literal, so that messages show it).
    """
    static = static_of_expr(t)
    if static is not None:
        if static.dtype is None:
            return None
        return Column(name, Typed(static.dtype, static.nullable))
    proper = get_proper_type(t)
    if isinstance(proper, NoneType):
        return Literal(None, dt.String())
    value = static_of(t)
    if value.dtype is None or value.nullable or type(value.dtype) not in SAMPLES:
        return None
    if isinstance(source, IntExpr | FloatExpr | StrExpr) and literal_of(source.value).dtype == value.dtype:
        return literal_of(source.value, weak=True)
    return literal_of(SAMPLES[type(value.dtype)], weak=True)


_TO_PYTHON: dict[type[dt.DType], str] = {
    dt.Boolean: "builtins.bool",
    dt.Int8: "builtins.int",
    dt.Int16: "builtins.int",
    dt.Int32: "builtins.int",
    dt.Int64: "builtins.int",
    dt.Float32: "builtins.float",
    dt.Float64: "builtins.float",
    dt.Decimal: "decimal.Decimal",
    dt.String: "builtins.str",
    dt.Binary: "builtins.bytes",
    dt.Date: "datetime.date",
    dt.Datetime: "datetime.datetime",
    dt.DatetimeNTZ: "datetime.datetime",
    dt.Duration: "datetime.timedelta",
}


def mypy_type(api: TypeChecker, dtype: dt.DType, nullable: bool, originals: list[Static] | None = None) -> Type:
    """The Python type of values of ``dtype`` (``| None`` when nullable).

    A struct keeps the model type of the operand it came from, as at run time;
    an enum becomes its value type, as in a derived row model.
    """
    base: Type
    if type(dtype) in _TO_PYTHON:
        base = api.named_generic_type(_TO_PYTHON[type(dtype)], [])
    elif isinstance(dtype, dt.List):
        base = api.named_generic_type("builtins.list", [mypy_type(api, dtype.inner, dtype.contains_null)])
    elif isinstance(dtype, dt.Map):
        value = mypy_type(api, dtype.value, dtype.value_contains_null)
        base = api.named_generic_type("builtins.dict", [api.named_generic_type("builtins.str", []), value])
    else:
        found = next((s.original for s in originals or [] if s.dtype == dtype), None)
        base = found if found is not None else _without_class(api, dtype)
    return UnionType.make_union([base, NoneType()]) if nullable else base


def _without_class(api: TypeChecker, dtype: dt.DType) -> Type:
    """The Python type of a logical type no operand's type stands for: a VARIANT, a struct of no model."""
    if isinstance(dtype, dt.Variant):
        module, _, name = VARIANT_ALIAS.rpartition(".")
        symbol = api.modules[module].names.get(name) if module in api.modules else None
        if symbol is not None and isinstance(symbol.node, TypeAlias):
            return TypeAliasType(symbol.node, [])
    if isinstance(dtype, dt.Struct) and dtype.fields:
        from pydantable_spark._mypy.frames import row_instance

        fields = [Output(f.name, mypy_type(api, f.dtype, f.nullable)) for f in dtype.fields]
        if all(not isinstance(get_proper_type(f.type), AnyType) for f in fields):
            return row_instance(api, fields)
    return AnyType(TypeOfAny.special_form)


def instance_of(api: TypeChecker, fullname: str, args: list[Type]) -> Instance:
    """An instance of a class named by its full name (looked up in its module, loaded or not by name)."""
    module, _, name = fullname.rpartition(".")
    symbol = api.modules[module].names[name]
    assert isinstance(symbol.node, TypeInfo), fullname
    return Instance(symbol.node, args)


def expr_type(api: TypeChecker, value: Type) -> ProperType:
    """``Expr[value]``."""
    return instance_of(api, EXPR, [value])
