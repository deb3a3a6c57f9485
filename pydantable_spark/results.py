"""The results of ``DataFrame[M]``: ``explain``, ``collect``, ``to_arrow``/``to_dict``/``to_pandas``, streams, jobs.

``Results`` is a mixin of ``pydantable_spark.frame.DataFrame``. Its methods
are the terminal ones: they lower the plan to Spark, run it, and bring the
rows back, validated against the row model (``collect``, ``stream``) or as
columns (``to_arrow``, ``to_dict``, ``to_pandas``); ``submit`` and the ``a*``
methods run them in the background. ``explain`` runs no job.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> class Point(DataFrameModel):
...     x: int
...     label: str | None
>>> points = Point.from_rows([{"x": 1, "label": "a"}, {"x": 2, "label": None}])
>>> points.to_dict()
{'x': [1, 2], 'label': ['a', None]}
>>> points.collect()[1]
Point(x=2, label=None)
>>> points.count()
2

```
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast, overload

from pydantic import BaseModel

from pydantable_spark import dtypes as dt
from pydantable_spark.engines import chosen_engine, fell_back
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown
from pydantable_spark.expr.core import check_param
from pydantable_spark.jobs import Job
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.streaming import refuse_batch_action

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Generator, Mapping, Sequence

    import pandas as pd
    import polars as pl
    import pyarrow as pa
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.constraints import ValidationReport
    from pydantable_spark.engines import Engine
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.model import DataFrameModel
    from pydantable_spark.schema import Schema

__all__ = ["Results"]

M = TypeVar("M", bound=BaseModel)


class Results(Generic[M]):
    """The methods of ``DataFrame`` that run its plan (or, ``explain``, show it) and return what it computes."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the results use of the frame (``DataFrame`` defines them)
        _plan: p.Plan

        @property
        def schema(self) -> Schema: ...

        @property
        def model(self) -> type[M]: ...

    # --- inspection --------------------------------------------------------------------------

    def explain(self, *, spark: bool = False) -> str:
        """The logical plan, the derived schema and the Spark calls it lowers to.

        No Spark job runs; with ``spark=True`` Spark's own extended plan is
        appended (which makes Spark analyse the plan); without it pyspark is not
        even imported. The Spark calls show string literals as written
        (``'cancelled'``; Spark gets them spelled in hex) and each run-time NULL
        check as one call, ``null_check(column)``. An aggregation says which
        keys' NULL rows it leaves out (``group_by(..., drop_nulls=True)``, the default).
        """
        from pydantable_spark.display import one_line
        from pydantable_spark.steps import readable_steps

        # each rendered line is one line of the view: a name or a value holding a line break cannot forge another
        lines = ["logical plan:"]
        lines += [f"  {one_line(line)}" for line in p.render_plan(self._plan)]
        lines += ["schema:"] + [f"  {line}" for line in str(self.schema).split("\n")]
        lines += ["spark calls (last first):"]
        lines += [f"  {one_line(line)}" for line in readable_steps(self._plan)]
        text = "\n".join(lines)
        if spark:
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                self.to_spark().explain(extended=True)
            text += "\nspark plan:\n" + buffer.getvalue()
        return text

    # --- materialization -----------------------------------------------------------------

    def to_spark(self) -> SparkDataFrame:
        """The lowered Spark DataFrame, reconciled with the derived schema by ``DataFrame.to``."""
        from pydantable_spark._spark.lower import to_spark

        return to_spark(self._plan)

    @overload
    def collect(
        self, *, trusted: bool = False, as_lists: Literal[False] = False, engine: Engine | None = None
    ) -> list[M]: ...
    @overload
    def collect(
        self, *, trusted: bool = False, as_lists: Literal[True], engine: Engine | None = None
    ) -> dict[str, list[Any]]: ...
    @overload
    def collect(
        self, *, trusted: bool = False, as_lists: bool, engine: Engine | None = None
    ) -> list[M] | dict[str, list[Any]]: ...

    def collect(
        self, *, trusted: bool = False, as_lists: bool = False, engine: Engine | None = None
    ) -> list[M] | dict[str, list[Any]]:
        """All rows as validated instances of the row model (or, with ``as_lists=True``, as columns).

        The rows come from Spark through Arrow and are validated by Pydantic
        in batches. ``trusted=True`` skips Pydantic and builds instances
        directly (about twice as fast): types and nullability are still
        guaranteed by the schema reconciliation, but field constraints
        (``gt=``, ``max_length=``...), validators and ``model_post_init`` do
        not run, enum fields hold plain values, and set/tuple fields hold lists.

        ``as_lists=True`` returns column name → list of values, as ``to_dict()``
        (the interface contract's columnar form; no Pydantic validation, so
        ``trusted=`` does not apply).

        ``engine="local"`` runs the plan without Spark, on the embedded local
        engine (DataFusion through Substrait; the ``local`` extra) and validates
        its rows the same way; a plan it cannot run exactly as Spark would
        raises ``UnsupportedEngineError`` naming the part (see ``docs/local-engine.md``).
        ``engine="auto"`` runs it locally where the local engine takes it, on Spark
        otherwise. Without ``engine=``, the default engine applies: Spark, unless
        ``pydantable_spark.engines.use_engine`` (or the pytest plugin) chose another.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     x: int
        ...     label: str | None
        >>> P.from_rows([{"x": 1, "label": None}]).collect(as_lists=True)
        {'x': [1], 'label': [None]}

        ```
        """
        from pydantable_spark import materialize

        _check_collect("collect()", trusted=trusted, as_lists=as_lists)
        if as_lists:
            return self.to_dict(engine=engine)
        return materialize.rows_from_arrow(self._arrow("collect()", engine), self.model, trusted=trusted)

    def to_arrow(self, *, engine: Engine | None = None) -> pa.Table:
        """The rows as an Arrow table; its schema carries the derived nullability.

        Two exceptions, forced by Arrow: the fields of a struct column that can
        be NULL come back nullable (Arrow cannot mark them non-null when the
        struct itself is NULL), and a VARIANT column comes back as its JSON text,
        a string column (Spark's ``to_json``; ``collect()`` and ``to_dict()``
        parse it into Python values).
        """
        return self._arrow("to_arrow()", engine)

    def _arrow(self, action: str, engine: Engine | None = None) -> pa.Table:
        refuse_batch_action(self._plan, action)
        chosen = chosen_engine(action, engine)
        if chosen != "spark":
            from pydantable_spark.errors import UnsupportedEngineError
            from pydantable_spark.substrait.local import run_local

            try:
                return run_local(self._plan, action)
            except UnsupportedEngineError as refused:
                if chosen == "local":
                    raise
                fell_back(action, str(refused))
        from pydantable_spark._spark.lower import arrow_ready
        from pydantable_spark._spark.session import run_action
        from pydantable_spark._spark.storage import spark_errors

        with spark_errors(action, self._plan):
            frame = arrow_ready(self._plan)
            return run_action(frame.sparkSession, frame.toArrow)

    def to_dict(self, *, engine: Engine | None = None) -> dict[str, list[Any]]:
        """Column name → list of values (reconciled types; no Pydantic validation; a VARIANT parsed from JSON)."""
        from pydantable_spark import materialize

        return materialize.python_columns(self._arrow("to_dict()", engine), _variants(self.schema))

    def to_pandas(self, *, engine: Engine | None = None) -> pd.DataFrame:
        """A pandas DataFrame; integer and boolean columns with NULLs use pandas' nullable dtypes."""
        from pydantable_spark import materialize

        return materialize.to_pandas(self._arrow("to_pandas()", engine))

    def to_polars(self) -> pl.DataFrame:
        """A Polars DataFrame, through Arrow (needs the ``polars`` extra); dates of any year come back exactly."""
        return _polars(self._arrow("to_polars()"))

    def collect_batches(self, batch_size: int = 65_536) -> list[pl.DataFrame]:
        """The rows as Polars DataFrames of at most ``batch_size`` adjacent rows each, from one Spark job.

        The interface contract's chunks: the whole result is fetched (through
        Arrow, as ``to_polars``) and then cut, so this bounds the size of each
        frame, not the memory used; ``stream()`` fetches a partition at a time.
        An empty result gives an empty list. Needs the ``polars`` extra.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     x: int
        >>> [batch.height for batch in P.from_rows([{"x": i} for i in range(5)]).collect_batches(2)]
        [2, 2, 1]

        ```
        """
        check_param("collect_batches()", "batch_size", batch_size, int)
        if batch_size < 1:
            msg = f"collect_batches(batch_size={batch_size}) needs a positive batch size"
            raise ArgumentValueError(msg)
        table = self._arrow("collect_batches()")
        return [_polars(table.slice(start, batch_size)) for start in range(0, table.num_rows, batch_size)]

    # --- streaming and asynchronous results ---------------------------------------------------

    def stream(self, batch_size: int = 10_000, *, trusted: bool = False) -> Generator[list[M], None, None]:
        """Validated rows in lists of ``batch_size``, without holding the whole result in Python.

        Spark sends one partition at a time (see ``pydantable_spark._spark.stream``);
        each batch is validated like ``collect()``, and an invalid row is
        reported with its index in the whole stream.
        """
        if batch_size < 1:
            msg = f"stream(batch_size={batch_size}) needs a positive batch size"
            raise ArgumentValueError(msg)
        refuse_batch_action(self._plan, "stream()")
        return self._stream(batch_size, trusted, None)

    def _stream(self, batch_size: int, trusted: bool, session: Any) -> Generator[list[M], None, None]:
        from pydantable_spark import materialize
        from pydantable_spark._spark.lower import arrow_ready
        from pydantable_spark._spark.session import new_tag, run_action
        from pydantable_spark._spark.storage import spark_errors
        from pydantable_spark._spark.stream import arrow_tables

        model = self.model
        seen = 0
        with spark_errors("stream()", self._plan):
            frame = arrow_ready(self._plan, session)
            tables, tag = arrow_tables(frame, batch_size), new_tag()
            try:
                while True:
                    # one call per batch (the caller's code runs in between), all under the stream's one tag:
                    # Spark starts the later batches' jobs from the thread the first one made, with its tag
                    table = run_action(frame.sparkSession, lambda: next(tables, None), tag, tag_jobs=not seen)
                    if table is None:
                        return
                    yield materialize.rows_from_arrow(table, model, trusted=trusted, first_row=seen)
                    seen += table.num_rows
            finally:
                tables.close()

    async def astream(self, batch_size: int = 10_000, *, trusted: bool = False) -> AsyncIterator[list[M]]:
        """``stream()`` for asyncio: each batch is fetched in a worker thread."""
        import asyncio  # here: importing it with the package costs every import (the mypy plugin's too)

        from pydantable_spark._spark.session import resolve_session

        if batch_size < 1:
            msg = f"astream(batch_size={batch_size}) needs a positive batch size"
            raise ArgumentValueError(msg)
        # the session is found here: a Spark Connect session is only "active" in the thread that made it
        batches = self._stream(batch_size, trusted, resolve_session())
        try:
            while True:
                batch = await asyncio.to_thread(next, batches, None)
                if batch is None:
                    return
                yield batch
        finally:
            batches.close()

    @overload
    def submit(self, action: Literal["collect"] = "collect") -> Job[list[M]]: ...
    @overload
    def submit(self, action: Literal["to_arrow"]) -> Job[pa.Table]: ...
    @overload
    def submit(self, action: Literal["to_dict"]) -> Job[dict[str, list[Any]]]: ...
    @overload
    def submit(self, action: Literal["to_pandas"]) -> Job[pd.DataFrame]: ...
    @overload
    def submit(self, action: Literal["to_polars"]) -> Job[pl.DataFrame]: ...
    @overload
    def submit(self, action: Literal["count"]) -> Job[int]: ...

    def submit(self, action: str = "collect") -> Job[Any]:
        """Start ``action`` in the background and return its ``Job`` at once (see ``pydantable_spark.jobs``)."""
        from pydantable_spark import materialize
        from pydantable_spark._spark.lower import arrow_ready, lower
        from pydantable_spark._spark.session import resolve_session

        plan, model = self._plan, self.model
        refuse_batch_action(plan, f"submit({action!r})")
        session = resolve_session()  # here: a Spark Connect session is only "active" in the thread that made it
        converters: dict[str, Callable[[pa.Table], Any]] = {
            "collect": lambda table: materialize.rows_from_arrow(table, model),
            "to_arrow": lambda table: table,
            "to_dict": lambda table: materialize.python_columns(table, _variants(plan.schema)),
            "to_pandas": materialize.to_pandas,
            "to_polars": _polars,
        }
        if action == "count":
            return Job(lambda: lower(plan, session), lambda frame: frame.count(), "count()")
        if action not in converters:
            msg = f"submit({shown(action)}): the action must be one of {', '.join(map(repr, [*converters, 'count']))}"
            raise ArgumentValueError(msg)
        convert = converters[action]
        return Job(lambda: arrow_ready(plan, session), lambda frame: convert(frame.toArrow()), f"{action}()")

    @overload
    async def acollect(self, *, as_lists: Literal[False] = False) -> list[M]: ...
    @overload
    async def acollect(self, *, as_lists: Literal[True]) -> dict[str, list[Any]]: ...
    @overload
    async def acollect(self, *, as_lists: bool) -> list[M] | dict[str, list[Any]]: ...

    async def acollect(self, *, as_lists: bool = False) -> list[M] | dict[str, list[Any]]:
        """``collect()`` without blocking the event loop; cancelling the awaiting task cancels the Spark job."""
        _check_collect("acollect()", trusted=False, as_lists=as_lists)
        if as_lists:
            return await self.submit("to_dict").result()
        return await self.submit("collect").result()

    async def ato_arrow(self) -> pa.Table:
        """``to_arrow()`` without blocking the event loop (cancellable like ``acollect``)."""
        return await self.submit("to_arrow").result()

    async def ato_dict(self) -> dict[str, list[Any]]:
        """``to_dict()`` without blocking the event loop (cancellable like ``acollect``)."""
        return await self.submit("to_dict").result()

    async def ato_polars(self) -> pl.DataFrame:
        """``to_polars()`` without blocking the event loop (cancellable like ``acollect``; needs the ``polars`` extra).

        ```pycon
        >>> import asyncio
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     x: int
        >>> asyncio.run(P.from_rows([{"x": 1}]).ato_polars()).to_dict(as_series=False)
        {'x': [1]}

        ```
        """
        return await self.submit("to_polars").result()

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)`` of the result: the rows are counted by one Spark job (``count()``).

        The interface contract takes the row count from the data a frame was
        built from, which after a filter is not the result's; the count here is
        always the result's, as pandas-on-Spark's ``shape`` is.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     x: int
        ...     y: str
        >>> frame = P.from_rows([{"x": 1, "y": "a"}, {"x": 2, "y": "b"}])
        >>> frame.shape, frame.filter(P.x > 1).shape
        ((2, 2), (1, 2))

        ```
        """
        return self.count(), len(self.schema)

    @property
    def empty(self) -> bool:
        """Whether the result has no row (one Spark job that stops at the first row, as PySpark's ``isEmpty()``).

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     x: int
        >>> frame = P.from_rows([{"x": 1}])
        >>> frame.empty, frame.filter(P.x > 1).empty
        (False, True)

        ```
        """
        return self._count("empty", p.Limit(self._plan, 1)) == 0

    def count(self, *, engine: Engine | None = None) -> int:
        """The number of rows (one Spark job, or the local engine's run with ``engine=``)."""
        return self._count("count()", self._plan, engine)

    def _count(self, action: str, plan: p.Plan, engine: Engine | None = None) -> int:
        refuse_batch_action(plan, action)
        chosen = chosen_engine(action, engine)
        if chosen != "spark":
            from pydantable_spark.errors import UnsupportedEngineError
            from pydantable_spark.substrait.local import run_local

            try:
                return run_local(plan, action).num_rows
            except UnsupportedEngineError as refused:
                if chosen == "local":
                    raise
                fell_back(action, str(refused))
        from pydantable_spark._spark.lower import lower
        from pydantable_spark._spark.session import run_action
        from pydantable_spark._spark.storage import spark_errors

        with spark_errors(action, plan):
            frame = lower(plan)
            return run_action(frame.sparkSession, frame.count)

    # --- constraints --------------------------------------------------------------------------

    def validate(
        self,
        *,
        key: str | Sequence[str] = (),
        examples: int = 5,
        references: Mapping[str | type[DataFrameModel], DataFrame[Any]] | None = None,
    ) -> ValidationReport:
        """Check every value constraint of the model on every row, in one Spark pass, and report.

        The constraints Spark checks are those of ``Model.spark_constraints()``
        (bounds, lengths, patterns, ``Literal``/enum membership, decimal digits,
        ``allow_inf_nan=False``, nested ones too); they are all counted in a
        single aggregation job; when one is violated and ``examples`` > 0, a
        second job picks the example rows among the violating ones. ``key``
        names the columns that identify a row in the examples (each example
        shows them and the violating column);
        ``examples`` is how many rows to show per constraint (at most). The
        model's dataset-level checks (``Model.checks()``) run in the same job.
        ``references`` gives the referenced rows of its ``references`` checks:
        a frame of the referenced model, keyed by that model
        (``{Customer: customers}``) or by the check's name; a check that
        references the model's own key reads this frame unless one is given.
        The report's ``str()`` is a table; ``raise_for_errors()`` raises
        ``ConstraintError`` with it. See ``docs/constraints.md``.

        ```pycon
        >>> from pydantic import Field
        >>> from pydantable_spark import DataFrameModel
        >>> class Stock(DataFrameModel):
        ...     id: int
        ...     qty: int = Field(ge=0)
        >>> import pyarrow as pa
        >>> rows = pa.Table.from_pylist([{"id": 1, "qty": 3}, {"id": 2, "qty": -1}])  # from_rows would refuse -1
        >>> report = Stock.from_arrow(rows).validate(key="id")
        >>> print(report)
        2 rows, 1 of 1 constraints violated
        column  constraint  violations  examples
        qty     ge 0        1           id=2, qty=-1

        ```
        """
        from pydantable_spark._spark.checks import validate as run_checks
        from pydantable_spark._spark.lower import to_spark
        from pydantable_spark._spark.session import run_action
        from pydantable_spark._spark.storage import spark_errors
        from pydantable_spark.checks.references import bound_checks, kept_by_reference, reference_frames
        from pydantable_spark.constraints import spark_constraints
        from pydantable_spark.frame import DataFrame

        refuse_batch_action(self._plan, "validate()")
        keys = (key,) if isinstance(key, str) else tuple(key)
        for name in keys:
            self.schema[name]  # an unknown key column names the columns there are
        if type(examples) is not int or examples < 0:
            msg = f"validate(): examples must be an int >= 0, got {shown(examples)}"
            raise ArgumentValueError(msg)
        checks = spark_constraints(self.model)
        declared = bound_checks(cast("DataFrame[Any]", self))
        referenced = reference_frames(cast("DataFrame[Any]", self), declared, references)
        with spark_errors("validate()", self._plan):
            frame = to_spark(self._plan)
            lowered = {name: to_spark(other._plan) for name, other in referenced.items()}
            report = run_action(
                frame.sparkSession, lambda: run_checks(frame, checks, declared, keys, examples, lowered)
            )
        dropped = [c.expr for c in declared if c.action == "drop" and c.expr is not None]
        kept = self._plan
        for predicate in dropped:
            kept = p.Filter(kept, predicate)
        result: DataFrame[Any] = DataFrame(kept, self.model)
        for check in declared:
            if check.kind == "references" and check.action == "drop":
                result = DataFrame(kept_by_reference(result, check, referenced[check.name])._plan, self.model)
        return dataclasses.replace(report, frame=result)


def _check_collect(what: str, *, trusted: bool, as_lists: bool) -> None:
    """``collect``'s and ``acollect``'s options, checked by type when the call is made."""
    check_param(what, "trusted", trusted, bool)
    check_param(what, "as_lists", as_lists, bool)
    if as_lists and trusted:
        msg = f"{what}: as_lists=True gives columns, which are not validated; trusted= does not apply to it"
        raise ArgumentTypeError(msg)


def _polars(table: pa.Table) -> pl.DataFrame:
    """An Arrow table as a Polars DataFrame (the ``polars`` extra)."""
    import polars as pl

    return pl.from_arrow(table)  # type: ignore[return-value]


def _variants(schema: Schema) -> frozenset[str]:
    """The VARIANT columns of ``schema`` (their values arrive as JSON text)."""
    return frozenset(f.name for f in schema if isinstance(f.dtype, dt.Variant))
