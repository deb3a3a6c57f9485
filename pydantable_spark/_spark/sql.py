"""Expression nodes → Spark SQL expression text.

Each plan step sends Spark one SQL string per expression (``selectExpr``,
``filter``) instead of building ``Column`` objects call by call: on a classic
session every ``Column`` operation is a py4j round trip (measured 1-5 ms each),
so a 10-step chain lowered as text costs a few milliseconds instead of hundreds.

The compiler is a registry keyed on node classes; ``COMPILERS`` must cover
every node (a test checks it). Literals are written with explicit types so
that Spark's analyzer derives exactly the types the nodes declare: numbers as
``CAST(... AS type)`` (which also keeps Spark's literal-specific decimal rules
out of the way), timestamps with an explicit zone.

No user value is SQL text. Spark rewrites the text it parses in ways that
depend on session settings: ``${...}`` is substituted
(``spark.sql.variable.substitute``), backslashes in string literals are read
as escapes or not (``spark.sql.parser.escapedStringLiterals``), and a quoted
name with anything but letters, digits and ``_`` becomes a regular expression
in a ``SELECT`` (``spark.sql.parser.quotedRegexColumnNames``). So:

* a string literal is its UTF-8 bytes in hex, cast to a string
  (``CAST(X'6974277320' AS STRING)``): hex digits mean the same under every setting;
* a column is referred to by its *Spark name* (``spark_name``): a plain
  identifier keeps its own, any other name is spelled in hex. The lowering
  gives every Spark DataFrame it builds Spark names, and renames the columns
  back only on the frame it hands out (``DataFrame.toDF``, which parses nothing);
* struct field names, which SQL must spell, cannot contain ``${``
  (``dtypes.Struct`` refuses them) and are only read after a parenthesised value;
* numbers are Python ``int``/``float`` values formatted by Python, checked by type.

``explain()`` shows the same SQL to people with string literals as written
(``'cancelled'``, a Python ``repr``) and each run-time NULL check as one call
(``null_check(`age`)``): inside ``readable_sql()``, text that is never sent to Spark.
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr import conditional as cond
from pydantable_spark.expr import core
from pydantable_spark.expr import lambdas as lam
from pydantable_spark.expr import operators as ops
from pydantable_spark.expr import over as win
from pydantable_spark.expr.call import Call, call_types
from pydantable_spark.expr.catalog.collections import struct_names, with_fields_names, zip_names
from pydantable_spark.expr.catalog.datetime import TIMESTAMP_UNITS, spark_pattern
from pydantable_spark.expr.catalog.math import date_days
from pydantable_spark.expr.catalog.spec import Args
from pydantable_spark.expr.catalog.time_windows import interval_micros, micros_text, window_shapes
from pydantable_spark.expr.catalog.variant import target_type
from pydantable_spark.expr.text_formats import FromText
from pydantable_spark.expr.udf import UdfCall
from pydantable_spark.typerules import ArithmeticOp

if TYPE_CHECKING:
    from pydantable_spark.expr.core import Node

__all__ = [
    "COMPILERS",
    "INTERNAL_PREFIX",
    "column_sql",
    "field_sql",
    "int_sql",
    "internal_sql",
    "literal_sql",
    "needs_renaming",
    "readable",
    "readable_sql",
    "spark_name",
    "string_sql",
    "struct_field_sql",
    "to_sql",
    "type_sql",
]

Compiler = Callable[[Any], str]
COMPILERS: dict[type[Node], Compiler] = {}


def compiles(*classes: type[Node]) -> Callable[[Compiler], Compiler]:
    """Register a compiler for the given node classes."""

    def register(fn: Compiler) -> Compiler:
        for cls in classes:
            COMPILERS[cls] = fn
        return fn

    return register


def to_sql(node: Node) -> str:
    """The Spark SQL text of a bound expression."""
    compiler = COMPILERS.get(type(node))
    if compiler is None:
        msg = f"no Spark SQL lowering for {type(node).__name__}"
        raise NotImplementedError(msg)
    return compiler(node)


# --- names ---------------------------------------------------------------------------------

INTERNAL_PREFIX = "__pydantable_"
"""Spark names the lowering makes for itself start with this; no user column's Spark name does
unless it is hex-spelled (``__pydantable_x...``), so the two never collide."""

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def spark_name(name: str) -> str:
    """The name a user column has inside the lowered Spark plan.

    >>> spark_name("age"), spark_name("unit price"), spark_name("${x}")
    ('age', '__pydantable_x756e6974207072696365', '__pydantable_x247b787d')
    """
    if _PLAIN.match(name) and not name.startswith(INTERNAL_PREFIX):
        return name
    return f"{INTERNAL_PREFIX}x{name.encode('utf-8', 'surrogatepass').hex()}"


def needs_renaming(names: tuple[str, ...]) -> bool:
    """Whether any of ``names`` has another Spark name (``spark_name``).

    >>> needs_renaming(("id", "age")), needs_renaming(("id", "unit price"))
    (False, True)
    """
    return any(spark_name(n) != n for n in names)


def column_sql(name: str) -> str:
    """A reference to the user column ``name`` (by its Spark name, in backticks)."""
    return f"`{spark_name(name)}`"


def internal_sql(name: str) -> str:
    """A reference to a column the lowering made itself (``__pydantable_...``)."""
    if not (_PLAIN.match(name) and name.startswith(INTERNAL_PREFIX)):
        msg = f"not an internal column name: {name!r}"
        raise ValueError(msg)
    return f"`{name}`"


def field_sql(name: str) -> str:
    """A struct field name in SQL (backticks doubled); ``dtypes.Struct`` has refused ``${`` already."""
    if "${" in name:
        msg = f"struct field name {name!r} contains '${{', which Spark's variable substitution rewrites"
        raise ValueError(msg)
    return "`" + name.replace("`", "``") + "`"


def struct_field_sql(base: str, name: str) -> str:
    """Field ``name`` of the struct value ``base``.

    A quoted field name with more than letters, digits and ``_`` after a column
    reference is a regular expression under ``quotedRegexColumnNames``; after
    any other expression it is a plain name, so such a base goes through a
    one-argument ``coalesce`` (same type, same nullability).
    """
    if _PLAIN.match(name):
        return f"({base}).{field_sql(name)}"
    return f"coalesce({base}).{field_sql(name)}"


# --- literals ---------------------------------------------------------------------------------

_READABLE: ContextVar[bool] = ContextVar("readable_sql", default=False)


@contextmanager
def readable_sql() -> Iterator[None]:
    """SQL written for people inside the block (``explain()``): literals as written, NULL checks folded.

    Text made inside is never sent to Spark: only the lowering outside it is.

    >>> with readable_sql():
    ...     print(string_sql("it's"))
    "it's"
    """
    token = _READABLE.set(True)
    try:
        yield
    finally:
        _READABLE.reset(token)


def readable() -> bool:
    """Whether SQL is being written for people (inside ``readable_sql()``)."""
    return _READABLE.get()


def string_sql(value: str) -> str:
    """A Spark SQL string literal that no parser setting reads differently: hex bytes cast to a string.

    >>> string_sql("it's")
    "CAST(X'69742773' AS STRING)"
    """
    if _READABLE.get():
        return repr(value)  # for people: one line whatever the value holds (explain() shows each step on one)
    return f"CAST(X'{str.encode(value, 'utf-8').hex()}' AS STRING)"


def int_sql(value: int) -> str:
    """An integer argument as SQL text; anything but a real ``int`` is refused."""
    if type(value) is not int:
        msg = f"expected an int, got {value!r} ({type(value).__name__})"
        raise TypeError(msg)
    return str(value)


def type_sql(dtype: dt.DType) -> str:
    """The SQL spelling of a type for ``CAST``."""
    if isinstance(dtype, dt.Datetime):
        return "TIMESTAMP_LTZ"
    if isinstance(dtype, dt.List):
        return f"ARRAY<{type_sql(dtype.inner)}>"
    if isinstance(dtype, dt.Map):
        return f"MAP<{type_sql(dtype.key)}, {type_sql(dtype.value)}>"
    if isinstance(dtype, dt.Struct):
        return "STRUCT<" + ", ".join(f"{field_sql(f.name)}: {type_sql(f.dtype)}" for f in dtype.fields) + ">"
    return str(dtype).upper()


def _date_text(value: datetime.date) -> str:
    # formatted from the int fields: a subclass cannot make its own text
    return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"


def _timestamp_text(value: datetime.datetime) -> str:
    time = f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}"
    return f"{_date_text(value)} {time}"


def literal_sql(value: Any, dtype: dt.DType) -> str:
    r"""A SQL literal of exactly ``dtype`` (non-null unless ``value`` is None).

    >>> literal_sql(5, dt.Int32())
    'CAST(5 AS INT)'
    >>> literal_sql("it's", dt.String())
    "CAST(X'69742773' AS STRING)"
    """
    if value is None:
        return f"CAST(NULL AS {type_sql(dtype)})"
    if isinstance(dtype, dt.Boolean):
        return "TRUE" if value else "FALSE"
    if isinstance(dtype, dt.Integral):
        return f"CAST({int_sql(int(value))} AS {type_sql(dtype)})"
    if isinstance(dtype, dt.Floating):
        number = float(value)
        if math.isfinite(number):  # a double is a bare literal: some functions take nothing else (rsd)
            return f"{number!r}D" if isinstance(dtype, dt.Float64) else f"CAST({number!r}D AS {type_sql(dtype)})"
        special = "NaN" if math.isnan(number) else ("Infinity" if number > 0 else "-Infinity")
        # a string cast is marked nullable; coalesce with a number makes it non-null again
        return f"CAST(coalesce(CAST('{special}' AS DOUBLE), 0.0D) AS {type_sql(dtype)})"
    if isinstance(dtype, dt.Decimal):
        return f"CAST({format(decimal.Decimal(value), 'f')}BD AS {type_sql(dtype)})"
    if isinstance(dtype, dt.String):
        return string_sql(value)
    if isinstance(dtype, dt.Binary):
        return f"X'{bytes(value).hex()}'"
    if isinstance(dtype, dt.Datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=datetime.timezone.utc)
        utc = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return f"TIMESTAMP_LTZ '{_timestamp_text(utc)}+00:00'"
    if isinstance(dtype, dt.DatetimeNTZ):
        return f"TIMESTAMP_NTZ '{_timestamp_text(value.replace(tzinfo=None))}'"
    if isinstance(dtype, dt.Date):
        return f"DATE '{_date_text(value)}'"
    if isinstance(dtype, dt.Duration):
        return _interval_sql(value)
    if isinstance(dtype, dt.List) and isinstance(value, tuple) and value and not dtype.contains_null:
        return f"array({', '.join(literal_sql(item, dtype.inner) for item in value)})"  # non-null items: exact
    if isinstance(dtype, dt.Map) and isinstance(value, tuple) and value:  # options: (name, value) pairs
        pairs = (f"{literal_sql(k, dtype.key)}, {literal_sql(v, dtype.value)}" for k, v in value)
        return f"map({', '.join(pairs)})"
    msg = f"literals of type {dtype} are not supported yet"
    raise NotImplementedError(msg)


def _interval_sql(value: datetime.timedelta) -> str:
    micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    sign = "-" if micros < 0 else ""
    days, rest = divmod(abs(micros), 86_400 * 1_000_000)
    hours, rest = divmod(rest, 3_600 * 1_000_000)
    minutes, rest = divmod(rest, 60 * 1_000_000)
    seconds, micro = divmod(rest, 1_000_000)
    return f"INTERVAL '{sign}{days} {hours:02d}:{minutes:02d}:{seconds:02d}.{micro:06d}' DAY TO SECOND"


def _cast_to(node: Node, dtype: dt.DType) -> str:
    """The node's SQL, cast to ``dtype`` if its own type differs."""
    text = to_sql(node)
    return text if node.type.dtype == dtype else f"CAST({text} AS {type_sql(dtype)})"


# --- catalog functions ---------------------------------------------------------------------------

SpecialCompiler = Callable[[Call, list[str]], str]
SPECIAL_CALLS: dict[str, SpecialCompiler] = {}
"""Compilers of the catalog entries marked ``special`` (their SQL depends on argument values), by entry name."""


def special(name: str) -> Callable[[SpecialCompiler], SpecialCompiler]:
    """Register the compiler of the special catalog entry ``name``."""

    def register(fn: SpecialCompiler) -> SpecialCompiler:
        SPECIAL_CALLS[name] = fn
        return fn

    return register


def _try_days(node: Call, texts: list[str]) -> str:
    """``try_add``/``try_subtract``: days added to a date are an ``int`` in Spark (ANSI cast from wider)."""
    left, right = (arg.type.dtype for arg in node.args)
    if date_days(ArithmeticOp.ADD if node.function.name == "try_add" else ArithmeticOp.SUB, left, right):
        days = 1 if isinstance(left, dt.Date) else 0
        texts = [f"CAST({t} AS INT)" if i == days else t for i, t in enumerate(texts)]
    return f"{node.function.sql_name}({', '.join(texts)})"


special("try_add")(_try_days)
special("try_subtract")(_try_days)


@compiles(UdfCall)
def _udf_call(node: UdfCall) -> str:
    # a generated name (``__pydantable_udf_<n>``); the lowering registers it with the session first
    return f"{node.function.sql_name}({', '.join(to_sql(a) for a in node.args)})"


@compiles(Call)
def _call(node: Call) -> str:
    function = node.function
    types = call_types(function, node.args, node.method)
    texts = [_cast_to(arg, typed.dtype) for arg, typed in zip(node.args, types, strict=True)]
    if function.spelling.special:
        return SPECIAL_CALLS[function.name](node, texts)
    if function.spelling.template is not None:
        return function.spelling.template.format(*texts, all=", ".join(texts))
    return f"{function.sql_name}({', '.join(texts)})"


def _value(node: Call, index: int) -> Any:
    """The Python value of a (literal) argument of a special call."""
    arg = node.args[index]
    assert isinstance(arg, core.Literal)
    return arg.value


@special("window")
def _window(node: Call, texts: list[str]) -> str:
    # each duration as the microseconds the façade parsed (Spark takes bigint literals as such): Spark
    # never reads the user's text
    shapes = window_shapes(_value(node, 1), _value(node, 2), _value(node, 3))
    return f"window({texts[0]}, {', '.join(f'{int_sql(m)}L' for m in shapes)})"


@special("session_window")
def _session_window(node: Call, texts: list[str]) -> str:
    # the gap must be text or a calendar interval: the text is the microseconds the façade parsed
    return f"session_window({texts[0]}, {string_sql(micros_text(interval_micros(_value(node, 1))))})"


_EDGE_WHITESPACE = r"^\s+|\s+$"


def _variant_get(node: Call, texts: list[str]) -> str:
    """``variant_get``/``try_variant_get`` with the type in its canonical spelling, not the text given.

    ``timestamp`` alone would follow ``spark.sql.timestampType``.
    """
    dtype = target_type(_value(node, 2))
    assert dtype is not None  # the parameter's check refused other names
    return f"{node.function.sql_name}({texts[0]}, {texts[1]}, {string_sql(type_sql(dtype))})"


special("variant_get")(_variant_get)
special("try_variant_get")(_variant_get)


@special("str.strip")
def _str_strip(node: Call, texts: list[str]) -> str:
    if len(texts) == 1:
        return f"regexp_replace({texts[0]}, {string_sql(_EDGE_WHITESPACE)}, {string_sql('')})"
    return f"btrim({texts[0]}, {texts[1]})"


def _trim_characters_first(node: Call, texts: list[str]) -> str:
    """``trim``/``ltrim``/``rtrim``: PySpark passes the string then the characters, Spark SQL takes them reversed."""
    return f"{node.function.sql_name}({', '.join(reversed(texts))})"


special("trim")(_trim_characters_first)
special("ltrim")(_trim_characters_first)
special("rtrim")(_trim_characters_first)


@special("str.slice")
def _str_slice(node: Call, texts: list[str]) -> str:
    offset = _value(node, 1)
    position = int_sql(offset + 1 if offset >= 0 else offset)
    length = "" if len(texts) < 3 else f", {texts[2]}"
    return f"substring({texts[0]}, {position}{length})"


def _padded(node: Call, texts: list[str], function: str) -> str:
    child, width, fill = texts[0], texts[1], texts[2] if len(texts) > 2 else string_sql(" ")
    return f"IF(length({child}) >= {width}, {child}, {function}({child}, {width}, {fill}))"


@special("str.pad_start")
def _str_pad_start(node: Call, texts: list[str]) -> str:
    return _padded(node, texts, "lpad")


@special("str.pad_end")
def _str_pad_end(node: Call, texts: list[str]) -> str:
    return _padded(node, texts, "rpad")


@special("str.extract")
def _str_extract(node: Call, texts: list[str]) -> str:
    child, pattern = texts[0], texts[1]
    group = texts[2] if len(texts) > 2 else "1"
    return f"IF({child} RLIKE {pattern}, regexp_extract({child}, {pattern}, {group}), CAST(NULL AS STRING))"


@special("str.replace")
def _str_replace(node: Call, texts: list[str]) -> str:
    literal = len(texts) > 3 and _value(node, 3) is True
    return f"{'replace' if literal else 'regexp_replace'}({texts[0]}, {texts[1]}, {texts[2]})"


@special("str.split")
def _str_split(node: Call, texts: list[str]) -> str:
    separator = _value(node, 1)
    quoted = "\\Q" + separator.replace("\\E", "\\E\\\\E\\Q") + "\\E"  # Spark splits on a regex
    return f"split({texts[0]}, {string_sql(quoted)}, -1)"


# --- leaves and conversions ---------------------------------------------------------------


@compiles(core.Column)
def _column(node: core.Column) -> str:
    return column_sql(node.name)


@compiles(core.Literal)
def _literal(node: core.Literal) -> str:
    if isinstance(node.value, core.EmptyCollection):
        # Spark's array()/map() (array<void>, map<void,void>) coerce to the list or map next to them, as the
        # façade typed them: exactly that type, nested nullability included, which no CAST could spell
        return "array()" if node.value is core.EmptyCollection.LIST else "map()"
    return literal_sql(node.value, node.dtype)


BAD_VALUE_MARK = "pydantable:bad_value:"
"""Marks a value the data cannot hold as typed; the readable reason follows in hex, then ``]``
(``_spark.storage.spark_errors`` recovers it and raises ``MalformedDataError``)."""


@compiles(FromText)
def _from_text(node: FromText) -> str:
    """``from_json``/``from_csv``/``from_xml``: Spark's parser with the strict checks of ``_spark.strict_text``."""
    from pydantable_spark._spark.strict_text import from_text_sql  # it builds on this module's helpers

    return from_text_sql(node)


@compiles(core.RowId)
def _row_id(node: core.RowId) -> str:
    return "monotonically_increasing_id()"


@compiles(core.Alias)
def _alias(node: core.Alias) -> str:
    return to_sql(node.child)


@compiles(core.Cast)
def _cast(node: core.Cast) -> str:
    return f"CAST({to_sql(node.child)} AS {type_sql(node.to)})"


# --- lambdas of higher-order functions ---------------------------------------------------------

_LAMBDA_SCOPES: ContextVar[tuple[dict[int, str], ...]] = ContextVar("lambda_scopes", default=())
"""The variables of the lambdas being lowered, outermost first: token -> Spark name."""


@compiles(lam.Lambda)
def _lambda(node: lam.Lambda) -> str:
    """``name -> body`` or ``(names) -> body``, named by depth and position (``__pydantable_l<depth>_<position>``).

    A lambda inside another one has other names, so its body reaches the outer
    one's variables; user columns never have these names (``spark_name``).
    """
    scopes = _LAMBDA_SCOPES.get()
    names = {v.token: internal_sql(f"{INTERNAL_PREFIX}l{len(scopes)}_{i}") for i, v in enumerate(node.variables)}
    entered = _LAMBDA_SCOPES.set((*scopes, names))
    try:
        body = to_sql(node.body)
    finally:
        _LAMBDA_SCOPES.reset(entered)
    shown = ", ".join(names.values())
    return f"{shown} -> {body}" if len(names) == 1 else f"({shown}) -> {body}"


@compiles(lam.Variable)
def _variable(node: lam.Variable) -> str:
    for scope in reversed(_LAMBDA_SCOPES.get()):
        name = scope.get(node.token)
        if name is not None:
            return name
    msg = f"lambda variable {node.name} of {node.function}() is used outside its function"
    raise ValueError(msg)


# --- operators --------------------------------------------------------------------------------


@compiles(ops.Arithmetic)
def _arithmetic(node: ops.Arithmetic) -> str:
    if node.op is ArithmeticOp.MOD:
        return _once(node.left, node.right, lambda a, b: _python_mod(a, b, node.type.dtype))
    if node.op is ArithmeticOp.FLOORDIV:
        return _once(node.left, node.right, _floor_div)
    return f"({to_sql(node.left)} {node.op.value} {to_sql(node.right)})"


_BOUND = "__pydantable_v"


def _once(left: Node, right: Node, body: Callable[[str, str], str]) -> str:
    """``body`` over the two operands, each evaluated once even where ``body`` repeats it.

    Columns and literals are repeated as they are; anything else is bound to a
    lambda variable, so nested ``//`` and ``%`` do not grow the SQL exponentially.
    (Both results are nullable anyway, as ``element_at`` is.)
    """
    a, b = to_sql(left), to_sql(right)
    if isinstance(left, core.Column | core.Literal) and isinstance(right, core.Column | core.Literal):
        return body(a, b)
    pair = f"named_struct({string_sql('a')}, {a}, {string_sql('b')}, {b})"
    return f"element_at(transform(array({pair}), {_BOUND} -> {body(f'{_BOUND}.a', f'{_BOUND}.b')}), 1)"


def _floor_div(left: str, right: str) -> str:
    """``left // right`` as in Python: Spark's truncated quotient, one less where it is inexact and negative.

    No intermediate value leaves the operands' range (subtracting the remainder
    first would overflow at the type's minimum).
    """
    rem, quotient = f"({left} % {right})", f"({left} div {right})"
    return f"CASE WHEN {rem} <> 0 AND ({rem} < 0) <> ({right} < 0) THEN {quotient} - 1 ELSE {quotient} END"


def _python_mod(left: str, right: str, dtype: dt.DType) -> str:
    """``left % right`` with the sign of ``right``, as in Python (Spark's ``%`` and ``pmod`` differ)."""
    rem = f"({left} % {right})"
    adjusted = f"CAST(({rem} + {right}) AS {type_sql(dtype)})"
    return f"CASE WHEN {rem} <> 0 AND ({rem} < 0) <> ({right} < 0) THEN {adjusted} ELSE {rem} END"


@compiles(ops.Power)
def _power(node: ops.Power) -> str:
    return f"power({to_sql(node.left)}, {to_sql(node.right)})"


@compiles(ops.Negate)
def _negate(node: ops.Negate) -> str:
    return f"(- {to_sql(node.child)})"


_COMPARISONS = {"==": "=", "!=": "<>"}


@compiles(ops.Comparison)
def _comparison(node: ops.Comparison) -> str:
    symbol = _COMPARISONS.get(node.op.value, node.op.value)
    return f"({to_sql(node.left)} {symbol} {to_sql(node.right)})"


@compiles(ops.And)
def _and(node: ops.And) -> str:
    return f"({to_sql(node.left)} AND {to_sql(node.right)})"


@compiles(ops.Or)
def _or(node: ops.Or) -> str:
    return f"({to_sql(node.left)} OR {to_sql(node.right)})"


@compiles(ops.Not)
def _not(node: ops.Not) -> str:
    return f"(NOT {to_sql(node.child)})"


@compiles(ops.IsNull)
def _is_null(node: ops.IsNull) -> str:
    return f"({to_sql(node.child)} IS NULL)"


@compiles(ops.IsNotNull)
def _is_not_null(node: ops.IsNotNull) -> str:
    return f"({to_sql(node.child)} IS NOT NULL)"


@compiles(ops.IsIn)
def _is_in(node: ops.IsIn) -> str:
    child = to_sql(node.child)
    if not node.values:  # Spark's x IN (): FALSE even for a NULL x, typed nullable when x is
        return "(CAST(NULL AS BOOLEAN) AND FALSE)" if node.child.type.nullable else "FALSE"
    return f"({child} IN ({', '.join(to_sql(v) for v in node.values)}))"


@compiles(ops.Between)
def _between(node: ops.Between) -> str:
    child = to_sql(node.child)
    low = ">=" if node.closed in ("both", "left") else ">"
    high = "<=" if node.closed in ("both", "right") else "<"
    return f"(({child} {low} {to_sql(node.lower)}) AND ({child} {high} {to_sql(node.upper)}))"


# --- conditionals -----------------------------------------------------------------------------


@compiles(cond.Coalesce)
def _coalesce(node: cond.Coalesce) -> str:
    target = node.type.dtype
    return f"coalesce({', '.join(_cast_to(a, target) for a in node.args)})"


@compiles(cond.When)
def _when(node: cond.When) -> str:
    target = node.type.dtype
    parts = [f"WHEN {to_sql(c)} THEN {_cast_to(v, target)}" for c, v in zip(node.conditions, node.values, strict=True)]
    if node.otherwise is not None:
        parts.append(f"ELSE {_cast_to(node.otherwise, target)}")
    return f"CASE {' '.join(parts)} END"


# --- windows ------------------------------------------------------------------------------------


def _bound(offset: int | None, *, start: bool) -> str:
    if offset is None:
        return "UNBOUNDED PRECEDING" if start else "UNBOUNDED FOLLOWING"
    if offset == 0:
        return "CURRENT ROW"
    return f"{int_sql(abs(offset))} {'PRECEDING' if offset < 0 else 'FOLLOWING'}"


@compiles(win.Over)
def _over(node: win.Over) -> str:
    parts = []
    if node.partition_by:
        parts.append("PARTITION BY " + ", ".join(to_sql(p) for p in node.partition_by))
    if node.order_by:
        keys = [
            f"{to_sql(k)} {'DESC' if d else 'ASC'} NULLS {'LAST' if last else 'FIRST'}"
            for k, d, last in zip(node.order_by, node.descending, node.nulls_last, strict=True)
        ]
        parts.append("ORDER BY " + ", ".join(keys))
    if node.frame is not None:
        start, end = _bound(node.frame.start, start=True), _bound(node.frame.end, start=False)
        parts.append(f"{node.frame.kind.upper()} BETWEEN {start} AND {end}")
    return f"{to_sql(node.child)} OVER ({' '.join(parts)})"


# --- the special catalog entries of the other namespaces ---------------------------------------------


@special("count")
def _count(node: Call, texts: list[str]) -> str:
    return f"count({texts[0] if texts else 1})"


@special("nth_value")
def _nth_value(node: Call, texts: list[str]) -> str:
    ignore = len(texts) > 2 and _value(node, 2) is True
    return f"nth_value({texts[0]}, {texts[1]}){' IGNORE NULLS' if ignore else ''}"


@special("dt.truncate")
def _dt_truncate(node: Call, texts: list[str]) -> str:
    value, unit = texts[0], _value(node, 1)
    dtype = node.args[0].type.dtype
    if isinstance(dtype, dt.Date):
        return f"trunc({value}, {texts[1]})"
    if isinstance(dtype, dt.Datetime):
        return f"date_trunc({texts[1]}, {value})"
    # timestamp_ntz: Spark's date_trunc would read it in the session time zone and return a timestamp
    day = f"CAST({value} AS DATE)"
    if unit == "day":
        return f"CAST({day} AS TIMESTAMP_NTZ)"
    if unit in ("year", "quarter", "month", "week"):
        return f"CAST(trunc({day}, {texts[1]}) AS TIMESTAMP_NTZ)"
    fields = [f"{part}({value})" for part in ("year", "month", "day", "hour", "minute", "second")]
    kept = {"hour": 4, "minute": 5, "second": 6}[unit]
    return f"make_timestamp_ntz({', '.join(fields[:kept] + ['0'] * (6 - kept))})"


def _timestamp_unit(node: Call, texts: list[str]) -> str:
    """``timestampadd``/``timestampdiff``: SQL takes the unit as a keyword, spelled from the fixed table."""
    unit = TIMESTAMP_UNITS[str(_value(node, 0)).lower()]  # the call was refused unless the unit is in it
    name = "timestampadd" if node.function.name == "timestamp_add" else "timestampdiff"
    return f"{name}({unit}, {texts[1]}, {texts[2]})"


special("timestamp_add")(_timestamp_unit)
special("timestamp_diff")(_timestamp_unit)


@special("dt.strftime")
def _dt_strftime(node: Call, texts: list[str]) -> str:
    return f"date_format({texts[0]}, {string_sql(spark_pattern(_value(node, 1)))})"


@special("list.get")
def _list_get(node: Call, texts: list[str]) -> str:
    index = node.args[1]
    if isinstance(index, core.Literal) and isinstance(index.value, int):
        position = int_sql(index.value + 1 if index.value >= 0 else index.value)
    else:
        raw = texts[1]
        position = f"IF({raw} >= 0, {raw} + 1, {raw})"
    return f"try_element_at({texts[0]}, {position})"


@special("list.sort")
def _list_sort(node: Call, texts: list[str]) -> str:
    descending = len(texts) > 1 and _value(node, 1) is True
    return f"sort_array({texts[0]}, {'false' if descending else 'true'})"


@special("struct.field")
def _struct_field(node: Call, texts: list[str]) -> str:
    return struct_field_sql(texts[0], _value(node, 1))


@special("list.slice")
def _list_slice(node: Call, texts: list[str]) -> str:
    offset = _value(node, 1)
    start = int_sql(offset + 1 if offset >= 0 else offset)
    length = texts[2] if len(texts) > 2 else int_sql(2**31 - 1)
    return f"slice({texts[0]}, {start}, {length})"


@special("shuffle")
def _shuffle(node: Call, texts: list[str]) -> str:
    if len(texts) == 1:
        return f"shuffle({texts[0]})"
    return f"shuffle({texts[0]}, {int_sql(_value(node, 1))}L)"  # Spark takes a long literal only


@special("struct")
def _struct(node: Call, texts: list[str]) -> str:
    names = struct_names(node.args)
    return "named_struct(" + ", ".join(f"{string_sql(n)}, {t}" for n, t in zip(names, texts, strict=True)) + ")"


def _struct_fields_from(node: Call, struct: str) -> str:
    """What the fields of the call's struct argument are read from, typed by Spark as they are declared.

    Spark types ``s.a`` of a nullable ``s`` nullable whatever ``a`` is; a
    nullable struct's fields are read from ``coalesce(s, <a non-null struct of
    s's type>)`` instead (the stand-in is never read: the result is NULL where
    the struct is, ``_null_where_struct_is``). ``explain()`` shows ``s`` itself.
    """
    source = node.args[0].type
    if not source.nullable or readable():
        return struct
    from pydantable_spark._spark.null_checks import stand_ins  # it builds on this module's helpers

    return f"coalesce({struct}, {stand_ins(source.dtype)[0]})"


def _null_where_struct_is(node: Call, struct: str, fields: list[tuple[str, str]]) -> str:
    """``named_struct`` of ``(name, SQL)`` pairs, NULL where the call's struct argument is."""
    built = "named_struct(" + ", ".join(f"{string_sql(n)}, {v}" for n, v in fields) + ")"
    return f"IF({struct} IS NULL, NULL, {built})" if node.args[0].type.nullable else built


@special("struct.struct_rename_fields")
def _rename_fields(node: Call, texts: list[str]) -> str:
    parent, renamed = node.args[0].type.dtype, node.type.dtype
    assert isinstance(parent, dt.Struct)
    assert isinstance(renamed, dt.Struct)
    base = _struct_fields_from(node, texts[0])
    pairs = [
        (new.name, struct_field_sql(base, old.name)) for new, old in zip(renamed.fields, parent.fields, strict=True)
    ]
    return _null_where_struct_is(node, texts[0], pairs)


@special("struct.struct_with_fields")
def _with_fields(node: Call, texts: list[str]) -> str:
    parent = node.args[0].type.dtype
    assert isinstance(parent, dt.Struct)
    names = with_fields_names(Args(node.args, tuple(a.type for a in node.args)))
    given = dict(zip(names, texts[1:], strict=True))
    base = _struct_fields_from(node, texts[0])
    pairs = [(f.name, given.get(f.name) or struct_field_sql(base, f.name)) for f in parent.fields]
    kept = {f.name for f in parent.fields}
    pairs += [(n, v) for n, v in given.items() if n not in kept]
    return _null_where_struct_is(node, texts[0], pairs)


_ZIPPED = "__pydantable_z"


@special("arrays_zip")
def _arrays_zip(node: Call, texts: list[str]) -> str:
    """``arrays_zip`` with the façade's field names.

    Spark names a field after a plain column reference and by position
    otherwise; where that differs from the façade's name (a column's own, an
    alias, a struct field's), each struct is rebuilt with its names.
    """
    names = zip_names(node.args)
    plain = all(isinstance(a, core.Column) and spark_name(a.name) == n for a, n in zip(node.args, names, strict=True))
    if plain:
        return f"arrays_zip({', '.join(texts)})"
    positional = ", ".join(f"coalesce({t})" for t in texts)  # not a name: Spark names the field by position
    fields = ", ".join(f"{string_sql(n)}, {_ZIPPED}.`{i}`" for i, n in enumerate(names))
    return f"transform(arrays_zip({positional}), {_ZIPPED} -> named_struct({fields}))"
