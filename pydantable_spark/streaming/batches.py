"""``foreach_batch``'s function as Spark calls it: each micro-batch handed over as a typed batch frame.

Spark's ``foreachBatch`` calls a function with each micro-batch (a batch
Spark DataFrame) and its id. ``BatchFunction`` wraps the user's function: it
reconciles the micro-batch with the stream's model (a batch ``DataFrame[M]``:
``collect()`` and the batch writers work on it) and keeps the first failure
(the micro-batch and the function's own exception), which ``StreamingQuery``
raises as ``BatchFunctionError``. On Spark Connect the function runs in the
server's Python worker, so only Spark's report of the failure comes back: the
wrapper raises ``BatchFunctionFailed``, whose first line (``MARK``, the
micro-batch, the exception's type and first line) ``reported_failure`` finds
in that report.
"""

from __future__ import annotations

import re
import traceback
from typing import TYPE_CHECKING, Any

from pydantable_spark.errors import first_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.frame import DataFrame

__all__ = ["MARK", "BatchFunction", "BatchFunctionFailed", "reported_failure"]

MARK = "[pydantable-spark foreach_batch]"
"""Opens the message of ``BatchFunctionFailed``: what ``reported_failure`` looks for in Spark's report."""

_REPORTED = re.compile(re.escape(MARK) + r" micro-batch (\d+): (\S+): ([^\n]*)")


class BatchFunctionFailed(Exception):
    """What the wrapper raises to Spark when the function failed: the micro-batch and the error, on one line.

    Its message starts with ``MARK`` and the micro-batch, then the error's
    type and first line; the function's traceback follows, so Spark's report
    (all a Connect client gets) still shows it.
    """

    def __init__(self, batch_id: int, error: BaseException) -> None:
        shown = "".join(traceback.format_exception(error)).rstrip()
        super().__init__(f"{MARK} micro-batch {batch_id}: {type(error).__name__}: {first_line(error)}\n{shown}")


def reported_failure(report: str) -> tuple[int, str, str] | None:
    r"""The micro-batch, the error's type name and its first line, from Spark's report of a failed query.

    >>> reported_failure("...BatchFunctionFailed: " + MARK + " micro-batch 3: OSError: full\nTraceback ...")
    (3, 'OSError', 'full')
    >>> reported_failure("[STREAM_FAILED] something else") is None
    True
    """
    found = _REPORTED.search(report)
    return None if found is None else (int(found[1]), found[2], found[3])


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
            raise BatchFunctionFailed(int(batch_id), error) from None
