"""Differential testing: random pipelines run through the façade and as plain PySpark, then compared.

The generator draws a table (column kinds, nullability), rows with NULLs and
edge values, and a pipeline of operations. Every operation and expression is
written twice *by the generator*: once with the façade's public API, once with
plain PySpark ``DataFrame``/``Column`` calls. Nothing here reads the façade's
lowering; the generator knows coarse kinds only (number, string, date, ...) to
draw mostly well-typed pipelines, and learns the real types from the plain
frame's schema after each step.

``Oracle`` compares names, types, nullability and rows, and holds the
deliberate differences the façade documents, each once, with a pointer to its
documentation. Anything else is a ``Difference``.
"""

from __future__ import annotations

import datetime
import decimal
import math
import random
import re
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
from pydantic import Field, create_model
from pyspark.errors import PySparkException
from pyspark.sql import Window as SparkWindow
from pyspark.sql import functions as sf
from pyspark.sql import types as st
from pyspark.sql.pandas.types import to_arrow_schema

from pydantable_spark import DataFrame, DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.types import struct_of
from pydantable_spark.errors import DuplicateColumnError, PydantableSparkError, UnsupportedEngineError
from pydantable_spark.expr.catalog import ENTRIES, REQUIRED, Function, Kind, Param
from pydantable_spark.expr.catalog.spec import sample_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from pyspark.sql import Column as SparkColumn
    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql import SparkSession

# --- kinds ------------------------------------------------------------------------------------------

NUMERIC = ("long", "int", "double", "decimal")
ATOMIC = (*NUMERIC, "string", "bool", "date", "timestamp")
ARRAYS = ("array<long>", "array<string>")
OTHER = ("binary", "map<string,long>")  # no order and no literals here: drawn as columns, for the catalog's calls
KINDS = (*ATOMIC, *ARRAYS, *OTHER)

_SPARK_TYPES: dict[str, st.DataType] = {
    "long": st.LongType(),
    "int": st.IntegerType(),
    "double": st.DoubleType(),
    "decimal": st.DecimalType(10, 2),
    "string": st.StringType(),
    "bool": st.BooleanType(),
    "date": st.DateType(),
    "timestamp": st.TimestampType(),
    "array<long>": st.ArrayType(st.LongType(), True),
    "array<string>": st.ArrayType(st.StringType(), True),
    "binary": st.BinaryType(),
    "map<string,long>": st.MapType(st.StringType(), st.LongType(), True),
}

_ANNOTATIONS: dict[str, Any] = {
    "long": int,
    "int": Annotated[int, dt.Int32],
    "double": float,
    "decimal": Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)],
    "string": str,
    "bool": bool,
    "date": datetime.date,
    "timestamp": datetime.datetime,
    "array<long>": list[int | None],
    "array<string>": list[str | None],
    "binary": bytes,
    "map<string,long>": dict[str, int | None],
}


def kind_of(spark_type: st.DataType) -> str | None:
    """The generator's kind for a Spark type (None: a type the generator does not draw from)."""
    if isinstance(spark_type, st.LongType):
        return "long"
    if isinstance(spark_type, st.IntegerType | st.ShortType | st.ByteType):
        return "int"
    if isinstance(spark_type, st.DoubleType | st.FloatType):
        return "double"
    if isinstance(spark_type, st.DecimalType):
        return "decimal"
    for kind in ("string", "bool", "date", "timestamp"):
        if type(spark_type) is type(_SPARK_TYPES[kind]):
            return kind
    if isinstance(spark_type, st.ArrayType):
        inner = kind_of(spark_type.elementType)
        return f"array<{inner}>" if inner in ("long", "string") else None
    if isinstance(spark_type, st.BinaryType):
        return "binary"
    if isinstance(spark_type, st.MapType) and kind_of(spark_type.keyType) == "string":
        return "map<string,long>" if kind_of(spark_type.valueType) == "long" else None
    return None


UTC = datetime.timezone.utc
_VALUES: dict[str, list[Any]] = {
    "long": [0, 1, -1, 2, 3, 7, -5, 10, 42, 2**31, -(2**31) - 1],
    "int": [0, 1, -1, 2, 3, 7, -5, 10, 2**31 - 1, -(2**31)],
    "double": [0.0, -0.0, 1.0, -1.5, 2.5, 0.1, 1e300, float("nan"), float("inf"), float("-inf"), 3.0],
    "decimal": [decimal.Decimal(v) for v in ("0.00", "1.00", "-1.50", "2.25", "12345678.99", "0.01", "3.00")],
    "string": ["", " ", "a", "A", "ab", " a ", "b\t", "ä", "10", "-3.5", "x,y", "%_", "a.b", "😀z"],
    "bool": [True, False],
    "binary": [b"", b"a", b"\x00\xff", b"abc", "ä😀".encode(), b"10"],
    "date": [
        datetime.date(1970, 1, 1),
        datetime.date(2000, 2, 29),
        datetime.date(2024, 12, 31),
        datetime.date(1, 1, 1),
        datetime.date(1969, 7, 20),
    ],
    "timestamp": [
        datetime.datetime(1970, 1, 1, tzinfo=UTC),
        datetime.datetime(2000, 2, 29, 23, 59, 59, 999999, tzinfo=UTC),
        datetime.datetime(2024, 3, 1, 12, 30, tzinfo=UTC),
        datetime.datetime(1899, 12, 31, 0, 0, 0, 1, tzinfo=UTC),
    ],
}


def _literal_value(kind: str, rng: random.Random) -> Any:
    """A value for ``lit()``: PySpark's cannot write a date before year 1000 (it formats ``%Y`` unpadded)."""
    value = _value(kind, rng)
    if isinstance(value, datetime.date) and value.year < 1000:
        return value.replace(year=1000)
    return value


def _value(kind: str, rng: random.Random) -> Any:
    if kind == "map<string,long>":
        keys = rng.sample(["a", "b", "k", "ä", ""], rng.randint(0, 3))
        return {k: None if rng.random() < 0.15 else _value("long", rng) for k in keys}
    if kind.startswith("array<"):
        inner = kind[6:-1]
        return [None if rng.random() < 0.15 else _value(inner, rng) for _ in range(rng.randint(0, 3))]
    return rng.choice(_VALUES[kind])


# --- the table ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """Columns (name, kind, nullable) and rows; ``id`` is first, unique and non-null."""

    columns: tuple[tuple[str, str, bool], ...]
    rows: tuple[tuple[Any, ...], ...]

    def model(self) -> type[DataFrameModel]:
        fields: dict[str, Any] = {}
        for name, kind, nullable in self.columns:
            annotation = _ANNOTATIONS[kind]
            fields[name] = (annotation | None if nullable else annotation, ...)
        return create_model("Drawn", __base__=DataFrameModel, **fields)

    def spark_schema(self) -> st.StructType:
        return st.StructType([st.StructField(n, _SPARK_TYPES[k], nullable) for n, k, nullable in self.columns])

    def facade(self) -> DataFrame[Any]:
        names = [c[0] for c in self.columns]
        return self.model().from_rows([dict(zip(names, row, strict=True)) for row in self.rows])

    def plain(self, spark: SparkSession) -> SparkDataFrame:
        """The rows as an Arrow table, the in-memory data ``from_rows`` also gives Spark (a ``LocalRelation``)."""
        schema = self.spark_schema()
        names = [c[0] for c in self.columns]
        rows = [dict(zip(names, row, strict=True)) for row in self.rows]
        table = pa.Table.from_pylist(rows, schema=to_arrow_schema(schema, timezone="UTC"))
        return spark.createDataFrame(table, schema=schema)


_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]


def draw_table(rng: random.Random) -> Table:
    columns = [("id", "long", False)]
    for name in rng.sample(_NAMES, rng.randint(2, 5)):
        columns.append((name, rng.choice(KINDS), rng.random() < 0.6))
    rows = []
    for i in range(rng.randint(0, 14)):
        row = [i]
        for _name, kind, nullable in columns[1:]:
            row.append(None if nullable and rng.random() < 0.25 else _value(kind, rng))
        rows.append(tuple(row))
    return Table(tuple(columns), tuple(rows))


# --- expressions, written twice --------------------------------------------------------------------

Build = Any  # a zero-argument function building the façade expression (its errors surface in the step)


@dataclass(frozen=True)
class Pair:
    """One expression for both sides: ``facade()`` builds the façade's, ``plain`` is PySpark's."""

    facade: Build
    plain: SparkColumn
    kind: str
    text: str


_SEPARATORS = [",", ".", "a", " ", "%_", "|"]
_BLANKS = " \t\n\x0b\f\r"  # what Java's \s (the façade's strip()) matches


def _java_regex_escape(text: str) -> str:
    """``text`` as a Java regex matching itself, metacharacter by metacharacter."""
    return "".join("\\" + ch if ch in r"\^$.|?*+()[]{}" else ch for ch in text)


def _dtype(kind: str) -> dt.DType:
    return {"long": dt.Int64(), "int": dt.Int32(), "double": dt.Float64(), "decimal": dt.Decimal(10, 2)}[kind]


def _python_cast_target(kind: str) -> Any:
    return {"long": int, "int": dt.Int32, "double": float, "decimal": dt.Decimal(10, 2), "string": str}[kind]


def _unary(name: str, fn: Callable[[Any], Any], plain: SparkColumn, a: Pair, kind: str) -> Pair:
    return Pair(lambda: fn(_expr(a.facade())), plain, kind, f"{name}({a.text})")


class Expressions:
    """Random expressions over the current columns; every production is written for both sides."""

    def __init__(self, rng: random.Random, columns: dict[str, str]) -> None:
        self.rng = rng
        self.columns = columns  # name -> kind

    def column(self, kinds: tuple[str, ...]) -> Pair | None:
        names = [n for n, k in self.columns.items() if k in kinds]
        if not names:
            return None
        name = self.rng.choice(names)
        return Pair(lambda: F.col(name), sf.col(name), self.columns[name], name)

    def literal(self, kind: str) -> Pair:
        value = _literal_value(kind, self.rng)
        if kind == "double" and self.rng.random() < 0.7:
            value = self.rng.choice([0.5, 2.0, -1.25])
        if kind in ("long", "int", "decimal"):  # typed: PySpark's lit(1) is an int, the façade's bare 1 a bigint
            return Pair(
                lambda: F.lit(value, dtype=_dtype(kind)), sf.lit(value).cast(_SPARK_TYPES[kind]), kind, repr(value)
            )
        if kind.startswith("array<"):
            inner = "bigint" if kind == "array<long>" else "string"
            python = list[int | None] if kind == "array<long>" else list[str | None]
            return Pair(lambda: F.lit(None, dtype=python), sf.lit(None).cast(f"array<{inner}>"), kind, "NULL array")
        return Pair(lambda: value, sf.lit(value), kind, repr(value))

    def leaf(self, kind: str) -> Pair:
        found = self.column((kind,)) if self.rng.random() < 0.8 else None
        return found if found is not None else self.literal(kind)

    def simple_predicate(self) -> Pair:
        """A comparison of a column with one of its own values: it keeps some rows and drops others."""
        found = self.column(("long", "int", "string", "bool", "date", "double"))
        if found is None:
            return self.of("bool", 1)
        value = _literal_value(found.kind, self.rng)
        if found.kind == "bool":
            return found
        op = self.rng.choice(["==", "!=", "<", ">="])
        literal = Pair(lambda: value, sf.lit(value), found.kind, repr(value))
        if found.kind == "int":
            literal = Pair(lambda: F.lit(value, dtype=dt.Int32()), sf.lit(value).cast("int"), "int", repr(value))
        return _binary(found, literal, op)

    def any(self, depth: int) -> Pair:
        return self.of(self.rng.choice(KINDS), depth)

    def of(self, kind: str, depth: int) -> Pair:
        if depth <= 0 or self.rng.random() < 0.3:
            return self.leaf(kind)
        if kind in NUMERIC:
            return self._number(kind, depth - 1)
        if kind == "bool":
            return self._boolean(depth - 1)
        if kind == "string":
            return self._string(depth - 1)
        if kind == "date":
            return self._date(depth - 1)
        return self._array(kind, depth - 1)

    def _number(self, kind: str, depth: int) -> Pair:
        rng = self.rng
        choice = rng.randrange(9)
        if choice <= 2:
            a = self.of(kind, depth)
            b = bare(self.of(rng.choice((kind, "long", "int")), depth), a, rng)
            return _binary(a, b, rng.choice("+-*"))
        if choice == 3 and kind == "double":
            return _binary(self.of(rng.choice(NUMERIC), depth), self.of(rng.choice(NUMERIC), depth), "/")
        if choice == 4 and kind in ("long", "int"):
            return _binary(self.of(kind, depth), self.of(kind, depth), rng.choice(["//", "%"]))
        if choice == 5 and kind == "int":
            arg = self.of(rng.choice(("string", "date", "array<long>")), depth)
            if arg.kind == "string":
                return _unary("length", F.length, sf.length(arg.plain), arg, "int")
            if arg.kind == "date":
                part = rng.choice(["year", "month", "dayofmonth"])
                return _unary(part, getattr(F, part), getattr(sf, part)(arg.plain), arg, "int")
            return _unary("size", lambda e: e.list.len(), sf.size(arg.plain), arg, "int")
        if choice == 6:
            return self._conditional(kind, depth)
        if choice == 7:
            a = self.of(kind, depth)
            return _unary("-", lambda e: -e, -a.plain, a, kind)
        source = self.of(rng.choice((*NUMERIC, "bool")), depth)
        target = _python_cast_target(kind)
        return _unary(f"cast:{kind}", lambda e: e.cast(target), source.plain.cast(_SPARK_TYPES[kind]), source, kind)

    def _boolean(self, depth: int) -> Pair:
        rng = self.rng
        choice = rng.randrange(9)
        if choice <= 2:
            left = rng.choice(ATOMIC)
            a = self.of(left, depth)
            b = bare(self.of(_comparable(left, rng), depth), a, rng)
            return _binary(a, b, rng.choice(["==", "!=", "<", "<=", ">", ">="]))
        if choice == 3:
            return _binary(self.of("bool", depth), self.of("bool", depth), rng.choice("&|"))
        if choice == 4:
            a = self.of("bool", depth)
            return _unary("~", lambda e: ~e, ~a.plain, a, "bool")
        if choice == 5:
            a = self.of(rng.choice(KINDS), depth)
            if rng.random() < 0.5:
                return _unary("is_null", lambda e: e.is_null(), a.plain.isNull(), a, "bool")
            return _unary("is_not_null", lambda e: e.is_not_null(), a.plain.isNotNull(), a, "bool")
        if choice == 6:
            target = rng.choice(("long", "string", "date"))
            a = self.of(target, depth)
            values = [_literal_value(target, rng) for _ in range(rng.randint(0, 3))]
            return _unary(f"is_in{values}", lambda e: e.is_in(values), a.plain.isin(values), a, "bool")
        if choice == 7:
            a = self.of("long", depth)
            low, high = sorted(rng.sample(range(-3, 8), 2))
            return _unary(
                f"between({low},{high})", lambda e: e.between(low, high), a.plain.between(low, high), a, "bool"
            )
        return self._string_predicate(depth)

    def _conditional(self, kind: str, depth: int) -> Pair:
        rng = self.rng
        choice = rng.randrange(4)
        a, b = self.of(kind, depth), self.of(kind, depth)
        if choice == 0:
            return Pair(
                lambda: F.coalesce(_expr(a.facade()), _expr(b.facade())),  # a str would be a name
                sf.coalesce(a.plain, b.plain),
                kind,
                f"coalesce({a.text}, {b.text})",
            )
        if choice == 1:
            return Pair(
                lambda: _expr(a.facade()).fill_null(b.facade()),
                sf.coalesce(a.plain, b.plain),
                kind,
                f"fill_null({a.text}, {b.text})",
            )
        c = self.of("bool", depth)
        if choice == 2:
            return Pair(
                lambda: F.when(c.facade(), a.facade()), sf.when(c.plain, a.plain), kind, f"when({c.text}, {a.text})"
            )
        facade = lambda: F.when(c.facade(), a.facade()).otherwise(b.facade())  # noqa: E731
        return Pair(facade, sf.when(c.plain, a.plain).otherwise(b.plain), kind, f"when({c.text}, {a.text}, {b.text})")

    def _string_predicate(self, depth: int) -> Pair:
        rng = self.rng
        s = self.of("string", depth)
        choice = rng.randrange(5)
        if choice == 0:
            p = self.of("string", depth)
            return Pair(
                lambda: _expr(s.facade()).str.contains(p.facade()),
                s.plain.contains(p.plain),
                "bool",
                f"contains({s.text}, {p.text})",
            )
        if choice in (1, 2):
            p = rng.choice(_VALUES["string"])
            if choice == 1:
                return _unary(f"startswith {p!r}", lambda e: e.str.starts_with(p), s.plain.startswith(p), s, "bool")
            return _unary(f"endswith {p!r}", lambda e: e.str.ends_with(p), s.plain.endswith(p), s, "bool")
        if choice == 3:
            p = rng.choice(["a%", "%a", "_", "%", "a_b", "%\\%%"])
            return _unary(f"like {p!r}", lambda e: e.str.like(p), s.plain.like(p), s, "bool")
        arr = self.column(ARRAYS)
        if arr is None:
            return _unary("is_null", lambda e: e.is_null(), s.plain.isNull(), s, "bool")
        value = _literal_value(arr.kind[6:-1], rng)
        return _unary(
            f"contains {value!r}", lambda e: e.list.contains(value), sf.array_contains(arr.plain, value), arr, "bool"
        )

    def _string(self, depth: int) -> Pair:
        rng = self.rng
        choice = rng.randrange(11)
        if choice >= 9:
            return self._conditional("string", depth)
        s = self.of("string", depth)
        if choice == 0:
            name = rng.choice(["upper", "lower"])
            return _unary(name, getattr(F, name), getattr(sf, name)(s.plain), s, "string")
        if choice == 1:
            t = self.of("string", depth)
            return Pair(
                lambda: F.concat(_expr(s.facade()), _expr(t.facade())),
                sf.concat(s.plain, t.plain),
                "string",
                f"concat({s.text}, {t.text})",
            )
        if choice == 2:
            return _unary("strip", lambda e: e.str.strip(), sf.btrim(s.plain, sf.lit(_BLANKS)), s, "string")
        if choice == 3:
            offset, length = rng.randint(-3, 3), rng.choice([None, 0, 1, 2, 5])
            position = offset + 1 if offset >= 0 else offset
            plain = s.plain.substr(position, 2**31 - 1 if length is None else length)
            return _unary(f"slice({offset}, {length})", lambda e: e.str.slice(offset, length), plain, s, "string")
        if choice == 4:
            old, new = rng.choice(["a", " ", "ab"]), rng.choice(["", "X", "a"])
            plain = sf.replace(s.plain, sf.lit(old), sf.lit(new))
            return _unary(
                f"replace({old!r}, {new!r})", lambda e: e.str.replace(old, new, literal=True), plain, s, "string"
            )
        if choice == 5:
            width, fill = rng.randint(0, 4), rng.choice(["*", " ", "0"])
            plain = sf.when(sf.length(s.plain) >= width, s.plain).otherwise(sf.lpad(s.plain, width, fill))
            return _unary(f"pad_start({width}, {fill!r})", lambda e: e.str.pad_start(width, fill), plain, s, "string")
        if choice == 6:
            source = self.of(rng.choice(("long", "int", "bool", "date", "decimal")), depth)
            return _unary("cast:string", lambda e: e.cast(str), source.plain.cast("string"), source, "string")
        if choice == 7:
            arr = self.of("array<string>", depth)
            sep = rng.choice(_SEPARATORS)
            return _unary(f"join({sep!r})", lambda e: e.list.join(sep), sf.array_join(arr.plain, sep), arr, "string")
        d = self.of("date", depth)
        return _unary(
            "strftime", lambda e: e.dt.strftime("%Y/%m/%d"), sf.date_format(d.plain, "yyyy/MM/dd"), d, "string"
        )

    def _date(self, depth: int) -> Pair:
        if self.rng.random() < 0.6:
            start = self.of("date", depth)
            days = self.rng.choice([0, 1, -1, 30, 400])
            return Pair(
                lambda: F.date_add(start.facade(), days),
                sf.date_add(start.plain, days),
                "date",
                f"date_add({start.text}, {days})",
            )
        return self._conditional("date", depth)

    def _array(self, kind: str, depth: int) -> Pair:
        if kind == "array<string>" and self.rng.random() < 0.6:
            s = self.of("string", depth)
            sep = self.rng.choice(_SEPARATORS)
            plain = sf.split(s.plain, _java_regex_escape(sep), -1)
            return _unary(f"split({sep!r})", lambda e: e.str.split(sep), plain, s, kind)
        a = self.of(kind, depth)
        if self.rng.random() < 0.5:
            asc = self.rng.random() < 0.5
            return _unary(
                f"sort(asc={asc})", lambda e: e.list.sort(descending=not asc), sf.sort_array(a.plain, asc), a, kind
            )
        return _unary("distinct", lambda e: e.list.unique(), sf.array_distinct(a.plain), a, kind)


def _not_null(columns: list[str]) -> SparkColumn:
    condition = sf.col(columns[0]).isNotNull()
    for name in columns[1:]:
        condition = condition & sf.col(name).isNotNull()
    return condition


def _expr(value: Any) -> Any:
    """A façade expression for a value a builder returned (a bare Python literal becomes ``F.lit``)."""
    return value if hasattr(value, "node") else F.lit(value)


def _comparable(kind: str, rng: random.Random) -> str:
    if rng.random() < 0.05:  # now and then an ill-typed comparison: both sides must refuse, or the oracle allow it
        return rng.choice(ATOMIC)
    if kind in NUMERIC:
        return rng.choice(NUMERIC)
    if kind in ("date", "timestamp"):
        return rng.choice(("date", "timestamp"))
    return kind


def _floor_div(a: SparkColumn, b: SparkColumn) -> SparkColumn:
    """Python's ``a // b`` for integers: the truncated quotient, one less where the signs differ and it is inexact."""
    remainder = a % b  # Spark's remainder has the dividend's sign, so a - remainder is an exact multiple of b
    truncated = ((a - remainder).cast("decimal(38,0)") / b.cast("decimal(38,0)")).cast("long")
    inexact = (remainder != 0) & ((a < 0) != (b < 0))
    return sf.when(inexact, truncated - 1).otherwise(truncated)


def _python_mod(a: SparkColumn, b: SparkColumn) -> SparkColumn:
    """Python's ``a % b``: the remainder with the sign of the divisor (``pmod`` differs for a negative divisor)."""
    remainder = a % b
    return sf.when((remainder != 0) & ((remainder < 0) != (b < 0)), remainder + b).otherwise(remainder)


_FACADE_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "/": lambda x, y: x / y,
    "//": lambda x, y: x // y,
    "%": lambda x, y: x % y,
    "==": lambda x, y: x == y,
    "!=": lambda x, y: x != y,
    "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y,
    ">": lambda x, y: x > y,
    ">=": lambda x, y: x >= y,
    "&": lambda x, y: x & y,
    "|": lambda x, y: x | y,
}
_PLAIN_OPS: dict[str, Callable[[Any, Any], Any]] = {**_FACADE_OPS, "//": _floor_div, "%": _python_mod}
_BOOLEAN_OPS = ("==", "!=", "<", "<=", ">", ">=", "&", "|")


def bare(pair: Pair, other: Pair, rng: random.Random) -> Pair:
    """Now and then a bare Python number instead of ``pair`` next to a number: the façade types it like its
    neighbour when the value fits (a "weak" literal), as Spark's rules type ``lit(n)`` next to a column."""
    if other.kind in NUMERIC and pair.kind in ("long", "double") and rng.random() < 0.5:
        value = rng.choice([0, 1, 3, -2]) if pair.kind == "long" else rng.choice([0.5, -2.0])
        # Oracle.WEAK_LITERALS: next to a decimal, a bare int is a decimal literal (PySpark's lit(int) is cast,
        # and a cast int -> decimal(1,0) is marked nullable); the plain side writes the decimal literal itself
        plain = sf.lit(decimal.Decimal(value)) if other.kind == "decimal" and pair.kind == "long" else sf.lit(value)
        return Pair(lambda: value, plain, pair.kind, repr(value))
    return pair


def _binary(a: Pair, b: Pair, op: str) -> Pair:
    kind = "bool" if op in _BOOLEAN_OPS else a.kind
    return Pair(
        lambda: _FACADE_OPS[op](_expr(a.facade()), b.facade()),
        _PLAIN_OPS[op](a.plain, b.plain),
        kind,
        f"({a.text} {op} {b.text})",
    )


# --- catalog calls, written twice ------------------------------------------------------------------
#
# Every ``F`` function of the catalog is drawn by name and called the same way on
# both sides: ``F.<name>(...)`` and PySpark's ``functions.<name>(...)`` with the
# same columns and Python values. The catalog only says which columns to pass
# (each parameter's admitted types) so that most calls are well typed; what the
# call means and returns is what the two sides must agree on.


def offered(kind: Kind) -> list[Function]:
    """The deterministic ``F`` functions of ``kind`` that PySpark also has, by name.

    Not the ``samples_only`` ones: their arguments are valid only as their samples
    write them (a number format, a sketch), so drawn arguments fail every row on
    both sides and compare nothing.
    """
    return [
        e
        for e in ENTRIES
        if e.placement.kind is kind
        and e.signature.in_f
        and e.placement.deterministic
        and not e.fixtures.samples_only
        and hasattr(sf, e.name)
    ]


@dataclass(frozen=True)
class CatalogCall:
    """One catalog function with arguments: column names or Python values, the same for both sides."""

    entry: Function
    args: tuple[tuple[str, Any], ...]  # ("column", name), ("value", python value) or ("lambda", LambdaSample)

    def facade(self) -> Any:
        values = [
            F.col(what) if how == "column" else what.function(F) if how == "lambda" else what for how, what in self.args
        ]
        return getattr(F, self.entry.name)(*values)

    def plain(self) -> SparkColumn:
        values = [
            sf.col(what)
            if how == "column"
            else what.function(sf)
            if how == "lambda"
            else sf.lit(what)
            if self._column_in_pyspark(i)
            else what
            for i, (how, what) in enumerate(self.args)
        ]
        return getattr(sf, self.entry.name)(*values)

    def _column_in_pyspark(self, index: int) -> bool:
        """PySpark takes a ``Column`` only there (``date_part``'s field): a value is ``lit(value)``."""
        params = self.entry.signature.params
        return params[min(index, len(params) - 1)].column_in_pyspark

    def __str__(self) -> str:
        shown = [what if how == "column" else what.source if how == "lambda" else repr(what) for how, what in self.args]
        return f"{self.entry.name}({', '.join(shown)})"


def draw_call(entry: Function, columns: dict[str, dt.DType], rng: random.Random) -> CatalogCall | None:
    """A call of ``entry`` over ``columns`` (name -> type): None where no column fits a required parameter.

    Parameters are passed in order, positionally as PySpark takes them; an
    optional one is passed half the time (and none after one left out), a
    variadic one gets one to three arguments.
    """
    args: list[tuple[str, Any]] = []
    for param in entry.signature.params:
        optional = param.default is not REQUIRED and not param.variadic
        if optional and rng.random() < 0.5:
            break
        for _ in range(rng.randint(1, 3) if param.variadic else 1):
            drawn = _draw_argument(param, columns, rng)
            if drawn is None:
                if optional or (param.variadic and args):
                    break
                return None
            args.append(drawn)
    call = CatalogCall(entry, tuple(args))
    try:
        call.plain()
    except (TypeError, PySparkException):  # a call PySpark's function does not take (F.count() with no column)
        return None
    try:
        built = call.facade()
    except PydantableSparkError:
        return call  # refused when built: the step reports whether PySpark refuses it too
    if not all(node.deterministic for node in built.node.walk()):
        return None  # its default reads the clock (unix_timestamp()): the two sides run at different times
    return call


def _draw_argument(param: Param, columns: dict[str, dt.DType], rng: random.Random) -> tuple[str, Any] | None:
    if param.takes is not None:  # a higher-order function's lambda: its sample, written over each side's functions
        return ("lambda", param.sample)
    takes_value = bool(param.python) and not (param.accepts is not None and param.names and str in param.python)
    if param.accepts is None or param.foldable:
        return ("value", sample_of(param)) if takes_value else None
    fitting = [name for name, dtype in columns.items() if param.accepts.admits(dtype)]
    if fitting and (not takes_value or rng.random() < 0.8):
        return ("column", rng.choice(fitting))
    return ("value", sample_of(param)) if takes_value else None


# --- operations, written twice -------------------------------------------------------------------


@dataclass
class State:
    """The pipeline so far on both sides, and what the oracle needs to know about it."""

    facade: DataFrame[Any]
    plain: SparkDataFrame
    narrowing: bool = False  # a step made columns non-null (drop_nulls, fill_null, group_by keys): Oracle.NARROWED
    steps: list[str] = field(default_factory=list)
    ordered: bool = False  # rows come in a defined order (sorted by a unique key)
    unique_ids: bool = True  # the id column still identifies rows

    def kinds(self) -> dict[str, str]:
        found = {}
        for f in self.plain.schema.fields:
            kind = kind_of(f.dataType)
            if kind is not None:
                found[f.name] = kind
        return found

    def nullable(self) -> list[str]:
        return [f.name for f in self.plain.schema.fields if f.nullable]


@dataclass
class Step:
    """One pipeline step for both sides; ``after`` updates what the oracle knows."""

    text: str
    facade: Callable[[DataFrame[Any]], DataFrame[Any]]
    plain: Callable[[SparkDataFrame], SparkDataFrame]
    after: Callable[[State], None] = lambda state: None


class Steps:
    """The operations a pipeline is drawn from; each returns a ``Step`` or None where it does not apply."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.fresh = 0

    def name(self) -> str:
        self.fresh += 1
        return f"x{self.fresh}"

    def draw(self, state: State) -> Step | None:
        """A step, weighted towards the ones whose order matters (windows, aggregates, filters)."""
        makers: list[tuple[Callable[[State], Step | None], int]] = [
            (self.with_columns, 4),
            (self.catalog_calls, 3),
            (self.filter, 5),
            (self.select, 1),
            (self.sort_limit, 2),
            (self.group_by, 2),
            (self.window, 4),
            (self.whole_frame_aggregate, 2),
            (self.join, 2),
            (self.unique, 1),
            (self.drop_nulls, 2),
            (self.fill_null, 1),
            (self.explode, 1),
            (self.union, 1),
            (self.rename_or_drop, 1),
        ]
        maker = self.rng.choices([m for m, _ in makers], weights=[w for _, w in makers])[0]
        return maker(state)

    def _exprs(self, state: State) -> Expressions:
        return Expressions(self.rng, state.kinds())

    def with_columns(self, state: State) -> Step:
        exprs = self._exprs(state)
        new: dict[str, Pair] = {}
        for _ in range(self.rng.randint(1, 3)):
            name = self.rng.choice([self.name(), *state.kinds()])
            new[name] = exprs.any(self.rng.randint(0, 3))

        return Step(
            "with_columns(" + ", ".join(f"{n}={p.text}" for n, p in new.items()) + ")",
            lambda f: f.with_columns(**{n: _expr(p.facade()) for n, p in new.items()}),
            lambda p: p.withColumns({n: pair.plain for n, pair in new.items()}),
        )

    def _calls(self, state: State, kind: Kind, count: int) -> dict[str, CatalogCall]:
        columns = {f.name: f.dtype for f in state.facade.schema}
        entries = offered(kind)
        calls = {}
        for _ in range(count):
            call = draw_call(self.rng.choice(entries), columns, self.rng)
            if call is not None:
                calls[self.name()] = call
        return calls

    def catalog_calls(self, state: State) -> Step | None:
        calls = self._calls(state, Kind.SCALAR, self.rng.randint(1, 3))
        if not calls:
            return None
        return Step(
            "with_columns(" + ", ".join(f"{n}={c}" for n, c in calls.items()) + ")",
            lambda f: f.with_columns(**{n: c.facade() for n, c in calls.items()}),
            lambda p: p.withColumns({n: c.plain() for n, c in calls.items()}),
        )

    def filter(self, state: State) -> Step:
        exprs = self._exprs(state)
        condition = exprs.of("bool", self.rng.randint(0, 3)) if self.rng.random() < 0.5 else exprs.simple_predicate()
        return Step(
            f"filter({condition.text})",
            lambda f: f.filter(_expr(condition.facade())),
            lambda p: p.filter(condition.plain),
        )

    def select(self, state: State) -> Step:
        names = [n for n in state.plain.columns if n != "id"]
        kept = self.rng.sample(names, self.rng.randint(0, len(names)))
        ids = ["id"] if "id" in state.plain.columns else []
        extra = {self.name(): self._exprs(state).any(2) for _ in range(self.rng.randint(0 if kept or ids else 1, 2))}

        return Step(
            f"select({ids + kept}, {[p.text for p in extra.values()]})",
            lambda f: f.select(*ids, *kept, **{n: _expr(p.facade()) for n, p in extra.items()}),
            lambda p: p.select(*ids, *kept, *[pair.plain.alias(n) for n, pair in extra.items()]),
        )

    def sort_limit(self, state: State) -> Step | None:
        if not state.unique_ids or "id" not in state.plain.columns:
            return None
        keys = [n for n, k in state.kinds().items() if k in ATOMIC and n != "id"]
        chosen = self.rng.sample(keys, min(len(keys), self.rng.randint(0, 2)))
        desc = [self.rng.random() < 0.5 for _ in chosen]
        last = [self.rng.random() < 0.5 for _ in chosen]
        n = self.rng.randint(0, 8)
        plain_keys = []
        for key, d, nl in zip(chosen, desc, last, strict=True):
            c = sf.col(key)
            plain_keys.append(
                (c.desc_nulls_last() if nl else c.desc_nulls_first())
                if d
                else (c.asc_nulls_last() if nl else c.asc_nulls_first())
            )

        def after(s: State) -> None:
            s.ordered = True

        return Step(
            f"sort({chosen}, id, descending={desc}, nulls_last={last}).limit({n})",
            lambda f: f.sort(*chosen, "id", descending=[*desc, False], nulls_last=[*last, False]).limit(n),
            lambda p: p.orderBy(*plain_keys, sf.col("id").asc()).limit(n),
            after,
        )

    def group_by(self, state: State) -> Step | None:
        kinds = state.kinds()
        keys = [n for n, k in kinds.items() if k in ("long", "int", "string", "bool", "date", "decimal") and n != "id"]
        if not keys:
            return None
        chosen = self.rng.sample(keys, self.rng.randint(1, min(2, len(keys))))
        aggs: dict[str, tuple[Build, SparkColumn]] = {"n": (lambda: F.count(), sf.count(sf.lit(1)))}
        for name, kind in kinds.items():
            if name in chosen or self.rng.random() < 0.5 or kind not in ATOMIC:
                continue
            choices = (
                ["sum", "min", "max", "mean", "count", "count_distinct"]
                if kind in NUMERIC
                else ["min", "max", "count", "count_distinct"]
            )
            fn = self.rng.choice(choices)
            plain_fn = {"mean": sf.avg, "count_distinct": sf.count_distinct}.get(fn) or getattr(sf, fn)
            aggs[f"{fn}_{name}"] = (lambda fn=fn, name=name: getattr(F, fn)(F.col(name)), plain_fn(sf.col(name)))
        calls = self._calls(state, Kind.AGGREGATE, self.rng.randint(0, 2))
        for name, call in calls.items():
            aggs[name] = (call.facade, call.plain())
        drop_null_keys = self.rng.random() < 0.7

        def plain(p: SparkDataFrame) -> SparkDataFrame:
            if drop_null_keys:  # Oracle.NARROWED: NULL keys are dropped by default (docs/nulls.md, group_by)
                p = p.filter(_not_null(chosen))
            return p.groupBy(*chosen).agg(*[column.alias(n) for n, (_, column) in aggs.items()])

        def after(s: State) -> None:
            s.narrowing = s.narrowing or drop_null_keys
            s.ordered = False
            s.unique_ids = False

        return Step(
            f"group_by({chosen}, drop_nulls={drop_null_keys}).agg({[f'{n}={calls.get(n, n)}' for n in aggs]})",
            lambda f: f.group_by(*chosen, drop_nulls=drop_null_keys).agg(
                **{n: build() for n, (build, _) in aggs.items()}
            ),
            plain,
            after,
        )

    def window(self, state: State) -> Step | None:
        if not state.unique_ids or "id" not in state.plain.columns:
            return None
        kinds = state.kinds()
        parts = [n for n, k in kinds.items() if k in ("long", "int", "string", "bool", "date") and n != "id"]
        partition = self.rng.sample(parts, min(len(parts), self.rng.randint(0, 1)))
        numbers = [n for n, k in kinds.items() if k in NUMERIC]
        choice = self.rng.randrange(6)
        name = self.name()
        column = self.rng.choice(numbers) if numbers else "id"
        offset = self.rng.randint(1, 2)
        facade_fns: dict[int, tuple[str, Build, Callable[[], SparkColumn]]] = {
            0: ("row_number", lambda: F.row_number(), lambda: sf.row_number()),
            1: ("rank", lambda: F.rank(), lambda: sf.rank()),
            2: (f"lag({column}, {offset})", lambda: F.lag(column, offset), lambda: sf.lag(column, offset)),
            3: (f"lead({column}, {offset})", lambda: F.lead(column, offset), lambda: sf.lead(column, offset)),
            4: (f"sum({column})", lambda: F.sum(column), lambda: sf.sum(column)),
            5: ("dense_rank", lambda: F.dense_rank(), lambda: sf.dense_rank()),
        }
        if self.rng.random() < 0.4:  # a catalog window function, or an aggregate over the window
            kind = self.rng.choice([Kind.WINDOW, Kind.AGGREGATE])
            entries = [e for e in offered(kind) if e.placement.windowable and e.placement.window_order]
            columns = {f.name: f.dtype for f in state.facade.schema}
            call = draw_call(self.rng.choice(entries), columns, self.rng)
            if call is not None:
                facade_fns[choice] = (str(call), call.facade, call.plain)
        text, facade_fn, plain_fn = facade_fns[choice]

        def facade(f: DataFrame[Any]) -> DataFrame[Any]:
            w = Window.partition_by(*partition).order_by("id") if partition else Window.order_by("id")
            return f.with_columns(**{name: facade_fn().over(w)})

        return Step(
            f"with_columns({name}={text}.over(partition_by={partition}, order_by=id))",
            facade,
            lambda p: p.withColumn(name, plain_fn().over(SparkWindow.partitionBy(*partition).orderBy("id"))),
        )

    def whole_frame_aggregate(self, state: State) -> Step:
        numbers = [n for n, k in state.kinds().items() if k in NUMERIC]
        name = self.name()
        everything = SparkWindow.partitionBy()
        if numbers and self.rng.random() < 0.6:
            column = self.rng.choice(numbers)
            return Step(
                f"with_columns({name}=max({column}))",
                lambda f: f.with_columns(**{name: F.max(column)}),
                lambda p: p.withColumn(name, sf.max(column).over(everything)),
            )
        return Step(
            f"with_columns({name}=count())",
            lambda f: f.with_columns(**{name: F.count()}),
            lambda p: p.withColumn(name, sf.count(sf.lit(1)).over(everything)),
        )

    def join(self, state: State) -> Step | None:
        kinds = state.kinds()
        keys = [n for n, k in kinds.items() if k in ("long", "int", "string", "date")]
        if not keys:
            return None
        key = self.rng.choice(keys)
        others = [n for n in state.plain.columns if n != key]
        right = self.rng.sample(others, min(len(others), self.rng.randint(0, 2)))
        how = self.rng.choice(["inner", "left", "full", "semi", "anti"])
        left_columns = list(state.plain.columns)

        def plain(p: SparkDataFrame) -> SparkDataFrame:
            # Oracle.JOIN_SUFFIX: right columns the left has get "_right"; the named key is one column
            r = p.select(sf.col(key).alias("__key"), *[sf.col(c).alias(f"{c}_right") for c in right])
            if how in ("semi", "anti"):
                return p.join(r, p[key] == r["__key"], f"left_{how}")
            joined = p.join(r, p[key] == r["__key"], {"full": "full_outer"}.get(how, how))
            merged = sf.coalesce(p[key], r["__key"]) if how == "full" else p[key]
            return joined.select(
                *[merged.alias(key) if c == key else p[c] for c in left_columns], *[r[f"{c}_right"] for c in right]
            )

        def after(s: State) -> None:
            s.unique_ids = False
            s.ordered = False

        return Step(
            f"join(self.select({key}, {right}), on={key}, how={how})",
            lambda f: f.join(f.select(key, *right), on=key, how=how),
            plain,
            after,
        )

    def unique(self, state: State) -> Step | None:
        columns = [n for n, k in state.kinds().items() if k in ATOMIC]
        if not columns:
            return None
        subset = self.rng.sample(columns, self.rng.randint(1, min(3, len(columns))))

        def after(s: State) -> None:
            s.ordered = False
            s.unique_ids = "id" in subset

        return Step(
            f"select({subset}).unique()",
            lambda f: f.select(*subset).unique(),
            lambda p: p.select(*subset).distinct(),
            after,
        )

    def drop_nulls(self, state: State) -> Step | None:
        nullable = state.nullable()
        if not nullable:
            return None
        subset = self.rng.sample(nullable, self.rng.randint(1, min(2, len(nullable))))

        def after(s: State) -> None:
            s.narrowing = True  # Oracle.NARROWED (docs/nulls.md)

        # Oracle.NAN_IS_A_VALUE: drop_nulls keeps NaN (docs/nulls.md); PySpark's dropna() would drop it
        return Step(
            f"drop_nulls({subset})", lambda f: f.drop_nulls(subset), lambda p: p.filter(_not_null(subset)), after
        )

    def fill_null(self, state: State) -> Step | None:
        longs = [f.name for f in state.plain.schema.fields if kind_of(f.dataType) == "long" and f.nullable]
        if not longs:
            return None
        value = self.rng.choice([0, -1, 7])

        def after(s: State) -> None:
            s.narrowing = True  # Oracle.NARROWED (docs/nulls.md)

        return Step(
            f"fill_null({value}, subset={longs})",
            lambda f: f.fill_null(value, subset=longs),
            lambda p: p.fillna(value, subset=longs),
            after,
        )

    def explode(self, state: State) -> Step | None:
        arrays = [n for n, k in state.kinds().items() if k in ARRAYS]
        if not arrays:
            return None
        column = self.rng.choice(arrays)
        outer = self.rng.random() < 0.5
        generator = sf.explode_outer if outer else sf.explode

        def after(s: State) -> None:
            s.unique_ids = False
            s.ordered = False

        return Step(
            f"explode{'_outer' if outer else ''}({column})",
            lambda f: f.explode_outer(column) if outer else f.explode(column),
            lambda p: p.withColumn(column, generator(column)),
            after,
        )

    def union(self, state: State) -> Step:
        def after(s: State) -> None:
            s.unique_ids = False
            s.ordered = False

        return Step("union(self)", lambda f: f.union(f), lambda p: p.union(p), after)

    def rename_or_drop(self, state: State) -> Step | None:
        names = [n for n in state.plain.columns if n != "id"]
        if not names:
            return None
        old = self.rng.choice(names)
        if self.rng.random() < 0.5 and len(state.plain.columns) > 1:
            return Step(f"drop({old})", lambda f: f.drop(old), lambda p: p.drop(old))
        new = self.name()
        return Step(f"rename({old} -> {new})", lambda f: f.rename({old: new}), lambda p: p.withColumnRenamed(old, new))


# --- the oracle ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A disagreement the oracle does not allow."""

    kind: str  # "schema", "rows", "accept", "error", "crash"
    detail: str
    seed: int
    steps: tuple[str, ...]

    def __str__(self) -> str:
        pipeline = "\n    ".join(self.steps)
        return f"[{self.kind}] seed {self.seed}: {self.detail}\n    {pipeline}"


class Oracle:
    """What counts as equal, and the façade's deliberate differences from plain PySpark, each once.

    * ``NARROWED``: ``drop_nulls``, ``fill_null`` and ``group_by`` keys (NULL keys are
      dropped by default, which the plain side does itself) type their columns
      non-null where Spark keeps them nullable (docs/nulls.md, "Narrowing"), and so
      does everything computed from them later. After such a step (``State.narrowing``)
      a column the façade types non-null may be nullable in plain PySpark (also inside
      a list, map or struct built from it); the rows must still agree, so no NULL can
      hide there.
    * ``JOIN_SUFFIX``: a right column whose name the left has gets ``_right``, and a
      key given by name is one column, coalesced in a full join (``DataFrame.join``);
      the plain side renames and coalesces.
    * ``NAN_IS_A_VALUE``: ``drop_nulls`` and ``group_by`` drop NULLs, not NaN, as
      Polars does (docs/nulls.md); PySpark's ``dropna`` drops both, so the plain side
      filters with ``isNotNull``.
    * ``WEAK_LITERALS``: a bare Python number next to a column takes the column's
      type when it fits (README, "Types"); next to a decimal it is a decimal literal,
      which the plain side writes as ``lit(Decimal(n))``: PySpark's ``lit(int)``
      would be cast and typed nullable.
    * ``RUNTIME_ERRORS``: an error raised while evaluating a row (an ANSI overflow
      or division by zero, a malformed base64 text for ``unbase64``, a regex group
      index the pattern lacks, an index 0, a duplicate map key: SQLSTATE classes 22
      and 23) for rows that a later step discards may or may not
      surface, as Spark's optimizer decides per plan shape: a filter pushed below a
      projection never evaluates it, and over an in-memory table (the façade's
      ``from_rows``) the optimizer itself evaluates projections on every row. A case
      where only one side fails with such an error is counted as ``both_failed``
      when the other side's result is empty, or when only PySpark fails: the
      façade never computes a column no later step reads.
    * ``DUPLICATE_NAMES``: two output columns of one name (``group_by("n").agg(n=...)``)
      are refused when built (``DuplicateColumnError``; ``Schema``); PySpark makes the
      frame and fails only when a step refers to the name. So are two fields of one
      name in ``F.struct`` (a struct's fields are read by name).
    * ``STRING_MAP_KEYS``: a map's keys are strings (``dict[str, V]``, DESIGN §5), so
      ``create_map`` refuses other keys when built and asks for a cast.
    * ``NO_DAY_INTERVALS``: ``date - date`` (also ``try_subtract``) is Spark's
      ``interval day``, a type with no Python counterpart in the type mapping (DESIGN
      §5); it is refused when built, and the message points to ``F.datediff``.
    * ``NULL_MAP_KEYS``: ``map_from_arrays`` refuses keys whose elements may be NULL
      when built (its message says why: Spark fails on a NULL key when the query runs);
      PySpark builds the step.
    * ``WIDER_INTEGERS``: where a Spark function takes an ``int`` and refuses a
      ``bigint``, the façade takes any integer and writes the (ANSI, overflow-checked)
      cast itself (docs/types.md, "Integer arguments where Spark takes an int").
    * ``IMPLICIT_CASTS``: the façade refuses operands of different kinds that
      Spark's ANSI mode would cast implicitly (a string compared with a number, a
      date with a string, ...): README, "Schema mistakes before Spark runs".
    """

    IMPLICIT_CASTS = re.compile(
        r"cannot compare|unsupported operand types|no common type|no common element type|does not convert|"
        r"must both be strings or both bytes"
    )

    WIDER_INTEGERS = re.compile(r'requires the (\("INT" or "SMALLINT" or "TINYINT"\)|"INT") type, however .* "BIGINT"')

    @classmethod
    def allowed_acceptance(cls, plain_error: Exception) -> bool:
        """``WIDER_INTEGERS``: a step PySpark refuses that the façade builds on purpose."""
        return bool(cls.WIDER_INTEGERS.search(str(plain_error)))

    @classmethod
    def allowed_refusal(cls, error: Exception, plain_error: Exception | None) -> bool:
        """A façade refusal is right when Spark refuses too, or when it is a documented stricter rule."""
        if plain_error is not None or isinstance(error, DuplicateColumnError):  # DUPLICATE_NAMES
            return True
        return bool(cls.IMPLICIT_CASTS.search(str(error)) or cls.STRICTER.search(str(error)))

    STRICTER = re.compile(
        r"two fields would be named|which Spark refuses as map keys|maps have string keys|date - date is an interval"
    )

    ROW_ERRORS = re.compile(
        r"ARITHMETIC_OVERFLOW|DIVIDE_BY_ZERO|REMAINDER_BY_ZERO|CAST_INVALID_INPUT|CAST_OVERFLOW|DATETIME_OVERFLOW|"
        r"NUMERIC_VALUE_OUT_OF_RANGE|INVALID_ARRAY_INDEX|INVALID_PARAMETER_VALUE|"
        r"Last unit does not have enough valid bits|Illegal base64 character|Input byte array has|"
        r"SQLSTATE: 22|SQLSTATE: 23"  # data exceptions and constraint violations: errors of a row's values
    )

    @classmethod
    def runtime_error_either_way(
        cls,
        facade_error: Exception | None,
        facade_rows: list[Any],
        plain_error: Exception | None,
        plain_rows: list[Any],
    ) -> bool:
        """``RUNTIME_ERRORS``: one side raised a row's error for rows the other side's (empty) result never kept."""
        if facade_error is not None and not plain_rows:
            return bool(cls.ROW_ERRORS.search(str(facade_error)))
        if plain_error is not None and facade_error is None:
            return bool(cls.ROW_ERRORS.search(str(plain_error)))
        return False

    @staticmethod
    def schema(state: State) -> str | None:
        derived = struct_of(state.facade.schema)
        plain = state.plain.schema
        if [f.name for f in derived.fields] != [f.name for f in plain.fields]:
            return f"names: façade {[f.name for f in derived.fields]} vs plain {[f.name for f in plain.fields]}"
        for ours, theirs in zip(derived.fields, plain.fields, strict=True):
            mine, other = ours.dataType.simpleString(), theirs.dataType.simpleString()
            if mine != other:
                return f"type of {ours.name}: façade {mine} vs plain {other}"
            if ours.nullable != theirs.nullable and not (state.narrowing and theirs.nullable):
                return f"nullability of {ours.name}: façade {ours.nullable} vs plain {theirs.nullable}"
            mine_nested, theirs_nested = _nested_nullability(ours.dataType), _nested_nullability(theirs.dataType)
            if mine_nested != theirs_nested and not (state.narrowing and _narrower(mine_nested, theirs_nested)):
                return f"nested nullability of {ours.name}: façade {ours.dataType} vs plain {theirs.dataType}"
        return None

    @staticmethod
    def rows(facade: list[tuple[Any, ...]], plain: list[tuple[Any, ...]], ordered: bool) -> str | None:
        if not ordered:
            facade, plain = sorted(facade, key=_sort_key), sorted(plain, key=_sort_key)
        if len(facade) != len(plain):
            return f"{len(facade)} rows vs {len(plain)} rows:\n    façade {facade[:6]}\n    plain  {plain[:6]}"
        for i, (a, b) in enumerate(zip(facade, plain, strict=True)):
            if not _same_row(a, b):
                return f"row {i}: façade {a} vs plain {b}"
        return None


def _nested_nullability(data_type: st.DataType) -> tuple[Any, ...]:
    if isinstance(data_type, st.ArrayType):
        return ("array", data_type.containsNull, _nested_nullability(data_type.elementType))
    if isinstance(data_type, st.MapType):
        return ("map", data_type.valueContainsNull, _nested_nullability(data_type.valueType))
    if isinstance(data_type, st.StructType):
        return ("struct", *((f.nullable, _nested_nullability(f.dataType)) for f in data_type.fields))
    return ()


def _narrower(ours: Any, theirs: Any) -> bool:
    """``NARROWED`` inside a nested type: the same shape, non-null in ours wherever it differs from theirs."""
    if isinstance(ours, bool) and isinstance(theirs, bool):
        return ours == theirs or (theirs and not ours)
    if isinstance(ours, tuple) and isinstance(theirs, tuple) and len(ours) == len(theirs):
        return all(_narrower(a, b) for a, b in zip(ours, theirs, strict=True))
    return ours == theirs


def _sort_key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_value_key(v) for v in row)


def _value_key(value: Any) -> tuple[int, str]:
    if value is None:
        return (0, "")
    if isinstance(value, float):
        return (1, "nan") if math.isnan(value) else (2, f"{value:.9g}")
    if isinstance(value, list):
        return (3, repr([_value_key(v) for v in value]))
    return (4, repr(value))


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):  # a struct (NaN inside is equal to NaN) or a map
        return a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _same_row(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))


# --- running a case --------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one case did: how many steps agreed, whether it ended in an agreed refusal or failure, or a difference."""

    seed: int
    steps: int = 0
    rows: int = 0  # rows compared (0 when a step was refused or the result failed on both sides)
    refused: bool = False
    both_failed: bool = False
    difference: Difference | None = None
    pipeline: tuple[str, ...] = ()
    local: str = "not run"  # the local engine: "compared", "refused" (UnsupportedEngineError) or "not run"
    local_refusal: str = ""


_FACADE_REFUSALS = (PydantableSparkError, TypeError, ValueError)


def run_case(spark: SparkSession, seed: int, max_steps: int = 5) -> Outcome:
    """Draw and run one case (``seed`` fixes everything); the outcome says whether the two sides agree."""
    rng = random.Random(seed)
    table = draw_table(rng)
    state = State(table.facade(), table.plain(spark))
    steps = Steps(rng)
    outcome = Outcome(seed)
    for _ in range(rng.randint(2, max_steps)):
        step = steps.draw(state)
        if step is None:
            continue
        trail = (*state.steps, step.text)
        plain_error: Exception | None = None
        try:
            plain = step.plain(state.plain)
            plain.schema  # noqa: B018 - analyse now (a Connect frame is lazy)
        except PySparkException as error:
            plain_error = error
        try:
            facade = step.facade(state.facade)
        except _FACADE_REFUSALS as error:
            if Oracle.allowed_refusal(error, plain_error):
                outcome.refused = True
                outcome.pipeline = trail
                return outcome
            outcome.difference = Difference("accept", f"the façade refused what PySpark accepts: {error}", seed, trail)
            return outcome
        except Exception as error:
            detail = "".join(traceback.format_exception(error))[-1500:]
            outcome.difference = Difference("crash", detail, seed, trail)
            return outcome
        if plain_error is not None and Oracle.allowed_acceptance(plain_error):
            outcome.refused = True
            outcome.pipeline = trail
            return outcome
        if plain_error is not None:
            detail = f"the façade built a step PySpark refuses: {str(plain_error)[:400]}"
            outcome.difference = Difference("accept", detail, seed, trail)
            return outcome
        state.facade, state.plain = facade, plain
        state.steps.append(step.text)
        step.after(state)
        outcome.steps += 1
        problem = Oracle.schema(state)
        if problem is not None:
            outcome.difference = Difference("schema", problem, seed, tuple(state.steps))
            return outcome
    outcome.pipeline = tuple(state.steps)
    _compare_rows(state, outcome)
    return outcome


def _rows_of(table: Any) -> list[tuple[Any, ...]]:
    columns = table.to_pydict()
    return list(zip(*columns.values(), strict=True)) if columns else []


def _compare_rows(state: State, outcome: Outcome) -> None:
    facade_error: Exception | None = None
    plain_error: Exception | None = None
    facade_rows: list[tuple[Any, ...]] = []
    plain_rows: list[tuple[Any, ...]] = []
    try:
        facade_rows = _rows_of(state.facade.to_arrow())
    except Exception as error:
        facade_error = error
    try:
        plain_rows = _rows_of(state.plain.toArrow())
    except Exception as error:
        plain_error = error
    trail = tuple(state.steps)
    if facade_error is not None and plain_error is not None:
        outcome.both_failed = True  # e.g. an ANSI overflow or a division by zero, on both sides
    elif Oracle.runtime_error_either_way(facade_error, facade_rows, plain_error, plain_rows):
        outcome.both_failed = True
    elif facade_error is not None:
        detail = "".join(traceback.format_exception_only(facade_error))[:800]
        outcome.difference = Difference("error", f"the façade failed where PySpark ran: {detail}", outcome.seed, trail)
    elif plain_error is not None:
        detail = f"PySpark failed where the façade ran: {str(plain_error)[:400]}"
        outcome.difference = Difference("error", detail, outcome.seed, trail)
    else:
        problem = Oracle.rows(facade_rows, plain_rows, state.ordered)
        if problem is not None:
            outcome.difference = Difference("rows", problem, outcome.seed, trail)
        outcome.rows = len(plain_rows)
    if outcome.difference is None:
        _compare_local(state, outcome, facade_rows if facade_error is None else None)


def _compare_local(state: State, outcome: Outcome, spark_rows: list[tuple[Any, ...]] | None) -> None:
    """The same pipeline on the local engine (DataFusion): Spark's rows, or a refusal naming what it lacks.

    ``spark_rows`` is None when Spark failed at run time (an ANSI overflow...): the local engine must fail too.
    """
    trail = tuple(state.steps)
    try:
        local = state.facade.to_arrow(engine="local")
    except UnsupportedEngineError as refusal:
        outcome.local = "refused"
        outcome.local_refusal = str(refusal)
        return
    except Exception as error:
        outcome.local = "compared"
        if spark_rows is not None:
            detail = "".join(traceback.format_exception_only(error))[:800]
            outcome.difference = Difference(
                "local", f"the local engine failed where Spark ran: {detail}", outcome.seed, trail
            )
        return
    outcome.local = "compared"
    if spark_rows is None:
        detail = f"the local engine ran ({local.num_rows} rows) where Spark failed at run time"
        outcome.difference = Difference("local", detail, outcome.seed, trail)
        return
    # the contract orders rows only after an explicit sort: compare in order when the pipeline ends with one
    # (a window after a sort leaves Spark's rows in its own order, which the local engine need not share)
    ordered = state.ordered and bool(state.steps) and state.steps[-1].startswith("sort(")
    problem = Oracle.rows(_rows_of(local), spark_rows, ordered)
    if problem is not None:
        outcome.difference = Difference("local", f"local engine vs Spark: {problem}", outcome.seed, trail)


@dataclass
class Summary:
    """Counts over many cases, and every difference found."""

    cases: int = 0
    agreed: int = 0
    refused: int = 0
    both_failed: int = 0
    steps: int = 0
    rows: int = 0
    with_rows: int = 0
    local_compared: int = 0
    local_refused: int = 0
    differences: list[Difference] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.cases += 1
        self.steps += outcome.steps
        self.rows += outcome.rows
        self.with_rows += outcome.rows > 0
        self.local_compared += outcome.local == "compared"
        self.local_refused += outcome.local == "refused"
        if outcome.difference is not None:
            self.differences.append(outcome.difference)
        elif outcome.refused:
            self.refused += 1
        elif outcome.both_failed:
            self.both_failed += 1
        else:
            self.agreed += 1

    def __str__(self) -> str:
        return (
            f"{self.cases} cases ({self.steps} steps, {self.rows} rows compared): {self.agreed} agreed "
            f"({self.with_rows} with rows), {self.refused} refused by both or deliberately, "
            f"{self.both_failed} failed at run time on both sides, {len(self.differences)} differences; "
            f"the local engine ran {self.local_compared} to the end, refused {self.local_refused}"
        )


def run_cases(spark: SparkSession, seeds: range) -> Summary:
    """Run a case per seed."""
    summary = Summary()
    for seed in seeds:
        summary.add(run_case(spark, seed))
    return summary
