"""Per-micro-batch constraints on a stream sink: ``report`` (observed counts) and ``quarantine`` (two Delta writes).

* ``report``: the stream is observed with each constraint's violation count
  (Spark's named observation, ``observe(name, ...)``): the sink is Spark's own,
  so its exactly-once commit is kept, and each micro-batch's counts come with
  its progress report (``StreamingQuery.constraint_reports``).
* ``quarantine``: each micro-batch is split in ``foreachBatch``: the rows that
  violate a constraint (with a ``violations`` column) are appended to the
  quarantine table, the others to the sink's table, both Delta Lake. Each of
  the two appends carries Delta's idempotent-write options: ``txnAppId`` (from
  the checkpoint's path, one for the sink and one for the quarantine) and
  ``txnVersion`` (the micro-batch id), so a micro-batch that a restart runs
  again (a stop or crash after either write, before the checkpoint recorded
  the batch) is skipped by the table that committed it already: every row is
  in exactly one of the two tables, once.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.constraints import SparkConstraints, ValidationReport

__all__ = ["OBSERVED", "Quarantine", "app_id", "observed_stream", "reports"]

OBSERVED = "pydantable_constraints"
"""The name of the observation of a ``constraints="report"`` stream (a key of its progress' ``observedMetrics``)."""


def observed_stream(frame: SparkDataFrame, checks: SparkConstraints) -> SparkDataFrame:
    """``frame`` (a stream) observed with the rows and each constraint's violations, per micro-batch."""
    from pyspark.sql import functions as sf

    from pydantable_spark._spark.constraints import _counts, _named

    named, names = _named(frame)
    return named.observe(OBSERVED, *(sf.expr(item) for item in _counts(checks))).toDF(*names)


def reports(progress: list[dict[str, Any]], checks: SparkConstraints) -> list[tuple[int, ValidationReport]]:
    """The ``(batch id, report)`` of each micro-batch in ``progress`` (Spark's reports) that has the counts."""
    from pydantable_spark._spark.constraints import _report

    found = []
    for report in progress:
        metrics = (report.get("observedMetrics") or {}).get(OBSERVED)
        if metrics is not None:
            found.append((int(report["batchId"]), _report(_metric_values(metrics), checks, ())))
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

    def __call__(self, batch: SparkDataFrame, batch_id: int) -> None:
        """Split micro-batch ``batch_id``: the violating rows to the quarantine, the others to the sink."""
        from pyspark.sql import functions as sf

        from pydantable_spark._spark.constraints import VIOLATIONS, flagged_rows
        from pydantable_spark._spark.writes import Request, write_path, write_table

        flagged = flagged_rows(batch, self.violations).persist()
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
