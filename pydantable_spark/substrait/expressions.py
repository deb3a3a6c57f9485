"""Expression nodes as Substrait expressions over the input relation's fields.

A column is a field reference by position in the relation below; literals are
typed Substrait literals (never text); every function call names its output
type and nullability as the façade derived them, so a consumer can check its
own type rules against Spark's.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from substrait import algebra_pb2 as sa

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.expr import conditional as cond
from pydantable_spark.expr import core
from pydantable_spark.expr import operators as ops
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.over import Frame, Over
from pydantable_spark.expr.sides import SideColumn
from pydantable_spark.substrait import functions as fn
from pydantable_spark.substrait.types import substrait_type

if TYPE_CHECKING:
    import decimal
    from collections.abc import Callable

    from pydantable_spark.schema import Schema

__all__ = ["ExpressionWriter", "Functions", "literal"]

_EPOCH = datetime.date(1970, 1, 1)
_UTC_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_NAIVE_EPOCH = datetime.datetime(1970, 1, 1)


class Functions:
    """The functions a plan declares, each once, with its anchor; ``local`` refuses what the local engine lacks."""

    __slots__ = ("anchors", "local")

    def __init__(self, *, local: bool = False) -> None:
        self.local = local
        self.anchors: dict[tuple[str, str], int] = {}

    def anchor(self, function: fn.SubstraitFunction, what: str) -> int:
        """The anchor of ``function`` in the plan (declared on first use); ``what`` names the call in refusals."""
        if self.local and not function.local:
            msg = f"the local engine does not run {what}: {function.why}; run it on Spark (collect() without engine=)"
            raise UnsupportedEngineError(msg)
        key = (function.extension, function.name)
        found = self.anchors.get(key)
        if found is None:
            found = self.anchors[key] = len(self.anchors) + 1  # anchor 0 reads as "unset"
        return found


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


_ALL = sa.AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL
_DISTINCT = sa.AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_DISTINCT
_DISTINCT_AGGREGATES = frozenset({"count_distinct"})

_INTEGER_DIGITS: dict[type[dt.DType], int] = {dt.Int8: 3, dt.Int16: 5, dt.Int32: 10, dt.Int64: 20}
"""The decimal precision Spark gives an integer type next to a decimal."""


def _as_decimal(dtype: dt.DType) -> dt.Decimal | None:
    if isinstance(dtype, dt.Decimal):
        return dtype
    digits = _INTEGER_DIGITS.get(type(dtype))
    return None if digits is None else dt.Decimal(digits, 0)


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
                if self.widens(node):  # a sum computed in decimal(38,0): back to bigint, failing on overflow
                    return self.cast(self.field(computed), node.type.dtype, nullable=node.type.nullable)
                return self.field(computed)
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
        return sa.Expression(literal=literal(node.value, node.dtype, nullable=node.type.nullable))

    def _cast(self, node: core.Cast) -> sa.Expression:
        source = node.child.type.dtype
        safe = any(isinstance(source, a) and type(node.to) is b for a, b in _SAFE_CASTS) or source == node.to
        if self.functions.local and not safe:
            msg = (
                f"the local engine does not run {core.render(node)}: only widening numeric casts are proven "
                "equal to Spark's; run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)
        cast = sa.Expression.Cast(
            type=substrait_type(node.to, nullable=node.type.nullable),
            input=self.write(node.child),
            failure_behavior=sa.Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION,
        )
        return sa.Expression(cast=cast)

    def _arithmetic(self, node: ops.Arithmetic) -> sa.Expression:
        function = fn.ARITHMETIC.get(node.op)
        what = f"the operator {node.op.value}"
        if function is None:
            msg = f"Substrait export does not take {what} yet ({core.render(node)}): only + - * and / are mapped"
            raise UnsupportedEngineError(msg)
        result = node.type.dtype
        if self.functions.local and isinstance(result, dt.Decimal) and not _exact_decimal(node):
            msg = (
                f"the local engine does not run {core.render(node)}: Spark's decimal result type "
                f"(decimal({result.precision},{result.scale})) is rounded by rules of its own that DataFusion "
                "does not share; run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)
        options = [sa.FunctionOption(name="on_division_by_zero", preference=["ERROR"])] if node.op is _DIV else []
        anchor = self.functions.anchor(function, what)
        operands = [self._operand(side, result) for side in (node.left, node.right)]
        if self.functions.local and isinstance(result, dt.Integral):
            return self._checked(anchor, operands, node)
        call = sa.Expression.ScalarFunction(
            function_reference=anchor,
            arguments=[sa.FunctionArgument(value=o) for o in operands],
            options=options,
            output_type=substrait_type(result, nullable=node.type.nullable),
        )
        return sa.Expression(scalar_function=call)

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

    def cast(self, written: sa.Expression, dtype: dt.DType, *, nullable: bool) -> sa.Expression:
        """``written`` cast to ``dtype``, failing (not NULL) where a value does not convert."""
        cast = sa.Expression.Cast(
            type=substrait_type(dtype, nullable=nullable),
            input=written,
            failure_behavior=sa.Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION,
        )
        return sa.Expression(cast=cast)

    def _operand(self, side: core.Node, result: dt.DType) -> sa.Expression:
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
                return written
            if not isinstance(given, dt.Integral):  # pragma: no cover - Spark's result is a double then
                return written
            target = dt.Decimal(_INTEGER_DIGITS[type(given)], 0)
        if given == target:
            return written
        cast = sa.Expression.Cast(
            type=substrait_type(target, nullable=side.type.nullable),
            input=written,
            failure_behavior=sa.Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION,
        )
        return sa.Expression(cast=cast)

    def _comparison(self, node: ops.Comparison) -> sa.Expression:
        return self._call(fn.COMPARISON[node.op], node, f"the operator {node.op.value}", node.left, node.right)

    def _negate(self, node: ops.Negate) -> sa.Expression:
        if self.functions.local and isinstance(node.type.dtype, dt.Integral):  # -(-2147483648) fails, as in Spark
            zero = sa.Expression(literal=literal(0, node.type.dtype, nullable=False))
            anchor = self.functions.anchor(fn.ARITHMETIC[ops.ArithmeticOp.SUB], "unary minus")
            return self._checked(anchor, [zero, self.write(node.child)], node)
        return self._call(fn.NEGATE, node, "unary minus", node.child)

    def _is_in(self, node: ops.IsIn) -> sa.Expression:
        if not node.values:
            return sa.Expression(literal=literal(False, dt.Boolean(), nullable=node.type.nullable))
        options = sa.Expression.SingularOrList(
            value=self.write(node.child), options=[self.write(v) for v in node.values]
        )
        return sa.Expression(singular_or_list=options)

    def _between(self, node: ops.Between) -> sa.Expression:
        """``lower <= child <= upper`` as two comparisons joined by ``and`` (``closed`` picks ``<`` or ``<=``)."""
        low = fn.COMPARISON[ops.ComparisonOp.LE if node.closed in ("both", "left") else ops.ComparisonOp.LT]
        high = fn.COMPARISON[ops.ComparisonOp.LE if node.closed in ("both", "right") else ops.ComparisonOp.LT]
        boolean = substrait_type(dt.Boolean(), nullable=node.type.nullable)
        sides = []
        for function, smaller, larger in ((low, node.lower, node.child), (high, node.child, node.upper)):
            compare = sa.Expression.ScalarFunction(
                function_reference=self.functions.anchor(function, "between()"),
                arguments=[sa.FunctionArgument(value=self.write(e)) for e in (smaller, larger)],
                output_type=boolean,
            )
            sides.append(sa.FunctionArgument(value=sa.Expression(scalar_function=compare)))
        both = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(fn.AND, "between()"), arguments=sides, output_type=boolean
        )
        return sa.Expression(scalar_function=both)

    def as_type(self, node: core.Node, dtype: dt.DType) -> sa.Expression:
        """``node`` cast to ``dtype`` where its type differs (keeping its nullability).

        Spark brings the branches of ``when`` and the arguments of ``coalesce`` to their common type
        (``decimal(1,0)`` next to ``decimal(32,4)`` becomes the latter); Substrait wants the plan to say so.
        """
        written = self.write(node)
        if node.type.dtype == dtype:
            return written
        cast = sa.Expression.Cast(
            type=substrait_type(dtype, nullable=node.type.nullable),
            input=written,
            failure_behavior=sa.Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION,
        )
        return sa.Expression(cast=cast)

    def _coalesce(self, node: cond.Coalesce) -> sa.Expression:
        call = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(fn.COALESCE, "coalesce()"),
            arguments=[sa.FunctionArgument(value=self.as_type(a, node.type.dtype)) for a in node.args],
            output_type=substrait_type(node.type.dtype, nullable=node.type.nullable),
        )
        return sa.Expression(scalar_function=call)

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
        function = fn.mapping_of(node)
        if function is None:
            msg = f"Substrait export has no mapping for the function {node.function.name}() ({core.render(node)})"
            raise UnsupportedEngineError(msg)
        if node.is_aggregate:
            msg = f"{core.render(node)} aggregates rows; Substrait export takes aggregates only in group_by().agg()"
            raise UnsupportedEngineError(msg)
        what = f"{node.function.name}()"
        if function.component is None:
            return self._call(function, node, what, *node.args)
        if self.functions.local:  # DataFusion's date_part('year', x) for extract(YEAR, x)
            component = core.Literal(function.component.lower(), dt.String())
            return self._call(fn.DATE_PART, node, what, component, *node.args)
        call = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(function, what),
            arguments=[sa.FunctionArgument(enum=function.component)]
            + [sa.FunctionArgument(value=self.write(a)) for a in node.args],
            output_type=substrait_type(node.type.dtype, nullable=node.type.nullable),
        )
        return sa.Expression(scalar_function=call)

    def _call(self, function: fn.SubstraitFunction, node: core.Node, what: str, *args: core.Node) -> sa.Expression:
        call = sa.Expression.ScalarFunction(
            function_reference=self.functions.anchor(function, what),
            arguments=[sa.FunctionArgument(value=self.write(a)) for a in args],
            output_type=substrait_type(node.type.dtype, nullable=node.type.nullable),
        )
        return sa.Expression(scalar_function=call)

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
        if function is None:
            msg = (
                f"Substrait export has no mapping for the window function {call.function.name}() ({core.render(node)})"
            )
            raise UnsupportedEngineError(msg)
        sorts = [
            sa.SortField(expr=self.write(key), direction=SORT_DIRECTIONS[descending, nulls_last])
            for key, descending, nulls_last in zip(node.order_by, node.descending, node.nulls_last, strict=True)
        ]
        if call.is_aggregate:
            self._refuse_float_extremes(call)
        arguments = [self.write(a) for a in call.args]
        output = node.type.dtype
        if self.widens(call):
            arguments = [self.cast(a, WIDE_INTEGER, nullable=call.args[0].type.nullable) for a in arguments]
            output = WIDE_INTEGER
        window = sa.Expression.WindowFunction(
            function_reference=self.functions.anchor(function, what),
            arguments=[sa.FunctionArgument(value=a) for a in arguments],
            output_type=substrait_type(output, nullable=node.type.nullable),
            phase=sa.AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT,
            invocation=_ALL,
            sorts=sorts,
            partitions=[self.write(key) for key in node.partition_by],
        )
        if self.functions.local and node.frame is not None and node.frame.kind == "range" and node.frame.has_offsets:
            msg = (
                f"the local engine does not run {core.render(node)} over {node.frame}: DataFusion reads a RANGE "
                "frame's offsets from a Substrait plan otherwise than Spark (measured: another maximum); "
                "run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)
        if call.is_aggregate:
            frame = node.frame or (Frame("range", None, 0) if node.order_by else Frame("rows", None, None))
            window.bounds_type = _BOUNDS[frame.kind]
            window.lower_bound.CopyFrom(_bound(frame.start))
            window.upper_bound.CopyFrom(_bound(frame.end))
        written = sa.Expression(window_function=window)
        if not self.functions.local or (call.is_aggregate and not self.widens(call)):
            return written
        # back to Spark's type: DataFusion's ranking functions count in uint64, and a widened sum is decimal(38,0)
        return self.cast(written, node.type.dtype, nullable=node.type.nullable)

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
        function = fn.mapping_of(call)
        if function is None:
            msg = f"Substrait export has no mapping for the aggregate {call.function.name}() ({core.render(call)})"
            raise UnsupportedEngineError(msg)
        self._refuse_float_extremes(call)
        arguments = [self.write(a) for a in call.args]
        output = call.type.dtype
        if self.widens(call):  # summed in decimal(38,0); the projection above casts back to bigint (overflow fails)
            arguments = [self.cast(a, WIDE_INTEGER, nullable=call.args[0].type.nullable) for a in arguments]
            output = WIDE_INTEGER
        return sa.AggregateFunction(
            function_reference=self.functions.anchor(function, f"{call.function.name}()"),
            arguments=[sa.FunctionArgument(value=a) for a in arguments],
            output_type=substrait_type(output, nullable=call.type.nullable),
            phase=sa.AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT,
            invocation=_DISTINCT if call.function.name in _DISTINCT_AGGREGATES else _ALL,
        )

    def _refuse_float_extremes(self, call: Call) -> None:
        """``min``/``max`` of floating values: DataFusion's grouped minimum of infinities is the largest double."""
        if self.functions.local and call.function.name in ("min", "max") and isinstance(call.type.dtype, dt.Floating):
            msg = (
                f"the local engine does not run {core.render(call)}: DataFusion's grouped {call.function.name} of "
                "floating values is wrong where a group holds only infinities (measured: min(inf, inf) is "
                "1.7976931348623157e308); run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)

    def widens(self, node: core.Node) -> bool:
        """Whether the local engine sums ``node`` in ``decimal(38,0)`` (a sum of integers, which Spark checks)."""
        return self.functions.local and integer_sum(node)
