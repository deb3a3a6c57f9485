"""DESIGN §3, invariant 1: the schema derived in Python equals the schema Spark reports.

Hypothesis builds random schemas (nested and nullable columns included) and
random pipelines of the frame operations over them; for each, the derived
schema must equal Spark's analyzer's schema of the lowered plan, before the
final ``to()`` gate (which would hide a difference), and ``to_spark()``.
"""

from __future__ import annotations

import datetime
import decimal
import os
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pydantable_spark import F, Schema, Window
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.lower import lower
from pydantable_spark._spark.types import fields_of_struct, struct_of
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.core import Column, bind
from pydantable_spark.frame import DataFrame
from pydantable_spark.model import row_model
from pydantable_spark.typerules import ArithmeticOp, is_castable

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

ATOMIC: list[dt.DType] = [
    dt.Boolean(), dt.Int8(), dt.Int16(), dt.Int32(), dt.Int64(), dt.Float32(), dt.Float64(),
    dt.Decimal(10, 2), dt.Decimal(5, 0), dt.Decimal(38, 18), dt.String(), dt.Binary(), dt.Date(),
    dt.Datetime(), dt.DatetimeNTZ(), dt.Duration(),
]  # fmt: skip
CAST_TARGETS = [*ATOMIC, dt.Decimal(20, 4)]

EXAMPLES = int(os.environ.get("PYDANTABLE_INVARIANT_EXAMPLES", "300"))


def atomic_types() -> st.SearchStrategy[dt.DType]:
    return st.sampled_from(ATOMIC)


@st.composite
def column_types(draw: st.DrawFn) -> dt.DType:
    kind = draw(st.sampled_from(["atomic"] * 5 + ["list", "map", "struct"]))
    if kind == "atomic":
        return draw(atomic_types())
    if kind == "list":
        return dt.List(draw(atomic_types()), draw(st.booleans()))
    if kind == "map":
        return dt.Map(dt.String(), draw(atomic_types()), draw(st.booleans()))
    count = draw(st.integers(1, 3))
    fields = tuple(dt.Field(f"f{i}", draw(atomic_types()), draw(st.booleans())) for i in range(count))
    return dt.Struct(fields)


@st.composite
def schemas(draw: st.DrawFn) -> Schema:
    count = draw(st.integers(1, 5))
    return Schema(tuple(dt.Field(f"c{i}", draw(column_types()), draw(st.booleans())) for i in range(count)))


SAMPLES: dict[type[dt.DType], list[Any]] = {
    dt.Boolean: [True, False],
    dt.Int8: [0, -3, 100],
    dt.Int16: [0, 7, -300],
    dt.Int32: [0, 42, -70000],
    dt.Int64: [0, 1, -(2**40)],
    dt.Float32: [0.0, 1.5, -2.25],
    dt.Float64: [0.0, 2.5, 1e10],
    dt.String: ["", "a", "x y"],
    dt.Binary: [b"", b"\x01"],
    dt.Date: [datetime.date(2020, 1, 1)],
    dt.Datetime: [datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)],
    dt.DatetimeNTZ: [datetime.datetime(2020, 1, 1, 5)],
    dt.Duration: [datetime.timedelta(hours=1)],
}


def literal_for(draw: st.DrawFn, dtype: dt.DType) -> Expr[Any] | None:
    if isinstance(dtype, dt.Decimal):
        value = decimal.Decimal(1).scaleb(-dtype.scale) if dtype.scale else decimal.Decimal(3)
        return F.lit(value, dtype=dtype)
    samples = SAMPLES.get(type(dtype))
    if samples is None:
        return None
    return F.lit(draw(st.sampled_from(samples)), dtype=dtype)


def pick(draw: st.DrawFn, pool: list[Expr[Any]], accept: Any, fallback: dt.DType | None = None) -> Expr[Any] | None:
    """An expression from ``pool`` whose type ``accept``s, else a literal of ``fallback``."""
    fitting = [e for e in pool if e.typed is not None and accept(e.typed.dtype)]
    if fitting:
        return draw(st.sampled_from(fitting))
    return literal_for(draw, fallback) if fallback is not None else None


def is_numeric(t: dt.DType) -> bool:
    return isinstance(t, dt.Numeric)


def is_boolean(t: dt.DType) -> bool:
    return isinstance(t, dt.Boolean)


def is_string(t: dt.DType) -> bool:
    return isinstance(t, dt.String)


def is_date(t: dt.DType) -> bool:
    return isinstance(t, dt.Date | dt.Datetime | dt.DatetimeNTZ)


OPERATIONS = [
    "arith", "compare", "logic", "not", "is_null", "is_in", "between", "cast", "fill_null", "coalesce",
    "when", "upper", "length", "strip", "slice", "contains", "concat", "year", "date_add", "datediff", "neg",
]  # fmt: skip


@st.composite
def expressions(draw: st.DrawFn, frame: DataFrame[Any]) -> Expr[Any]:
    """A random well-typed expression over the frame's columns (literals fill in for missing types)."""
    pool: list[Expr[Any]] = [Expr(bind(Column(name), frame.schema)) for name in frame.columns]
    for _ in range(draw(st.integers(1, 3))):
        pool.append(draw_operation(draw, pool, draw(st.sampled_from(OPERATIONS))))
    return pool[-1]


def draw_operation(draw: st.DrawFn, pool: list[Expr[Any]], op: str) -> Expr[Any]:
    atomic = pick(draw, pool, lambda t: not t.is_nested, dt.Int64())
    assert atomic is not None
    assert atomic.typed is not None
    typed = atomic.typed
    number = pick(draw, pool, is_numeric, dt.Int32())
    boolean = pick(draw, pool, is_boolean, dt.Boolean())
    string = pick(draw, pool, is_string, dt.String())
    date = pick(draw, pool, is_date, dt.Date())
    assert number is not None
    assert boolean is not None
    assert string is not None
    assert date is not None
    if op == "arith":
        other = pick(draw, pool, is_numeric, dt.Float64())
        assert other is not None
        arith = draw(st.sampled_from(list(ArithmeticOp)))
        integral = all(isinstance(e.typed.dtype, dt.Integral) for e in (number, other))  # type: ignore[union-attr]
        if arith is ArithmeticOp.FLOORDIV and not integral:
            arith = ArithmeticOp.SUB
        if draw(st.integers(0, 5)) == 0:
            return number ** draw(st.sampled_from([2, 0.5, other]))
        if draw(st.booleans()):
            scalars = [1, 2] if arith is ArithmeticOp.FLOORDIV else [1, 2, 1.5]
            return number._arith(arith, draw(st.sampled_from(scalars)))
        return number._arith(arith, other)
    if op == "compare":
        other = literal_for(draw, typed.dtype)
        if other is None:
            return atomic != atomic
        return draw(st.sampled_from([atomic == other, atomic < other, atomic >= other]))
    if op == "logic":
        other = pick(draw, pool, is_boolean, dt.Boolean())
        return (boolean & other) if draw(st.booleans()) else (boolean | other)
    if op == "not":
        return ~boolean
    if op == "is_null":
        return atomic.is_null() if draw(st.booleans()) else atomic.is_not_null()
    if op == "is_in":
        value = literal_for(draw, typed.dtype)
        return number.is_in([1, 2]) if value is None else atomic.is_in([value])
    if op == "between":
        return number.between(0, 5, closed=draw(st.sampled_from(["both", "left", "right", "none"])))
    if op == "cast":
        return atomic.cast(draw(st.sampled_from([t for t in CAST_TARGETS if is_castable(typed.dtype, t)])))
    if op == "fill_null":
        value = literal_for(draw, typed.dtype)
        return number.fill_null(0) if value is None else atomic.fill_null(value)
    if op == "coalesce":
        other = pick(draw, pool, lambda t: t == typed.dtype or (is_numeric(t) and is_numeric(typed.dtype)))
        return F.coalesce(atomic, other if other is not None else atomic)
    if op == "when":
        other = literal_for(draw, typed.dtype)
        branch = F.when(boolean, atomic)
        return branch.otherwise(other) if other is not None and draw(st.booleans()) else branch
    if op == "upper":
        return string.str.upper()
    if op == "length":
        return string.str.length()
    if op == "strip":
        return string.str.strip(draw(st.sampled_from([None, "ab"])))
    if op == "slice":
        return string.str.slice(draw(st.integers(-3, 3)), draw(st.sampled_from([None, 2])))
    if op == "contains":
        return draw(st.sampled_from([string.str.contains("a"), string.str.starts_with("a"), string.str.ends_with("a")]))
    if op == "concat":
        return F.concat(string, F.lit("-"), string)
    if op == "year":
        return draw(st.sampled_from([date.dt.year(), date.dt.month(), date.dt.day()]))
    if op == "date_add":
        return F.date_add(date, draw(st.sampled_from([-5, 5, number.cast(dt.Int32)])))
    if op == "datediff":
        other = pick(draw, pool, is_date, dt.Date())
        assert other is not None
        return F.datediff(date, other)
    return -number


def widened(field: dt.Field, draw: st.DrawFn) -> dt.Field:
    """A target field ``as_model`` accepts for ``field``: maybe nullable, maybe a wider type."""
    dtype = field.dtype
    wider = {
        dt.Int8: dt.Int16(),
        dt.Int16: dt.Int32(),
        dt.Int32: dt.Int64(),
        dt.Float32: dt.Float64(),
        dt.Date: dt.Datetime(),
    }
    if type(dtype) in wider and draw(st.booleans()):
        dtype = wider[type(dtype)]
    return dt.Field(field.name, dtype, field.nullable or draw(st.booleans()))


@st.composite
def pipelines(draw: st.DrawFn, frame: DataFrame[Any]) -> DataFrame[Any]:
    for step in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(STEPS))
        columns = frame.columns
        comparable_keys = [c for c in columns if not dt.contains_map(frame.schema[c].dtype)]
        if kind == "with":
            expr = draw(expressions(frame))
            name = draw(st.sampled_from([*columns, f"n{step}"]))
            frame = frame.with_columns(**{name: expr})
        elif kind == "select":
            keep = draw(st.lists(st.sampled_from(columns), min_size=1, max_size=len(columns), unique=True))
            frame = frame.select(*keep, **{f"e{step}": draw(expressions(frame))})
        elif kind == "filter":
            expr = draw(expressions(frame))
            if expr.typed is not None and isinstance(expr.typed.dtype, dt.Boolean):
                frame = frame.filter(expr)
            else:
                frame = frame.filter(expr.is_not_null())
        elif kind == "sort":
            keys = [c for c in columns if not dt.contains_map(frame.schema[c].dtype)]
            if keys:
                chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True))
                frame = frame.sort(*chosen, descending=draw(st.booleans()), nulls_last=draw(st.booleans()))
        elif kind == "limit":
            frame = frame.limit(draw(st.integers(0, 5)))
        elif kind == "offset":
            frame = frame.offset(draw(st.integers(0, 3)))
        elif kind == "drop" and len(columns) > 1:
            frame = frame.drop(draw(st.sampled_from(columns)))
        elif kind == "rename":
            frame = frame.rename({draw(st.sampled_from(columns)): f"r{step}"})
        elif kind == "unique":
            keys = [c for c in columns if not dt.contains_map(frame.schema[c].dtype)]
            if keys:
                frame = frame.unique(subset=draw(st.lists(st.sampled_from(keys), min_size=1, unique=True)))
        elif kind == "as_model":
            fields = draw(st.permutations(frame.schema.fields))
            kept = fields[: draw(st.integers(1, len(fields)))]
            frame = frame.as_model(row_model(Schema(tuple(widened(f, draw) for f in kept)), "Target"))
        else:
            frame = relational_step(draw, frame, kind, step, comparable_keys)
    return frame


STEPS = [
    "with", "with", "select", "filter", "sort", "limit", "offset", "drop", "rename", "unique", "as_model",
    "join", "join", "group_by", "global_agg", "window", "window", "union", "keep_first", "explode", "explode",
    "unnest", "melt", "drop_nulls", "fill_null", "row_count",
]  # fmt: skip
AGGREGATES = [F.count, F.first, F.last, F.collect_list, F.min, F.max]
NUMERIC_AGGREGATES = [F.sum, F.mean, F.median, F.std, F.var]


def _aggregates(draw: st.DrawFn, frame: DataFrame[Any]) -> dict[str, Expr[Any]]:
    out: dict[str, Expr[Any]] = {"n": F.count()}
    for i, name in enumerate(draw(st.lists(st.sampled_from(frame.columns), min_size=1, max_size=3))):
        dtype = frame.schema[name].dtype
        choices = list(AGGREGATES) if not dt.contains_map(dtype) else [F.count, F.first, F.collect_list]
        if isinstance(dtype, dt.Numeric):
            choices += NUMERIC_AGGREGATES
        out[f"agg{i}"] = draw(st.sampled_from(choices))(F.col(name))
    return out


def relational_step(draw: st.DrawFn, frame: DataFrame[Any], kind: str, step: int, keys: list[str]) -> DataFrame[Any]:
    """One of the relational operations of the relational issue, where the schema allows it."""
    schema = frame.schema
    if kind == "join" and keys:
        key = draw(st.sampled_from(keys))
        how = draw(st.sampled_from(["inner", "left", "right", "full", "semi", "anti", "cross"]))
        if how == "cross":
            return frame.join(frame, how="cross", suffix=f"_j{step}")
        other = frame.select(*[c for c in frame.columns if c == key or draw(st.booleans())])
        if draw(st.booleans()):
            return frame.join(other, on=key, how=how, suffix=f"_j{step}", join_nulls=draw(st.booleans()))
        return frame.join(other, left_on=key, right_on=key, how=how, suffix=f"_j{step}")
    if kind == "group_by" and keys:
        key = draw(st.sampled_from(keys))
        grouped = frame.group_by(key, drop_nulls=draw(st.booleans()))
        return grouped.agg(**{k: v for k, v in _aggregates(draw, frame).items() if k != key})
    if kind == "global_agg":
        return frame.select(**_aggregates(draw, frame))
    if kind == "window" and keys:
        partition = draw(st.lists(st.sampled_from(keys), max_size=2, unique=True))
        order = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True))
        window = Window.partition_by(*partition).order_by(*order, descending=draw(st.booleans()))
        target = draw(st.sampled_from(frame.columns))
        function = draw(
            st.sampled_from(
                [
                    F.row_number().over(window),
                    F.rank().over(window),
                    F.lag(F.col(target)).over(window),
                    F.first_value(F.col(target)).over(window),
                    F.count(F.col(target)).over(window),
                    F.count().over(Window.partition_by(*partition)),
                ]
            )
        )
        return frame.with_columns(**{f"w{step}": function})
    if kind == "union":
        return frame.union(frame)
    if kind == "keep_first" and keys:
        subset = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True))
        return frame.unique(subset=subset, keep=draw(st.sampled_from(["first", "last", "none"])))
    lists = [f.name for f in schema if isinstance(f.dtype, dt.List)]
    if kind == "explode" and lists:
        how = draw(st.sampled_from(["explode", "explode_outer"]))
        return getattr(frame, how)(draw(st.sampled_from(lists)))  # type: ignore[no-any-return]
    structs = [f.name for f in schema if isinstance(f.dtype, dt.Struct)]
    if kind == "unnest" and structs:
        return frame.unnest(draw(st.sampled_from(structs)), separator=f"_u{step}_")
    if kind == "melt":
        by_type: dict[dt.DType, list[str]] = {}
        for f in schema:
            if not f.dtype.is_nested:
                by_type.setdefault(f.dtype, []).append(f.name)
        if not by_type:
            return frame
        values = draw(st.sampled_from(sorted(by_type.values())))
        ids = [c for c in frame.columns if c not in values and draw(st.booleans())]
        return frame.melt(ids, values, variable_name=f"var{step}", value_name=f"val{step}") if values else frame
    if kind == "drop_nulls":
        subset = draw(st.lists(st.sampled_from(frame.columns), min_size=1, unique=True))
        return frame.drop_nulls(subset, how=draw(st.sampled_from(["any", "all"])))
    if kind == "fill_null":
        return frame.fill_null(draw(st.sampled_from([0, 1.5, "x", True])))
    if kind == "row_count":
        return frame.with_row_count(f"rn{step}")
    return frame


@pytest.mark.spark
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_derived_schema_equals_sparks(spark: SparkSession, data: st.DataObject) -> None:
    schema = data.draw(schemas())
    sdf = spark.createDataFrame([], struct_of(schema))
    frame = data.draw(pipelines(DataFrame.from_spark(sdf)))
    derived = frame.schema
    assert Schema(fields_of_struct(lower(frame.plan).schema)) == derived, frame.explain()
    assert frame.to_spark().schema == struct_of(derived)
