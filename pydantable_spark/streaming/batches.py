"""``foreach_batch``'s function as Spark calls it: each micro-batch handed over as a typed batch frame.

Spark's ``foreachBatch`` calls a function with each micro-batch (a batch
Spark DataFrame) and its id. ``BatchFunction`` wraps the user's function: it
reconciles the micro-batch with the stream's model (a batch ``DataFrame[M]``:
``collect()`` and the batch writers work on it) and keeps the first failure
(the micro-batch and the function's own exception), which ``StreamingQuery``
raises as ``BatchFunctionError``. On Spark Connect the function runs in the
server's Python worker, so only Spark's report of the failure comes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.frame import DataFrame

__all__ = ["BatchFunction"]


class BatchFunction:
    """``fn(frame, batch_id)`` for Spark's ``foreachBatch``, with ``frame`` a ``DataFrame`` of ``model``."""

    __slots__ = ("failure", "fn", "model")

    def __init__(self, fn: Callable[[DataFrame[Any], int], object], model: type[BaseModel]) -> None:
        """Wrap ``fn``; each micro-batch is reconciled with ``model`` (the stream's row model)."""
        self.fn = fn
        self.model = model
        self.failure: tuple[int, BaseException] | None = None
        """The micro-batch whose call raised, and what it raised (None: none did)."""

    def __call__(self, batch: SparkDataFrame, batch_id: int) -> None:
        """Spark's call: the micro-batch ``batch`` (with the frame's column names) and its id."""
        from pydantable_spark.frame import DataFrame

        frame = DataFrame.from_spark(batch, self.model, null_check=True)
        try:
            self.fn(frame, int(batch_id))
        except Exception as error:
            if self.failure is None:
                self.failure = (int(batch_id), error)
            raise
