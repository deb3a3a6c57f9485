"""Streaming plans: the ``Watermark`` node and the rules a plan over a stream must keep, checked in Python.

A plan is streaming when a source is a stream (``Plan.streaming``). Each node
built over a stream is checked here when it is built (``check_streaming``,
one rule per node class in ``RULES``); what depends on the output mode is
checked before the query starts (``check_output_mode``). The rules are Spark
4's (``UnsupportedOperationChecker``), with the message naming the rule and
the way out, plus one of the façade's: ``unique()`` on a stream needs a
watermarked column among its keys (else Spark keeps every key in its state
forever). Nothing here talks to Spark.

What is not offered on streams yet raises ``NotImplementedError`` naming it:
an aggregation over an aggregation (Spark 4 runs chains of time-window
aggregations in append mode only), a join of two streams over an aggregation.
A join of two streams is checked by ``plan.stream_joins``.

```pycon
>>> from pydantable_spark import DataFrameModel, F
>>> class Visit(DataFrameModel):
...     page: str
...     ms: int
>>> visits = Visit.read_stream_json("/landing/visits")
>>> visits.is_streaming
True
>>> visits.sort("ms")
Traceback (most recent call last):
...
pydantable_spark.errors.StreamingError: sort() on a stream: Spark sorts a stream only after an aggregation, ...
>>> visits.group_by("page").agg(n=F.count()).sort("n").is_streaming  # complete mode only: checked at start
True

```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentValueError, ColumnTypeError, StreamingError, UnknownColumnError
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.catalog.spec import kind_label
from pydantable_spark.expr.catalog.time_windows import micros_text
from pydantable_spark.expr.core import Alias, Column, Node, contains_window, render
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate, time_bucket
from pydantable_spark.plan.joins import Join
from pydantable_spark.plan.physical import Checkpoint, Persist, Sample
from pydantable_spark.plan.setops import SetOperation, Union
from pydantable_spark.plan.stream_joins import stream_join_refusal

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.schema import Schema

__all__ = [
    "OUTPUT_MODES",
    "RULES",
    "DedupWithinWatermark",
    "Watermark",
    "check_output_mode",
    "check_streaming",
    "refuse_batch_action",
    "watermarked",
]

OUTPUT_MODES = ("append", "update", "complete")
"""Spark's output modes: new rows only, changed rows, or the whole result each trigger."""

_WAY_OUT = "see docs/streaming.md"


@dataclass(frozen=True, slots=True)
class Watermark(p.Plan):
    """``input`` with an event-time watermark on ``column``: rows later than ``delay`` behind the latest are late.

    Spark's ``withWatermark(column, delay)``: an aggregation grouped by the
    column (or a time window of it) can then finish a group and drop its
    state, which append mode needs; ``unique()`` can drop old keys. On a batch
    frame it changes nothing, as in Spark.
    """

    input: p.Plan
    column: str
    delay_micros: int

    def inputs(self) -> tuple[p.Plan, ...]:
        return (self.input,)

    def derive(self) -> Schema:
        schema = self.input.schema
        found = schema.get(self.column)
        if found is None:
            raise UnknownColumnError(self.column, schema.names, where="with_watermark()")
        if not isinstance(found.dtype, dt.Datetime):
            msg = (
                f"with_watermark(): column {self.column!r} is {kind_label(found.dtype)}; an event-time watermark "
                "needs a timestamp column (datetime with a time zone: Spark's TIMESTAMP). Convert it first, e.g. "
                "with_columns(ts=F.to_timestamp(...)), and watermark that column"
            )
            raise ColumnTypeError(msg)
        if self.delay_micros < 0:
            msg = f"with_watermark(): the delay must not be negative, got {self.delay_micros} microseconds"
            raise ArgumentValueError(msg)
        return schema

    def describe(self) -> str:
        return f"Watermark [{self.column}, {micros_text(self.delay_micros)}]"

    def call(self) -> str:
        return f"with_watermark({self.column!r}, {micros_text(self.delay_micros)!r})"


@dataclass(frozen=True, slots=True)
class DedupWithinWatermark(p.Plan):
    """``input`` without the rows whose ``keys`` equal an earlier row's within the watermark's delay.

    Spark's ``dropDuplicatesWithinWatermark(keys)`` (a stream only; a batch
    frame's ``drop_duplicates_within_watermark`` is a ``Distinct``): a row is
    dropped when a row of the same keys came before it and the watermark has
    not yet passed that first row's event time plus the delay; Spark then
    forgets the key. The keys need not hold the event-time column, but the
    input must carry a watermark (``RULES``). The schema is the input's.
    """

    input: p.Plan
    keys: tuple[str, ...]

    def inputs(self) -> tuple[p.Plan, ...]:
        return (self.input,)

    def derive(self) -> Schema:
        schema = self.input.schema
        for name in self.keys:
            if name not in schema:
                raise UnknownColumnError(name, schema.names, where="drop_duplicates_within_watermark()")
        for found in schema:
            if found.name in self.keys and not _comparable(found):
                msg = (
                    f"drop_duplicates_within_watermark(): key {found.name!r} is {kind_label(found.dtype)}, which has "
                    "no equality (maps and VARIANT cannot be compared); pass other columns as keys"
                )
                raise ColumnTypeError(msg)
        return schema

    def describe(self) -> str:
        return f"DedupWithinWatermark [{', '.join(self.keys)}]"

    def call(self) -> str:
        return f"drop_duplicates_within_watermark({', '.join(map(repr, self.keys))})"


def _comparable(found: dt.Field) -> bool:
    return not (dt.contains_map(found.dtype) or dt.contains_variant(found.dtype))


# --- facts of a plan over a stream ------------------------------------------------------------


def _streaming_nodes(plan: p.Plan) -> list[p.Plan]:
    """The nodes of ``plan`` that read a stream (a batch side of a join is left out), top first."""
    found: list[p.Plan] = []
    pending = [plan]
    while pending:
        node = pending.pop()
        if node.streaming:
            found.append(node)
            pending.extend(reversed(node.inputs()))
    return found


def _aggregations(plan: p.Plan) -> list[p.Plan]:
    """The aggregations over a stream in ``plan``, the last one first (``distinct()`` is one, as Spark counts it)."""
    return [n for n in _streaming_nodes(plan) if isinstance(n, Aggregate) or _is_distinct_rows(n)]


def _is_distinct_rows(node: p.Plan) -> bool:
    return isinstance(node, p.Distinct) and node.subset is None


def watermarked(plan: p.Plan) -> frozenset[str]:
    """The columns of ``plan``'s output that carry an event-time watermark (Spark keeps it in their metadata).

    A watermarked column keeps it through filters, sorts and the like, through
    a projection that passes it on or renames it, through ``as_model`` and
    as a group key; a time window (``F.window``) of it carries it too.
    """
    return _WATERMARKED.get(type(plan), _same_as_input)(plan)


def _same_as_input(plan: p.Plan) -> frozenset[str]:
    inputs = plan.inputs()
    if len(inputs) != 1 or plan.schema.names != inputs[0].schema.names:
        return frozenset()
    return watermarked(inputs[0])


def _carried(expr: Node, marked: frozenset[str]) -> bool:
    inner = expr.child if isinstance(expr, Alias) else expr
    if isinstance(inner, Column):
        return inner.name in marked
    bucket = time_bucket(expr)
    if bucket is not None:
        time = bucket.args[0]
        return isinstance(time, Column) and time.name in marked
    return False


def _project_marks(plan: p.Project) -> frozenset[str]:
    marked = watermarked(plan.input)
    return frozenset(e.output_name for e in plan.exprs if _carried(e, marked))


def _aggregate_marks(plan: Aggregate) -> frozenset[str]:
    marked = watermarked(plan.input)
    return frozenset(k.output_name for k in plan.keys if _carried(k, marked))


def _reconcile_marks(plan: p.Reconcile) -> frozenset[str]:
    marked = watermarked(plan.input)
    return frozenset(c.result.name for c in plan.reconciliation.columns if c.source.name in marked)


def _watermark_marks(plan: Watermark) -> frozenset[str]:
    return watermarked(plan.input) | {plan.column}


def _join_marks(plan: Join) -> frozenset[str]:
    left, right = watermarked(plan.left), watermarked(plan.right)
    return frozenset(
        o.field.name for o in plan.outputs() if (o.left is not None and o.left in left) or o.right in right
    )


def _union_marks(plan: Union) -> frozenset[str]:
    marks = [watermarked(frame) for frame in plan.frames]
    return frozenset.intersection(*marks) & frozenset(plan.schema.names)


_WATERMARKED: dict[type[p.Plan], Callable[[Any], frozenset[str]]] = {
    p.Source: lambda plan: frozenset(),
    p.Project: _project_marks,
    Aggregate: _aggregate_marks,
    p.Reconcile: _reconcile_marks,
    Watermark: _watermark_marks,
    Join: _join_marks,
    Union: _union_marks,
}
"""How each node class passes watermarks on (a node not here: as its input, if it keeps the input's columns)."""


# --- the rules, one per node class --------------------------------------------------------------


def check_streaming(node: p.Plan) -> None:
    """Refuse ``node`` (just built, over a stream) if Spark refuses it on a stream in every output mode."""
    rule = RULES.get(type(node))
    if rule is not None:
        rule(node)


def _refuse(call: str, rule: str, way_out: str, *, over: str = "a stream") -> NoReturn:
    """Raise the ``StreamingError`` of ``call`` on a stream (``over``): the rule it breaks and the way out."""
    msg = f"{call} on {over}: {rule}; {way_out} ({_WAY_OUT})"
    raise StreamingError(msg)


def _sort(node: p.Sort) -> None:
    if not _aggregations(node.input):
        _refuse(
            "sort()",
            "Spark sorts a stream only after an aggregation, in complete output mode (a stream has no last row "
            "to sort up to)",
            "sort the rows where they land (read the sink as a batch frame), or aggregate first and write with "
            "output_mode='complete'",
        )


def _offset(node: p.Offset) -> None:
    _refuse("offset()", "Spark offers no offset on streams", "filter the rows instead")


def _distinct(node: p.Distinct) -> None:
    keys = node.subset if node.subset is not None else node.input.schema.names
    marked = watermarked(node.input)
    if not marked & set(keys):
        shown = f"subset={list(node.subset)!r}" if node.subset is not None else "all columns"
        _refuse(
            f"unique() ({shown})",
            "Spark keeps every key it has seen in the stream's state, forever, unless a key column carries an "
            "event-time watermark",
            "call with_watermark(Model.ts, '10 minutes') first and keep that column among the keys, so Spark "
            "drops keys older than the watermark",
        )
    shown = f"subset={list(node.subset)!r}" if node.subset is not None else "all columns"
    _one_event_time(f"unique() ({shown})", marked)


def _one_event_time(call: str, marked: frozenset[str]) -> None:
    """A dedup of a stream finds each row's event time in one watermarked column (Spark fails the query otherwise)."""
    if len(marked) > 1:
        _refuse(
            call,
            f"Spark takes a row's event time from one watermarked column, and this frame has {len(marked)} "
            f"({', '.join(sorted(marked))}); Spark would fail the query with MULTIPLE_EVENT_TIME_COLUMNS",
            "drop all but one of them first (a join of two streams carries the watermarked columns of both)",
        )


def _dedup_within_watermark(node: DedupWithinWatermark) -> None:
    marked = watermarked(node.input)
    if not marked:
        _refuse(
            node.call(),
            "Spark drops duplicates within the watermark only on a stream that carries an event-time watermark "
            "(it forgets a key once the watermark passes its first row's time plus the delay)",
            "call with_watermark(Model.ts, '10 minutes') first (the keys need not hold that column)",
        )
    _one_event_time(node.call(), marked)
    if _aggregations(node.input):
        msg = (
            f"{node.call()} over an aggregation of a stream is not offered yet (a chain of stateful operators); "
            "write the aggregation to a sink and stream from there"
        )
        raise NotImplementedError(msg)


def _aggregate(node: Aggregate) -> None:
    if _aggregations(node.input):
        msg = (
            "group_by().agg() over another aggregation of a stream is not offered yet (Spark 4 runs a chain of "
            "time-window aggregations in append mode only, the second grouped by the first's window_time); "
            "write the first aggregation to a sink and stream from there"
        )
        raise NotImplementedError(msg)
    if node.maintain_order:
        _refuse(
            "group_by(maintain_order=True)",
            "a stream has no row order to keep (it takes monotonically_increasing_id(), which Spark refuses on "
            "streams)",
            "leave maintain_order out",
        )
    for expr in node.aggs:
        for n in expr.walk():
            if isinstance(n, Call) and n.label in _DISTINCT_AGGREGATES:
                _refuse(
                    f"agg({render(expr)})",
                    "Spark refuses distinct aggregations on streams",
                    "use F.approx_count_distinct, or unique() on a watermarked stream before aggregating",
                )


_DISTINCT_AGGREGATES = frozenset({"count_distinct", "sum_distinct", "listagg_distinct", "string_agg_distinct"})


def _project(node: p.Project) -> None:
    for expr in node.exprs:
        if contains_window(expr):
            _refuse(
                f"{render(expr)}",
                "Spark computes no window over rows (.over(...), row numbers, unique(keep=...), "
                "rolling_agg) on a stream, only time windows as group keys",
                "aggregate by F.window(time, ...) instead, or compute it on the sink's rows as a batch frame",
            )


def _sample(node: Sample) -> None:
    _refuse("sample()", "Spark refuses sampling on streams", "filter on a hash of a key instead")


def _cached(node: p.Plan) -> None:
    _refuse(
        node.call(),
        "a stream has no finite result to cache or checkpoint (a stream's state is kept in its query's "
        "checkpoint location)",
        "leave it out; write_stream_*(checkpoint=...) keeps the query's progress",
    )


def _join(node: Join) -> None:
    left, right = node.left.streaming, node.right.streaming
    if left and right:
        _stream_join(node)
        return
    side = "left" if left else "right"
    refused = {
        "full": "Spark refuses a full outer join of a stream with a batch frame",
        "right": "Spark refuses a right outer join whose stream is on the left" if left else "",
        "left": "" if left else "Spark refuses a left outer join whose stream is on the right",
        "semi": "" if left else "Spark refuses a semi join whose stream is on the right",
        "anti": "" if left else "Spark refuses an anti join whose stream is on the right",
    }.get(node.how, "")
    if refused:
        _refuse(
            f"join(how={node.how!r}) with the stream on the {side}",
            refused,
            "put the stream on the side whose rows are all kept (the left of a left join), or use an inner join",
        )
    _orderless(node)


def _orderless(node: Join) -> None:
    if node.maintain_order != "none":
        _refuse("join(maintain_order=...)", "a stream has no row order to keep", "leave maintain_order out")
    if node.validate != "m:m":
        _refuse(
            f"join(validate={node.validate!r})",
            "the check runs a batch job over both sides, which a stream cannot",
            "leave validate out",
        )


def _stream_join(node: Join) -> None:
    """The rules of a join of two streams (``plan.stream_joins``); Spark writes it in append mode only."""
    _orderless(node)
    if _aggregations(node.left) or _aggregations(node.right):
        msg = (
            f"join(how={node.how!r}) of two streams over an aggregation is not offered yet (a chain of stateful "
            "operators); write the aggregation to a sink and stream from there"
        )
        raise NotImplementedError(msg)
    refused = stream_join_refusal(node, {"left": watermarked(node.left), "right": watermarked(node.right)})
    if refused is not None:
        _refuse(f"join(how={node.how!r})", *refused, over="two streams")


def _union(node: Union) -> None:
    if not all(frame.streaming for frame in node.frames):
        _refuse(
            "union()/concat()",
            "Spark refuses a union of a stream and a batch frame",
            "union streams with streams; join a batch frame instead",
        )


def _set_operation(node: SetOperation) -> None:
    if node.kind in ("intersect", "intersect_all"):
        _refuse(f"{node.kind}()", "Spark refuses intersections of streams", "use a semi join on the keys")
    if node.right.streaming:
        _refuse(
            f"{node.kind}()",
            "Spark refuses a stream on the right of an except",
            "use an anti join with the batch frame on the right",
        )


RULES: dict[type[p.Plan], Callable[[Any], None]] = {
    p.Sort: _sort,
    p.Offset: _offset,
    p.Distinct: _distinct,
    DedupWithinWatermark: _dedup_within_watermark,
    Aggregate: _aggregate,
    p.Project: _project,
    Sample: _sample,
    Persist: _cached,
    Checkpoint: _cached,
    Join: _join,
    Union: _union,
    SetOperation: _set_operation,
}
"""The rule of each node class over a stream (a class not here is taken as it is: filters, limits, explode, ...)."""


# --- before a query starts ------------------------------------------------------------------------


def check_output_mode(plan: p.Plan, mode: object, action: str, *, sink_modes: tuple[str, ...]) -> str:
    """``mode`` checked against ``plan`` and the sink (which takes ``sink_modes``); the mode, or ``StreamingError``.

    * append with an aggregation: the aggregation's keys must hold a
      watermarked column (or a time window of one), else a group never ends
      and nothing is ever written;
    * complete needs an aggregation (the whole result each trigger);
    * a sort (after an aggregation) needs complete; a limit is refused in update;
    * a join of two streams is written in append mode only;
    * an aggregation by a session window is refused in update mode.
    """
    if not plan.streaming:
        msg = (
            f"{action}: the frame is not a stream (its sources are batch data); write it with write_parquet, "
            "write_json, ... or read it with read_stream_* to stream it"
        )
        raise StreamingError(msg)
    if mode not in OUTPUT_MODES:
        msg = f"{action}: output_mode={mode!r} is not one of {', '.join(map(repr, OUTPUT_MODES))}"
        raise ArgumentValueError(msg)
    if mode not in sink_modes:
        why = (
            "a file sink only adds files"
            if sink_modes == ("append",)
            else "a table sink appends micro-batches or replaces the table with the whole result; it updates no row"
        )
        msg = (
            f"{action}: this sink takes output_mode {' or '.join(map(repr, sink_modes))}, not {mode!r} ({why}); "
            "write aggregations with a watermark in append mode, or to the memory sink"
        )
        raise StreamingError(msg)
    aggregations = _aggregations(plan)
    nodes = _streaming_nodes(plan)
    if mode != "append" and any(isinstance(n, Join) and n.left.streaming and n.right.streaming for n in nodes):
        msg = (
            f"{action}: Spark writes a join of two streams in output_mode='append' only (each joined row once, "
            f"when it is final), also with an aggregation after it; got output_mode={mode!r} ({_WAY_OUT})"
        )
        raise StreamingError(msg)
    if mode == "append" and aggregations:
        top = aggregations[0]
        keys = watermarked(top) if isinstance(top, Aggregate) else watermarked(top.inputs()[0])
        if not keys:
            msg = (
                f"{action}: output_mode='append' writes a group once it is final, and a group of "
                f"{top.call()} is final only when the event-time watermark passes it; no key of the "
                "aggregation carries a watermark. Call with_watermark(Model.ts, '10 minutes') before it and group "
                "by that column or F.window(Model.ts, ...), or write with output_mode='update' or 'complete' "
                f"({_WAY_OUT})"
            )
            raise StreamingError(msg)
    if mode == "update" and aggregations and _session_window(aggregations[0]) is not None:
        msg = (
            f"{action}: Spark refuses output_mode='update' for an aggregation by a session window "
            f"({_session_window(aggregations[0])}): a session may still grow or merge with another. Use 'append' "
            f"(a session written once the watermark passes its end) or 'complete' ({_WAY_OUT})"
        )
        raise StreamingError(msg)
    if mode == "complete" and not aggregations:
        msg = (
            f"{action}: output_mode='complete' writes the whole result every trigger, which Spark keeps only for "
            f"an aggregation; this plan has none. Use output_mode='append' ({_WAY_OUT})"
        )
        raise StreamingError(msg)
    if mode != "complete" and any(isinstance(n, p.Sort) for n in nodes):
        msg = (
            f"{action}: a sorted stream is written with output_mode='complete' only (Spark sorts the whole "
            f"aggregated result each trigger); got output_mode={mode!r} ({_WAY_OUT})"
        )
        raise StreamingError(msg)
    if mode == "update" and any(isinstance(n, p.Limit) for n in nodes):
        msg = (
            f"{action}: Spark refuses limit() on a stream in output_mode='update'; use 'append' or 'complete' "
            f"({_WAY_OUT})"
        )
        raise StreamingError(msg)
    return str(mode)


def _session_window(node: p.Plan) -> str | None:
    """The session window (``F.session_window``) ``node`` groups by, rendered, if it is an aggregation by one."""
    if not isinstance(node, Aggregate):
        return None
    buckets = (time_bucket(key) for key in node.keys)
    return next((render(b) for b in buckets if b is not None and b.label == "session_window"), None)


def refuse_batch_action(plan: p.Plan, action: str) -> None:
    """``StreamingError`` if ``plan`` reads a stream: ``action`` (``collect()``, a batch write) needs a finite frame."""
    if plan.streaming:
        msg = (
            f"{action} on a stream: a stream has no last row, so Spark runs it only as a query that writes "
            "each micro-batch; start one with write_stream_parquet/json/csv(path, checkpoint=...), or "
            f"write_stream_memory(query_name) in tests, and read what it wrote ({_WAY_OUT})"
        )
        raise StreamingError(msg)
