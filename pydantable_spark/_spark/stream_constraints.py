"""Per-micro-batch constraints on a stream sink: ``report`` (observed counts) and ``quarantine`` (two Delta writes).

* ``report``: the stream is observed with each constraint's violation count
  (Spark's named observation, ``observe(name, ...)``): the sink is Spark's own,
  so its exactly-once commit is kept, and each micro-batch's counts come with
  its progress report (``StreamingQuery.constraint_reports``). The model's
  ``warn`` and ``drop`` row checks are counted in the same observation, in
  every mode but ``skip`` (``Observed``); a ``drop`` check's rows are then
  filtered out of the stream (or set apart by ``quarantine``).
* ``quarantine``: each micro-batch is split in ``foreachBatch``: the rows that
  violate a constraint or a ``drop`` row check (with a ``violations`` column)
  are appended to the quarantine table, the others to the sink's table, both Delta Lake. Each of
  the two appends carries Delta's idempotent-write options: ``txnAppId`` (from
  the checkpoint's path, one for the sink and one for the quarantine) and
  ``txnVersion`` (the micro-batch id), so a micro-batch that a restart runs
  again (a stop or crash after either write, before the checkpoint recorded
  the batch) is skipped by the table that committed it already: every row is
  in exactly one of the two tables, once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.checks.declare import Check
    from pydantable_spark.constraints import SparkConstraints, ValidationReport

__all__ = ["OBSERVED", "Observed", "Quarantine", "app_id", "checked_stream", "reports"]

OUTCOME = " (the micro-batch was not committed)"
"""How a failing check's or constraint's message ends on a stream."""

OBSERVED = "pydantable_constraints"
"""The name of the observation of a ``constraints="report"`` stream (a key of its progress' ``observedMetrics``)."""


@dataclass(frozen=True, slots=True)
class Observed:
    """What a stream sink counts per micro-batch: the constraints (``report``) and the ``warn``/``drop`` row checks."""

    constraints: SparkConstraints
    """The constraints counted (none unless the sink reports them)."""
    checks: tuple[Check, ...] = ()
    """The row checks counted: a ``CheckResult`` each in every micro-batch's report."""

    @classmethod
    def of(cls, constraints: SparkConstraints | None, checks: tuple[Check, ...] = ()) -> Observed:
        """The counts of ``constraints`` (None: none) and of ``checks``."""
        if constraints is None:
            from pydantic import BaseModel

            from pydantable_spark.constraints import SparkConstraints

            constraints = SparkConstraints(BaseModel, (), ())
        return cls(constraints, checks)

    def observe(self, frame: SparkDataFrame) -> SparkDataFrame:
        """``frame`` (a stream) observed with its rows and the violations of each constraint and check, per batch."""
        from pyspark.sql import functions as sf

        from pydantable_spark._spark.checks import row_violation_sql
        from pydantable_spark._spark.constraints import _counts, _named

        named, names = _named(frame)
        items = _counts(self.constraints)
        items += [f"count_if({row_violation_sql(c)}) AS `__pydantable_k{i}`" for i, c in enumerate(self.checks)]
        return named.observe(OBSERVED, *(sf.expr(item) for item in items)).toDF(*names)

    def report(self, values: dict[str, Any]) -> ValidationReport:
        """The report of one micro-batch from the values of its observation (counts, no examples)."""
        from pydantable_spark._spark.constraints import _report
        from pydantable_spark.constraints import CheckResult

        counts = tuple(CheckResult(c, int(values[f"__pydantable_k{i}"] or 0), ()) for i, c in enumerate(self.checks))
        return dataclasses.replace(_report(values, self.constraints, ()), checks=counts)


def checked_stream(
    frame: SparkDataFrame, checks: SparkConstraints | None, rows: Sequence[Check], constraints: str, action: str
) -> tuple[SparkDataFrame, Observed | None, list[tuple[str, str]]]:
    """``frame`` (a stream) with the model's constraints and row checks of a sink in mode ``constraints``.

    ``fail`` row checks, and the constraints under ``"raise"``, fail the
    micro-batch at the first violating row; the constraints under
    ``"report"`` and the ``warn``/``drop`` row checks are counted (the
    ``Observed`` returned, None when nothing is); a ``drop`` check's rows are
    filtered out, or (``"quarantine"``) marked by flag columns, returned with
    the checks' names for the quarantine's ``violations``.
    """
    from pydantable_spark._spark.checks import drop_flags, raising_rows, without_dropped
    from pydantable_spark._spark.constraints import raising

    failing = [c for c in rows if c.action == "fail"]
    counted = tuple(c for c in rows if c.action != "fail")
    if failing:
        frame = raising_rows(frame, failing, action, OUTCOME)
    if checks is not None and checks.checked and constraints == "raise":
        frame = raising(frame, checks, action, OUTCOME)
    reported = checks if checks is not None and checks.checked and constraints == "report" else None
    observed = Observed.of(reported, counted) if reported is not None or counted else None
    if observed is not None:
        frame = observed.observe(frame)
    dropped: list[tuple[str, str]] = []
    if any(c.action == "drop" for c in counted):
        frame, dropped = drop_flags(frame, counted, {})
        if constraints != "quarantine":
            frame = without_dropped(frame, [flag for flag, _ in dropped])
    return frame, observed, dropped


def reports(progress: list[dict[str, Any]], observed: Observed) -> list[tuple[int, ValidationReport]]:
    """The ``(batch id, report)`` of each micro-batch in ``progress`` (Spark's reports) that has the counts."""
    found = []
    for report in progress:
        metrics = (report.get("observedMetrics") or {}).get(OBSERVED)
        if metrics is not None:
            found.append((int(report["batchId"]), observed.report(_metric_values(metrics))))
    return found


def app_id(checkpoint: str, role: str) -> str:
    """Delta's ``txnAppId`` of the writes of the query at ``checkpoint`` (stable across restarts), for ``role``."""
    digest = hashlib.sha256(os.path.abspath(checkpoint).encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return f"pydantable-{role}-{digest}"


@dataclass(frozen=True, slots=True)
class Quarantine:
    """``foreachBatch``'s function of a ``constraints="quarantine"`` Delta sink (see the module docstring)."""

    action: str
    target: str
    table: bool
    quarantine: str
    violations: str
    """``constraints.violations_sql`` of the model: text, so the function pickles without the model (Connect)."""
    checkpoint: str
    partition_by: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()
    """The flag columns of the model's ``drop`` row checks (``_spark.checks.drop_flags``), with the checks' names."""

    def __call__(self, batch: SparkDataFrame, batch_id: int) -> None:
        """Split micro-batch ``batch_id``: violating (and dropped) rows to the quarantine, the others to the sink."""
        from pyspark.sql import functions as sf

        from pydantable_spark._spark.constraints import VIOLATIONS, flagged_rows
        from pydantable_spark._spark.writes import Request, write_path, write_table

        flagged = flagged_rows(batch, self.violations, self.dropped).persist()
        try:
            version = str(int(batch_id))
            aside = Request(
                f"{self.action}'s quarantine ({self.quarantine!r}), micro-batch {version}", "delta", self.quarantine,
                "append", options={"txnAppId": app_id(self.checkpoint, "quarantine"), "txnVersion": version},
            )  # fmt: skip
            bad = flagged.filter(sf.size(VIOLATIONS) > 0)
            (write_table if self.table else write_path)(bad, aside)
            txn = {"txnAppId": app_id(self.checkpoint, "sink"), "txnVersion": version}
            writer = flagged.filter(sf.size(VIOLATIONS) == 0).drop(VIOLATIONS).write.format("delta").mode("append")
            writer = writer.options(**dict(self.options), **txn)
            if self.partition_by:
                writer = writer.partitionBy(*self.partition_by)
            if self.table:
                writer.saveAsTable(self.target)
            else:
                writer.save(self.target)
        finally:
            flagged.unpersist()


def _metric_values(metrics: Any) -> dict[str, Any]:
    """An observation's values by name: a Row of them (classic), or of ``values`` and ``schema`` (Spark Connect)."""
    values = metrics.asDict(recursive=True) if hasattr(metrics, "asDict") else dict(metrics)
    if set(values) == {"values", "schema"}:  # Spark Connect's progress: the values, and the struct that names them
        return {f["name"]: value for f, value in zip(values["schema"]["fields"], values["values"], strict=True)}
    return values
