"""A Spark result as a stream of Arrow tables, one Spark partition at a time.

PySpark has no public iterator of Arrow batches, and ``toLocalIterator()``
yields pickled ``Row`` objects (slow to validate one by one). So each
executor-side Arrow batch is serialized with Arrow IPC into a single binary
value (``mapInArrow``), and the driver pulls those values with
``toLocalIterator()``, which fetches one partition at a time. Python thus holds
one partition's batches at most, and the columnar validation of ``collect()``
applies unchanged. Works on classic Spark and on Spark Connect (both run
``mapInArrow`` in Python workers next to the executors).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyarrow as pa

if TYPE_CHECKING:
    from collections.abc import Generator, Iterator

    from pyspark.sql import DataFrame as SparkDataFrame

__all__ = ["arrow_tables"]


def _encoder() -> Any:
    # A local function: cloudpickle ships it by value, so executors need no pydantable_spark installed.
    def encode(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in batches:
            if batch.num_rows == 0:
                continue
            sink = pa.BufferOutputStream()
            with pa.ipc.new_stream(sink, batch.schema) as writer:
                writer.write_batch(batch)
            yield pa.RecordBatch.from_pydict({"ipc": [sink.getvalue().to_pybytes()]})

    return encode


def arrow_tables(frame: SparkDataFrame, batch_size: int) -> Generator[pa.Table, None, None]:
    """The rows of ``frame`` as Arrow tables of ``batch_size`` rows (the last may be shorter)."""
    encoded = frame.mapInArrow(_encoder(), "ipc binary")
    pending: list[pa.RecordBatch] = []
    held = 0
    rows = encoded.toLocalIterator()
    try:
        for row in rows:
            with pa.ipc.open_stream(row[0]) as reader:
                for batch in reader:
                    pending.append(batch)
                    held += batch.num_rows
            while held >= batch_size:
                table = pa.Table.from_batches(pending)
                yield table.slice(0, batch_size)
                rest = table.slice(batch_size)
                pending = rest.to_batches()
                held = rest.num_rows
    finally:
        # a stream left early (an invalid row, a break) ends Spark's result stream here and now, not in a
        # finalizer the garbage collector runs at some later point, in whatever thread (and RPC) it is in
        getattr(rows, "close", lambda: None)()
    if held:
        yield pa.Table.from_batches(pending)
