"""Plan interchange: the JSON logical-plan format of robin-sparkless, read and written.

A document has ``input`` (``schema``: a list of ``{"name", "type"}``; ``rows``:
lists or objects) and ``plan`` (a list of ``{"op", "payload"}`` steps whose
expressions are trees of ``{"col"}``, ``{"lit"}``, ``{"op", "left", "right"}``
and ``{"fn", "args"}``). ``load`` checks the whole document against a strict
description of the format first (Pydantic models, one per part: strict JSON
types, no unknown key, rows exactly as the schema says, expressions at most
``MAX_DEPTH`` deep), then builds a typed frame step by step with the façade's
own methods, so every schema rule applies as if the plan had been written in
Python. Whatever goes wrong raises ``PlanFormatError`` naming the step, the
field and what the format allows (``UnsupportedPlanError`` for a valid part the
reader does not do). ``to_plan`` writes a frame back in the format when its
plan fits; anything the format cannot say raises ``PlanFormatError`` naming it.

The format follows PySpark where it is silent: names in steps resolve ignoring
case, ``groupBy`` keeps NULL keys as a group, ``orderBy`` puts NULLs first when
ascending and last when descending, and columns are nullable (the format has
no nullability).

```pycon
>>> frame = load({
...     "input": {"schema": [{"name": "id", "type": "bigint"}, {"name": "age", "type": "bigint"}],
...               "rows": [[1, 25], [2, 40]]},
...     "plan": [{"op": "filter", "payload": {"op": "gt", "left": {"col": "age"}, "right": {"lit": 30}}}],
... })
>>> frame.to_dict()
{'id': [2], 'age': [40]}
>>> to_plan(frame)["plan"]
[{'op': 'filter', 'payload': {'op': 'gt', 'left': {'col': 'age'}, 'right': {'lit': 30}}}]
>>> load({"input": {"schema": [{"name": "id", "type": "bigint"}], "rows": [[1]]},
...       "plan": [{"op": "limit", "payload": {"n": "5"}}]})
Traceback (most recent call last):
...
pydantable_spark.errors.PlanFormatError: plan step 0 (limit): payload.n: expected an integer, got "5" (a string)

```
"""

from __future__ import annotations

import datetime
import decimal
import functools
import json
import os
import re
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    PrivateAttr,
    Tag,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pydantable_spark import dtypes as dt
from pydantable_spark import functions as F
from pydantable_spark.errors import PlanFormatError, PydantableSparkError, UnsupportedPlanError, suggest
from pydantable_spark.expr import conditional as cond
from pydantable_spark.expr import core
from pydantable_spark.expr import operators as ops
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.binding import call
from pydantable_spark.expr.call import Call, param_of
from pydantable_spark.expr.catalog import CATALOG, Function, Kind
from pydantable_spark.expr.over import Over
from pydantable_spark.expr.windowspec import Window
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate
from pydantable_spark.plan.joins import Join
from pydantable_spark.plan.setops import Union as UnionPlan
from pydantable_spark.plan.sources import ArrowData
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from pydantable_spark.frame import DataFrame

__all__ = ["MAX_DEPTH", "MAX_NODES", "dtype_of", "load", "schema_of", "to_plan", "type_string"]

OPS: tuple[str, ...] = (
    "filter", "select", "withColumn", "limit", "offset", "orderBy", "groupBy", "agg", "join", "union",
    "unionByName", "distinct", "drop", "withColumnRenamed",
)  # fmt: skip

MAX_DEPTH = 100
"""How deep an expression of a plan document may nest (a column or a literal alone is depth 1).

A deeper expression is refused before anything is built. The façade's typing
and Spark's SQL parser walk expressions recursively and give up on trees a
few hundred levels deep (Spark: ``FAILED_TO_PARSE_TOO_COMPLEX``); up to this
depth every expression of the format loads and runs. Long ``and``/``or``
chains fit when written as balanced trees.
"""

MAX_NODES = 100_000
"""How many expressions one expression tree of a plan document may hold, counted as written."""

_INT_MAX = 2**31 - 1
"""Spark's ``limit`` and ``offset`` take a 32-bit count."""

# --- types ------------------------------------------------------------------------------------

_NAMES: dict[type[dt.DType], str] = {
    dt.Int64: "bigint", dt.Int32: "int", dt.Int16: "smallint", dt.Int8: "tinyint", dt.Float64: "double",
    dt.Float32: "float", dt.String: "string", dt.Boolean: "boolean", dt.Date: "date", dt.Datetime: "timestamp",
    dt.DatetimeNTZ: "timestamp_ntz",
}  # fmt: skip
_KNOWN_TYPES = ", ".join([*dt.TYPE_NAMES, "decimal(p,s) with 1 <= p <= 38 and 0 <= s <= p"])


def dtype_of(text: str, where: str = "type") -> dt.DType:
    """The logical type of a type string (``bigint``, ``decimal(10,2)``, ...)."""
    dtype = dt.parse_type_name(text) if isinstance(text, str) else None
    if dtype is None:
        msg = f"{where}: unknown type string {_SHORT.repr(text)}; the plan format knows {_KNOWN_TYPES}"
        raise PlanFormatError(msg)
    return dtype


def type_string(dtype: dt.DType, where: str = "column") -> str:
    """The plan format's name for an atomic type."""
    if isinstance(dtype, dt.Decimal):
        return f"decimal({dtype.precision},{dtype.scale})"
    name = _NAMES.get(type(dtype))
    if name is None:
        msg = f"{where}: the plan format has no type string for {dtype} (it holds atomic types only)"
        raise PlanFormatError(msg)
    return name


def schema_of(specs: Sequence[Mapping[str, Any]], where: str = "schema") -> Schema:
    """A schema of nullable columns from ``[{"name", "type"}, ...]`` (checked as ``load`` checks a schema)."""
    fields = []
    for i, spec in enumerate(specs):
        try:
            column = _ColumnSpec.model_validate(spec)
        except ValidationError as error:
            raise PlanFormatError(_message(error, spec, f"{where}[{i}]")) from error
        fields.append(dt.Field(column.name, column.dtype, True))
    return Schema(tuple(fields))


# --- messages ---------------------------------------------------------------------------------


class _Short(reprlib.Repr):
    """Short reprs at any size or depth; ``json=True`` spells scalars as JSON does (``true``, ``null``, ``"a"``)."""

    def __init__(self, *, json: bool) -> None:
        super().__init__()
        self.json = json
        self.maxlevel, self.maxstring, self.maxother, self.maxlong = 2, 60, 60, 40
        self.maxlist = self.maxdict = self.maxtuple = 4

    def repr_str(self, x: str, level: int) -> str:
        if not self.json:
            return super().repr_str(x, level)
        text = x if len(x) <= self.maxstring else f"{x[:40]}...{x[-10:]}"
        return json.dumps(text, ensure_ascii=False)

    def repr_bool(self, x: bool, level: int) -> str:
        return ("true" if x else "false") if self.json else repr(x)

    def repr_NoneType(self, x: None, level: int) -> str:  # reprlib looks methods up by type name
        return "null" if self.json else "None"


_SHORT = _Short(json=False)
_JSON = _Short(json=True)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a Python {type(value).__name__}, which JSON does not have"


def _show(value: Any) -> str:
    """A document value for a message, short at any size or depth: ``"5" (a string)``."""
    return "null" if value is None else f"{_JSON.repr(value)} ({_kind(value)})"


def _hint(name: object, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate (the same name in other case first), or ``""``."""
    found = suggest(name, candidates) if isinstance(name, str) else ""
    return f" ({found.removeprefix('; ')})" if found else ""


def _refuse(message: str) -> PydanticCustomError:
    """A validation error whose message is ``message`` exactly (raised inside the document's models)."""
    return PydanticCustomError("plan_format", "{message}", {"message": message})


_EXPECTED = {
    "int_type": "an integer", "bool_type": "true or false", "string_type": "a string", "float_type": "a number",
    "list_type": "an array", "dict_type": "an object", "model_type": "an object", "none_required": "null",
}  # fmt: skip


def _explain(item: Any) -> str:
    """One Pydantic error in the format's words."""
    kind, context, value = item["type"], item.get("ctx") or {}, item.get("input")
    if kind == "plan_format":
        return str(item["msg"])
    if kind == "plan_step":
        return _explain_step(value)
    if kind == "plan_choice":
        return f"expected {item['msg']}, got {_show(value)}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {_show(value)}"
    if kind == "literal_error":
        return f"expected {context['expected']}, got {_show(value)}"
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = "at least" if kind == "greater_than_equal" else "at most"
        limit = context.get("ge", context.get("le"))
        return f"expected an integer {bound} {limit}, got {_show(value)}"
    if kind == "too_short":
        return f"expected at least {context['min_length']} item(s), got an empty array"
    return f"{item['msg']}, got {_show(value)}"


def _explain_step(value: Any) -> str:
    shape = 'a step is {"op": <operation>, "payload": ...}'
    if not isinstance(value, dict):
        return f"{shape}, got {_show(value)}"
    if "op" not in value:
        return f"missing key 'op'; {shape}"
    op = value["op"]
    if not isinstance(op, str):
        return f"op: expected a string, got {_show(op)}"
    return f"unknown op {_SHORT.repr(op)}{_hint(op, OPS)}; the plan format has {', '.join(OPS)}"


def _locate(loc: Sequence[int | str], document: Any, root: str) -> tuple[str, str]:
    """(the part of the document, the field path inside it) for a Pydantic error location.

    The location is followed through the document itself, so union tags and
    keys the models moved (a join's op-level keys) drop out of the path.
    """
    node, parts = document, []
    for segment in loc:
        inside_object = isinstance(node, dict) and segment in node
        if inside_object or (isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node)):
            node = node[segment]
            parts.append(segment)
    if root == "document" and len(parts) >= 2 and parts[0] == "plan" and isinstance(parts[1], int):
        step = document["plan"][parts[1]]
        op = step.get("op") if isinstance(step, dict) else None
        if not isinstance(op, str):
            return f"plan step {parts[1]}", _path(parts[2:])
        label = op if op.isidentifier() and len(op) <= 40 else _SHORT.repr(op)
        return f"plan step {parts[1]} ({label})", _path(parts[2:])
    if root == "document":
        return (_path(parts[:1]) or "plan document"), _path(parts[1:])
    return root, _path(parts)


def _path(parts: Sequence[int | str]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


_REPORTED = 5


def _message(error: ValidationError, document: Any, root: str = "document") -> str:
    lines = []
    items = error.errors(include_url=False)
    for item in items[:_REPORTED]:
        where, path = _locate(item["loc"], document, root)
        lines.append(f"{where}: {path + ': ' if path else ''}{_explain(item)}")
    if len(lines) == 1:
        return lines[0]
    more = f"\n  ... and {len(items) - _REPORTED} more" if len(items) > _REPORTED else ""
    return f"{len(items)} problems in the plan document:\n" + "\n".join(f"  - {line}" for line in lines) + more


# --- the document, declared -------------------------------------------------------------------


class _Part(BaseModel):
    """A part of a plan document: strict JSON types, and no key that the format does not have.

    ``shape`` says what the part looks like, in the spec's notation, for
    messages; ``_prepare`` may rewrite the spellings the format allows
    (camelCase, keys beside the payload) before the keys are checked.
    """

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    shape: ClassVar[str] = "an object"

    @classmethod
    def _prepare(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        return data

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            msg = f"expected {cls.shape}, got {_show(data)}"
            raise _refuse(msg)
        data = cls._prepare(data)
        keys = _keys_of(cls)
        for key in data:
            if key not in keys:
                hint = _hint(key, keys)
                msg = f"unknown key {_SHORT.repr(key)}{hint}; expected {cls.shape}"
                raise _refuse(msg)
        for key, required in keys.items():
            if required and key not in data:
                msg = f"missing key {key!r}; expected {cls.shape}"
                raise _refuse(msg)
        return data


_KEYS: dict[type[_Part], dict[str, bool]] = {}


def _keys_of(model: type[_Part]) -> dict[str, bool]:
    """The JSON keys of a part, each with whether it is required."""
    found = _KEYS.get(model)
    if found is None:
        found = {(f.alias or name): f.is_required() for name, f in model.model_fields.items()}
        _KEYS[model] = found
    return found


def _choice(kinds: Callable[[Any], str | None], what: str) -> Discriminator:
    """A union picked by the value's form (never tried branch by branch): one error, saying ``what`` fits."""
    return Discriminator(kinds, custom_error_type="plan_choice", custom_error_message=what)


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    msg = f"expected a literal (null, true, false, a number or a string), got {_show(value)}"
    raise _refuse(msg)


_Scalar = Annotated[Any, PlainValidator(_scalar)]


def _one_of(allowed: Sequence[str], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if value not in allowed:
            msg = f"unknown {what} {_SHORT.repr(value)}{_hint(value, allowed)}; the format has {', '.join(allowed)}"
            raise _refuse(msg)
        return value

    return AfterValidator(check)


# --- expressions ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Site:
    """Where in the document a part is: the step (``plan step 2 (filter)``), the path in it, the frame's schema."""

    where: str
    path: str
    schema: Schema

    def at(self, part: str | int) -> _Site:
        path = f"{self.path}[{part}]" if isinstance(part, int) else (f"{self.path}.{part}" if self.path else part)
        return _Site(self.where, path, self.schema)

    def error(self, message: str, kind: type[PlanFormatError] = PlanFormatError) -> PlanFormatError:
        return kind(f"{self.where}: {self.path}: {message}" if self.path else f"{self.where}: {message}")

    def failed(self, error: Exception) -> PlanFormatError:
        """A façade error raised while building this part, as the plan format's error (the cause kept by the caller)."""
        return self.error(
            str(error), UnsupportedPlanError if isinstance(error, NotImplementedError) else PlanFormatError
        )


_CHILDREN = ("left", "right", "arg", "lower", "upper")


def _bounded(tree: Any) -> Any:
    """``tree`` unchanged if it nests at most ``MAX_DEPTH`` deep and holds at most ``MAX_NODES`` expressions.

    Walked without recursion, before Pydantic (whose own limit is lower, and
    unnamed) or the façade see the tree. The node count stops a Python
    mapping that shares one sub-tree many times from being walked for ever.
    """
    stack, seen = [(tree, 1)], 0
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, dict):
            continue
        seen += 1
        if depth > MAX_DEPTH or seen > MAX_NODES:
            msg = (
                f"the expression nests deeper than {MAX_DEPTH} levels, the most the plan format reader takes "
                "(split it into withColumn steps, or write long and/or chains as balanced trees)"
                if depth > MAX_DEPTH
                else f"the expression holds more than {MAX_NODES} expressions, the most the plan format reader takes"
            )
            raise _refuse(msg)
        below = [node[key] for key in _CHILDREN if key in node]
        if isinstance(node.get("args"), list):
            below += node["args"]
        stack.extend((child, depth + 1) for child in below)
    return tree


def _guarded(site: _Site, make: Callable[[], Expr[Any]]) -> Expr[Any]:
    try:
        return make()
    except PlanFormatError:
        raise
    except (PydantableSparkError, NotImplementedError) as error:
        raise site.failed(error) from error


class _ColumnRef(_Part):
    shape = '{"col": <column name>}'
    col: str

    def build(self, site: _Site) -> Expr[Any]:
        return _guarded(site, lambda: F.col(_resolve(self.col, site.schema)))


class _Literal(_Part):
    shape = '{"lit": null | true | false | <number> | <string>}'
    lit: _Scalar

    def build(self, site: _Site) -> Expr[Any]:
        return _guarded(site, lambda: F.lit(self.lit))


def _bare_literal(value: Any) -> Any:
    return {"lit": value}


_COMPARE: dict[str, Callable[[Expr[Any], Any], Expr[Any]]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
    "eq_null_safe": lambda a, b: a.eq_null_safe(b), "and": lambda a, b: a & b, "or": lambda a, b: a | b,
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "**": lambda a, b: a**b, "add": lambda a, b: a + b, "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b, "divide": lambda a, b: a / b, "pow": lambda a, b: a**b,
    "power": lambda a, b: a**b,
}  # fmt: skip
_SYMBOLS = {"==": "eq", "!=": "ne", ">": "gt", ">=": "ge", "<": "lt", "<=": "le", "&": "and", "|": "or"}
_BINARY = (*_COMPARE, *_SYMBOLS)


class _Binary(_Part):
    shape = '{"op": <operator>, "left": <expression>, "right": <expression>}'
    op: Annotated[str, _one_of(_BINARY, "operator")]
    left: _Expr
    right: _Expr

    def build(self, site: _Site) -> Expr[Any]:
        left, right = self.left.build(site.at("left")), self.right.build(site.at("right"))
        combine = _COMPARE[_SYMBOLS.get(self.op, self.op)]
        return _guarded(site, lambda: combine(left, right))


class _Not(_Part):
    shape = '{"op": "not", "arg": <expression>}'
    op: Literal["not"]
    arg: _Expr

    def build(self, site: _Site) -> Expr[Any]:
        arg = self.arg.build(site.at("arg"))
        return _guarded(site, lambda: ~arg)


class _Between(_Part):
    shape = '{"op": "between", "left": <expression>, "lower": <expression>, "upper": <expression>}'
    op: Literal["between"]
    left: _Expr
    lower: _Expr
    upper: _Expr

    def build(self, site: _Site) -> Expr[Any]:
        value, lower = self.left.build(site.at("left")), self.lower.build(site.at("lower"))
        upper = self.upper.build(site.at("upper"))
        return _guarded(site, lambda: value.between(lower, upper))


class _OrderKey(_Part):
    shape = 'a window order key {"col": <column>, "asc": <boolean> (optional)}'
    col: str
    asc: bool = True


def _name_or_object(value: Any) -> str | None:
    return "<name>" if isinstance(value, str) else "<object>" if isinstance(value, dict) else None


class _WindowSpec(_Part):
    shape = 'a window {"partition_by": [<column>, ...], "order_by": [<column> or {"col", "asc"}, ...]} (both optional)'
    partition_by: list[str] = []
    order_by: list[
        Annotated[
            Annotated[str, Tag("<name>")] | Annotated[_OrderKey, Tag("<object>")],
            _choice(_name_or_object, 'a column name or {"col": <column>, "asc": <boolean>}'),
        ]
    ] = []

    def over(self, function: Expr[Any], site: _Site) -> Expr[Any]:
        schema = site.schema
        window = Window.partition_by(*[_resolve(c, schema) for c in self.partition_by])
        if self.order_by:
            keys = [k if isinstance(k, str) else k.col for k in self.order_by]
            descending = [isinstance(k, _OrderKey) and not k.asc for k in self.order_by]
            window = window.order_by(*[_resolve(k, schema) for k in keys], descending=descending)
        return function.over(window)


_ONE_ARG: dict[str, Callable[[Expr[Any]], Expr[Any]]] = {
    "isnull": lambda e: e.is_null(), "isnotnull": lambda e: e.is_not_null(),
    "not": lambda e: ~e, "negate": lambda e: -e,
}  # fmt: skip
_MANY_ARGS: dict[str, Callable[..., Expr[Any]]] = {
    "coalesce": F.coalesce, "nvl": F.coalesce, "ifnull": F.coalesce,
}  # fmt: skip


class _Function(_Part):
    shape = '{"fn": <function>, "args": [<expression>, ...], "window": <window> (optional)}'
    fn: str
    args: list[_Expr] = []
    window: _WindowSpec | None = None

    def build(self, site: _Site) -> Expr[Any]:
        name = self.fn.lower()
        if name in ("cast", "try_cast"):
            return self._cast(name, site)
        args = [a.build(site.at("args").at(i)) for i, a in enumerate(self.args)]
        known = name == "when" or name in _ONE_ARG or name in _MANY_ARGS or name in _COMPARE or name in CATALOG
        windowed = name in CATALOG and CATALOG[name].placement.kind in (Kind.WINDOW, Kind.AGGREGATE)
        if self.window is not None and known and not windowed:
            msg = f"{_SHORT.repr(self.fn)} takes no window (a window applies to window and aggregate functions)"
            raise site.at("window").error(msg)
        return _guarded(site, lambda: self._call(name, args, site))

    def _call(self, name: str, args: list[Expr[Any]], site: _Site) -> Expr[Any]:
        if name == "when" and len(args) in (2, 3):
            chain = F.when(args[0], args[1])
            return chain.otherwise(args[2]) if len(args) == 3 else chain
        if name in _ONE_ARG and len(args) == 1:
            return _ONE_ARG[name](args[0])
        if name in _MANY_ARGS:
            return _MANY_ARGS[name](*args)
        if name in CATALOG:  # every catalog function, with PySpark's argument order
            entry = CATALOG[name]
            values = [  # a literal is its Python value, but a string where a string would name a column
                a.lit
                if isinstance(a, _Literal) and not (isinstance(a.lit, str) and _names_columns(entry, i))
                else built
                for i, (a, built) in enumerate(zip(self.args, args, strict=True))
            ]
            try:
                made: Expr[Any] = Expr(call(CATALOG[name], values))
            except TypeError as error:  # as Python says it: an argument missing or in excess
                msg = f"{error} (got {len(args)} argument(s))"
                raise site.at("args").error(msg) from error
            if CATALOG[name].placement.kind is Kind.WINDOW or self.window is not None:
                return (self.window or _WindowSpec()).over(made, site)
            return made
        if name in _COMPARE and len(args) == 2:
            return _COMPARE[name](args[0], args[1])
        known = sorted({*_ONE_ARG, *_MANY_ARGS, *_COMPARE, "cast", "when", *CATALOG})
        msg = (
            f"function {_SHORT.repr(name)} with {len(args)} argument(s) is not supported by pydantable-spark's "
            f"plan reader; supported: {', '.join(known)}"
        )
        raise site.error(msg, UnsupportedPlanError)

    def _cast(self, name: str, site: _Site) -> Expr[Any]:
        if name == "try_cast":
            msg = "try_cast turns failures into NULLs; the façade casts strictly (use cast)"
            raise site.error(msg)
        if len(self.args) != 2:
            msg = f"cast takes [<expression>, <type string>], got {len(self.args)} argument(s)"
            raise site.at("args").error(msg)
        target = self.args[1]
        if not (isinstance(target, _Literal) and isinstance(target.lit, str)):
            msg = 'the target of a cast is a type string such as {"lit": "bigint"}'
            raise site.at("args").at(1).error(msg)
        dtype = dt.parse_type_name(target.lit)
        if dtype is None:
            msg = f"unknown type string {_SHORT.repr(target.lit)}; the plan format knows {_KNOWN_TYPES}"
            raise site.at("args").at(1).error(msg)
        value = self.args[0].build(site.at("args").at(0))
        return _guarded(site, lambda: value.cast(dtype))


def _names_columns(entry: Function, index: int) -> bool:
    """Whether a ``str`` passed at ``index`` would name a column (PySpark's ``ColumnOrName``), not be a value."""
    params = entry.signature.params
    if index >= len(params) and not (params and params[-1].variadic):
        return False  # too many arguments: the call says so
    param = param_of(entry, index)
    return param.accepts is not None and param.names


class _Udf(_Part):
    shape = '{"udf": <name>, "args": [<expression>, ...]}'
    udf: str
    args: list[_Expr] = []

    def build(self, site: _Site) -> Expr[Any]:
        msg = f"UDF {_SHORT.repr(self.udf)}: user-defined functions are not part of the typed façade"
        raise site.error(msg)


def _expression_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        for key in ("col", "lit", "fn", "udf"):
            if key in value:
                return f"<{key}>"
        if "op" in value:
            op = value["op"]
            return f"<{op}>" if op in ("not", "between") else "<binary>"
        return None
    return "<scalar>" if value is None or isinstance(value, bool | int | float | str) else None


_Expr = Annotated[
    Annotated[_ColumnRef, Tag("<col>")]
    | Annotated[_Literal, Tag("<lit>")]
    | Annotated[_Literal, BeforeValidator(_bare_literal), Tag("<scalar>")]
    | Annotated[_Binary, Tag("<binary>")]
    | Annotated[_Not, Tag("<not>")]
    | Annotated[_Between, Tag("<between>")]
    | Annotated[_Function, Tag("<fn>")]
    | Annotated[_Udf, Tag("<udf>")],
    _choice(
        _expression_kind,
        'an expression: {"col": ...}, {"lit": ...}, {"op": ..., "left": ..., "right": ...}, '
        '{"op": "not", "arg": ...}, {"fn": ..., "args": [...]} or a bare literal',
    ),
]
_TopExpr = Annotated[_Expr, BeforeValidator(_bounded)]
"""An expression where a tree starts (a filter, a column, an argument list of a UDF): its depth is checked once."""

for _model in (_Binary, _Not, _Between, _Function, _Udf):
    _model.model_rebuild()


# --- rows ---------------------------------------------------------------------------------------


class _CellError(Exception):
    """A value that does not fit its column; the message says what would."""


_Cell = Callable[[Any], Any]


def _integer(bits: int) -> _Cell:
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1

    def check(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        msg = f"an integer from {low} to {high}"
        raise _CellError(msg)

    return check


def _floating(largest: float) -> _Cell:
    def check(value: Any) -> Any:
        if isinstance(value, float) and (value != value or abs(value) == float("inf") or abs(value) <= largest):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= largest:
            return float(value)
        msg = f"a number of magnitude at most {largest:.7g} (or NaN, ±Infinity)"
        raise _CellError(msg)

    return check


def _of(kind: type, what: str) -> _Cell:
    def check(value: Any) -> Any:
        if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
            return value
        raise _CellError(what)

    return check


def _date(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    msg = "a date as an ISO string ('2024-01-31')"
    raise _CellError(msg)


def _timestamp(naive: bool) -> _Cell:
    what = "a timestamp as an ISO string with a time ('2024-01-31T12:30:00'" + (", no offset)" if naive else ")")

    def check(value: Any) -> Any:
        if isinstance(value, str) and ("T" in value or " " in value):
            try:
                parsed = datetime.datetime.fromisoformat(value)
            except ValueError:
                pass
            else:
                if not (naive and parsed.tzinfo is not None):
                    return parsed
        raise _CellError(what)

    return check


_DECIMAL_TEXT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,4})?")


def _decimal(dtype: dt.Decimal) -> _Cell:
    what = (
        f"a decimal of at most {dtype.precision - dtype.scale} integer and {dtype.scale} fractional digits, "
        "as a string ('12.50', exact) or an integer"
    )
    step = decimal.Decimal(1).scaleb(-dtype.scale)
    bound = decimal.Decimal(10) ** (dtype.precision - dtype.scale)

    def check(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) < bound:
            return decimal.Decimal(value)
        if isinstance(value, str) and len(value) <= 100 and _DECIMAL_TEXT.fullmatch(value):
            number = decimal.Decimal(value)
            if number.copy_abs() < bound:  # first (and exactly: abs() rounds to 28 digits): quantize needs <= 76
                with decimal.localcontext(decimal.Context(prec=80)):
                    exact = number.quantize(step)
                if exact == number:
                    return exact
        raise _CellError(what)

    return check


def _binary(value: Any) -> Any:
    msg = "null (JSON has no bytes, so the format holds binary values as NULL only)"
    raise _CellError(msg)


def _cell(dtype: dt.DType) -> _Cell:
    """How a JSON value is checked (and turned into a Python value) for a column of ``dtype``."""
    if isinstance(dtype, dt.Decimal):
        return _decimal(dtype)
    cells: dict[type[dt.DType], _Cell] = {
        dt.Int8: _integer(8), dt.Int16: _integer(16), dt.Int32: _integer(32), dt.Int64: _integer(64),
        dt.Float64: _floating(1.7976931348623157e308), dt.Float32: _floating(3.4028234663852886e38),
        dt.String: _of(str, "a string"), dt.Boolean: _of(bool, "true or false"), dt.Date: _date,
        dt.Datetime: _timestamp(naive=False), dt.DatetimeNTZ: _timestamp(naive=True), dt.Binary: _binary,
    }  # fmt: skip
    return cells[type(dtype)]


def _type_string(text: str) -> str:
    if dt.parse_type_name(text) is None:
        msg = f"unknown type string {_SHORT.repr(text)}; the plan format knows {_KNOWN_TYPES}"
        raise _refuse(msg)
    return text


class _ColumnSpec(_Part):
    shape = 'a column {"name": <string>, "type": <type string>}'
    name: str
    type_: Annotated[str, AfterValidator(_type_string)] = Field(alias="type")

    @property
    def dtype(self) -> dt.DType:
        found = dt.parse_type_name(self.type_)
        assert found is not None  # checked when validated
        return found


def _checked_rows(columns: list[_ColumnSpec], rows: list[Any], keys: tuple[str, str]) -> list[dict[str, Any]]:
    """``rows`` as records of ``columns``: every row exactly as the schema says, every value of its type."""
    schema_key, rows_key = keys
    names = [c.name for c in columns]
    seen: dict[str, str] = {}
    for i, name in enumerate(names):
        first = seen.setdefault(name.lower(), name)
        if len(seen) <= i:
            same = "repeats" if first == name else f"and {first!r} differ only in case"
            msg = f"{schema_key}[{i}]: column {name!r} {same}; a frame's names are unique ignoring case"
            raise _refuse(msg)
    known = set(names)
    checks = [(c.name, c.type_, _cell(c.dtype)) for c in columns]
    out = []
    for r, row in enumerate(rows):
        if isinstance(row, list):
            if len(row) != len(names):
                msg = f"{rows_key}[{r}]: a row holds {len(names)} value(s), one per schema column, got {len(row)}"
                raise _refuse(msg)
            values = row
        elif isinstance(row, dict):
            for key in row:
                if key not in known:
                    hint = _hint(key, names)
                    msg = (
                        f"{rows_key}[{r}]: key {_SHORT.repr(key)} is not a column of the schema{hint}; "
                        "keys are the column names, exactly"
                    )
                    raise _refuse(msg)
            missing = [n for n in names if n not in row]
            if missing:
                msg = (
                    f"{rows_key}[{r}]: no value for column {missing[0]!r} "
                    "(an object row has a key for every column; null for NULL)"
                )
                raise _refuse(msg)
            values = [row[n] for n in names]
        else:
            msg = f"{rows_key}[{r}]: a row is an array of values or an object of column: value, got {_show(row)}"
            raise _refuse(msg)
        record = {}
        for (name, type_text, check), value in zip(checks, values, strict=True):
            try:
                record[name] = None if value is None else check(value)
            except _CellError as error:
                msg = f"{rows_key}[{r}], column {name!r} ({type_text}): expected {error}, got {_show(value)}"
                raise _refuse(msg) from None
        out.append(record)
    return out


class _Input(_Part):
    shape = (
        'an input {"schema": [{"name": ..., "type": ...}, ...], "rows": [[<value>, ...] or {<column>: <value>}, ...]}'
    )
    columns: list[_ColumnSpec] = Field(alias="schema")
    rows: list[Any]
    _records: list[dict[str, Any]] = PrivateAttr(default_factory=list)

    @model_validator(mode="after")
    def _rows_match_the_schema(self) -> _Input:
        self._records = _checked_rows(self.columns, self.rows, ("schema", "rows"))
        return self

    def frame(self, session: Any, site: _Site) -> DataFrame[Any]:
        return _frame_of(self.columns, self._records, session, site)


def _frame_of(columns: list[_ColumnSpec], records: list[dict[str, Any]], session: Any, site: _Site) -> DataFrame[Any]:
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.model import row_model

    schema = Schema(tuple(dt.Field(c.name, c.dtype, True) for c in columns))
    try:
        return DataFrame.from_rows(records, row_model(schema), session=session)
    except PlanFormatError:
        raise
    except PydantableSparkError as error:
        raise site.failed(error) from error


_CAMEL = {"other_data": "otherData", "other_schema": "otherSchema"}
"""The camelCase spellings the spec allows for the other side of a join or union (Sparkless)."""
_SPELLINGS = {**_CAMEL, **{camel: snake for snake, camel in _CAMEL.items()}}


class _Other(_Part):
    """The other side of a join or union: rows in the payload (camelCase spellings allowed, not both)."""

    shape = 'a payload {"other_data": [<row>, ...], "other_schema": [<column>, ...]} (or otherData, otherSchema)'
    other_data: list[Any]
    other_schema: list[_ColumnSpec]
    _records: list[dict[str, Any]] = PrivateAttr(default_factory=list)

    @classmethod
    def _prepare(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        for snake, camel in _CAMEL.items():
            if camel in data:
                if snake in data:
                    msg = f"both {snake!r} and {camel!r}: give one (they are two spellings of one key)"
                    raise _refuse(msg)
                data = {(snake if k == camel else k): v for k, v in data.items()}
        return data

    @model_validator(mode="after")
    def _rows_match_the_schema(self) -> _Other:
        self._records = _checked_rows(self.other_schema, self.other_data, ("other_schema", "other_data"))
        return self

    def frame(self, session: Any, site: _Site) -> DataFrame[Any]:
        return _frame_of(self.other_schema, self._records, session, site)


class _Step(_Part):
    """A step of the plan; ``apply`` runs it on the frame so far."""

    op: str

    op_level: ClassVar[tuple[str, ...]] = ()
    """Payload keys the format also accepts beside ``payload`` (join and union, for Sparkless)."""

    @classmethod
    def _prepare(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        beside = {k: v for k, v in data.items() if k in cls.op_level}
        payload = data.get("payload", {})
        if not beside or not isinstance(payload, dict):
            return data
        for key in beside:
            if key in payload or _SPELLINGS.get(key) in payload:
                msg = f"{key!r} is given both beside the payload and in it: give it once"
                raise _refuse(msg)
        rest = {k: v for k, v in data.items() if k not in cls.op_level}
        return {**rest, "payload": {**payload, **beside}}

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        raise NotImplementedError  # every step class defines it


class _Filter(_Step):
    shape = 'a filter step {"op": "filter", "payload": <expression>}'
    op: Literal["filter"]
    payload: _TopExpr

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        condition = self.payload.build(site.at("payload"))
        return frame.filter(condition)


class _Pick(_Part):
    shape = 'a column {"name": <column>} or {"type": "column", "name": <column>}'
    name: str
    kind: Literal["column"] | None = Field(default=None, alias="type")


class _Computed(_Part):
    shape = 'a computed column {"name": <output column>, "expr": <expression>}'
    name: str
    expr: _TopExpr


def _select_item_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "<name>"
    if isinstance(value, dict):
        return "<computed>" if "expr" in value else "<column>"
    return None


_SelectItem = Annotated[
    Annotated[str, Tag("<name>")] | Annotated[_Pick, Tag("<column>")] | Annotated[_Computed, Tag("<computed>")],
    _choice(_select_item_kind, 'a select item: a column name, {"name": <column>} or {"name": ..., "expr": ...}'),
]


class _SelectColumns(_Part):
    shape = 'a select payload {"columns": [<select item>, ...]}'
    columns: list[_SelectItem]


def _list_or_object(value: Any) -> str | None:
    return "<list>" if isinstance(value, list) else "<object>" if isinstance(value, dict) else None


class _Select(_Step):
    shape = 'a select step {"op": "select", "payload": [<select item>, ...] or {"columns": [...]}}'
    op: Literal["select"]
    payload: Annotated[
        Annotated[list[_SelectItem], Tag("<list>")] | Annotated[_SelectColumns, Tag("<object>")],
        _choice(_list_or_object, 'a select payload: an array of select items, or {"columns": [...]}'),
    ]

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        items = self.payload.columns if isinstance(self.payload, _SelectColumns) else self.payload
        where = site.at("payload").at("columns") if isinstance(self.payload, _SelectColumns) else site.at("payload")
        out: list[Any] = []
        for i, item in enumerate(items):
            if isinstance(item, _Computed):
                expr = item.expr.build(where.at(i).at("expr"))
                out.append(_guarded(where.at(i), functools.partial(expr.alias, item.name)))
            else:
                out.append(_resolve(item if isinstance(item, str) else item.name, frame.schema))
        return frame.select(*out)


class _NamedExpr(_Part):
    shape = 'a withColumn payload {"name": <column>, "expr": <expression>}'
    name: str
    expr: _TopExpr


class _WithColumn(_Step):
    shape = 'a withColumn step {"op": "withColumn", "payload": {"name": ..., "expr": ...}}'
    op: Literal["withColumn"]
    payload: _NamedExpr

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        value = self.payload.expr.build(site.at("payload").at("expr"))
        return frame.with_columns(**{_resolve(self.payload.name, frame.schema): value})


class _LimitCount(_Part):
    shape = 'a limit payload {"n": <integer from 1 to 2147483647>}'
    n: Annotated[int, Field(ge=1, le=_INT_MAX)]


class _Limit(_Step):
    shape = 'a limit step {"op": "limit", "payload": {"n": <integer from 1 to 2147483647>}}'
    op: Literal["limit"]
    payload: _LimitCount

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.limit(self.payload.n)


class _OffsetCount(_Part):
    shape = 'an offset payload {"n": <integer from 0 to 2147483647>}'
    n: Annotated[int, Field(ge=0, le=_INT_MAX)]


class _Offset(_Step):
    shape = 'an offset step {"op": "offset", "payload": {"n": <integer from 0 to 2147483647>}}'
    op: Literal["offset"]
    payload: _OffsetCount

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.offset(self.payload.n)


class _Order(_Part):
    shape = (
        'an orderBy payload {"columns": [<column>, ...], "ascending": [<boolean>, ...], '
        '"nulls_first": [<boolean>, ...] (optional)}'
    )
    columns: Annotated[list[str], Field(min_length=1)]
    ascending: list[bool]
    nulls_first: list[bool] | None = None

    @model_validator(mode="after")
    def _one_flag_per_column(self) -> _Order:
        for key, flags in (("ascending", self.ascending), ("nulls_first", self.nulls_first)):
            if flags is not None and len(flags) != len(self.columns):
                msg = f"{key}: {len(flags)} flag(s) for {len(self.columns)} column(s); give one per column"
                raise _refuse(msg)
        return self


class _OrderBy(_Step):
    shape = 'an orderBy step {"op": "orderBy", "payload": {"columns": [...], "ascending": [...]}}'
    op: Literal["orderBy"]
    payload: _Order

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        columns = [_resolve(c, frame.schema) for c in self.payload.columns]
        ascending = self.payload.ascending
        nulls_first = ascending if self.payload.nulls_first is None else self.payload.nulls_first  # PySpark's default
        return frame.sort(*columns, descending=[not a for a in ascending], nulls_last=[not n for n in nulls_first])


def _aggregate_name(value: str) -> str:
    name = value.lower()
    if name not in _AGGREGATES:
        msg = f"aggregation {_SHORT.repr(value)} is not supported; supported: {', '.join(_AGGREGATES)}"
        raise _refuse(msg)
    return name


class _Aggregation(_Part):
    shape = 'an aggregation {"agg": <aggregate>, "column": <column>, "alias": <output column> (optional)}'
    agg: Annotated[str, AfterValidator(_aggregate_name)]
    column: str | None = None
    alias: str | None = None

    @model_validator(mode="after")
    def _column_unless_count(self) -> _Aggregation:
        if self.column is None and self.agg != "count":
            msg = f"aggregation {self.agg!r} needs a 'column' (only count may go without)"
            raise _refuse(msg)
        return self

    def build(self, site: _Site) -> Expr[Any]:
        entry = CATALOG[self.agg]
        if self.column is None:
            return _guarded(site, lambda: Expr(call(entry, [])).alias(self.alias or "count(1)"))
        name = _resolve(self.column, site.schema)
        alias = self.alias or f"{self.agg}({self.column})"
        return _guarded(site, lambda: Expr(call(entry, [F.col(name)])).alias(alias))


class _GroupedUdf(_Part):
    shape = (
        'a grouped UDF aggregation {"agg": "python_grouped_udf", "udf": <name>, "args": [<expression>, ...], '
        '"alias": <output column>, "return_type": <type string>}'
    )
    agg: Literal["python_grouped_udf"]
    udf: str
    args: list[_TopExpr]
    alias: str
    return_type: str

    def build(self, site: _Site) -> Expr[Any]:
        msg = f"grouped UDF {_SHORT.repr(self.udf)}: Python UDFs are not part of the typed façade"
        raise site.error(msg, UnsupportedPlanError)


def _aggregation_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return "<udf>" if value.get("agg") == "python_grouped_udf" else "<simple>"
    return None


_Agg = Annotated[
    Annotated[_Aggregation, Tag("<simple>")] | Annotated[_GroupedUdf, Tag("<udf>")],
    _choice(_aggregation_kind, 'an aggregation {"agg": <aggregate>, "column": <column>, "alias": <output column>}'),
]


class _Grouping(_Part):
    shape = 'a groupBy payload {"group_by": [<column>, ...], "aggs": [<aggregation>, ...] (optional)}'
    group_by: list[str]
    aggs: Annotated[list[_Agg], Field(min_length=1)] | None = None


class _GroupBy(_Step):
    shape = 'a groupBy step {"op": "groupBy", "payload": {"group_by": [...], "aggs": [...]}}'
    op: Literal["groupBy"]
    payload: _Grouping

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        keys = [_resolve(k, frame.schema) for k in self.payload.group_by]
        if self.payload.aggs is None:
            loader.pending_keys = keys
            return frame
        return _aggregate(frame, keys, self.payload.aggs, site.at("payload"))


class _Aggregations(_Part):
    shape = 'an agg payload {"aggs": [<aggregation>, ...]}'
    aggs: Annotated[list[_Agg], Field(min_length=1)]


class _AggStep(_Step):
    shape = 'an agg step {"op": "agg", "payload": {"aggs": [...]}}'
    op: Literal["agg"]
    payload: _Aggregations

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        keys, loader.pending_keys = loader.pending_keys or [], None
        return _aggregate(frame, keys, self.payload.aggs, site.at("payload"))


def _aggregate(frame: DataFrame[Any], keys: list[str], aggs: Sequence[Any], site: _Site) -> DataFrame[Any]:
    exprs = [a.build(site.at("aggs").at(i)) for i, a in enumerate(aggs)]
    if not keys:
        return frame.select(*exprs)
    return frame.group_by(*keys, drop_nulls=False).agg(*exprs)


_HOWS = {
    "inner": "inner", "left": "left", "right": "right", "outer": "full", "full": "full", "cross": "cross",
    "left_semi": "semi", "semi": "semi", "left_anti": "anti", "anti": "anti", "full_outer": "full",
    "left_outer": "left", "right_outer": "right",
}  # fmt: skip


def _names(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


class _JoinPayload(_Other):
    shape = (
        'a join payload {"other_data": [<row>, ...], "other_schema": [<column>, ...], "on": [<column>, ...], '
        '"how": "inner" | "left" | "right" | "outer" | ...}'
    )
    on: Annotated[list[str] | None, BeforeValidator(_names)] = None
    how: Annotated[str, _one_of(tuple(_HOWS), "join type")] = "inner"

    @model_validator(mode="after")
    def _keys_unless_cross(self) -> _JoinPayload:
        if self.how == "cross" and self.on:
            msg = "on: a cross join has no keys (leave 'on' out)"
            raise _refuse(msg)
        if self.how != "cross" and not self.on:
            msg = f"missing key 'on': a {self.how} join needs the key column(s) (a cross join has none)"
            raise _refuse(msg)
        return self


class _JoinStep(_Step):
    shape = 'a join step {"op": "join", "payload": {"other_data": ..., "other_schema": ..., "on": ..., "how": ...}}'
    op_level = ("other_data", "otherData", "other_schema", "otherSchema", "on", "how")
    op: Literal["join"]
    payload: _JoinPayload

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        other = self.payload.frame(loader.session, site.at("payload"))
        how = _HOWS[self.payload.how]
        if how == "cross":
            return frame.join(other, how="cross")
        names = self.payload.on or []
        left = [_resolve(n, frame.schema) for n in names]
        right = [_resolve(n, other.schema) for n in names]
        return frame.join(other, left_on=left, right_on=right, how=how, coalesce=True)  # type: ignore[arg-type]


class _UnionStep(_Step):
    shape = 'a union step {"op": "union", "payload": {"other_data": ..., "other_schema": ...}}'
    op_level = ("other_data", "otherData", "other_schema", "otherSchema")
    op: Literal["union"]
    payload: _Other

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.union(self.payload.frame(loader.session, site.at("payload")))


class _UnionByNameStep(_Step):
    shape = 'a unionByName step {"op": "unionByName", "payload": {"other_data": ..., "other_schema": ...}}'
    op_level = ("other_data", "otherData", "other_schema", "otherSchema")
    op: Literal["unionByName"]
    payload: _Other

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.union_by_name(self.payload.frame(loader.session, site.at("payload")))


class _Empty(_Part):
    shape = "an empty payload {}"


class _Distinct(_Step):
    shape = 'a distinct step {"op": "distinct", "payload": {}} (payload optional)'
    op: Literal["distinct"]
    payload: _Empty = _Empty()

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.unique()


class _DropColumns(_Part):
    shape = 'a drop payload {"columns": [<column>, ...]}'
    columns: list[str]


class _Drop(_Step):
    shape = 'a drop step {"op": "drop", "payload": {"columns": [...]}}'
    op: Literal["drop"]
    payload: _DropColumns

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.drop(*[_resolve(c, frame.schema) for c in self.payload.columns])


class _Renaming(_Part):
    shape = 'a withColumnRenamed payload {"old": <column>, "new": <new name>}'
    old: str
    new: str


class _Rename(_Step):
    shape = 'a withColumnRenamed step {"op": "withColumnRenamed", "payload": {"old": ..., "new": ...}}'
    op: Literal["withColumnRenamed"]
    payload: _Renaming

    def apply(self, loader: _Loader, frame: DataFrame[Any], site: _Site) -> DataFrame[Any]:
        return frame.rename({_resolve(self.payload.old, frame.schema): self.payload.new})


def _step_kind(value: Any) -> str | None:
    op = value.get("op") if isinstance(value, dict) else None
    return f"<{op}>" if isinstance(op, str) and op in OPS else None


_AnyStep = Annotated[
    Annotated[_Filter, Tag("<filter>")]
    | Annotated[_Select, Tag("<select>")]
    | Annotated[_WithColumn, Tag("<withColumn>")]
    | Annotated[_Limit, Tag("<limit>")]
    | Annotated[_Offset, Tag("<offset>")]
    | Annotated[_OrderBy, Tag("<orderBy>")]
    | Annotated[_GroupBy, Tag("<groupBy>")]
    | Annotated[_AggStep, Tag("<agg>")]
    | Annotated[_JoinStep, Tag("<join>")]
    | Annotated[_UnionStep, Tag("<union>")]
    | Annotated[_UnionByNameStep, Tag("<unionByName>")]
    | Annotated[_Distinct, Tag("<distinct>")]
    | Annotated[_Drop, Tag("<drop>")]
    | Annotated[_Rename, Tag("<withColumnRenamed>")],
    Discriminator(_step_kind, custom_error_type="plan_step", custom_error_message="a plan step"),
]


class _ExpectedColumn(_Part):
    shape = 'a column {"name": <string>, "type": <string>}'
    name: str
    type_: str = Field(alias="type")


class _Expected(_Part):
    shape = 'an expected result {"schema": [...], "rows": [...]} (fixtures; load does not read it)'
    columns: list[_ExpectedColumn] = Field(alias="schema")
    rows: list[Any]


class _Document(_Part):
    shape = 'a plan document {"input": {"schema": [...], "rows": [...]}, "plan": [<step>, ...]}'
    source: _Input = Field(alias="input")
    plan: list[_AnyStep]
    name: str | None = None
    expected: _Expected | None = None


# --- load -------------------------------------------------------------------------------------


def load(document: Mapping[str, Any] | str | os.PathLike[str], *, session: Any = None) -> DataFrame[Any]:
    """A typed frame from a plan document: a mapping, JSON text, or a path to a JSON file.

    Args:
        document: the document as parsed JSON (a mapping of dicts, lists,
            strings, numbers, booleans and None), as JSON text (a string whose
            first non-blank character is ``{`` or ``[``), or the path of a
            UTF-8 JSON file (any other string, or a path object).
        session: the SparkSession the frame runs on (default: the active one).

    Returns:
        The frame the plan describes; its columns are nullable.

    Raises:
        PlanFormatError: the document cannot be read, does not follow the
            format, or a step fails the façade's rules (the façade's error is
            the ``__cause__``); the message names the step, the field and what
            the format allows. ``UnsupportedPlanError`` (a subclass) for a part
            of the format this reader does not do.

    """
    data = _parsed(document)
    try:
        parsed = _Document.model_validate(data)
    except ValidationError as error:
        raise PlanFormatError(_message(error, data)) from error
    where = _Site("input", "", Schema(()))
    frame = parsed.source.frame(session, where)
    loader = _Loader(session)
    for i, step in enumerate(parsed.plan):
        frame = loader.apply(frame, step, i)
    if loader.pending_keys is not None:
        msg = "the plan ends with a groupBy without aggregations (add 'aggs' or an 'agg' step)"
        raise PlanFormatError(msg)
    return frame


def _parsed(document: Any) -> dict[str, Any]:
    """The document as a dict of parsed JSON, or a ``PlanFormatError`` saying why it is not one."""
    if isinstance(document, Mapping):
        return dict(document)
    if isinstance(document, str) and document.lstrip()[:1] in ("{", "["):
        text, origin = document, "JSON text"
    elif isinstance(document, str | os.PathLike):
        path = os.fsdecode(document)
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, ValueError) as error:  # ValueError: not UTF-8, or a NUL in the path
            shown = _SHORT.repr(path)
            hint = (
                "" if isinstance(document, os.PathLike) else " (a string is read as JSON text when it starts with '{')"
            )
            msg = f"cannot read the plan document file {shown}: {error}{hint}"
            raise PlanFormatError(msg) from error
        origin = f"file {_SHORT.repr(path)}"
    else:
        msg = f"a plan document is a mapping, JSON text or a path, got {_show(document)}"
        raise PlanFormatError(msg)
    try:
        loaded = json.loads(text, object_pairs_hook=_unique_keys)
    except RecursionError as error:
        msg = f"{origin}: the JSON nests too deeply to read (expressions may nest {MAX_DEPTH} levels)"
        raise PlanFormatError(msg) from error
    except ValueError as error:  # JSONDecodeError, a repeated key, an integer of over 4300 digits
        msg = f"{origin} is not valid JSON: {error}"
        raise PlanFormatError(msg) from error
    if not isinstance(loaded, dict):
        msg = f'{origin}: a plan document is a JSON object {{"input": ..., "plan": [...]}}, got {_show(loaded)}'
        raise PlanFormatError(msg)
    return loaded


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        keys = [k for k, _ in pairs]
        repeated = next(k for k in keys if keys.count(k) > 1)
        msg = f"key {_SHORT.repr(repeated)} appears twice in one object (JSON readers disagree on which one counts)"
        raise ValueError(msg)
    return found


def _resolve(name: str, schema: Schema) -> str:
    """``name`` as the frame spells it: exact, else the one column equal ignoring case (PySpark's default)."""
    if name in schema:
        return name
    folded = [n for n in schema.names if n.lower() == name.lower()]
    return folded[0] if len(folded) == 1 else name


class _Loader:
    """Applies plan steps to a frame; remembers a ``groupBy`` waiting for its ``agg`` step."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.pending_keys: list[str] | None = None

    def apply(self, frame: DataFrame[Any], step: _Step, index: int) -> DataFrame[Any]:
        site = _Site(f"plan step {index} ({step.op})", "", frame.schema)
        if self.pending_keys is not None and step.op != "agg":
            msg = f"{site.where}: a groupBy without 'aggs' must be followed by an 'agg' step"
            raise PlanFormatError(msg)
        try:
            return step.apply(self, frame, site)
        except PlanFormatError:
            raise
        except (PydantableSparkError, NotImplementedError) as error:  # the façade's own rules, named by the step
            raise site.failed(error) from error
        except RecursionError as error:
            msg = f"too deep for the façade to type (expressions may nest {MAX_DEPTH} levels)"
            raise site.error(msg) from error


_AGGREGATES = sorted(name for name, entry in CATALOG.items() if entry.placement.kind is Kind.AGGREGATE)
"""The aggregations an ``agg`` payload may name: every catalog aggregate."""


# --- to_plan ------------------------------------------------------------------------------------


def to_plan(frame: DataFrame[Any]) -> dict[str, Any]:
    """The frame as a plan document (``input`` and ``plan``), if its plan fits the format.

    The plan must start from Python data (``from_rows`` and the like), the
    other side of a join or union too, and use the steps and expressions the
    format has; otherwise ``PlanFormatError`` names the first part that does
    not fit (``UnsupportedPlanError`` for window expressions, which the format
    could carry but this writer does not write yet). Nullability is not kept
    (the format has none); a ``group_by`` that drops NULL keys is written as a
    filter before the ``groupBy``.
    """
    steps: list[dict[str, Any]] = []
    node = frame.plan
    while not isinstance(node, p.Source):
        written, node = _step(node)
        steps += reversed(written)
    steps.reverse()
    return {"input": _input(node), "plan": steps}


def _input(source: p.Source) -> dict[str, Any]:
    if not isinstance(source.data, ArrowData):
        msg = f"to_plan: the plan format starts from rows in the document; this frame reads {source.data.describe()}"
        raise PlanFormatError(msg)
    schema = [{"name": f.name, "type": type_string(f.dtype, f"to_plan: column {f.name!r}")} for f in source.schema]
    rows = [[_json_value(v) for v in row.values()] for row in source.data.table.to_pylist()]
    return {"schema": schema, "rows": rows}


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        msg = "to_plan: binary values have no JSON form in the plan format"
        raise PlanFormatError(msg)
    return value


def _step(node: p.Plan) -> tuple[list[dict[str, Any]], p.Plan]:
    """The format's steps for ``node`` (in order) and the plan below them."""
    if isinstance(node, p.Filter):
        return [{"op": "filter", "payload": _tree(node.predicate)}], node.input
    if isinstance(node, p.Project):
        return [{"op": "select", "payload": [_select_item(e) for e in node.exprs]}], node.input
    if isinstance(node, p.Limit):
        if node.n < 1:
            msg = f"to_plan: limit({node.n}): the format's limit keeps a positive number of rows"
            raise PlanFormatError(msg)
        return [{"op": "limit", "payload": {"n": node.n}}], node.input
    if isinstance(node, p.Offset):
        return [{"op": "offset", "payload": {"n": node.n}}], node.input
    if isinstance(node, p.Distinct) and node.subset is None:
        return [{"op": "distinct", "payload": {}}], node.input
    if isinstance(node, p.Sort) and all(isinstance(k.expr, core.Column) for k in node.keys):
        payload = {
            "columns": [k.expr.name for k in node.keys if isinstance(k.expr, core.Column)],
            "ascending": [not k.descending for k in node.keys],
            "nulls_first": [not k.nulls_last for k in node.keys],
        }
        return [{"op": "orderBy", "payload": payload}], node.input
    if isinstance(node, Aggregate):
        return _group_by(node), node.input
    if isinstance(node, Join):
        return [{"op": "join", "payload": _join(node)}], node.left
    if isinstance(node, UnionPlan) and not node.allow_missing:
        others = [
            {"op": "unionByName" if node.by_name else "union", "payload": _rows_of(f, "union")} for f in node.frames[1:]
        ]
        return others, node.frames[0]
    msg = f"to_plan: {node.describe()} has no form in the plan format"
    raise PlanFormatError(msg)


def _rows_of(plan: p.Plan, what: str) -> dict[str, Any]:
    """``other_data``/``other_schema`` of the right side of a join or union: rows from Python, as they are."""
    if not isinstance(plan, p.Source):
        msg = f"to_plan: the other side of a {what} must be rows from Python as they are, not {plan.describe()}"
        raise PlanFormatError(msg)
    data = _input(plan)
    return {"other_data": data["rows"], "other_schema": data["schema"]}


def _group_by(node: Aggregate) -> list[dict[str, Any]]:
    keys = []
    for key in node.keys:
        if not isinstance(key, core.Column):
            msg = f"to_plan: group key {core.describe(key)}: the format groups by column names only"
            raise PlanFormatError(msg)
        keys.append(key.name)
    aggs = []
    for item in node.aggs:
        inner = item.child if isinstance(item, core.Alias) else item
        simple = isinstance(inner, Call) and inner.is_aggregate and len(inner.args) <= 1
        child = inner.args[0] if isinstance(inner, Call) and inner.args else None
        if not simple or not (child is None or isinstance(child, core.Column)):
            msg = f"to_plan: aggregate {core.describe(item)}: the format has an aggregate of one column (or count)"
            raise PlanFormatError(msg)
        assert isinstance(inner, Call)
        spec: dict[str, Any] = {"agg": inner.function.name, "alias": item.output_name}
        if isinstance(child, core.Column):
            spec["column"] = child.name
        aggs.append(spec)
    steps: list[dict[str, Any]] = []
    nullable = [k for k in node.keys if k.type.nullable]
    if node.drop_null_keys and nullable:  # the format keeps NULL keys as a group, as PySpark does
        condition: Any = None
        for key in nullable:
            test = {"fn": "isnotnull", "args": [_tree(key)]}
            condition = test if condition is None else {"op": "and", "left": condition, "right": test}
        steps.append({"op": "filter", "payload": condition})
    if not keys:
        steps.append({"op": "groupBy", "payload": {"group_by": [], "aggs": aggs}})
        return steps
    steps.append({"op": "groupBy", "payload": {"group_by": keys, "aggs": aggs}})
    return steps


_HOW_NAMES = {"inner": "inner", "left": "left", "right": "right", "full": "outer", "semi": "left_semi",
              "anti": "left_anti", "cross": "cross"}  # fmt: skip


def _join(node: Join) -> dict[str, Any]:
    payload = _rows_of(node.right, "join")
    payload["how"] = _HOW_NAMES[node.how]
    if node.how != "cross":
        left = [k.name for k in node.left_keys if isinstance(k, core.Column)]
        right = [k.name for k in node.right_keys if isinstance(k, core.Column)]
        plain = left == right and len(left) == len(node.left_keys) and len(right) == len(node.right_keys)
        if not plain or not node.merge_keys:
            msg = "to_plan: the format joins on column names present on both sides, kept once (on=...)"
            raise PlanFormatError(msg)
        payload["on"] = left
    if node.conditions:
        msg = "to_plan: join conditions (on=<boolean expression>) have no form in the plan format"
        raise PlanFormatError(msg)
    if node.join_nulls or node.validate != "m:m" or node.suffix != "_right" or node.maintain_order != "none":
        msg = "to_plan: join_nulls, validate, suffix and maintain_order have no form in the plan format"
        raise PlanFormatError(msg)
    return payload


def _select_item(node: core.Node) -> Any:
    if isinstance(node, core.Column):
        return node.name
    if isinstance(node, core.Alias):
        return {"name": node.name, "expr": _tree(node.child)}
    return {"name": node.output_name, "expr": _tree(node)}


_TREE_COMPARE = {
    ops.ComparisonOp.EQ: "eq", ops.ComparisonOp.NE: "ne", ops.ComparisonOp.GT: "gt",
    ops.ComparisonOp.GE: "ge", ops.ComparisonOp.LT: "lt", ops.ComparisonOp.LE: "le",
}  # fmt: skip
_TREE_ARITHMETIC = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide"}
_TREE_ONE_ARG: dict[type[core.Node], str] = {ops.IsNull: "isnull", ops.IsNotNull: "isnotnull"}


def _tree(node: core.Node) -> Any:
    if isinstance(node, core.Alias):
        return _tree(node.child)
    if isinstance(node, core.Column):
        return {"col": node.name}
    if isinstance(node, core.Literal) and (node.value is None or isinstance(node.value, bool | int | float | str)):
        return {"lit": node.value}
    if isinstance(node, core.Literal) and isinstance(node.value, core.EmptyCollection):
        return {"fn": "array" if node.value is core.EmptyCollection.LIST else "create_map", "args": []}
    if isinstance(node, ops.Comparison):
        return {"op": _TREE_COMPARE[node.op], "left": _tree(node.left), "right": _tree(node.right)}
    if isinstance(node, ops.And | ops.Or):
        return {
            "op": "and" if isinstance(node, ops.And) else "or",
            "left": _tree(node.left),
            "right": _tree(node.right),
        }
    if isinstance(node, ops.Not):
        return {"op": "not", "arg": _tree(node.child)}
    if isinstance(node, ops.Arithmetic) and node.op.value in _TREE_ARITHMETIC:
        return {"fn": _TREE_ARITHMETIC[node.op.value], "args": [_tree(node.left), _tree(node.right)]}
    if isinstance(node, ops.Power):
        return {"op": "**", "left": _tree(node.left), "right": _tree(node.right)}
    if isinstance(node, ops.Between) and node.closed == "both":
        return {"op": "between", "left": _tree(node.child), "lower": _tree(node.lower), "upper": _tree(node.upper)}
    if isinstance(node, core.Cast) and not node.to.is_nested:
        return {"fn": "cast", "args": [_tree(node.child), {"lit": type_string(node.to)}]}
    if isinstance(node, cond.Coalesce):
        return {"fn": "coalesce", "args": [_tree(a) for a in node.args]}
    if isinstance(node, cond.When) and len(node.conditions) == 1:
        args = [_tree(node.conditions[0]), _tree(node.values[0])]
        return {"fn": "when", "args": args + ([_tree(node.otherwise)] if node.otherwise is not None else [])}
    if isinstance(node, Call) and node.function.signature.in_f:
        return {"fn": node.function.name, "args": [_tree(a) for a in node.args]}
    if type(node) in _TREE_ONE_ARG:
        return {"fn": _TREE_ONE_ARG[type(node)], "args": [_tree(next(node.children()))]}
    if isinstance(node, Over):
        msg = f"to_plan: {core.describe(node)}: window expressions are not written by to_plan yet"
        raise UnsupportedPlanError(msg)
    msg = f"to_plan: expression {core.describe(node)} has no form in the plan format"
    raise PlanFormatError(msg)
