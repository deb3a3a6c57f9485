"""``StreamingQuery``: the typed handle on a running Structured Streaming query (what ``write_stream_*`` returns).

Its failures are the library's errors: a NULL in a column the model declares
non-null is ``NullCheckError`` naming the column (and the micro-batch), a
record that does not parse is ``MalformedDataError``, a constraint violated
``ConstraintError``, anything else ``SparkJobError`` with Spark's reason.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    BatchFunctionError,
    StreamingError,
    first_line,
    shown,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pyspark.sql.streaming.query import StreamingQuery as SparkQuery

    from pydantable_spark._spark.stream_constraints import Observed
    from pydantable_spark.constraints import ValidationReport
    from pydantable_spark.streaming.batches import BatchFunction

__all__ = ["StreamingQuery"]


class StreamingQuery:
    """A running (or finished) streaming query started by ``write_stream_*``.

    ``await_termination`` and ``process_all_available`` raise the query's
    failure as the library's error; ``exception()`` returns it. ``spark_query``
    is PySpark's own handle, for what is not typed here.
    """

    __slots__ = ("_action", "_batches", "_observed", "_query")

    def __init__(
        self, query: SparkQuery, action: str, batches: BatchFunction | None = None,
        observed: Observed | None = None,
    ) -> None:  # fmt: skip
        """Wrap PySpark's query ``query``, started by ``action`` (``write_stream_parquet('out')``).

        ``batches``: ``foreach_batch``'s function, whose failure is raised as
        ``BatchFunctionError``; ``observed``: what the query counts per
        micro-batch (the constraints of a ``constraints="report"`` sink, the
        model's ``warn`` and ``drop`` row checks).
        """
        self._query = query
        self._action = action
        self._batches = batches
        self._observed = observed

    def __repr__(self) -> str:
        state = "active" if self.is_active else "stopped"
        return f"StreamingQuery({self._action}, {state})"

    @property
    def spark_query(self) -> SparkQuery:
        """PySpark's ``StreamingQuery`` this handle wraps."""
        return self._query

    @property
    def id(self) -> str:
        """The query's id, kept across restarts from the same checkpoint."""
        return str(self._query.id)

    @property
    def name(self) -> str | None:
        """The query's name (``query_name=``), or None."""
        found = self._query.name
        return None if found is None else str(found)

    @property
    def is_active(self) -> bool:
        """Whether the query is still running."""
        return bool(self._query.isActive)

    @property
    def status(self) -> dict[str, Any]:
        """Spark's status of the query: ``message``, ``isDataAvailable``, ``isTriggerActive``."""
        return dict(self._query.status)

    @property
    def last_progress(self) -> dict[str, Any] | None:
        """Spark's report on the last micro-batch (``batchId``, ``numInputRows``, ...), or None before the first."""
        found = self._query.lastProgress
        return None if found is None else dict(found)

    @property
    def recent_progress(self) -> list[dict[str, Any]]:
        """Spark's reports on the recent micro-batches, oldest first."""
        return [dict(p) for p in self._query.recentProgress]

    @property
    def constraint_reports(self) -> list[tuple[int, ValidationReport]]:
        """Each recent micro-batch's violation counts, ``(batch_id, report)``.

        The counts of the micro-batches in ``recent_progress`` (Spark keeps the
        last 100 reports); a report has counts, no example rows: each
        constraint's violations (``results``) when the sink was started with
        ``constraints="report"``, and each ``warn`` or ``drop`` row check of the
        model (``checks``; a ``drop`` check's rows were not written) unless it was
        started with ``constraints="skip"``. A micro-batch that a restart runs
        again is counted again in the new query's reports (its rows are written
        once: the sink is Spark's own).
        """
        if self._observed is None:
            msg = (
                f"{self._action}: constraint_reports needs a query started with constraints='report', or a model "
                "with 'warn' or 'drop' row checks (this query counts nothing)"
            )
            raise StreamingError(msg)
        from pydantable_spark._spark.stream_constraints import reports

        return reports(self.recent_progress, self._observed)

    def await_termination(self, timeout: float | None = None) -> bool:
        """Wait until the query ends (or ``timeout`` seconds pass): whether it ended; its failure is raised.

        ``timeout`` is a positive number of seconds, or None to wait as long
        as it runs (a query with ``available_now=True`` ends once it has
        read what was there).
        """
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, int | float):
                msg = f"await_termination(): timeout must be seconds (a number) or None, got {shown(timeout)}"
                raise ArgumentTypeError(msg)
            if timeout <= 0:
                msg = f"await_termination(): timeout must be positive, got {timeout}"
                raise ArgumentValueError(msg)
        with self._failures("await_termination()"):
            ended = self._query.awaitTermination(timeout) if timeout is not None else self._query.awaitTermination()  # type: ignore[arg-type]  # PySpark takes seconds as a float too
        return True if ended is None else bool(ended)

    def process_all_available(self) -> None:
        """Block until every input available now has been processed and written (tests' way to wait)."""
        with self._failures("process_all_available()"):
            self._query.processAllAvailable()

    def stop(self) -> None:
        """Stop the query (what it committed stays committed; a restart from its checkpoint goes on from there)."""
        self._query.stop()

    def exception(self) -> Exception | None:
        """The failure that ended the query, as the library's error, or None."""
        from pydantable_spark._spark.streaming import query_failure

        failure = query_failure(self._query)
        if failure is None:
            return None
        try:
            with self._failures("the query"):
                raise failure
        except Exception as error:
            return error
        return None  # pragma: no cover  (the block above always raises)

    @contextlib.contextmanager
    def _failures(self, call: str) -> Iterator[None]:
        """Spark's errors as the library's, naming the query and the micro-batch that failed.

        The failed micro-batch is the one after the last that reported progress.
        """
        from pydantable_spark._spark.storage import spark_errors
        from pydantable_spark._spark.streaming import last_batch
        from pydantable_spark.streaming.batches import reported_failure

        try:
            yield
        except Exception as error:
            where = f"{self._action} ({call})"
            failed = self._batches.failure if self._batches is not None else None
            if failed is not None:
                batch_id, raised = failed
                raise BatchFunctionError(where, batch_id, type(raised).__name__, first_line(raised)) from raised
            reported = reported_failure(str(error)) if self._batches is not None else None
            if reported is not None:  # Spark Connect: the function ran (and failed) in the server's worker
                raise BatchFunctionError(where, *reported) from error
            done = last_batch(self._query)
            where = f"{self._action} ({call}), micro-batch {0 if done is None else done + 1}"
            with spark_errors(where):
                raise error from None
