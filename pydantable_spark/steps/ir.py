"""The Step IR: one frozen record per Spark DataFrame call, holding the SQL text it sends.

A tree of steps is what a plan becomes before anything talks to Spark
(``pydantable_spark.steps.translate``), what ``explain()`` shows
(``render_steps``) and what ``pydantable_spark._spark.execute`` runs, one
executor per step class. Steps hold SQL text already written by
``pydantable_spark._spark.sql`` (pure Python), and the typed Python UDFs that
text calls, found in the expression nodes it was written from (``udfs_in``),
so nothing here needs pyspark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.udf import PythonFunction, UdfCall

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from pydantable_spark.expr.core import Node
    from pydantable_spark.plan import nodes as p
    from pydantable_spark.plan.physical import Held
    from pydantable_spark.schema import Schema

__all__ = [
    "ROW_ORDER",
    "AggregateStep",
    "CheckpointStep",
    "CoalesceStep",
    "Dedup",
    "HintStep",
    "JoinStep",
    "OrderBy",
    "PersistStep",
    "Rename",
    "RepartitionStep",
    "SampleStep",
    "Scan",
    "SelectExprs",
    "SetStep",
    "Skip",
    "Step",
    "Take",
    "ToSchema",
    "UnionStep",
    "UnpivotStep",
    "WatermarkStep",
    "Where",
    "render_steps",
    "udfs_in",
]

ROW_ORDER = "__pydantable_order"
"""The private column of row ids that keeps a side's (or a frame's) row order through a join or a grouping."""


@dataclass(frozen=True, slots=True)
class Step:
    """One Spark DataFrame call; ``udfs`` are the typed Python UDFs its SQL calls (registered first)."""

    udfs: tuple[PythonFunction, ...] = field(default=(), kw_only=True)

    def inputs(self) -> tuple[Step, ...]:
        return ()

    def describe(self) -> str:
        raise NotImplementedError


def udfs_in(nodes: Iterable[Node]) -> tuple[PythonFunction, ...]:
    """The typed Python UDFs that ``nodes`` call, each once, in the order first met."""
    found: dict[int, PythonFunction] = {}
    for node in nodes:
        for n in node.walk():
            if isinstance(n, UdfCall):
                found.setdefault(id(n.function), n.function)
    return tuple(found.values())


@dataclass(frozen=True, slots=True)
class Scan(Step):
    """The Spark DataFrame of a source."""

    source: p.Source

    def describe(self) -> str:
        return f"scan {self.source.data.describe()}"


@dataclass(frozen=True, slots=True)
class Where(Step):
    """``df.filter(condition)``."""

    input: Step
    condition: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"filter {self.condition}"


@dataclass(frozen=True, slots=True)
class SelectExprs(Step):
    """``df.selectExpr(*exprs)``; ``metadata_from`` pairs (output, input) columns whose Spark metadata is kept."""

    input: Step
    exprs: tuple[str, ...]
    metadata_from: tuple[tuple[str, str], ...] = ()

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"selectExpr {', '.join(self.exprs)}"


@dataclass(frozen=True, slots=True)
class OrderBy(Step):
    """``df.sort(...)`` by SQL keys with direction and NULL placement."""

    input: Step
    keys: tuple[tuple[str, bool, bool], ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        shown = [
            f"{sql} {'DESC' if desc else 'ASC'} NULLS {'LAST' if last else 'FIRST'}" for sql, desc, last in self.keys
        ]
        return f"sort {', '.join(shown)}"


@dataclass(frozen=True, slots=True)
class Take(Step):
    """``df.limit(n)``."""

    input: Step
    n: int

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"limit {self.n}"


@dataclass(frozen=True, slots=True)
class Skip(Step):
    """``df.offset(n)``."""

    input: Step
    n: int

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"offset {self.n}"


@dataclass(frozen=True, slots=True)
class Dedup(Step):
    """``df.distinct()``, ``df.dropDuplicates(subset)``, or ``df.dropDuplicatesWithinWatermark(subset)`` (a stream)."""

    input: Step
    subset: tuple[str, ...] | None
    within_watermark: bool = False

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        if self.within_watermark:
            return f"dropDuplicatesWithinWatermark {list(self.subset or ())}"
        return f"dropDuplicates {list(self.subset)}" if self.subset else "distinct"


@dataclass(frozen=True, slots=True)
class JoinStep(Step):
    """``left.join(right, condition, how)``: every column of both sides, as they come.

    The right side's columns already have private names (its projection wrote
    them), so no name is ambiguous; the projection above names the outputs.
    ``order`` keeps a side's row order: that side gets a row id column
    (``ROW_ORDER``), the joined rows are sorted by it, and it stays in the
    output for the projection above to drop (semi and anti joins have the
    left's columns only).
    """

    left: Step
    right: Step
    how: str
    condition: str | None
    order: str
    unique: tuple[tuple[str, tuple[str, ...]], ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.left, self.right)

    def describe(self) -> str:
        on = f" on {self.condition}" if self.condition else ""
        return f"join {self.how}{on}"


@dataclass(frozen=True, slots=True)
class AggregateStep(Step):
    """``groupBy(keys).agg(aggs)`` (``selectExpr(aggs)`` without keys), after an optional filter."""

    input: Step
    where: str | None
    keys: tuple[str, ...]
    aggs: tuple[str, ...]
    ordered: bool
    metadata_from: tuple[tuple[str, str], ...] = ()

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        where = f" where {self.where}" if self.where else ""
        return f"groupBy {', '.join(self.keys) or '()'} agg {', '.join(self.aggs)}{where}"


@dataclass(frozen=True, slots=True)
class UnionStep(Step):
    """``union`` / ``unionByName`` of several frames."""

    frames: tuple[Step, ...]
    by_name: bool
    allow_missing: bool

    def inputs(self) -> tuple[Step, ...]:
        return self.frames

    def describe(self) -> str:
        return "unionByName" if self.by_name else "union"


@dataclass(frozen=True, slots=True)
class SetStep(Step):
    """``intersect``, ``intersectAll``, ``subtract`` or ``exceptAll``."""

    left: Step
    right: Step
    method: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.left, self.right)

    def describe(self) -> str:
        return self.method


@dataclass(frozen=True, slots=True)
class UnpivotStep(Step):
    """``unpivot(ids, values, variable, value)``."""

    input: Step
    ids: tuple[str, ...]
    values: tuple[str, ...]
    variable: str
    value: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"unpivot ids {list(self.ids)} values {list(self.values)}"


@dataclass(frozen=True, slots=True)
class PersistStep(Step):
    """``df.persist(level)``, made once per session and kept in ``held`` (later actions read that frame).

    ``floating``: the cached frame has a float or double column, whose NaN
    Spark's pruning of cached batches does not see (``_spark.execute``).
    """

    input: Step
    level: str
    held: Held = field(compare=False, repr=False)
    floating: bool = False

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"persist {self.level}"


@dataclass(frozen=True, slots=True)
class CheckpointStep(Step):
    """``df.checkpoint(eager)`` or ``df.localCheckpoint(eager)``, made once per session and kept in ``held``."""

    input: Step
    local: bool
    eager: bool
    held: Held = field(compare=False, repr=False)

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"{'localCheckpoint' if self.local else 'checkpoint'} eager={self.eager}"


@dataclass(frozen=True, slots=True)
class RepartitionStep(Step):
    """``df.repartition(n, *keys)`` (``n`` None: Spark's default number of partitions)."""

    input: Step
    n: int | None
    keys: tuple[str, ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"repartition {', '.join(([] if self.n is None else [str(self.n)]) + list(self.keys))}"


@dataclass(frozen=True, slots=True)
class CoalesceStep(Step):
    """``df.coalesce(n)``."""

    input: Step
    n: int

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"coalesce {self.n}"


@dataclass(frozen=True, slots=True)
class SampleStep(Step):
    """``df.sample(withReplacement, fraction, seed)``."""

    input: Step
    fraction: float
    seed: int
    with_replacement: bool

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"sample {self.fraction} seed={self.seed} withReplacement={self.with_replacement}"


@dataclass(frozen=True, slots=True)
class HintStep(Step):
    """``df.hint(name)``: a join strategy hint."""

    input: Step
    name: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"hint {self.name}"


@dataclass(frozen=True, slots=True)
class WatermarkStep(Step):
    """``df.withWatermark(column, delay)``: ``column`` is the Spark name, ``delay`` Spark's interval text."""

    input: Step
    column: str
    delay: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"withWatermark {self.column!r}, {self.delay!r}"


@dataclass(frozen=True, slots=True)
class Rename(Step):
    """``df.toDF(*names)``: the user's column names on the frame handed out (no SQL parsing)."""

    input: Step
    names: tuple[str, ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"toDF {', '.join(repr(n) for n in self.names)}"


@dataclass(frozen=True, slots=True)
class ToSchema(Step):
    """``df.to(struct)``; with ``gate`` the actual schema is first checked against ``schema``."""

    input: Step
    schema: Schema
    gate: bool = False

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        fields = ",".join(f"{f.name}:{_simple_string(f.dtype)}" for f in self.schema.fields)
        return f"to struct<{fields}>"


def _simple_string(dtype: dt.DType) -> str:
    """Spark's ``DataType.simpleString()`` of the Spark type ``dtype`` maps to (docs/types.md), without pyspark."""
    if isinstance(dtype, dt.List):
        return f"array<{_simple_string(dtype.inner)}>"
    if isinstance(dtype, dt.Map):
        return f"map<{_simple_string(dtype.key)},{_simple_string(dtype.value)}>"
    if isinstance(dtype, dt.Struct):
        return "struct<" + ",".join(f"{f.name}:{_simple_string(f.dtype)}" for f in dtype.fields) + ">"
    return str(dtype)


def render_steps(step: Step, indent: int = 0) -> Iterator[str]:
    """The steps as indented lines, the last call first."""
    yield "  " * indent + step.describe()
    for child in step.inputs():
        yield from render_steps(child, indent + 1)
