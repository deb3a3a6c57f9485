"""Concurrency: several threads acting on one session, cancel racing a job's end (two writers at one
target: tests/test_writes.py)."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest

from pydantable_spark import DataFrameModel, F
from pydantable_spark.errors import JobCancelledError

if TYPE_CHECKING:
    from pathlib import Path

    from pyspark.sql import SparkSession


class Reading(DataFrameModel):
    id: int
    sensor: str
    value: float | None


def _rows(offset: int, n: int) -> list[dict[str, Any]]:
    return [{"id": offset + i, "sensor": f"s{i % 3}", "value": None if i % 4 == 0 else i / 2} for i in range(n)]


def test_threads_collecting_and_writing_on_one_session_each_get_their_own_result(
    spark: SparkSession, tmp_path: Path
) -> None:
    frames = [Reading.from_rows(_rows(1000 * t, 20 + t)) for t in range(8)]

    def work(t: int) -> list[Any]:
        frame = frames[t]
        results: list[Any] = []
        results.append(sorted(r.id for r in frame.collect()))
        results.append(frame.filter(Reading.value.is_not_null()).count())
        frame.write_parquet(tmp_path / f"t{t}")
        results.append(sorted(Reading.read_parquet(tmp_path / f"t{t}").to_dict()["id"]))
        results.append(frame.group_by("sensor").agg(n=F.count()).sort("sensor").to_dict())
        results.append(sum(len(batch) for batch in frame.stream(batch_size=7)))
        results.append(frame.to_arrow().num_rows)
        return results

    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(work, range(8)))
    for t, got in enumerate(outcomes):
        n = 20 + t
        ids = list(range(1000 * t, 1000 * t + n))
        counts = {s: sum(1 for i in range(n) if f"s{i % 3}" == s) for s in ("s0", "s1", "s2")}
        assert got == [
            ids,
            sum(1 for i in range(n) if i % 4),
            ids,
            {"sensor": ["s0", "s1", "s2"], "n": [counts["s0"], counts["s1"], counts["s2"]]},
            n,
            n,
        ]


def test_a_cancel_racing_a_job_end_is_decided_once(spark: SparkSession) -> None:
    """cancel() True: the job raises JobCancelledError; False: it delivers its own result. Never both."""
    frame = Reading.from_arrow(pa.Table.from_pylist(_rows(0, 50)))
    frame.count()
    timings = []
    for _ in range(3):  # how long a job takes on this machine, so that the waits below straddle its end
        started = time.perf_counter()
        assert frame.submit("count").wait(timeout=120) == 50  # type: ignore[attr-defined]
        timings.append(time.perf_counter() - started)
    span = 2 * sorted(timings)[1]
    chances = random.Random(7)
    seen = {True: 0, False: 0}
    for _ in range(40):
        job = frame.submit("count")  # type: ignore[attr-defined]
        threading.Event().wait(chances.uniform(0.0, span))  # somewhere before, during or after the job
        cancelled = job.cancel()
        seen[cancelled] += 1
        if cancelled:
            with pytest.raises(JobCancelledError):
                job.wait(timeout=120)
        else:
            assert job.wait(timeout=120) == 50
    assert frame.count() == 50  # the session is fine afterwards
    assert seen[True], seen  # both outcomes were reached, so the race was run
    assert seen[False], seen
