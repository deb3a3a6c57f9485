"""Results without blocking: a Spark action run in a background thread, cancellable by job tag.

``DataFrame.submit()`` returns a ``Job`` at once; ``await job.result()`` (or
``job.wait()``) gives the result. ``job.cancel()`` interrupts the Spark work
tagged with ``job.tag`` (Spark job tags: ``SparkContext.cancelJobsWithTag`` on
classic Spark, ``SparkSession.interruptTag`` on Spark Connect) and the result then raises ``JobCancelledError``: a
cancelled job never delivers a result, even if Spark finished just before the
interrupt arrived. Cancelling the task that awaits ``result()`` cancels the
job too, so ``asyncio.wait_for(df.acollect(), 10)`` stops the Spark work when
it times out.

```pycon
>>> import asyncio
>>> from pydantable_spark import DataFrameModel
>>> class N(DataFrameModel):
...     n: int
>>> job = N.from_rows([{"n": 1}, {"n": 2}]).submit("count")
>>> asyncio.run(job.result())
2

```
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark.errors import JobCancelledError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Job"]

T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="pydantable-spark-job")
"""Threads that run submitted actions; Spark runs their jobs concurrently (FIFO scheduling by default)."""


class Job(Generic[T]):
    """A Spark action running in the background (see the module docstring)."""

    def __init__(self, prepare: Callable[[], Any], run: Callable[[Any], T], description: str) -> None:
        """Start ``run(prepare())`` in a worker thread; ``prepare`` returns the Spark DataFrame to act on."""
        self.tag = f"pydantable-spark-{uuid.uuid4().hex}"
        self.description = description
        self._prepare = prepare
        self._run = run
        self._cancelled = threading.Event()
        self._session: Any = None
        self._finished = False
        self._lock = threading.Lock()
        self._future: Future[T] = _POOL.submit(self._execute)

    def __repr__(self) -> str:
        state = "cancelled" if self._cancelled.is_set() else "done" if self.done() else "running"
        return f"Job({self.description}, tag={self.tag!r}, {state})"

    def _execute(self) -> T:
        from pydantable_spark._spark.session import tagged_jobs
        from pydantable_spark._spark.storage import spark_errors

        with spark_errors(self.description):
            frame = self._prepare()
        session = frame.sparkSession
        with self._lock:
            self._session = session
        with tagged_jobs(session, self.tag):
            self._raise_if_cancelled(None)
            try:
                with spark_errors(self.description):
                    result = self._run(frame)
            except Exception as error:
                self._finish(error)
                raise
        self._finish(None)
        return result

    def _raise_if_cancelled(self, cause: BaseException | None) -> None:
        if self._cancelled.is_set():
            raise JobCancelledError(self.description, self.tag) from cause

    def _finish(self, error: BaseException | None) -> None:
        """End the job: cancelled (``JobCancelledError``) if ``cancel()`` came first, else finished for good.

        Under the lock ``cancel()`` takes, so the two never both win: a job
        ``cancel()`` returned True for raises ``JobCancelledError``, and one it
        returned False for delivers its own result or error.
        """
        with self._lock:
            if self._cancelled.is_set():
                raise JobCancelledError(self.description, self.tag) from error
            self._finished = True

    def done(self) -> bool:
        """Whether the job has finished (with a result, an error, or cancelled)."""
        return self._future.done()

    def cancel(self) -> bool:
        """Interrupt the job's Spark work; False if it had already finished.

        Spark cancels the running stages of every job tagged ``self.tag``; tasks
        stop at their next interruption point. ``result()`` then raises
        ``JobCancelledError``. A cancel that races the job's end is decided
        once: True means the job raises ``JobCancelledError``, False that it
        delivers what it finished with.
        """
        with self._lock:
            if self._finished or self._future.done():
                return False
            self._cancelled.set()
            session = self._session
        if self._future.cancel():  # never started
            return True
        if session is not None:
            from pydantable_spark._spark.session import interrupt_tag

            interrupt_tag(session, self.tag)
        return True

    def wait(self, timeout: float | None = None) -> T:
        """Block until the result is there (``TimeoutError`` after ``timeout`` seconds).

        Ctrl-C (``KeyboardInterrupt``) while waiting cancels the job, then propagates.
        """
        try:
            return self._future.result(timeout)
        except CancelledError as error:  # cancelled before it started
            raise JobCancelledError(self.description, self.tag) from error
        except KeyboardInterrupt:
            self.cancel()
            raise

    async def result(self) -> T:
        """Await the result; cancelling the awaiting task cancels the job."""
        import asyncio  # here: importing it with the package costs every import (the mypy plugin's too)

        try:
            return await asyncio.wrap_future(self._future)
        except asyncio.CancelledError:
            if self._cancelled.is_set():
                raise JobCancelledError(self.description, self.tag) from None
            self.cancel()
            raise
