"""Plan nodes as Substrait relations, and the whole plan as a Substrait ``Plan``.

Each plan node becomes one relation (a projection that renames or reorders
becomes a ``ProjectRel`` whose emit keeps only its new columns). Data from
Python is a named table, ``source_0``, ``source_1``..., whose Arrow tables the
export hands back beside the plan, so an engine can register them under those
names. A node or expression with no Substrait form raises
``UnsupportedEngineError`` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from substrait import algebra_pb2 as sa
from substrait import plan_pb2 as sp
from substrait import type_pb2 as st
from substrait.extensions import extensions_pb2 as se

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.expr import core
from pydantable_spark.expr.operators import ComparisonOp, IsNotNull
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate, narrowable
from pydantable_spark.plan.joins import Join
from pydantable_spark.plan.physical import Checkpoint, Hint, Persist, Repartition
from pydantable_spark.plan.physical import Coalesce as PhysicalCoalesce
from pydantable_spark.plan.reshape import Explode, Unpivot
from pydantable_spark.plan.setops import SetOperation, Union
from pydantable_spark.plan.sources import ArrowData
from pydantable_spark.plan.streaming import Watermark
from pydantable_spark.reconcile import checked_later
from pydantable_spark.schema import Schema
from pydantable_spark.substrait import functions as fn
from pydantable_spark.substrait.expressions import SORT_DIRECTIONS, WIDE_INTEGER, ExpressionWriter, Functions, literal
from pydantable_spark.substrait.kernels import reconciled
from pydantable_spark.substrait.kernels.spec import USER_RAISED_EXCEPTION, SparkError
from pydantable_spark.substrait.types import named_struct, names_of, substrait_type

if TYPE_CHECKING:
    from pydantable_spark.substrait.kernels.spec import Session
    from pydantable_spark.substrait.udfs import KernelSite

if TYPE_CHECKING:
    from collections.abc import Callable

    import pyarrow as pa

__all__ = ["RELATIONS", "Exported", "export"]

PRODUCER = "pydantable-spark"

_JOIN_TYPES = {
    "inner": sa.JoinRel.JoinType.JOIN_TYPE_INNER,
    "left": sa.JoinRel.JoinType.JOIN_TYPE_LEFT,
    "right": sa.JoinRel.JoinType.JOIN_TYPE_RIGHT,
    "full": sa.JoinRel.JoinType.JOIN_TYPE_OUTER,
    "semi": sa.JoinRel.JoinType.JOIN_TYPE_LEFT_SEMI,
    "anti": sa.JoinRel.JoinType.JOIN_TYPE_LEFT_ANTI,
}

_SET_OPS = {
    "intersect": sa.SetRel.SetOp.SET_OP_INTERSECTION_MULTISET,  # distinct rows found in both
    "intersect_all": sa.SetRel.SetOp.SET_OP_INTERSECTION_MULTISET_ALL,
    "subtract": sa.SetRel.SetOp.SET_OP_MINUS_PRIMARY,  # distinct rows of the left not in the right
    "except_all": sa.SetRel.SetOp.SET_OP_MINUS_PRIMARY_ALL,
}

_LOCAL_SET_OPS = ("intersect", "intersect_all", "subtract")
"""Set operations whose DataFusion result equals Spark's (``except_all`` does not: it keeps fewer duplicates)."""


@dataclass(frozen=True, slots=True)
class Exported:
    """A Substrait plan, the Arrow tables its named tables stand for and (local plans) its kernel sites."""

    plan: sp.Plan
    tables: dict[str, pa.Table]
    sites: list[KernelSite] = field(default_factory=list)


RELATIONS: dict[type[p.Plan], str] = {
    p.Source: "_source",
    p.Reconcile: "_reconcile",
    Explode: "_explode",
    p.Project: "_project",
    p.Filter: "_filter",
    p.Sort: "_sort",
    p.Limit: "_limit",
    p.Offset: "_offset",
    p.Distinct: "_distinct",
    Aggregate: "_aggregate",
    Join: "_join",
    Union: "_union",
    SetOperation: "_set_operation",
    Unpivot: "_unpivot",
    Persist: "_same_rows",
    Checkpoint: "_same_rows",
    Repartition: "_same_rows",
    PhysicalCoalesce: "_same_rows",
    Hint: "_same_rows",
    Watermark: "_same_rows",
}
"""Plan step → the ``_Writer`` method that writes it; a step not here is refused by name."""


class _Writer:
    """Writes relations, naming each frame's data once (``tables``: name → Arrow table).

    ``pending`` holds, per plan step, the NULL checks of ``as_model`` not yet applied to its columns: as on
    Spark (``steps.null_checks``), a top-level check waits above the filters that follow, so a NULL in a row
    a filter removes is not reported; the next step of another kind applies it.
    """

    __slots__ = ("_named", "functions", "pending", "run", "tables")

    def __init__(self, functions: Functions, run: Callable[[p.Plan], pa.Table] | None = None) -> None:
        self.functions = functions
        self.run = run
        """On the local engine: runs a part of the plan, for a step Substrait has no relation for (``explode``)."""
        self.tables: dict[str, pa.Table] = {}
        self._named: dict[int, str] = {}
        self.pending: dict[int, dict[str, dt.Field]] = {}

    def relation(self, plan: p.Plan, *, keep_checks: bool = False) -> sa.Rel:
        """``plan`` as a relation (its inputs written below it); its pending NULL checks applied unless kept."""
        method = RELATIONS.get(type(plan))
        if method is None:
            msg = f"Substrait export does not take {plan.call()} yet"
            if self.functions.local:
                msg = f"the local engine does not run {plan.call()} yet; run it on Spark (collect() without engine=)"
            raise UnsupportedEngineError(msg)
        writer: Callable[[Any], sa.Rel] = getattr(self, method)
        written = writer(plan)
        checks = self.pending.get(id(plan))
        if checks and not keep_checks:
            written = self._checked(plan, written, checks)
        return written

    def _checked(self, plan: p.Plan, below: sa.Rel, checks: dict[str, dt.Field]) -> sa.Rel:
        """``below`` with the pending NULL checks of ``plan``'s columns applied (a projection)."""
        exprs = self._expressions(plan)
        columns = []
        for f in plan.schema:
            target = checks.get(f.name)
            if target is None:
                columns.append(exprs.field(f.name))
                continue
            stored = core.Typed(f.dtype, True)
            site = exprs.site_of(core.Typed(target.dtype, target.nullable), (core.Column(f.name, stored),), (stored,))
            columns.append(exprs.kernel_call(reconciled.checked(target, f.name), site, [exprs.field(f.name)]))
        width = len(plan.schema)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(columns))]))
        return sa.Rel(project=sa.ProjectRel(common=emit, input=below, expressions=columns))

    def _explode(self, plan: Explode) -> sa.Rel:
        """``explode``: Substrait has no standard relation for it; the local engine runs the input, then explodes.

        The rows below are computed first (the same engine, the same session) and exploded in Python as
        Spark does (``reshaping.exploded_rows``); the result is one more named table of the plan.
        """
        if self.run is None:
            msg = (
                f"Substrait export does not take {plan.call()}: Substrait has no standard relation that "
                "unnests a list (the local engine runs it)"
            )
            raise UnsupportedEngineError(msg)
        below = self.run(plan.input)
        name = f"source_{len(self._named)}"
        self._named[id(plan)] = name
        self.tables[name] = exploded(below, plan)
        read = sa.ReadRel(base_schema=named_struct(plan.schema), named_table=sa.ReadRel.NamedTable(names=[name]))
        return sa.Rel(read=read)

    def _reconcile(self, plan: p.Reconcile) -> sa.Rel:
        """``as_model``: each target column from its source column, converted and checked as on Spark."""
        rec = plan.reconciliation
        exprs = self._expressions(plan.input)
        columns, later = [], {}
        for match in rec.columns:
            target = rec.target[match.result.name]
            defer = checked_later(match, target)
            columns.append(exprs.reconciled(match, target, check=match.null_check and not defer))
            if defer:
                later[target.name] = target
        if later and not self.functions.local:
            msg = (
                f"Substrait export does not take a run-time NULL check ({', '.join(map(repr, later))}: "
                "as_model(..., null_check=...)); Substrait has no expression that fails on a value"
            )
            raise UnsupportedEngineError(msg)
        if later:
            self.pending[id(plan)] = later
        width = len(plan.input.schema)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(columns))]))
        project = sa.ProjectRel(common=emit, input=self.relation(plan.input), expressions=columns)
        return sa.Rel(project=project)

    def _same_rows(self, plan: Persist | Checkpoint | Repartition | PhysicalCoalesce | Hint | Watermark) -> sa.Rel:
        """A physical control (cache, checkpoint, partitioning, a join hint) or a batch frame's watermark: its input."""
        return self.relation(plan.input)

    def _unpivot(self, plan: Unpivot) -> sa.Rel:
        """``melt``: one projection per value column (the ids, its name, its value in the common type), unioned."""
        exprs = self._expressions(plan.input)
        value = plan.schema[plan.value_name]
        width = len(plan.input.schema)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(plan.ids) + 2)]))
        projections = []
        for name in plan.values:
            given = plan.input.schema[name]
            columns = [exprs.field(i) for i in plan.ids]
            columns.append(sa.Expression(literal=literal(name, dt.String(), nullable=False)))
            column = exprs.field(name)
            if given.dtype != value.dtype or given.nullable != value.nullable:  # the union's one type and nullability
                column = exprs.cast(column, value.dtype, nullable=value.nullable)
            columns.append(column)
            project = sa.ProjectRel(common=emit, input=self.relation(plan.input), expressions=columns)
            projections.append(sa.Rel(project=project))
        if len(projections) == 1:
            return projections[0]
        return sa.Rel(set=sa.SetRel(inputs=projections, op=sa.SetRel.SetOp.SET_OP_UNION_ALL))

    def _source(self, plan: p.Source) -> sa.Rel:
        if not isinstance(plan.data, ArrowData):
            msg = (
                f"Substrait export takes data from Python only (from_rows, from_arrow...); this frame reads "
                f"{plan.data.describe()}, which lives in Spark"
            )
            raise UnsupportedEngineError(msg)
        if self.functions.local:
            durations = [f.name for f in plan.schema if _holds(f.dtype, dt.Duration)]
            if durations:
                msg = (
                    f"the local engine does not read duration columns yet ({', '.join(map(repr, durations))}): "
                    "DataFusion's Substrait reader takes a day-time interval where Arrow holds a duration; build the "
                    "frame without them, or run it on Spark (collect() without engine=)"
                )
                raise UnsupportedEngineError(msg)
        name = self._named.get(id(plan.data))
        if name is None:
            name = self._named[id(plan.data)] = f"source_{len(self._named)}"
            self.tables[name] = plan.data.table
        read = sa.ReadRel(base_schema=named_struct(plan.schema), named_table=sa.ReadRel.NamedTable(names=[name]))
        return sa.Rel(read=read)

    def _project(self, plan: p.Project) -> sa.Rel:
        width = len(plan.input.schema)
        exprs = self._expressions(plan.input)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(plan.exprs))]))
        project = sa.ProjectRel(
            common=emit, input=self.relation(plan.input), expressions=[exprs.write(e) for e in plan.exprs]
        )
        return sa.Rel(project=project)

    def _expressions(self, below: p.Plan) -> ExpressionWriter:
        return ExpressionWriter(below.schema, self.functions)

    def _filter(self, plan: p.Filter) -> sa.Rel:
        """A filter reads its input's stored values; the input's pending NULL checks wait above it."""
        condition = self._expressions(plan.input).write(plan.predicate)
        checks = self.pending.get(id(plan.input))
        if checks:
            self.pending[id(plan)] = checks
        return sa.Rel(filter=sa.FilterRel(input=self.relation(plan.input, keep_checks=True), condition=condition))

    def _sort(self, plan: p.Sort) -> sa.Rel:
        exprs = self._expressions(plan.input)
        sorts = [
            sa.SortField(expr=exprs.key(k.expr), direction=SORT_DIRECTIONS[k.descending, k.nulls_last])
            for k in plan.keys
        ]
        return sa.Rel(sort=sa.SortRel(input=self.relation(plan.input), sorts=sorts))

    def _limit(self, plan: p.Limit) -> sa.Rel:
        return sa.Rel(fetch=sa.FetchRel(input=self.relation(plan.input), offset=0, count=plan.n))

    def _offset(self, plan: p.Offset) -> sa.Rel:
        # no count: every remaining row (Substrait 0.6x+; the -1 of older plans is refused by the validator)
        return sa.Rel(fetch=sa.FetchRel(input=self.relation(plan.input), offset=plan.n))

    def _distinct(self, plan: p.Distinct) -> sa.Rel:
        if plan.subset is not None:
            msg = (
                "Substrait export does not take unique(subset=...) yet: which row Spark keeps is unspecified, "
                "so no plan says the same"
            )
            raise UnsupportedEngineError(msg)
        exprs = self._expressions(plan.input)
        grouping = sa.AggregateRel.Grouping(grouping_expressions=[exprs.field(f.name) for f in plan.input.schema])
        return sa.Rel(aggregate=sa.AggregateRel(input=self.relation(plan.input), groupings=[grouping]))

    def _aggregate(self, plan: Aggregate) -> sa.Rel:
        if plan.maintain_order:
            msg = "Substrait export does not take group_by(..., maintain_order=True) yet"
            raise UnsupportedEngineError(msg)
        exprs = self._expressions(plan.input)
        below = self.relation(plan.input)
        if plan.drop_null_keys:  # Spark's grouping here leaves out the rows with a NULL key (group_by's default)
            nullable = [k for k in plan.keys if k.type.nullable and narrowable(k.type.dtype)]
            if nullable:
                checks = [exprs.write(IsNotNull(k)) for k in nullable]
                condition = checks[0] if len(checks) == 1 else _all(checks, self.functions, nullable=False)
                below = sa.Rel(filter=sa.FilterRel(input=below, condition=condition))
        groupings = (
            [sa.AggregateRel.Grouping(grouping_expressions=[exprs.write(k) for k in plan.keys])] if plan.keys else []
        )
        projected = any(exprs.projects(n) for a in plan.aggs for n in a.walk())
        if not projected and all(_bare_aggregate(a) for a in plan.aggs):
            measures = [exprs.measure(a) for a in plan.aggs]
            return sa.Rel(aggregate=sa.AggregateRel(input=below, groupings=groupings, measures=measures))
        return self._computed_over_aggregates(plan, exprs, below, groupings)

    def _computed_over_aggregates(
        self, plan: Aggregate, exprs: ExpressionWriter, below: sa.Rel, groupings: list[sa.AggregateRel.Grouping]
    ) -> sa.Rel:
        """Outputs that compute over aggregates (``sum(x) * 0.01``): each aggregate once, then a projection."""
        calls: dict[int, core.Node] = {}
        for output in plan.aggs:
            for node in output.walk():
                if node.is_aggregate:
                    calls.setdefault(id(node), node)
        measures = [exprs.measure(call) for call in calls.values()]
        keys = [dt.Field(f"\x00key{i}", k.type.dtype, k.type.nullable) for i, k in enumerate(plan.keys)]
        named = {key: f"\x00measure{i}" for i, key in enumerate(calls)}  # NUL: no column name holds one
        measured = [
            dt.Field(named[key], WIDE_INTEGER if exprs.widens(c) else c.type.dtype, c.type.nullable)
            for key, c in calls.items()
        ]
        for key, call in calls.items():  # a decimal sum that may pass 38 digits: its double beside it, as a guard
            if exprs.guarded(call):
                measures.append(exprs.double_sum(call))
                measured.append(dt.Field(f"{named[key]}\x00guard", dt.Float64(), True))
        aggregated = sa.Rel(aggregate=sa.AggregateRel(input=below, groupings=groupings, measures=measures))
        over = ExpressionWriter(Schema((*keys, *measured)), self.functions, computed=named)
        columns = [over.field(f.name) for f in keys] + [over.write(a) for a in plan.aggs]
        width = len(keys) + len(measured)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(columns))]))
        return sa.Rel(project=sa.ProjectRel(common=emit, input=aggregated, expressions=columns))

    def _union(self, plan: Union) -> sa.Rel:
        columns: list[list[str | None]]
        if plan.by_name:  # the union's columns by name, a NULL where a frame lacks one
            columns = [[f.name if f.name in frame.schema else None for f in plan.schema] for frame in plan.frames]
        else:
            columns = [list(frame.schema.names) for frame in plan.frames]
        pairs = zip(plan.frames, columns, strict=True)
        inputs = [self._conformed(frame, names, plan.schema) for frame, names in pairs]
        return sa.Rel(set=sa.SetRel(inputs=inputs, op=sa.SetRel.SetOp.SET_OP_UNION_ALL))

    def _set_operation(self, plan: SetOperation) -> sa.Rel:
        if self.functions.local and plan.kind not in _LOCAL_SET_OPS:
            msg = (
                f"the local engine does not run {plan.call()}: DataFusion keeps fewer duplicates than Spark "
                "(measured); run it on Spark (collect() without engine=)"
            )
            raise UnsupportedEngineError(msg)
        left, right = plan.left.schema, plan.right.schema
        either = Schema(
            tuple(dt.Field(a.name, a.dtype, a.nullable or b.nullable) for a, b in zip(left, right, strict=True))
        )
        inputs = [
            self._conformed(plan.left, list(left.names), either),
            self._conformed(plan.right, list(right.names), either),
        ]
        return sa.Rel(set=sa.SetRel(inputs=inputs, op=_SET_OPS[plan.kind]))

    def _conformed(self, frame: p.Plan, names: list[str | None], schema: Schema) -> sa.Rel:
        """``frame`` as an input of a set relation: the columns ``names`` (None: a typed NULL) typed as ``schema``.

        Substrait wants every input of a set relation to have the same types, nullability included, so a
        column that cannot be NULL where another input's can is cast to its nullable type.
        """
        below = self.relation(frame)
        given = frame.schema
        in_place = list(given.names) == names and all(f.nullable == given[f.name].nullable for f in schema)
        if in_place:
            return below
        exprs = self._expressions(frame)
        columns = []
        for name, wanted in zip(names, schema, strict=True):
            if name is None:
                columns.append(sa.Expression(literal=literal(None, wanted.dtype, nullable=True)))
            elif given[name].nullable == wanted.nullable:
                columns.append(exprs.field(name))
            else:
                columns.append(exprs.cast(exprs.field(name), wanted.dtype, nullable=wanted.nullable))
        width = len(given)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(columns))]))
        return sa.Rel(project=sa.ProjectRel(common=emit, input=below, expressions=columns))

    def _join(self, plan: Join) -> sa.Rel:
        left, right = self.relation(plan.left), self.relation(plan.right)
        if plan.how == "cross" and not plan.conditions:
            return self._joined_outputs(plan, sa.Rel(cross=sa.CrossRel(left=left, right=right)))
        kind = _JOIN_TYPES["inner" if plan.how == "cross" else plan.how]  # a cross join with conditions is inner
        both = ExpressionWriter(plan.left.schema, self.functions, right=plan.right.schema)
        right_keys = ExpressionWriter(plan.right.schema, self.functions, offset=len(plan.left.schema))
        equal = fn.IS_NOT_DISTINCT_FROM if plan.join_nulls else fn.COMPARISON[ComparisonOp.EQ]
        checks, nullable = [], False
        for left_key, right_key in zip(plan.left_keys, plan.right_keys, strict=True):
            compared = not plan.join_nulls and (left_key.type.nullable or right_key.type.nullable)
            nullable = nullable or compared
            compare = sa.Expression.ScalarFunction(
                function_reference=self.functions.anchor(equal, "join keys"),
                arguments=[
                    sa.FunctionArgument(value=both.write(left_key)),
                    sa.FunctionArgument(value=right_keys.write(right_key)),
                ],
                output_type=_boolean(nullable=compared),
            )
            checks.append(sa.Expression(scalar_function=compare))
        checks += [both.write(c) for c in plan.conditions]
        nullable = nullable or any(c.type.nullable for c in plan.conditions)
        condition = checks[0] if len(checks) == 1 else _all(checks, self.functions, nullable=nullable)
        joined = sa.Rel(join=sa.JoinRel(left=left, right=right, expression=condition, type=kind))
        if plan.how in ("semi", "anti"):
            return joined
        return self._joined_outputs(plan, joined)

    def _joined_outputs(self, plan: Join, joined: sa.Rel) -> sa.Rel:
        """The join's output columns, in order, over the joined relation (left columns, then right)."""
        both = ExpressionWriter(plan.left.schema, self.functions, right=plan.right.schema)
        outputs = []
        for output in plan.outputs():
            if output.left is not None and output.right is not None:  # a merged key of a full join
                merged = sa.Expression.ScalarFunction(
                    function_reference=self.functions.anchor(fn.COALESCE, "coalesce()"),
                    arguments=[
                        sa.FunctionArgument(value=both.field(output.left)),
                        sa.FunctionArgument(value=both.field(output.right, "right")),
                    ],
                    output_type=_typed(output.field),
                )
                outputs.append(sa.Expression(scalar_function=merged))
            elif output.left is not None:
                outputs.append(both.field(output.left))
            else:
                outputs.append(both.field(str(output.right), "right"))
        width = len(plan.left.schema) + len(plan.right.schema)
        emit = sa.RelCommon(emit=sa.RelCommon.Emit(output_mapping=[width + i for i in range(len(outputs))]))
        return sa.Rel(project=sa.ProjectRel(common=emit, input=joined, expressions=outputs))


def exploded(table: pa.Table, plan: Explode) -> pa.Table:
    """The rows of ``table`` exploded as Spark explodes them (``explode``/``explode_outer``/``posexplode``).

    Several columns are zipped: their lists must have one length (Spark's run fails otherwise, as the
    façade lowers it), and a row where one of them is NULL has no element. Without ``outer`` a row with no
    element yields no row; with it, one row holding NULL (and a NULL position).
    """
    import pyarrow as pa

    from pydantable_spark.arrow import arrow_schema

    out: list[dict[str, Any]] = []
    for row in table.to_pylist():
        lists = [row[c] for c in plan.columns]
        count = None if any(v is None for v in lists) else max(len(v) for v in lists)
        if count is not None and any(len(v) != count for v in lists):
            msg = f"explode(): the arrays {', '.join(plan.columns)} differ in length in a row"
            raise SparkError(USER_RAISED_EXCEPTION, msg)
        if not count:
            if plan.outer:
                out.append(_exploded_row(row, plan, None))
            continue
        out.extend(_exploded_row(row, plan, i) for i in range(count))
    return pa.Table.from_pylist(out, schema=arrow_schema(plan.schema))


def _exploded_row(row: dict[str, Any], plan: Explode, index: int | None) -> dict[str, Any]:
    made = dict(row)
    for column in plan.columns:
        values = row[column]
        made[column] = values[index] if index is not None and index < len(values) else None
    if plan.position is not None:
        made[plan.position] = index
    return made


def _holds(dtype: dt.DType, kind: type[dt.DType]) -> bool:
    """Whether ``dtype`` is or holds (in a list, map or struct) a type of ``kind``."""
    if isinstance(dtype, kind):
        return True
    if isinstance(dtype, dt.List):
        return _holds(dtype.inner, kind)
    if isinstance(dtype, dt.Map):
        return _holds(dtype.key, kind) or _holds(dtype.value, kind)
    if isinstance(dtype, dt.Struct):
        return any(_holds(f.dtype, kind) for f in dtype.fields)
    return False


def _bare_aggregate(output: core.Node) -> bool:
    """Whether an aggregate output is one aggregate function (aliased or not), nothing computed over it."""
    inner = output.child if isinstance(output, core.Alias) else output
    return inner.is_aggregate


def _boolean(*, nullable: bool) -> st.Type:
    return substrait_type(dt.Boolean(), nullable=nullable)


def _typed(f: dt.Field) -> st.Type:
    return substrait_type(f.dtype, nullable=f.nullable)


def _all(checks: list[sa.Expression], functions: Functions, *, nullable: bool) -> sa.Expression:
    """The conjunction of boolean expressions (one ``and`` call, Substrait's ``and`` takes any number).

    ``nullable``: whether one of them may be NULL (then the conjunction may be, as ``and``'s definition says).
    """
    anchor = functions.anchor(fn.AND, "and (&)")
    call = sa.Expression.ScalarFunction(
        function_reference=anchor,
        arguments=[sa.FunctionArgument(value=c) for c in checks],
        output_type=_boolean(nullable=nullable),
    )
    return sa.Expression(scalar_function=call)


def export(
    plan: p.Plan,
    *,
    local: bool = False,
    session: Session | None = None,
    run: Callable[[p.Plan], pa.Table] | None = None,
) -> Exported:
    """``plan`` as a Substrait ``Plan`` with the tables it reads; ``local`` refuses what the local engine lacks.

    ``session`` holds the settings the local engine's kernels read (the time zone; UTC by default); ``run``
    computes a part of the plan where a step has no relation (the local engine's own runner).
    """
    functions = Functions(local=local, session=session)
    writer = _Writer(functions, run)
    root = sa.RelRoot(input=writer.relation(plan), names=names_of(plan.schema))
    result = sp.Plan(relations=[sp.PlanRel(root=root)])
    result.version.major_number = 0
    result.version.minor_number = 57
    result.version.producer = PRODUCER
    files: dict[str, int] = {}
    for extension, _name in functions.anchors:
        files.setdefault(extension, len(files) + 1)
    for extension, anchor in files.items():
        result.extension_uris.add(extension_uri_anchor=anchor, uri=fn.uri_of(extension))
        result.extension_urns.add(extension_urn_anchor=anchor, urn=fn.urn_of(extension))
    for (extension, name), anchor in functions.anchors.items():
        declared = se.SimpleExtensionDeclaration.ExtensionFunction(
            extension_uri_reference=files[extension],
            extension_urn_reference=files[extension],
            function_anchor=anchor,
            name=name,
        )
        result.extensions.add(extension_function=declared)
    return Exported(result, writer.tables, functions.sites)
