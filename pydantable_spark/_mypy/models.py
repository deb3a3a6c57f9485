"""What mypy knows of model classes: their columns, in declaration order, under their column names.

A model's columns are its fields in the order they are declared (a subclass's
own fields after its bases'), each named by its alias when it has one, as at run
time: ``tracking: str | None = Field(alias="trackingNo")`` is the column
``trackingNo``.

mypy's symbol tables do not keep that order once a module is read back from
mypy's cache (their names come back sorted), so the plugin records each model's
own fields, in order and with their aliases, in the class's metadata while the
class is analysed; the metadata is cached with the class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy.nodes import AssignmentStmt, CallExpr, MemberExpr, NameExpr, RefExpr, StrExpr, TypeInfo, Var
from mypy.types import AnyType, CallableType, Type, TypeOfAny, get_proper_type

if TYPE_CHECKING:
    from mypy.plugin import AnalyzeTypeContext, ClassDefContext, FunctionContext

__all__ = [
    "BASE_MODEL",
    "COLUMN_DESCRIPTOR",
    "METADATA",
    "MODEL",
    "Output",
    "column_name",
    "is_column_of_model",
    "model_column_default",
    "model_column_type",
    "model_columns",
    "record_fields",
]

MODEL = "pydantable_spark.model.DataFrameModel"
COLUMN_DESCRIPTOR = "pydantable_spark.descriptors.ModelColumn"
BASE_MODEL = "pydantic.main.BaseModel"
METADATA = "pydantable_spark"
_NOT_COLUMNS = {"model_config", "model_fields", "model_computed_fields"}
_NOT_MODELS = {BASE_MODEL, MODEL, "builtins.object"}


@dataclass(frozen=True, slots=True)
class Output:
    """One column of a frame as mypy sees it."""

    name: str
    type: Type


def record_fields(ctx: ClassDefContext) -> None:
    """Record a pydantic model's own annotated names, in order, with their aliases.

    Runs before the class body is analysed, so this reads the syntax only;
    which of these names are fields (not class variables) is decided from the
    analysed symbols when the columns are asked for.
    """
    info = ctx.cls.info
    if not info.has_base(BASE_MODEL):
        return
    fields = []
    for statement in ctx.cls.defs.body:
        if isinstance(statement, AssignmentStmt) and statement.new_syntax and len(statement.lvalues) == 1:
            target = statement.lvalues[0]
            if isinstance(target, NameExpr):
                fields.append([target.name, _alias(statement)])
    info.metadata[METADATA] = {"fields": fields}


def _alias(statement: AssignmentStmt) -> str | None:
    """The ``alias`` of ``name: T = Field(..., alias="...")``."""
    value = statement.rvalue
    if not isinstance(value, CallExpr) or not isinstance(value.callee, NameExpr | MemberExpr):
        return None
    if value.callee.name not in ("Field", "ModelColumn"):
        return None
    for name, argument in zip(value.arg_names, value.args, strict=True):
        if name == "alias" and isinstance(argument, StrExpr):
            return argument.value
    return None


def _is_field(info: TypeInfo, name: str) -> bool:
    symbol = info.names.get(name)
    node = symbol.node if symbol is not None else None
    if not isinstance(node, Var) or node.is_classvar or node.type is None or node.is_inferred:
        return False
    return not name.startswith("_") and name not in _NOT_COLUMNS


def _declared(info: TypeInfo) -> list[tuple[str, str | None]]:
    """A class's own fields with their aliases, in declaration order."""
    recorded = info.metadata.get(METADATA, {}).get("fields")
    if recorded is None:  # not recorded (a class the hook did not see): the symbol table's order
        return [(name, None) for name in info.names]
    return [(name, alias) for name, alias in recorded]


_COLUMNS: dict[int, tuple[TypeInfo, tuple[object, ...], tuple[Output, ...]]] = {}
"""``model_columns`` per class, with the symbol tables and metadata they were read from (``_tables``)."""


def _tables(info: TypeInfo) -> tuple[object, ...]:
    """What a class's columns are read from: the symbol tables and recorded fields of its MRO.

    mypy's daemon keeps a changed class's ``TypeInfo`` object but gives it the new
    class's tables (``mypy.server.astmerge``), and ``record_fields`` records a new
    entry whenever a class is analysed, so a class whose columns may have changed
    never matches what they were read from.
    """
    return tuple(part for base in info.mro for part in (base.names, base.metadata.get(METADATA)))


def _same(read: tuple[object, ...], now: tuple[object, ...]) -> bool:
    return len(read) == len(now) and all(a is b for a, b in zip(read, now, strict=True))


def model_columns(info: TypeInfo) -> list[Output]:
    """The columns of a model class (or of a synthesized row class), in order.

    Read once per class (mypy asks for them at every frame method and column):
    a class matching the tables they were read from has the same columns.
    """
    tables = _tables(info)
    known = _COLUMNS.get(id(info))
    if known is not None and known[0] is info and _same(known[1], tables):
        return list(known[2])
    columns = _read_columns(info)
    if len(_COLUMNS) > 50_000:  # a long-running daemon: forget the classes of earlier runs
        _COLUMNS.clear()
    _COLUMNS[id(info)] = (info, tables, tuple(columns))
    return columns


def _read_columns(info: TypeInfo) -> list[Output]:
    row = info.metadata.get(METADATA, {}).get("columns")
    if row is not None:
        out = []
        for name, attribute in row:
            node = info.names[attribute].node
            assert isinstance(node, Var)
            assert node.type is not None
            out.append(Output(name, node.type))
        return out
    columns: dict[str, Output] = {}
    for base in reversed(info.mro):
        if base.fullname in _NOT_MODELS:
            continue
        for attribute, alias in _declared(base):
            if _is_field(base, attribute):
                node = base.names[attribute].node
                assert isinstance(node, Var)
                assert node.type is not None
                columns[attribute] = Output(alias or attribute, node.type)
    return list(columns.values())


def is_column_of_model(info: TypeInfo, name: str) -> bool:
    """Whether ``name`` is a column field of a ``DataFrameModel`` subclass."""
    if not info.has_base(MODEL) or name.startswith("_") or name in _NOT_COLUMNS:
        return False
    symbol = info.get(name)
    node = symbol.node if symbol is not None else None
    return isinstance(node, Var) and not node.is_classvar and node.type is not None and not node.is_inferred


def column_name(expr: MemberExpr, model: TypeInfo | None = None) -> str:
    """The column ``Model.attribute`` names: the field's alias when it has one.

    ``model``: the model the receiver stands for when it is not the class's
    name (``cls`` in a classmethod).
    """
    owner = model if model is not None else expr.expr.node if isinstance(expr.expr, RefExpr) else None
    if not isinstance(owner, TypeInfo) or not owner.has_base(MODEL):
        return expr.name
    for base in owner.mro:
        if base.fullname not in _NOT_MODELS:
            for attribute, alias in _declared(base):
                if attribute == expr.name:
                    return alias or attribute
    return expr.name


def model_column_type(ctx: AnalyzeTypeContext) -> Type:
    """``ModelColumn[T]``: ``T`` in a ``DataFrameModel``'s body, as at run time (``Annotated[T, COLUMN]``).

    Every rule of the plugin and pydantic's plugin then read the field as one
    annotated ``T`` (``Order.id`` is ``Col[int]`` through the class attribute
    hook). Anywhere else it stays the descriptor, and is reported: it declares a
    column, and only a ``DataFrameModel`` has columns.
    """
    analyzer = getattr(ctx.api, "api", None)  # the semantic analyzer: the class whose body is being read
    owner = getattr(analyzer, "type", None)
    if len(ctx.type.args) != 1:
        got = len(ctx.type.args)
        ctx.api.fail(f"ModelColumn takes one type, the field's (ModelColumn[int]); got {got}", ctx.context)
        return AnyType(TypeOfAny.from_error)
    if isinstance(owner, TypeInfo) and owner.has_base(MODEL):
        return ctx.api.analyze_type(ctx.type.args[0])
    where = f"class {owner.name}" if isinstance(owner, TypeInfo) else "this annotation"
    ctx.api.fail(
        f"ModelColumn[...] declares a column of a DataFrameModel, but {where} is no DataFrameModel; "
        "annotate the value's type instead",
        ctx.context,
    )
    return ctx.api.named_type(COLUMN_DESCRIPTOR, [ctx.api.analyze_type(ctx.type.args[0])])


def model_column_default(ctx: FunctionContext) -> Type:
    """``ModelColumn(default=...)`` in a model's body: the default's type (the field is ``T`` to mypy)."""
    for names, types in zip(ctx.arg_names, ctx.arg_types, strict=True):
        for name, argument in zip(names, types, strict=True):
            if name == "default":
                return argument
            if name == "default_factory":
                factory = get_proper_type(argument)
                if isinstance(factory, CallableType):
                    return factory.ret_type
    return AnyType(TypeOfAny.special_form)  # pydantic.Field(...) without a default: any field's specifier
