"""Streaming and asynchronous results on real Spark: batches, async methods, submit/cancel."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Annotated

import pyarrow as pa
import pytest
from pydantic import Field

from pydantable_spark import DataFrameModel
from pydantable_spark.errors import JobCancelledError, NullCheckError, RowValidationError

if TYPE_CHECKING:
    from pathlib import Path

    from pyspark.sql import SparkSession


class N(DataFrameModel):
    id: int
    half: float | None


class Positive(DataFrameModel):
    id: Annotated[int, Field(gt=0)]


def _numbers(spark: SparkSession, n: int, partitions: int = 3) -> object:
    sdf = spark.range(0, n, 1, partitions).selectExpr("id", "IF(id % 3 = 0, NULL, id / 2) AS half")
    return N.from_spark(sdf)


def test_stream_yields_every_row_in_batches_of_the_asked_size(spark: SparkSession) -> None:
    frame = _numbers(spark, 2_500).sort(N.id)  # type: ignore[attr-defined]
    batches = list(frame.stream(batch_size=1_000))
    assert [len(b) for b in batches] == [1_000, 1_000, 500]
    assert [row for batch in batches for row in batch] == frame.collect()
    assert all(isinstance(row, N) for row in batches[0])


def test_stream_of_an_empty_result_yields_nothing(spark: SparkSession) -> None:
    assert list(_numbers(spark, 10).filter(N.id < 0).stream()) == []  # type: ignore[attr-defined]


def test_stream_reports_invalid_rows_by_their_place_in_the_whole_stream(spark: SparkSession) -> None:
    sdf = spark.range(1, 40, 1, 2).selectExpr("IF(id = 25, -1, id) AS id")
    frame = Positive.from_spark(sdf)
    with pytest.raises(RowValidationError, match=r"row 24, field 'id': Input should be greater than 0 \(got -1\)"):
        for _ in frame.stream(batch_size=10):
            pass


def test_stream_translates_failed_null_checks(tmp_path: Path, spark: SparkSession) -> None:
    spark.createDataFrame([(1, 0.5), (None, 1.0)], "id bigint, half double").write.parquet(str(tmp_path / "p"))
    with pytest.raises(NullCheckError, match=r"stream\(\): column 'id' holds a NULL"):
        list(N.read_parquet(tmp_path / "p").stream())


def test_stream_needs_a_positive_batch_size(spark: SparkSession) -> None:
    with pytest.raises(ValueError, match=r"stream\(batch_size=0\) needs a positive batch size"):
        next(_numbers(spark, 3).stream(batch_size=0))  # type: ignore[attr-defined]


def test_astream_and_the_async_methods_match_the_blocking_ones(spark: SparkSession) -> None:
    frame = _numbers(spark, 300).sort(N.id)  # type: ignore[attr-defined]

    async def run() -> tuple[list[N], list[N], pa.Table, dict[str, list[object]]]:
        streamed = [row async for batch in frame.astream(batch_size=128) for row in batch]
        return streamed, await frame.acollect(), await frame.ato_arrow(), await frame.ato_dict()

    streamed, collected, table, columns = asyncio.run(run())
    assert streamed == collected == frame.collect()
    assert table.equals(frame.to_arrow())
    assert columns == frame.to_dict()


def test_submit_returns_a_handle_at_once(spark: SparkSession) -> None:
    frame = _numbers(spark, 100)
    job = frame.submit("count")  # type: ignore[attr-defined]
    assert job.tag.startswith("pydantable-spark-")
    assert job.wait(timeout=120) == 100
    assert job.done()
    assert not job.cancel()  # finished jobs cannot be cancelled
    assert "done" in repr(job)
    assert frame.submit("to_pandas").wait(timeout=120).shape == (100, 2)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="the action must be one of 'collect', 'to_arrow'"):
        frame.submit("show")  # type: ignore[attr-defined]


class Big(DataFrameModel):
    id: int


def _slow(spark: SparkSession) -> object:
    """A frame whose count would take an hour: a trillion-row range filtered on a hash."""
    return Big.from_spark(spark.range(0, 10**12, 1, 2).where("hash(id) % 1000003 = 7"))


def _wait_until_running(job: object, seconds: float = 3.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not job.done():  # type: ignore[attr-defined]
        time.sleep(0.1)


def test_cancel_interrupts_the_spark_job(spark: SparkSession) -> None:
    job = _slow(spark).submit("count")  # type: ignore[attr-defined]
    _wait_until_running(job)
    assert job.cancel()
    with pytest.raises(JobCancelledError, match=r"count\(\) was cancelled \(Spark job tag 'pydantable-spark-"):
        job.wait(timeout=300)  # a TimeoutError here would mean Spark kept running
    assert "cancelled" in repr(job)
    assert _numbers(spark, 5).count() == 5  # type: ignore[attr-defined]  # the session is fine afterwards


def test_cancelling_the_awaiting_task_cancels_the_job(spark: SparkSession) -> None:
    job = _slow(spark).submit("collect")  # type: ignore[attr-defined]

    async def run() -> None:
        waiting = asyncio.ensure_future(job.result())
        await asyncio.sleep(3)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(run())
    with pytest.raises(JobCancelledError):
        job.wait(timeout=300)


def test_wait_for_timeout_stops_acollect(spark: SparkSession) -> None:
    async def run() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_slow(spark).acollect(), timeout=2)  # type: ignore[attr-defined]

    asyncio.run(run())
    assert _numbers(spark, 2).count() == 2  # type: ignore[attr-defined]


def test_errors_inside_a_job_surface_from_result(spark: SparkSession) -> None:
    sdf = spark.range(1, 4).selectExpr("IF(id = 2, -1, id) AS id")
    job = Positive.from_spark(sdf).submit()
    with pytest.raises(RowValidationError, match="row 1, field 'id'"):
        job.wait(timeout=120)


def test_astream_needs_a_positive_batch_size(spark: SparkSession) -> None:
    async def first() -> object:
        return await anext(_numbers(spark, 3).astream(batch_size=0))  # type: ignore[attr-defined]

    with pytest.raises(ValueError, match=r"astream\(batch_size=0\) needs a positive batch size"):
        asyncio.run(first())
