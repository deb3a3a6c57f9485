"""Plan interchange: the JSON logical-plan format of robin-sparkless, read and written.

A document has ``input`` (``schema``: a list of ``{"name", "type"}``; ``rows``:
lists or dicts) and ``plan`` (a list of ``{"op", "payload"}`` steps whose
expressions are trees of ``{"col"}``, ``{"lit"}``, ``{"op", "left", "right"}``
and ``{"fn", "args"}``). ``load`` builds a typed frame from it, step by step
with the façade's own methods, so every schema rule and error applies as if
the plan had been written in Python. ``to_plan`` writes a frame back in the
format when its plan fits; anything the format cannot say raises
``PlanFormatError`` naming it.

The format follows PySpark where it is silent: names resolve ignoring case,
``groupBy`` keeps NULL keys as a group, ``orderBy`` puts NULLs first when
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

```
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark import functions as F
from pydantable_spark.errors import PlanFormatError, PydantableSparkError, UnsupportedPlanError
from pydantable_spark.expr import conditional as cond
from pydantable_spark.expr import core
from pydantable_spark.expr import operators as ops
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.arguments import call
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.catalog import CATALOG, Kind
from pydantable_spark.expr.window import Over
from pydantable_spark.expr.windowspec import Window
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate
from pydantable_spark.plan.joins import Join
from pydantable_spark.plan.setops import Union
from pydantable_spark.plan.sources import ArrowData
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from pydantable_spark.frame import DataFrame

__all__ = ["dtype_of", "load", "schema_of", "to_plan", "type_string"]

OPS: tuple[str, ...] = (
    "filter", "select", "withColumn", "limit", "offset", "orderBy", "groupBy", "agg", "join", "union",
    "unionByName", "distinct", "drop", "withColumnRenamed",
)  # fmt: skip

# --- types ------------------------------------------------------------------------------------

_TYPES: dict[str, dt.DType] = {
    "bigint": dt.Int64(), "long": dt.Int64(), "int": dt.Int32(), "integer": dt.Int32(),
    "smallint": dt.Int16(), "short": dt.Int16(), "tinyint": dt.Int8(), "byte": dt.Int8(),
    "double": dt.Float64(), "float": dt.Float32(), "real": dt.Float32(),
    "string": dt.String(), "boolean": dt.Boolean(), "bool": dt.Boolean(),
    "date": dt.Date(), "timestamp": dt.Datetime(), "timestamp_ntz": dt.DatetimeNTZ(), "binary": dt.Binary(),
}  # fmt: skip
_NAMES: dict[type[dt.DType], str] = {
    dt.Int64: "bigint", dt.Int32: "int", dt.Int16: "smallint", dt.Int8: "tinyint", dt.Float64: "double",
    dt.Float32: "float", dt.String: "string", dt.Boolean: "boolean", dt.Date: "date", dt.Datetime: "timestamp",
    dt.DatetimeNTZ: "timestamp_ntz",
}  # fmt: skip
_DECIMAL = re.compile(r"decimal\((\d+),\s*(\d+)\)")


def dtype_of(text: str, where: str = "type") -> dt.DType:
    """The logical type of a type string (``bigint``, ``decimal(10,2)``, ...)."""
    key = text.strip().lower()
    if key in _TYPES:
        return _TYPES[key]
    found = _DECIMAL.fullmatch(key)
    if found:
        return dt.Decimal(int(found.group(1)), int(found.group(2)))
    known = ", ".join([*_TYPES, "decimal(p,s)"])
    msg = f"{where}: unknown type string {text!r}; the plan format knows {known}"
    raise PlanFormatError(msg)


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
    """A schema of nullable columns from ``[{"name", "type"}, ...]``."""
    fields = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, Mapping) or "name" not in spec or "type" not in spec:
            msg = f"{where}[{i}]: a column is {{'name': ..., 'type': ...}}, got {spec!r}"
            raise PlanFormatError(msg)
        fields.append(dt.Field(str(spec["name"]), dtype_of(str(spec["type"]), f"{where}[{i}] ({spec['name']})"), True))
    return Schema(tuple(fields))


# --- load -------------------------------------------------------------------------------------


def load(document: Mapping[str, Any] | str | os.PathLike[str], *, session: Any = None) -> DataFrame[Any]:
    """A typed frame from a plan document: a mapping, JSON text, or a path to a JSON file."""
    doc = _document(document)
    if "input" not in doc or "plan" not in doc:
        msg = f"a plan document has 'input' and 'plan'; got keys {sorted(doc)}"
        raise PlanFormatError(msg)
    source = doc["input"]
    frame = _frame_of(source.get("schema", []), source.get("rows", []), session, "input")
    steps = doc["plan"]
    if not isinstance(steps, list):
        msg = f"'plan' is a list of {{'op', 'payload'}} steps, got {type(steps).__name__}"
        raise PlanFormatError(msg)
    loader = _Loader(session)
    for i, step in enumerate(steps):
        frame = loader.apply(frame, step, i)
    if loader.pending_keys is not None:
        msg = "the plan ends with a groupBy without aggregations (add 'aggs' or an 'agg' step)"
        raise PlanFormatError(msg)
    return frame


def _document(document: Mapping[str, Any] | str | os.PathLike[str]) -> Mapping[str, Any]:
    if isinstance(document, Mapping):
        return document
    text = str(document)
    if isinstance(document, os.PathLike) or not text.lstrip().startswith("{"):
        with open(text, encoding="utf-8") as handle:
            text = handle.read()
    loaded = json.loads(text)
    if not isinstance(loaded, dict):
        msg = f"a plan document is a JSON object, got {type(loaded).__name__}"
        raise PlanFormatError(msg)
    return loaded


def _frame_of(specs: Sequence[Mapping[str, Any]], rows: Sequence[Any], session: Any, where: str) -> DataFrame[Any]:
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.model import row_model

    schema = schema_of(specs, f"{where} schema")
    names = schema.names
    records = []
    for i, row in enumerate(rows):
        if isinstance(row, Mapping):
            records.append({n: row.get(n) for n in names})
        elif isinstance(row, Sequence) and not isinstance(row, str) and len(row) == len(names):
            records.append(dict(zip(names, row, strict=True)))
        else:
            msg = f"{where} row {i}: expected a list of {len(names)} values or an object, got {row!r}"
            raise PlanFormatError(msg)
    return DataFrame.from_rows(records, row_model(schema), session=session)


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

    def apply(self, frame: DataFrame[Any], step: Any, index: int) -> DataFrame[Any]:
        if not isinstance(step, Mapping) or "op" not in step:
            msg = f"plan step {index}: expected {{'op': ..., 'payload': ...}}, got {step!r}"
            raise PlanFormatError(msg)
        op = step["op"]
        payload = step.get("payload", {})
        where = f"plan step {index} ({op})"
        if self.pending_keys is not None and op != "agg":
            msg = f"{where}: a groupBy without 'aggs' must be followed by an 'agg' step"
            raise PlanFormatError(msg)
        handler = _HANDLERS.get(op)
        if handler is None:
            msg = f"{where}: unknown op {op!r}; the plan format has {', '.join(OPS)}"
            raise PlanFormatError(msg)
        try:
            return handler(self, frame, payload, step, where)
        except PydantableSparkError:
            raise  # the façade's own errors name the columns and types already
        except (KeyError, TypeError, ValueError) as error:
            msg = f"{where}: malformed payload {payload!r} ({error})"
            raise PlanFormatError(msg) from error

    def expr(self, tree: Any, frame: DataFrame[Any], where: str) -> Expr[Any]:
        return _expr(tree, frame.schema, where)

    # each op ---------------------------------------------------------------------------------

    def filter(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.filter(self.expr(payload, frame, where))

    def select(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        items = payload["columns"] if isinstance(payload, Mapping) else payload
        out: list[Any] = []
        for item in items:
            if isinstance(item, str):
                out.append(_resolve(item, frame.schema))
            elif isinstance(item, Mapping) and "expr" in item:
                out.append(self.expr(item["expr"], frame, where).alias(str(item["name"])))
            elif isinstance(item, Mapping) and "name" in item:
                out.append(_resolve(str(item["name"]), frame.schema))
            else:
                msg = f"{where}: a select item is a name, {{'name'}} or {{'name', 'expr'}}, got {item!r}"
                raise PlanFormatError(msg)
        return frame.select(*out)

    def with_column(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        name = str(payload["name"])
        return frame.with_columns(**{_resolve(name, frame.schema): self.expr(payload["expr"], frame, where)})

    def limit(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.limit(int(payload["n"]))

    def offset(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.offset(int(payload["n"]))

    def order_by(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        columns = [_resolve(str(c), frame.schema) for c in payload["columns"]]
        ascending = list(payload.get("ascending", [True] * len(columns)))
        nulls_first = payload.get("nulls_first")
        if nulls_first is None:  # PySpark: NULLs first ascending, last descending
            nulls_first = list(ascending)
        return frame.sort(*columns, descending=[not a for a in ascending], nulls_last=[not n for n in nulls_first])

    def group_by(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        keys = [_resolve(str(k), frame.schema) for k in payload["group_by"]]
        if not payload.get("aggs"):
            self.pending_keys = keys
            return frame
        return self._aggregate(frame, keys, payload["aggs"], where)

    def agg(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        aggs = payload["aggs"] if isinstance(payload, Mapping) else payload
        keys, self.pending_keys = self.pending_keys or [], None
        return self._aggregate(frame, keys, aggs, where)

    def _aggregate(self, frame: DataFrame[Any], keys: list[str], aggs: Sequence[Any], where: str) -> DataFrame[Any]:
        exprs = [_aggregation(a, frame.schema, where) for a in aggs]
        if not keys:
            return frame.select(*exprs)
        return frame.group_by(*keys, drop_nulls=False).agg(*exprs)

    def _other(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        def get(*names: str) -> Any:
            for source in (payload, step):
                for name in names:
                    if isinstance(source, Mapping) and name in source:
                        return source[name]
            msg = f"{where}: missing {names[0]!r}"
            raise PlanFormatError(msg)

        data = get("other_data", "otherData")
        schema = get("other_schema", "otherSchema")
        return _frame_of(schema, data, self.session, f"{where} other")

    def join(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        other = self._other(frame, payload, step, where)
        on = payload.get("on", step.get("on"))
        how = str(payload.get("how", step.get("how", "inner")))
        names = [on] if isinstance(on, str) else list(on or [])
        keys = [_resolve(str(n), frame.schema) for n in names]
        right_keys = [_resolve(str(n), other.schema) for n in names]
        if how == "cross":
            return frame.join(other, how="cross")
        return frame.join(other, left_on=keys, right_on=right_keys, how=how, coalesce=True)  # type: ignore[arg-type]

    def union(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.union(self._other(frame, payload, step, where))

    def union_by_name(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.union_by_name(self._other(frame, payload, step, where))

    def distinct(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.unique()

    def drop(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        columns = payload["columns"] if isinstance(payload, Mapping) else payload
        return frame.drop(*[_resolve(str(c), frame.schema) for c in columns])

    def rename(self, frame: DataFrame[Any], payload: Any, step: Any, where: str) -> DataFrame[Any]:
        return frame.rename({_resolve(str(payload["old"]), frame.schema): str(payload["new"])})


_Handler = Callable[[_Loader, "DataFrame[Any]", Any, Any, str], "DataFrame[Any]"]
_HANDLERS: dict[str, _Handler] = {
    "filter": _Loader.filter, "select": _Loader.select, "withColumn": _Loader.with_column,
    "limit": _Loader.limit, "offset": _Loader.offset, "orderBy": _Loader.order_by,
    "groupBy": _Loader.group_by, "agg": _Loader.agg, "join": _Loader.join, "union": _Loader.union,
    "unionByName": _Loader.union_by_name, "distinct": _Loader.distinct, "drop": _Loader.drop,
    "withColumnRenamed": _Loader.rename,
}  # fmt: skip


# --- expressions in -----------------------------------------------------------------------------

_COMPARE: dict[str, Callable[[Expr[Any], Any], Expr[Any]]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b,
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "**": lambda a, b: a**b, "add": lambda a, b: a + b, "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b, "divide": lambda a, b: a / b, "pow": lambda a, b: a**b,
    "power": lambda a, b: a**b,
}  # fmt: skip
_SYMBOLS = {"==": "eq", "!=": "ne", ">": "gt", ">=": "ge", "<": "lt", "<=": "le", "&": "and", "|": "or"}

_ONE_ARG: dict[str, Callable[[Expr[Any]], Expr[Any]]] = {
    "isnull": lambda e: e.is_null(), "isnotnull": lambda e: e.is_not_null(),
    "not": lambda e: ~e, "negate": lambda e: -e,
}  # fmt: skip
_MANY_ARGS: dict[str, Callable[..., Expr[Any]]] = {
    "coalesce": F.coalesce, "nvl": F.coalesce, "ifnull": F.coalesce,
}  # fmt: skip


def _expr(tree: Any, schema: Schema, where: str) -> Expr[Any]:
    if not isinstance(tree, Mapping):
        return F.lit(tree)
    if "col" in tree:
        return F.col(_resolve(str(tree["col"]), schema))
    if "lit" in tree:
        return F.lit(tree["lit"])
    if "op" in tree:
        return _operator(tree, schema, where)
    if "fn" in tree:
        return _function(tree, schema, where)
    if "udf" in tree:
        msg = f"{where}: UDF {tree['udf']!r}: user-defined functions are not part of the typed façade"
        raise PlanFormatError(msg)
    msg = f"{where}: an expression is {{'col'}}, {{'lit'}}, {{'op', ...}} or {{'fn', 'args'}}, got {tree!r}"
    raise PlanFormatError(msg)


def _operator(tree: Mapping[str, Any], schema: Schema, where: str) -> Expr[Any]:
    op = _SYMBOLS.get(str(tree["op"]), str(tree["op"]))
    if op == "not":
        return ~_expr(tree.get("arg", tree.get("left")), schema, where)
    if op == "between":
        value = _expr(tree["left"], schema, where)
        return value.between(_expr(tree["lower"], schema, where), _expr(tree["upper"], schema, where))
    if op in _COMPARE:
        return _COMPARE[op](_expr(tree["left"], schema, where), _expr(tree["right"], schema, where))
    msg = f"{where}: unsupported op {op!r}; supported: not, between, {', '.join(_COMPARE)}"
    raise PlanFormatError(msg)


def _function(tree: Mapping[str, Any], schema: Schema, where: str) -> Expr[Any]:
    name = str(tree["fn"]).lower()
    raw = list(tree.get("args", []))
    if name in ("cast", "try_cast") and len(raw) == 2:
        if name == "try_cast":
            msg = f"{where}: try_cast turns failures into NULLs; the façade casts strictly (use cast)"
            raise PlanFormatError(msg)
        target = raw[1].get("lit") if isinstance(raw[1], Mapping) else raw[1]
        return _expr(raw[0], schema, where).cast(dtype_of(str(target), where))
    args = [_expr(a, schema, where) for a in raw]
    if name == "when" and len(args) in (2, 3):
        chain = F.when(args[0], args[1])
        return chain.otherwise(args[2]) if len(args) == 3 else chain
    if name in _ONE_ARG and len(args) == 1:
        return _ONE_ARG[name](args[0])
    if name in _MANY_ARGS:
        return _MANY_ARGS[name](*args)
    if name in CATALOG:  # every catalog function, with PySpark's argument order
        built: Expr[Any] = Expr(
            call(CATALOG[name], [_catalog_argument(a, arg) for a, arg in zip(raw, args, strict=True)])
        )
        if CATALOG[name].kind is Kind.WINDOW or "window" in tree:
            return _window(built, tree.get("window"), schema, where)
        return built
    if name in _COMPARE and len(args) == 2:
        return _COMPARE[name](args[0], args[1])
    known = sorted({*_ONE_ARG, *_MANY_ARGS, *_COMPARE, "cast", "when", *CATALOG})
    msg = (
        f"{where}: function {name!r} with {len(args)} argument(s) is not supported by pydantable-spark's "
        f"plan reader; supported: {', '.join(known)}"
    )
    raise UnsupportedPlanError(msg)


def _catalog_argument(raw: Any, built: Expr[Any]) -> object:
    """A literal argument as its Python value (a catalog parameter may take Python values only)."""
    if isinstance(raw, Mapping) and "lit" in raw:
        return raw["lit"]
    return raw if not isinstance(raw, Mapping) else built


def _window(function: Expr[Any], spec: Any, schema: Schema, where: str) -> Expr[Any]:
    spec = spec or {}
    window = Window.partition_by(*[_resolve(str(c), schema) for c in spec.get("partition_by", [])])
    keys = spec.get("order_by", [])
    if keys:
        columns = [_expr(k, schema, where) if isinstance(k, Mapping) else F.col(_resolve(str(k), schema)) for k in keys]
        descending = [isinstance(k, Mapping) and not k.get("asc", True) for k in keys]
        window = window.order_by(*columns, descending=descending)
    return function.over(window)


_AGGREGATES = sorted(name for name, entry in CATALOG.items() if entry.kind is Kind.AGGREGATE)
"""The aggregations an ``agg`` payload may name: every catalog aggregate."""


def _aggregation(spec: Any, schema: Schema, where: str) -> Expr[Any]:
    if not isinstance(spec, Mapping) or "agg" not in spec:
        msg = f"{where}: an aggregation is {{'agg', 'column', 'alias'}}, got {spec!r}"
        raise PlanFormatError(msg)
    kind = str(spec["agg"]).lower()
    if kind not in _AGGREGATES:
        msg = f"{where}: aggregation {kind!r} is not supported; supported: {', '.join(_AGGREGATES)}"
        raise PlanFormatError(msg)
    column = spec.get("column")
    if column is None:
        if kind != "count":
            msg = f"{where}: aggregation {kind!r} needs a 'column'"
            raise PlanFormatError(msg)
        return Expr(call(CATALOG["count"], [])).alias(str(spec.get("alias", "count(1)")))
    name = _resolve(str(column), schema)
    return Expr(call(CATALOG[kind], [F.col(name)])).alias(str(spec.get("alias", f"{kind}({column})")))


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
    if isinstance(node, Union) and not node.allow_missing:
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
    if isinstance(node, Call) and node.function.in_f:
        return {"fn": node.function.name, "args": [_tree(a) for a in node.args]}
    if type(node) in _TREE_ONE_ARG:
        return {"fn": _TREE_ONE_ARG[type(node)], "args": [_tree(next(node.children()))]}
    if isinstance(node, Over):
        msg = f"to_plan: {core.describe(node)}: window expressions are not written by to_plan yet"
        raise UnsupportedPlanError(msg)
    msg = f"to_plan: expression {core.describe(node)} has no form in the plan format"
    raise PlanFormatError(msg)
