"""The Spark side of ``pydantable_spark.streaming``: opening a stream source, starting a query, its failures.

Not to be confused with ``_spark/stream.py``, which streams a *batch*
result to Python a partition at a time (``DataFrame.stream()``); this module
is Structured Streaming (``spark.readStream`` / ``df.writeStream``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark._spark.sql import spark_name
from pydantable_spark._spark.strict_text import read_struct, strict_columns

if TYPE_CHECKING:
    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql.streaming.query import StreamingQuery as SparkQuery

    from pydantable_spark.plan.sources import StreamSource
    from pydantable_spark.schema import Schema

__all__ = ["SinkRequest", "open_stream", "start"]


def open_stream(data: StreamSource, schema: Schema, spark: Any) -> SparkDataFrame:
    """``spark.readStream`` of ``data``: read with the model's schema (never inferred), CSV/JSON values typed strictly.

    ``schema`` is the source's derived schema (the Scan renames to Spark names after this).
    """
    reader = spark.readStream.format(data.fmt).options(**dict(data.options))
    if data.read is not None:
        reader = reader.schema(read_struct(data.read, data.fmt))
    frame = reader.load(data.paths[0]) if data.paths else reader.load()
    if data.read is not None and data.fmt in ("csv", "json"):
        items = strict_columns(data.read, data.fmt, data.read, data.allow_lossy)
        if items is not None:  # the items name columns by their Spark names
            names = frame.columns
            frame = frame.toDF(*map(spark_name, names)).selectExpr(*items).toDF(*names)
    return frame  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class SinkRequest:
    """What a ``write_stream_*`` call asks for, checked: the sink, its path, mode, trigger and options (text)."""

    action: str
    fmt: str
    path: str | None
    output_mode: str
    checkpoint: str | None
    query_name: str | None
    trigger: tuple[str, Any] | None
    partition_by: tuple[str, ...]
    options: tuple[tuple[str, str], ...]


def start(frame: SparkDataFrame, request: SinkRequest) -> SparkQuery:
    """``frame.writeStream...start()`` as ``request`` says; Spark checks the plan again as it starts."""
    writer = frame.writeStream.format(request.fmt).outputMode(request.output_mode).options(**dict(request.options))
    if request.checkpoint is not None:
        writer = writer.option("checkpointLocation", request.checkpoint)
    if request.partition_by:
        writer = writer.partitionBy(*request.partition_by)  # the frame has the user's names here
    if request.query_name is not None:
        writer = writer.queryName(request.query_name)
    if request.trigger is not None:
        kind, value = request.trigger
        writer = writer.trigger(**{kind: value})
    return writer.start(request.path) if request.path is not None else writer.start()


def last_batch(query: SparkQuery) -> int | None:
    """The id of the last micro-batch the query reported progress for (None: none yet)."""
    progress = query.lastProgress
    if not progress:
        return None
    found = progress.get("batchId")
    return int(found) if found is not None else None


def query_failure(query: SparkQuery) -> BaseException | None:
    """The error that ended the query (Spark's ``StreamingQueryException``), or None if it did not fail."""
    return query.exception()
