"""Expression nodes as Substrait expressions over the input relation's fields.

A column is a field reference by position in the relation below; literals are
typed Substrait literals (never text); every function call names its output
type and nullability as the façade derived them, so a consumer can check its
own type rules against Spark's.
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import TYPE_CHECKING, Any

from substrait import algebra_pb2 as sa

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.expr import conditional as cond
from pydantable_spark.expr import core
from pydantable_spark.expr import operators as ops
from pydantable_spark.expr.call import Call, call_types
from pydantable_spark.expr.coercion import common_type
from pydantable_spark.expr.over import Frame, Over
from pydantable_spark.expr.sides import SideColumn
from pydantable_spark.substrait import functions as fn
from pydantable_spark.substrait import kernels
from pydantable_spark.substrait.kernels import casts, reconciled
from pydantable_spark.substrait.kernels.spec import NOT_LITERAL, Scalar, Session, Site, SparkError, rows
from pydantable_spark.substrait.types import substrait_type
from pydantable_spark.substrait.udfs import KernelSite
from pydantable_spark.typerules import decimal_for_integral, decimal_for_number

if TYPE_CHECKING:
    import decimal
    from collections.abc import Callable, Sequence

    from pydantable_spark.reconcile import ColumnMatch
    from pydantable_spark.schema import Schema

__all__ = ["ExpressionWriter", "Functions", "literal"]


def _temporal(node: Call) -> bool:
    """Whether a call reads a timestamp (whose date parts depend on the session's time zone, a kernel's job)."""
    return any(isinstance(a.type.dtype, dt.Datetime) for a in node.args)


_EPOCH = datetime.date(1970, 1, 1)
_UTC_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_NAIVE_EPOCH = datetime.datetime(1970, 1, 1)


class Functions:
    """The functions a plan declares, each once, with its anchor; ``local`` refuses what the local engine lacks.

    On the local engine a call computed by a kernel is one ``KernelSite`` (``sites``), called by a
    name of its own; ``session`` holds the settings kernels read (the time zone).
    """

    __slots__ = ("anchors", "local", "session", "sites", "windows")

    def __init__(self, *, local: bool = False, session: Session | None = None) -> None:
        self.local = local
        self.session = session or Session()
        self.anchors: dict[tuple[str, str], int] = {}
        self.windows: set[bytes] = set()
        """The window functions written so far (serialized), for the local engine's one-of-each rule."""
        self.sites: list[KernelSite] = []

    def anchor(self, function: fn.SubstraitFunction, what: str) -> int:
        """The anchor of ``function`` in the plan (declared on first use); ``what`` names the call in refusals."""
        if self.local and not function.local:
            msg = f"the local engine does not run {what}: {function.why}; run it on Spark (collect() without engine=)"
            raise UnsupportedEngineError(msg)
        return self._declared(function.extension, function.name)

    def _declared(self, extension: str, name: str) -> int:
        key = (extension, name)
        found = self.anchors.get(key)
        if found is None:
            found = self.anchors[key] = len(self.anchors) + 1  # anchor 0 reads as "unset"
        return found

    def kernel(self, kernel: kernels.Kernel, site: Site) -> int:
        """The anchor of a kernel at one call site: on the local engine, a function of its own (``<name>__<n>``)."""
        if not self.local:
            return self._declared(fn.SPARK_EXTENSION, kernel.name)
        name = f"{kernel.name}__{len(self.sites)}"
        self.sites.append(KernelSite(name, kernel, site))
        return self._declared(fn.LOCAL_EXTENSION, name)


_INTEGERS: dict[type[dt.DType], str] = {dt.Int8: "i8", dt.Int16: "i16", dt.Int32: "i32", dt.Int64: "i64"}


def _integer_literal(value: int, dtype: dt.DType) -> sa.Expression.Literal:
    made = sa.Expression.Literal()
    setattr(made, _INTEGERS[type(dtype)], value)
    return made


def _decimal_bytes(value: decimal.Decimal, dtype: dt.Decimal) -> bytes:
    unscaled = int(value.scaleb(dtype.scale).to_integral_value())
    return unscaled.to_bytes(16, "little", signed=True)


def _timestamp_micros(value: datetime.datetime) -> int:
    epoch = _UTC_EPOCH if value.tzinfo is not None else _NAIVE_EPOCH
    delta = value - epoch
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def nested_value(value: Any, dtype: dt.DType) -> Any:
    """A list, map or struct literal's value as a kernel gives it (lists for tuples, ``[]`` for ``F.array()``)."""
    if value is None or isinstance(value, core.EmptyCollection):
        return None if value is None else []
    if isinstance(dtype, dt.List):
        return [nested_value(v, dtype.inner) for v in value]
    if isinstance(dtype, dt.Map):
        return [(nested_value(k, dtype.key), nested_value(v, dtype.value)) for k, v in value]
    if isinstance(dtype, dt.Struct):
        return {f.name: nested_value(value[f.name], f.dtype) for f in dtype.fields}
    return value


def literal(value: Any, dtype: dt.DType, *, nullable: bool) -> sa.Expression.Literal:
    """A Python value of ``dtype`` as a Substrait literal (``None``: a typed NULL)."""
    if value is None:
        return sa.Expression.Literal(null=substrait_type(dtype, nullable=True), nullable=True)
    made: sa.Expression.Literal
    if isinstance(dtype, dt.Boolean):
        made = sa.Expression.Literal(boolean=value)
    elif isinstance(dtype, dt.Integral):
        made = _integer_literal(value, dtype)
    elif isinstance(dtype, dt.Float32):
        made = sa.Expression.Literal(fp32=value)
    elif isinstance(dtype, dt.Float64):
        made = sa.Expression.Literal(fp64=value)
    elif isinstance(dtype, dt.String):
        made = sa.Expression.Literal(string=value)
    elif isinstance(dtype, dt.Binary):
        made = sa.Expression.Literal(binary=bytes(value))
    elif isinstance(dtype, dt.Date):
        made = sa.Expression.Literal(date=(value - _EPOCH).days)
    elif isinstance(dtype, dt.Decimal):
        exact = sa.Expression.Literal.Decimal(
            value=_decimal_bytes(value, dtype), precision=dtype.precision, scale=dtype.scale
        )
        made = sa.Expression.Literal(decimal=exact)
    elif isinstance(dtype, dt.Datetime):
        instant = sa.Expression.Literal.PrecisionTimestamp(precision=6, value=_timestamp_micros(value))
        made = sa.Expression.Literal(precision_timestamp_tz=instant)
    elif isinstance(dtype, dt.DatetimeNTZ):
        wall = sa.Expression.Literal.PrecisionTimestamp(precision=6, value=_timestamp_micros(value))
        made = sa.Expression.Literal(precision_timestamp=wall)
    else:
        msg = f"Substrait export has no literal of type {dtype.sql_name} yet (the value {value!r})"
        raise UnsupportedEngineError(msg)
    made.nullable = nullable
    return made


_DIV = ops.ArithmeticOp.DIV
SORT_DIRECTIONS = {
    (False, False): sa.SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_FIRST,
    (False, True): sa.SortField.SortDirection.SORT_DIRECTION_ASC_NULLS_LAST,
    (True, False): sa.SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_FIRST,
    (True, True): sa.SortField.SortDirection.SORT_DIRECTION_DESC_NULLS_LAST,
}
"""(descending, nulls last) → Substrait's sort direction."""
_BOUNDS = {
    "rows": sa.Expression.WindowFunction.BoundsType.BOUNDS_TYPE_ROWS,
    "range": sa.Expression.WindowFunction.BoundsType.BOUNDS_TYPE_RANGE,
}


WIDE_INTEGER = dt.Decimal(38, 0)
"""Where the local engine computes ``bigint`` arithmetic and sums: no two ``bigint`` values overflow it."""


def _wide(dtype: dt.DType) -> dt.DType:
    """A type holding any sum, difference or product of two values of integer type ``dtype``."""
    return WIDE_INTEGER if isinstance(dtype, dt.Int64) else dt.Int64()


def integer_sum(call: core.Node) -> bool:
    """Whether ``call`` is ``sum`` of integers (Spark's ``bigint`` result fails on overflow; DataFusion's wraps)."""
    return isinstance(call, Call) and call.function.name == "sum" and isinstance(call.args[0].type.dtype, dt.Integral)


def decimal_sum_may_overflow(node: core.Node) -> bool:
    """Whether ``node`` is a decimal ``sum`` whose result type (capped at 38 digits) may not hold the sum."""
    if not (isinstance(node, Call) and node.function.name == "sum"):
        return False
    given, result = node.args[0].type.dtype, node.type.dtype
    return isinstance(given, dt.Decimal) and isinstance(result, dt.Decimal) and given.precision + 10 > result.precision


def _bound(offset: int | None) -> sa.Expression.WindowFunction.Bound:
    """A frame bound as the façade writes it: None unbounded, 0 the current row, -n preceding, n following."""
    bound = sa.Expression.WindowFunction.Bound
    if offset is None:
        return bound(unbounded=bound.Unbounded())
    if offset == 0:
        return bound(current_row=bound.CurrentRow())
    if offset < 0:
        return bound(preceding=bound.Preceding(offset=-offset))
    return bound(following=bound.Following(offset=offset))


_FRAMED = frozenset({"nth_value"})
"""Window functions (beside aggregates) that read the window's frame: its bounds are written out."""
_ALL = sa.AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL
_DISTINCT = sa.AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT
_DISTINCT_AGGREGATES = frozenset({"count_distinct"})


def _as_decimal(dtype: dt.DType) -> dt.Decimal | None:
    """The decimal Spark computes an operand in next to a decimal (None for floats: the result is a double)."""
    return decimal_for_number(dtype) if isinstance(dtype, dt.Decimal | dt.Integral) else None


def _exact_decimal(node: ops.Arithmetic) -> bool:
    """Whether Spark's decimal result type for ``+ - *`` is the exact one (no digits dropped to fit 38).

    Then DataFusion computes the same type and the same values; where Spark had to reduce the scale to
    fit, its rounding is its own.
    """
    left, right = _as_decimal(node.left.type.dtype), _as_decimal(node.right.type.dtype)
    if (
        left is None
        or right is None
        or node.op not in (ops.ArithmeticOp.ADD, ops.ArithmeticOp.SUB, ops.ArithmeticOp.MUL)
    ):
        return False
    if node.op is ops.ArithmeticOp.MUL:
        precision, scale = left.precision + right.precision + 1, left.scale + right.scale
    else:
        scale = max(left.scale, right.scale)
        precision = max(left.precision - left.scale, right.precision - right.scale) + scale + 1
    result = node.type.dtype
    return isinstance(result, dt.Decimal) and (precision, scale) == (result.precision, result.scale)


_SAFE_CASTS: tuple[tuple[type[dt.DType], type[dt.DType]], ...] = (
    (dt.Integral, dt.Int64),
    (dt.Integral, dt.Float64),
    (dt.Float32, dt.Float64),
)
"""Casts that cannot fail nor round differently between engines (the local engine runs only these)."""


def _safe_cast(source: dt.DType, target: dt.DType) -> bool:
    """Whether DataFusion's cast of ``source`` to ``target`` cannot fail nor round (it only widens)."""
    if source == target or any(isinstance(source, a) and type(target) is b for a, b in _SAFE_CASTS):
        return True
    wide = decimal_for_number(source) if isinstance(source, dt.Integral | dt.Decimal) else None
    return (
        isinstance(target, dt.Decimal)
        and wide is not None
        and target.scale >= wide.scale
        and target.precision - target.scale >= wide.precision - wide.scale
    )


class ExpressionWriter:
    """Writes the expressions of one relation: columns resolve against ``schema`` (the relation below).

    ``offset`` is the position of the schema's first column in that relation
    (a join's right side follows the left side's columns). For a join
    condition, ``right`` is the right side's schema: a column of the right side
    (``SideColumn`` with ``side="right"``) resolves after the left's columns.
    """

    def __init__(
        self,
        schema: Schema,
        functions: Functions,
        offset: int = 0,
        right: Schema | None = None,
        computed: dict[int, str] | None = None,
    ) -> None:
        self.computed = computed or {}
        """Nodes (by ``id``) already computed below, as the column of ``schema`` that holds them."""
        self.positions = {f.name: offset + i for i, f in enumerate(schema)}
        after = offset + len(schema)
        self.right_positions = {f.name: after + i for i, f in enumerate(right or ())}
        self.functions = functions
        self._writers: dict[type[core.Node], Callable[[Any], sa.Expression]] = {
            core.Column: self._column,
            SideColumn: self._side_column,
            core.Literal: self._literal,
            core.Alias: lambda node: self.write(node.child),
            core.Cast: self._cast,
            ops.Arithmetic: self._arithmetic,
            ops.Comparison: self._comparison,
            ops.And: lambda node: self._call(fn.AND, node, "and (&)", node.left, node.right),
            ops.Or: lambda node: self._call(fn.OR, node, "or (|)", node.left, node.right),
            ops.Not: lambda node: self._call(fn.NOT, node, "not (~)", node.child),
            ops.Negate: self._negate,
            ops.IsNull: lambda node: self._call(fn.IS_NULL, node, "is_null()", node.child),
            ops.IsNotNull: lambda node: self._call(fn.IS_NOT_NULL, node, "is_not_null()", node.child),
            ops.IsIn: self._is_in,
            ops.Between: self._between,
            cond.Coalesce: self._coalesce,
            cond.When: self._when,
            Call: self._catalog_call,
            Over: self._over,
        }

    def write(self, node: core.Node) -> sa.Expression:
        """``node`` as a Substrait expression; anything without a mapping raises ``UnsupportedEngineError``."""
        if self.computed:
            computed = self.computed.get(id(node))
            if computed is not None:
                typed = node.type
                if self.widens(node):  # a sum computed in decimal(38,0): back to bigint, failing on overflow
                    return self.cast(self.field(computed), typed.dtype, nullable=typed.nullable)
                if self.guarded(node):
                    return self._guard(self.field(computed), self.field(f"{computed}\x00guard"), node)
                if not self.functions.local:  # the aggregate's type as its definition gives it, then Spark's
                    return self.conform(self.field(computed), self.measured_type(node), typed)
                return self.canonical_nan(self.field(computed), typed.dtype, nullable=typed.nullable)
        writer = self._writers.get(type(node))
        if writer is None:
            msg = f"Substrait export does not take {core.render(node)} ({node.label}) yet"
            raise UnsupportedEngineError(msg)
        return writer(node)

    def field(self, name: str, side: str = "left") -> sa.Expression:
        """A reference to the input column ``name`` (of the right side of a join, with ``side="right"``)."""
        position = (self.right_positions if side == "right" else self.positions)[name]
        reference = sa.Expression.FieldReference(
            direct_reference=sa.Expression.ReferenceSegment(
                struct_field=sa.Expression.ReferenceSegment.StructField(field=position)
            ),
            root_reference=sa.Expression.FieldReference.RootReference(),
        )
        return sa.Expression(selection=reference)

    def _column(self, node: core.Column) -> sa.Expression:
        return self.field(node.name)

    def _side_column(self, node: SideColumn) -> sa.Expression:
        return self.field(node.name, node.side)

    def _literal(self, node: core.Literal) -> sa.Expression:
        if self.functions.local and node.dtype.is_nested:
            return self.constant(nested_value(node.value, node.dtype), node.type)
        return sa.Expression(literal=literal(node.value, node.dtype, nullable=node.type.nullable))

    def constant(self, value: Any, typed: core.Typed) -> sa.Expression:
        """On the local engine, a list, map or struct constant: a kernel giving ``value`` on every row.

        DataFusion reads a Substrait literal of a nested type with its own field names (``item``) and
        nullability, which neither Spark's Arrow type nor a kernel's exact signature takes (measured);
        a kernel's result has exactly the type the façade derived. Its one argument is a NULL boolean,
        which DataFusion broadcasts to the batch.
        """
        kernel = Scalar("constant", lambda site: lambda _: value, strict=False)
        unused = core.Typed(dt.Boolean(), True)
        site = Site((unused,), typed, (None,), self.functions.session)
        return self.kernel_call(kernel, site, [sa.Expression(literal=literal(None, dt.Boolean(), nullable=True))])

    def _cast(self, node: core.Cast) -> sa.Expression:
        source = node.child.type.dtype
        if self.functions.local and not _safe_cast(source, node.to):
            return self.spark_cast(node.child, node.to, node.type)
        return self.cast(self.write(node.child), node.to, nullable=node.type.nullable)

    def spark_cast(self, child: core.Node, to: dt.DType, typed: core.Typed) -> sa.Expression:
        """On the local engine, ``child`` cast to ``to`` as Spark casts (ANSI) by the cast kernel, or refused."""
        why = casts.refusal(child.type.dtype, to)
        if why is not None:
            msg = f"{why} ({core.render(child)}); run it on Spark (collect() without engine=)"
            raise UnsupportedEngineError(msg)
        site = self.site_of(typed, (child,), (child.type,))
        return self.kernel_call(casts.CAST, site, [self.write(child)])

    def reconciled(self, match: ColumnMatch, target: dt.Field, *, check: bool) -> sa.Expression:
        """A column of ``as_model``: its source column converted to ``target``'s type (NULLs checked with ``check``)."""
        field = self.field(match.source.name)
        source, result = match.source, match.result
        if not check and source.dtype == target.dtype:
            return field
        if not check and _safe_cast(source.dtype, target.dtype):
            return self.cast(field, target.dtype, nullable=result.nullable)
        if not self.functions.local:
            if check or not isinstance(source.dtype, dt.Numeric):
                msg = (
                    f"Substrait export does not take as_model's conversion of {source.name!r} "
                    f"({source.dtype.sql_name} to {target.dtype.sql_name}{', NULLs checked' if check else ''}) yet"
                )
                raise UnsupportedEngineError(msg)
            return self.cast(field, target.dtype, nullable=result.nullable)
        why = reconciled.refusal(source.dtype, target.dtype)
        if why is not None:
            msg = f"{why} (as_model's column {target.name!r}); run it on Spark (collect() without engine=)"
            raise UnsupportedEngineError(msg)
        kernel = reconciled.reconciling(source, target, target.name, check)
        stored = core.Typed(source.dtype, source.nullable)
        site = self.site_of(core.Typed(result.dtype, result.nullable), (core.Column(source.name, stored),), (stored,))
        return self.kernel_call(kernel, site, [field])

    def _arithmetic(self, node: ops.Arithmetic) -> sa.Expression:
        result = node.type.dtype
        what = f"the operator {node.op.value}"
        if not isinstance(result, dt.Numeric):
            msg = (
                f"Substrait export does not take {what} on {node.left.type.dtype.sql_name} and "
                f"{node.right.type.dtype.sql_name} yet ({core.render(node)}): only on numbers"
            )
            raise UnsupportedEngineError(msg)
        function = fn.ARITHMETIC.get(node.op)
        rounded = isinstance(result, dt.Decimal) and not _exact_decimal(node)
        if self.functions.local and (function is None or not function.local or rounded):
            # computed as Spark does by a kernel: / and % and // (zero divisors fail), decimals Spark rounds
            kernel = kernels.OPERATORS[node.op]
            args = (node.left, node.right)
            site = self.site(node, args, tuple(a.type for a in args))
            return self.kernel_call(kernel, site, [self.write(a) for a in args])
        operands = [self._operand(side, result) for side in (node.left, node.right)]
        if function is None:  # Python's % and // over Spark's: this project's extension
            function = fn.SPARK_OPERATORS[node.op]
        elif self.functions.local and isinstance(result, dt.Integral):
            anchor = self.functions.anchor(function.resolve(result), what)
            return self._checked(anchor, [o for o, _ in operands], node)
        elif node.op is _DIV and isinstance(result, dt.Decimal):
            given = [t.dtype for _, t in operands]
            if fn.standard_decimal_division(given) != result:  # Spark counts the divisor's scale, the YAML its digits
                function = fn.DECIMAL_DIVISION
        written = self.standard_call(function, what, operands, node.type)
        return self.canonical_nan(written, result, nullable=node.type.nullable)

    def _checked(self, anchor: int, operands: list[sa.Expression], node: core.Node) -> sa.Expression:
        """Integer arithmetic that fails on overflow, as Spark's (ANSI) does, on the local engine.

        DataFusion's integer ``+ - *`` wrap around silently (measured: ``2147483647 * 10`` is ``-10``).
        The operation runs in a type wide enough for any result of two operands (``bigint`` for the
        narrower integers, ``decimal(38,0)`` for ``bigint``) and is cast back to Spark's type, a cast
        DataFusion refuses with an error when the value does not fit.
        """
        result = node.type.dtype
        wide = _wide(result)
        call = sa.Expression.ScalarFunction(
            function_reference=anchor,
            arguments=[sa.FunctionArgument(value=self.cast(o, wide, nullable=node.type.nullable)) for o in operands],
            output_type=substrait_type(wide, nullable=node.type.nullable),
        )
        return self.cast(sa.Expression(scalar_function=call), result, nullable=node.type.nullable)

    def canonical_nan(self, written: sa.Expression, dtype: dt.DType, *, nullable: bool) -> sa.Expression:
        """On the local engine, a floating value whose NaN is the one NaN Spark knows.

        Spark holds every NaN equal to every other and larger than any number; DataFusion orders
        floats by their bits, so the NaN that arithmetic gives (``inf - inf``: its sign bit set on
        x86) sorts first and differs from ``float("nan")`` (measured). Each floating value the plan
        computes is written ``if is_nan(x) then NaN else x``.
        """
        if not self.functions.local or not isinstance(dtype, dt.Floating):
            return written
        test = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(fn.IS_NAN, "a NaN check"),
            arguments=[sa.FunctionArgument(value=written)],
            output_type=substrait_type(dt.Boolean(), nullable=nullable),
        )
        nan = sa.Expression(literal=literal(float("nan"), dtype, nullable=False))
        clause = sa.Expression.IfThen.IfClause(**{"if": sa.Expression(scalar_function=test), "then": nan})
        return sa.Expression(if_then=sa.Expression.IfThen(ifs=[clause], **{"else": written}))

    def key(self, node: core.Node) -> sa.Expression:
        """A sort, window or distinct key: on the local engine a float's ``-0.0`` is ``0.0`` and its NaN one NaN.

        Spark normalizes floating keys (``-0.0 = 0.0`` sort and partition together); DataFusion does
        not (measured: another order, another count of distinct values). ``x + 0.0`` is ``0.0`` for
        ``-0.0`` and ``x`` for every other number.
        """
        written = self.write(node)
        dtype = node.type.dtype
        if not self.functions.local or not isinstance(dtype, dt.Floating):
            return written
        zero = sa.Expression(literal=literal(0.0, dtype, nullable=False))
        plus = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(fn.ARITHMETIC[ops.ArithmeticOp.ADD], "a float key"),
            arguments=[sa.FunctionArgument(value=written), sa.FunctionArgument(value=zero)],
            output_type=substrait_type(dtype, nullable=node.type.nullable),
        )
        return self.canonical_nan(sa.Expression(scalar_function=plus), dtype, nullable=node.type.nullable)

    def cast(self, written: sa.Expression, dtype: dt.DType, *, nullable: bool) -> sa.Expression:
        """``written`` cast to ``dtype``, failing (not NULL) where a value does not convert."""
        cast = sa.Expression.Cast(
            type=substrait_type(dtype, nullable=nullable),
            input=written,
            failure_behavior=sa.Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION,
        )
        return sa.Expression(cast=cast)

    def _operand(self, side: core.Node, result: dt.DType) -> tuple[sa.Expression, core.Typed]:
        """An operand cast to the type Spark computes in: the result type, or for decimals ``decimal(digits, 0)``.

        Spark widens ``int + bigint`` to ``bigint``, divides integers as doubles and reads an
        integer next to a decimal as the decimal holding all its digits; Substrait's functions
        take operands of one type, so the plan says so with casts.
        """
        written = self.write(side)
        given = side.type.dtype
        target = result
        if isinstance(result, dt.Decimal):
            if isinstance(given, dt.Decimal):
                return written, side.type
            if not isinstance(given, dt.Integral):  # pragma: no cover - Spark's result is a double then
                return written, side.type
            target = decimal_for_integral(given)
        if given == target:
            return written, side.type
        return self.cast(written, target, nullable=side.type.nullable), core.Typed(target, side.type.nullable)

    def _comparison(self, node: ops.Comparison) -> sa.Expression:
        compared = self._compared(node.left, node.right)
        return self.standard_call(fn.COMPARISON[node.op], f"the operator {node.op.value}", compared, node.type)

    def _compared(self, *nodes: core.Node) -> list[tuple[sa.Expression, core.Typed]]:
        """Numbers compared in their common type (``int`` beside ``double`` is a double), as Spark casts them.

        Substrait's comparison functions take two values of one type; the plan says which.
        """
        types = [n.type.dtype for n in nodes]
        dates = any(isinstance(t, dt.Date) for t in types)
        instants = {type(t) for t in types if isinstance(t, dt.Datetime | dt.DatetimeNTZ)}
        if self.functions.local and dates and instants:
            # Spark reads the date as midnight in the session's time zone; DataFusion would cast it to nanoseconds,
            # which fail before 1677 (measured): the cast kernel converts it as Spark does
            if len(instants) > 1:
                msg = (
                    f"the local engine does not compare a date with timestamps of two kinds "
                    f"({', '.join(map(core.render, nodes))}); run it on Spark (collect() without engine=)"
                )
                raise UnsupportedEngineError(msg)
            instant = instants.pop()()
            return [
                (
                    self.spark_cast(n, instant, core.Typed(instant, n.type.nullable)),
                    core.Typed(instant, n.type.nullable),
                )
                if isinstance(n.type.dtype, dt.Date)
                else (self.write(n), n.type)
                for n in nodes
            ]
        common = common_type(types) if all(isinstance(t, dt.Numeric) for t in types) else None
        if common is None:
            return [(self.write(n), n.type) for n in nodes]
        return [(self.as_type(n, common), core.Typed(common, n.type.nullable)) for n in nodes]

    def _negate(self, node: ops.Negate) -> sa.Expression:
        if self.functions.local and isinstance(node.type.dtype, dt.Integral):  # -(-2147483648) fails, as in Spark
            zero = sa.Expression(literal=literal(0, node.type.dtype, nullable=False))
            anchor = self.functions.anchor(fn.ARITHMETIC[ops.ArithmeticOp.SUB], "unary minus")
            return self._checked(anchor, [zero, self.write(node.child)], node)
        negated = self._call(fn.NEGATE, node, "unary minus", node.child)
        return self.canonical_nan(negated, node.type.dtype, nullable=node.type.nullable)

    def _is_in(self, node: ops.IsIn) -> sa.Expression:
        if not node.values:
            return sa.Expression(literal=literal(False, dt.Boolean(), nullable=node.type.nullable))
        child, *values = (written for written, _ in self._compared(node.child, *node.values))
        options = sa.Expression.SingularOrList(value=child, options=values)
        return sa.Expression(singular_or_list=options)

    def _between(self, node: ops.Between) -> sa.Expression:
        """``lower <= child <= upper`` as two comparisons joined by ``and`` (``closed`` picks ``<`` or ``<=``)."""
        low = fn.COMPARISON[ops.ComparisonOp.LE if node.closed in ("both", "left") else ops.ComparisonOp.LT]
        high = fn.COMPARISON[ops.ComparisonOp.LE if node.closed in ("both", "right") else ops.ComparisonOp.LT]
        lower, child, upper = self._compared(node.lower, node.child, node.upper)
        sides = []
        for function, smaller, larger in ((low, lower, child), (high, child, upper)):
            compared = core.Typed(dt.Boolean(), smaller[1].nullable or larger[1].nullable)
            sides.append((self.standard_call(function, "between()", [smaller, larger], compared), compared))
        return self.standard_call(fn.AND, "between()", sides, node.type)

    def as_type(self, node: core.Node, dtype: dt.DType) -> sa.Expression:
        """``node`` cast to ``dtype`` where its type differs (keeping its nullability).

        Spark brings the branches of ``when`` and the arguments of ``coalesce`` to their common type
        (``decimal(1,0)`` next to ``decimal(32,4)`` becomes the latter); Substrait wants the plan to say so.
        """
        if node.type.dtype == dtype:
            return self.write(node)
        if self.functions.local and not _safe_cast(node.type.dtype, dtype):  # Spark's conversion, by the cast kernel
            return self.spark_cast(node, dtype, core.Typed(dtype, node.type.nullable))
        return self.cast(self.write(node), dtype, nullable=node.type.nullable)

    def _coalesce(self, node: cond.Coalesce) -> sa.Expression:
        dtype = node.type.dtype
        arguments = [(self.as_type(a, dtype), core.Typed(dtype, a.type.nullable)) for a in node.args]
        return self.standard_call(fn.COALESCE, "coalesce()", arguments, node.type)

    def _when(self, node: cond.When) -> sa.Expression:
        result = node.type.dtype
        pairs = zip(node.conditions, node.values, strict=True)
        clauses = [
            sa.Expression.IfThen.IfClause(**{"if": self.write(c), "then": self.as_type(v, result)}) for c, v in pairs
        ]
        if node.otherwise is None:  # no otherwise(): NULL of the result type
            otherwise = sa.Expression(literal=literal(None, result, nullable=True))
        else:
            otherwise = self.as_type(node.otherwise, result)
        return sa.Expression(if_then=sa.Expression.IfThen(ifs=clauses, **{"else": otherwise}))

    def _catalog_call(self, node: Call) -> sa.Expression:
        """A catalog call: Substrait's standard function where one computes what Spark does, else a kernel.

        On the local engine a kernel takes over from a standard function DataFusion computes otherwise
        (``local=False``) or that depends on the session (``year`` of a timestamp in the session's zone).
        """
        if node.is_aggregate:
            msg = f"{core.render(node)} aggregates rows; Substrait export takes aggregates only in group_by().agg()"
            raise UnsupportedEngineError(msg)
        function = fn.mapping_of(node)
        # a timestamp's calendar fields are read in the session's time zone: DataFusion's functions read UTC
        prefer_kernel = self.functions.local and (function is None or not function.local or _temporal(node))
        if function is None or prefer_kernel:
            kernel = kernels.kernel_of(node)
            if kernel is not None:
                return self._kernel_call(kernel, node)
            if function is None or not self.functions.local:
                why = kernels.refusal(node) if self.functions.local else None
                msg = f"Substrait export has no mapping for the function {node.function.name}() ({core.render(node)})"
                if why:
                    msg = f"{why} ({core.render(node)}); run it on Spark (collect() without engine=)"
                raise UnsupportedEngineError(msg)
        what = f"{node.function.name}()"
        if function.component is None:
            args = node.args
            if function.characters is not None and not self.functions.local:  # trim's characters: a space
                args = (*args, core.Literal(function.characters, dt.String()))
            return self._call(function, node, what, *args)
        if self.functions.local:  # DataFusion's date_part('year', x) for extract(YEAR, x)
            component = core.Literal(function.component.lower(), dt.String())
            return self._call(fn.DATE_PART, node, what, component, *node.args)
        return self._extract(function, node, what)

    def _extract(self, function: fn.SubstraitFunction, node: Call, what: str) -> sa.Expression:
        """``extract(component[, indexing], x[, time zone])``; a timestamp's parts in the session's time zone."""
        assert function.component is not None
        enums = [function.component] if function.indexing is None else [function.component, function.indexing]
        arguments = [(self.write(a), a.type) for a in node.args]
        if _temporal(node):
            zone = core.Literal(self.functions.session.zone, dt.String())
            arguments.append((self.write(zone), zone.type))
        return self.standard_call(function, what, arguments, node.type, enums=enums)

    def site(self, node: core.Node, args: tuple[core.Node, ...], received: tuple[core.Typed, ...]) -> Site:
        """The ``Site`` of a kernel call: the types its arguments reach it in, literal values, the session."""
        return self.site_of(node.type, args, received)

    def site_of(self, result: core.Typed, args: tuple[core.Node, ...], received: tuple[core.Typed, ...]) -> Site:
        """The ``Site`` of a kernel computing ``result`` from ``args`` (received as ``received``)."""
        literals = tuple(a.value if isinstance(a, core.Literal) else NOT_LITERAL for a in args)
        return Site(received, result, literals, self.functions.session)

    def _kernel_call(self, kernel: kernels.Kernel, node: Call) -> sa.Expression:
        """A catalog call computed by a kernel, its arguments converted to the types Spark gives the function."""
        received = call_types(node.function, node.args, node.method)
        site = self.site(node, node.args, received)
        if isinstance(kernel, Scalar) and node.deterministic and all(isinstance(a, core.Literal) for a in node.args):
            try:
                return self._folded(kernel, site, node)
            except SparkError:  # Spark fails when the query runs (on a row), not when it is planned
                pass
        arguments = [self.as_type(a, typed.dtype) for a, typed in zip(node.args, received, strict=True)]
        return self.kernel_call(kernel, site, arguments)

    def kernel_call(self, kernel: kernels.Kernel, site: Site, arguments: list[sa.Expression]) -> sa.Expression:
        """A call of ``kernel`` at ``site`` on written ``arguments``.

        A portable plan calls the function of this project's extension named as the kernel.
        """
        if not self.functions.local:
            function = fn.spark_function(kernel.name)
            return self.standard_call(
                function, f"{kernel.name}()", list(zip(arguments, site.args, strict=True)), site.result
            )
        call = sa.Expression.ScalarFunction(
            function_reference=self.functions.kernel(kernel, site),
            arguments=[sa.FunctionArgument(value=a) for a in arguments],
            output_type=substrait_type(site.result.dtype, nullable=site.result.nullable),
        )
        return self.canonical_nan(sa.Expression(scalar_function=call), site.result.dtype, nullable=site.result.nullable)

    def _folded(self, kernel: Scalar, site: Site, node: Call) -> sa.Expression:
        """A call of literals only, computed now (a function of no argument has no rows to be called on)."""
        values = site.literals
        computed = None if kernel.strict and None in values else kernel.make(site)(*values)
        if self.functions.local and node.type.dtype.is_nested:
            return self.constant(computed, node.type)
        return sa.Expression(literal=literal(computed, node.type.dtype, nullable=node.type.nullable))

    def _call(self, function: fn.SubstraitFunction, node: core.Node, what: str, *args: core.Node) -> sa.Expression:
        return self.standard_call(function, what, [(self.write(a), a.type) for a in args], node.type)

    def standard_call(
        self,
        function: fn.SubstraitFunction,
        what: str,
        arguments: Sequence[tuple[sa.Expression, core.Typed]],
        result: core.Typed,
        *,
        enums: Sequence[str] = (),
    ) -> sa.Expression:
        """A call of ``function`` (the definition for its first argument's type) on typed ``arguments``.

        A portable plan writes the call with the result type its definition derives and casts it to
        Spark's type ``result`` where they differ (``char_length``'s ``i64`` to Spark's ``int``); the
        local engine's plan writes Spark's type.
        """
        function = function.resolve(arguments[0][1].dtype if arguments else None)
        defined = result if self.functions.local else function.defined([t for _, t in arguments], result)
        call = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(function, what),
            arguments=[sa.FunctionArgument(enum=e) for e in enums]
            + [sa.FunctionArgument(value=a) for a, _ in arguments],
            options=[sa.FunctionOption(name=name, preference=[value]) for name, value in function.options],
            output_type=substrait_type(defined.dtype, nullable=defined.nullable),
        )
        return self.conform(sa.Expression(scalar_function=call), defined, result)

    def conform(self, written: sa.Expression, defined: core.Typed, spark: core.Typed) -> sa.Expression:
        """``written`` (of type ``defined``) cast to Spark's type ``spark`` where they differ."""
        if defined == spark:
            return written
        return self.cast(written, spark.dtype, nullable=spark.nullable)

    def _over(self, node: Over) -> sa.Expression:
        """A window function or an aggregate over a window, with Spark's frame written out.

        Spark's default frame is the whole partition without an order and ``RANGE BETWEEN UNBOUNDED
        PRECEDING AND CURRENT ROW`` with one; the plan states it rather than leave it to a consumer's
        defaults. Ranking functions take no frame.
        """
        call = node.child
        assert isinstance(call, Call)  # Over.derive refuses anything else
        function = fn.mapping_of(call)
        what = f"{call.function.name}() over a window"
        kernel = self.aggregate_kernel(call, over=True) if call.is_aggregate else None
        if function is None and kernel is None:
            msg = (
                f"Substrait export has no mapping for the window function {call.function.name}() ({core.render(node)})"
            )
            if self.functions.local and call.is_aggregate:
                msg = f"{kernels.refusal(call)} ({core.render(node)}); run it on Spark (collect() without engine=)"
            raise UnsupportedEngineError(msg)
        if kernel is None and call.function.name == "count_if":  # a measure filter in group_by(); not in a window
            msg = f"Substrait export does not take count_if() over a window yet ({core.render(node)})"
            raise UnsupportedEngineError(msg)
        sorts = [
            sa.SortField(expr=self.key(key), direction=SORT_DIRECTIONS[descending, nulls_last])
            for key, descending, nulls_last in zip(node.order_by, node.descending, node.nulls_last, strict=True)
        ]
        spark = node.type
        if kernel is not None:
            received = call_types(call.function, call.args, call.method)
            site = dataclasses.replace(self.site(call, call.args, received), over=True)
            arguments = self._received(call, received)
            function = fn.spark_function(kernel.name)
            reference = self.functions.kernel(kernel, site)
        elif call.is_aggregate:
            assert function is not None
            function, arguments, aggregated = self._aggregated(call, function, over=True)
            spark = core.Typed(aggregated, node.type.nullable)
            reference = self.functions.anchor(function, what)
        else:
            assert function is not None
            received = call_types(call.function, call.args, call.method)  # lag's default in the column's type
            arguments = self._received(call, received)
            if function.false_at is not None:
                arguments = arguments[: function.false_at]
            function = function.resolve(arguments[0][1].dtype if arguments else None)
            reference = self.functions.anchor(function, what)
        defined = spark if self.functions.local else function.defined([t for _, t in arguments], spark)
        window = sa.Expression.WindowFunction(
            function_reference=reference,
            arguments=[sa.FunctionArgument(value=a) for a, _ in arguments],
            options=[sa.FunctionOption(name=name, preference=[value]) for name, value in function.options],
            output_type=substrait_type(defined.dtype, nullable=defined.nullable),
            phase=sa.AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT,
            invocation=_ALL,
            sorts=sorts,
            partitions=[self.key(key) for key in node.partition_by],
        )
        if self.functions.local and node.frame is not None and node.frame.kind == "range" and node.frame.has_offsets:
            msg = (
                f"the local engine does not run {core.render(node)} over {node.frame}: DataFusion reads a RANGE "
                "frame's offsets from a Substrait plan otherwise than Spark (measured: another maximum); "
                "run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)
        if call.is_aggregate or call.function.name in _FRAMED:
            frame = node.frame or (Frame("range", None, 0) if node.order_by else Frame("rows", None, None))
            window.bounds_type = _BOUNDS[frame.kind]
            window.lower_bound.CopyFrom(_bound(frame.start))
            window.upper_bound.CopyFrom(_bound(frame.end))
        written = sa.Expression(window_function=window)
        if not self.functions.local:
            return self.conform(written, defined, node.type)
        serialized = window.SerializeToString(deterministic=True)
        if serialized in self.functions.windows:
            msg = (
                f"the local engine does not run one window expression twice in a plan ({core.render(node)}): "
                "DataFusion names both columns alike and refuses the plan (measured); compute it once, or run "
                "it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)
        self.functions.windows.add(serialized)
        if kernel is not None and not node.type.nullable:
            written = self._over_no_rows(written, kernel, site, node)
        if (not call.is_aggregate and kernel is None) or self.widens(call):
            # back to Spark's type: DataFusion's ranking functions count in uint64, a widened sum is decimal(38,0)
            written = self.cast(written, node.type.dtype, nullable=node.type.nullable)
        return self.canonical_nan(written, node.type.dtype, nullable=node.type.nullable)

    def _over_no_rows(self, written: sa.Expression, kernel: kernels.Kernel, site: Site, node: Over) -> sa.Expression:
        """A kernel's window value, with its value over no rows where the frame is empty.

        DataFusion gives NULL for an aggregate over an empty frame without calling it (measured); Spark
        gives the aggregate's value over no rows, which for an aggregate never NULL is not NULL
        (``count_if`` 0, ``collect_list`` an empty list). A scalar kernel puts it in place of the NULL.
        """
        empty = kernel.make(site)(*([] for _ in site.args))
        filled = Scalar(
            f"{kernel.name}_over_no_rows", rows(lambda value: empty if value is None else value), strict=False
        )
        return self.kernel_call(filled, self.site_of(node.type, (node,), (node.type,)), [written])

    def measure(self, node: core.Node) -> sa.AggregateRel.Measure:
        """An aggregate output as a measure; ``count_if(cond)`` is ``count()`` filtered by ``cond``."""
        call = node.child if isinstance(node, core.Alias) else node
        if isinstance(call, Call) and call.function.name == "count_if":
            counted = self.aggregate(node)
            del counted.arguments[:]  # count(): the rows the filter keeps
            return sa.AggregateRel.Measure(measure=counted, filter=self.write(call.args[0]))
        return sa.AggregateRel.Measure(measure=self.aggregate(node))

    def aggregate(self, node: core.Node) -> sa.AggregateFunction:
        """An aggregate output of ``group_by().agg()``: one aggregate function of row expressions."""
        call = node.child if isinstance(node, core.Alias) else node
        if not isinstance(call, Call) or not call.is_aggregate:
            msg = (
                f"Substrait export takes an aggregate output only as one aggregate function of columns; "
                f"{core.render(node)} is not one"
            )
            raise UnsupportedEngineError(msg)
        kernel = self.aggregate_kernel(call)
        if kernel is not None:
            received = call_types(call.function, call.args, call.method)
            site = self.site(call, call.args, received)
            arguments = self._received(call, received)
            reference = self.functions.kernel(kernel, site)
            function = fn.spark_function(kernel.name)
            invocation = _ALL
        else:
            mapped = fn.mapping_of(call)
            if mapped is None:
                msg = f"Substrait export has no mapping for the aggregate {call.function.name}() ({core.render(call)})"
                if self.functions.local:
                    msg = f"{kernels.refusal(call)} ({core.render(call)}); run it on Spark (collect() without engine=)"
                raise UnsupportedEngineError(msg)
            function, arguments, _ = self._aggregated(call, mapped)
            reference = self.functions.anchor(function, f"{call.function.name}()")
            invocation = _DISTINCT if call.function.name in _DISTINCT_AGGREGATES else _ALL
        defined = self.measured_type(call)
        return sa.AggregateFunction(
            function_reference=reference,
            arguments=[sa.FunctionArgument(value=a) for a, _ in arguments],
            options=[sa.FunctionOption(name=name, preference=[value]) for name, value in function.options],
            output_type=substrait_type(defined.dtype, nullable=defined.nullable),
            phase=sa.AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT,
            invocation=invocation,
        )

    def _received(self, call: Call, received: tuple[core.Typed, ...]) -> list[tuple[sa.Expression, core.Typed]]:
        """A call's arguments converted to the types the function receives (``call_types``), with their types."""
        return [
            (self.as_type(a, t.dtype), core.Typed(t.dtype, a.type.nullable))
            for a, t in zip(call.args, received, strict=True)
        ]

    def measured_type(self, node: core.Node) -> core.Typed:
        """The type an aggregate output is computed in: Spark's, or (portable plans) what its definition derives.

        Where the two differ (a decimal ``sum`` is ``DECIMAL?<38,S>`` in the decimal YAML, Spark's has
        ``P+10`` digits), the projection above the aggregation casts it to Spark's type.
        """
        assert isinstance(node, Call)
        kernel = self.aggregate_kernel(node)
        if kernel is not None:
            received = call_types(node.function, node.args, node.method)
            args = [core.Typed(t.dtype, a.type.nullable) for a, t in zip(node.args, received, strict=True)]
            function = fn.spark_function(kernel.name)
            spark = node.type
        else:
            mapped = fn.mapping_of(node)
            if mapped is None:  # refused where it is written
                return node.type
            function, args, output = self._aggregate_definition(node, mapped)
            spark = core.Typed(output, node.type.nullable)
        if node.function.name == "count_if":  # count() of the rows its condition holds for: no argument
            args = []
        return spark if self.functions.local else function.defined(args, spark)

    def aggregate_kernel(self, call: Call, *, over: bool = False) -> kernels.Kernel | None:
        """The kernel computing aggregate ``call`` where the standard function would not give Spark's answer.

        Only on the local engine; the portable plan names Substrait's function where it has one.
        """
        function = fn.mapping_of(call)
        if function is not None and (not self.functions.local or (function.local and not self._differs(call, over))):
            return None
        if not self.functions.local and function is not None:
            return None
        return kernels.kernel_of(call)

    def _aggregated(
        self, call: Call, function: fn.SubstraitFunction, *, over: bool = False
    ) -> tuple[fn.SubstraitFunction, list[tuple[sa.Expression, core.Typed]], dt.DType]:
        """An aggregate's definition, its arguments as the plan passes them, and the type it computes."""
        self._refuse_on_the_local_engine(call, over=over)
        function, types, output = self._aggregate_definition(call, function)
        if call.function.name == "count_distinct":
            written = [self.key(a) for a in call.args]
        else:
            written = [self.write(a) for a in call.args]
        arguments = []
        for argument, given, passed in zip(written, call.args, types, strict=True):
            cast = passed.dtype != given.type.dtype
            arguments.append(
                (self.cast(argument, passed.dtype, nullable=passed.nullable) if cast else argument, passed)
            )
        return function, arguments, output

    def _aggregate_definition(
        self, call: Call, function: fn.SubstraitFunction
    ) -> tuple[fn.SubstraitFunction, list[core.Typed], dt.DType]:
        """The definition an aggregate is written against, the types its arguments are passed in, its result type.

        ``avg`` of integers (portable plans: and of floats) averages doubles (Substrait's ``avg`` of an integer
        type is an integer, of ``fp32`` an ``fp32``). A portable ``avg`` of decimals averages the values cast
        to Spark's result type (``decimal(p+4,s+4)``), whose scale the decimal YAML's ``avg`` keeps; past 34
        digits that cast would lose integer digits, and this project's ``avg`` (Spark's rule) is named. On the
        local engine a sum of integers runs in ``decimal(38,0)`` (the projection above casts it back, failing
        on overflow as Spark does).
        """
        types = [a.type for a in call.args]
        output = call.type.dtype
        name, local = call.function.name, self.functions.local
        given = types[0].dtype if types else None
        if name in ("avg", "mean") and (
            isinstance(given, dt.Integral) or (not local and isinstance(given, dt.Float32))
        ):
            types[0] = core.Typed(dt.Float64(), types[0].nullable)
        elif name in ("avg", "mean") and not local and isinstance(given, dt.Decimal):
            assert isinstance(output, dt.Decimal)
            if output.precision - output.scale < given.precision - given.scale:
                return fn.SPARK_AVERAGE, types, output
            types[0] = core.Typed(output, types[0].nullable)
        elif self.widens(call):
            types[0] = core.Typed(WIDE_INTEGER, types[0].nullable)
            output = WIDE_INTEGER
        return function.resolve(types[0].dtype if types else None), types, output

    def _differs(self, call: Call, over: bool) -> str:
        """Where DataFusion's own aggregate differs from Spark's for ``call`` (each measured), else ``""``."""
        if not self.functions.local or not call.args:
            return ""
        name, given = call.function.name, call.args[0].type.dtype
        if over and name == "count_if":
            return "count_if() is a filtered count(), and a window function takes no filter"
        if name in ("min", "max") and isinstance(given, dt.Floating):
            return (
                f"DataFusion's grouped {name} of floating values is wrong where a group holds only infinities "
                "(measured: the min of a group of inf is 1.7976931348623157e308)"
            )
        if over and name in ("sum", "avg", "mean") and isinstance(call.type.dtype, dt.Floating):
            return (
                f"DataFusion's {name} of doubles over a sliding window frame subtracts the rows that leave it, losing "
                "what larger values absorbed (measured: 0.0 for a frame of three 1.0 after a 1e20); Spark sums "
                "each frame anew"
            )
        if name in ("avg", "mean") and isinstance(given, dt.Decimal):
            return "Spark rounds a decimal average half up, DataFusion truncates it (measured: 0.6667 against 0.6666)"
        if decimal_sum_may_overflow(call) and isinstance(given, dt.Decimal):
            return (
                f"a sum of decimal({given.precision},{given.scale}) can pass 38 digits, where Spark raises and "
                "DataFusion wraps around (measured); a guard summing doubles is inexact near the limit"
            )
        return ""

    def _refuse_on_the_local_engine(self, call: Call, *, over: bool) -> None:
        """The aggregates whose DataFusion result is not Spark's and that no kernel computes."""
        why = self._differs(call, over)
        if why:
            msg = (
                f"the local engine does not run {core.render(call)}: {why}; run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)

    def widens(self, node: core.Node) -> bool:
        """Whether the local engine sums ``node`` in ``decimal(38,0)`` (a sum of integers, which Spark checks)."""
        return self.functions.local and integer_sum(node)

    def guarded(self, node: core.Node) -> bool:
        """Whether the local engine checks a decimal ``sum`` for overflow with a guard (when no kernel sums it).

        DataFusion's decimal sum wraps around past 38 digits where Spark raises (measured); without the
        ``sum`` kernel (which sums exactly), the local plan also sums the values as doubles and casts that sum
        to Spark's type, a cast DataFusion refuses with an error when the sum does not fit (a double is exact
        to about 15 digits, so a sum within a relative ``1e-15`` of the limit may pass either way).
        """
        return (
            self.functions.local
            and decimal_sum_may_overflow(node)
            and isinstance(node, Call)
            and kernels.kernel_of(node) is None
        )

    def double_sum(self, call: core.Node) -> sa.AggregateRel.Measure:
        """The guard of a decimal sum: the same sum over doubles."""
        assert isinstance(call, Call)
        argument = call.args[0]
        function = sa.AggregateFunction(
            function_reference=self.functions.anchor(fn.CATALOG_FUNCTIONS["sum"], "sum()"),
            arguments=[sa.FunctionArgument(value=self.cast(self.write(argument), dt.Float64(), nullable=True))],
            output_type=substrait_type(dt.Float64(), nullable=True),
            phase=sa.AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT,
            invocation=_ALL,
        )
        return sa.AggregateRel.Measure(measure=function)

    def _guard(self, exact: sa.Expression, approximate: sa.Expression, node: core.Node) -> sa.Expression:
        """``exact``, after casting ``approximate`` to the sum's type: DataFusion raises where it does not fit.

        Both sums are NULL together (no value to sum), so ``if cast(approximate) is null then NULL else exact``
        is ``exact``; the branches differ so that no optimizer drops the cast.
        """
        checked = self.cast(approximate, node.type.dtype, nullable=True)
        test = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(fn.IS_NULL, "a decimal sum's guard"),
            arguments=[sa.FunctionArgument(value=checked)],
            output_type=substrait_type(dt.Boolean(), nullable=False),
        )
        nothing = sa.Expression(literal=literal(None, node.type.dtype, nullable=True))  # no value summed: NULL
        clause = sa.Expression.IfThen.IfClause(**{"if": sa.Expression(scalar_function=test), "then": nothing})
        return sa.Expression(if_then=sa.Expression.IfThen(ifs=[clause], **{"else": exact}))

    def projects(self, node: core.Node) -> bool:
        """Whether an aggregate's local result needs a projection above the aggregation (a cast, a NaN check)."""
        if not node.is_aggregate:
            return False
        if not self.functions.local:  # the definition's type differs from Spark's: a cast above
            return isinstance(node, Call) and self.measured_type(node) != node.type
        return integer_sum(node) or self.guarded(node) or isinstance(node.type.dtype, dt.Floating)
