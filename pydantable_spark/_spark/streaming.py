"""The Spark side of ``pydantable_spark.streaming``: opening a stream source, starting a query, its failures.

Not to be confused with ``_spark/stream.py``, which streams a *batch*
result to Python a partition at a time (``DataFrame.stream()``); this module
is Structured Streaming (``spark.readStream`` / ``df.writeStream``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark._spark.sql import spark_name
from pydantable_spark._spark.strict_text import read_struct, strict_columns
from pydantable_spark.errors import WriteError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql.streaming.query import StreamingQuery as SparkQuery

    from pydantable_spark.plan.sources import StreamSource
    from pydantable_spark.schema import Schema
    from pydantable_spark.streaming.kafka import KafkaRecords

__all__ = ["SinkRequest", "kafka_records", "open_stream", "prepare_table", "start"]

log = logging.getLogger("pydantable_spark")


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
    table: str | None = None
    """A catalog table to write to (``toTable``) instead of ``path``."""
    batches: Callable[[SparkDataFrame, int], None] | None = None
    """``foreach_batch``'s function, called with each micro-batch (then ``fmt`` is ``foreachBatch``)."""


def start(frame: SparkDataFrame, request: SinkRequest) -> SparkQuery:
    """``frame.writeStream...start()`` as ``request`` says; Spark checks the plan again as it starts."""
    writer = frame.writeStream
    writer = writer.foreachBatch(request.batches) if request.batches is not None else writer.format(request.fmt)
    writer = writer.outputMode(request.output_mode).options(**dict(request.options))
    if request.checkpoint is not None:
        writer = writer.option("checkpointLocation", request.checkpoint)
    if request.partition_by:
        writer = writer.partitionBy(*request.partition_by)  # the frame has the user's names here
    if request.query_name is not None:
        writer = writer.queryName(request.query_name)
    if request.trigger is not None:
        kind, value = request.trigger
        writer = writer.trigger(**{kind: value})
    if request.batches is not None:
        return writer.start()
    if request.table is not None:
        return writer.toTable(request.table)
    return writer.start(request.path) if request.path is not None else writer.start()


def kafka_records(frame: SparkDataFrame, records: KafkaRecords) -> SparkDataFrame:
    """``frame``'s rows as Kafka records: ``value``, the JSON of the value's columns, and ``key`` (if any), as text."""
    from pydantable_spark._spark.constraints import _named
    from pydantable_spark._spark.sql import column_sql, string_sql

    named, _ = _named(frame)
    fields = ", ".join(f"{string_sql(name)}, {column_sql(name)}" for name in records.value)
    items = [f"to_json(named_struct({fields})) AS value"]
    if records.key is not None:
        key = column_sql(records.key)
        items.append(f"CAST({key} AS STRING) AS key" if records.key_is_text else f"{key} AS key")
    return named.selectExpr(*items)


def prepare_table(frame: SparkDataFrame, request: SinkRequest) -> None:
    """Before a Delta/Iceberg stream starts: make a new table with the model's NOT NULL, or compare an existing one.

    A new table is created empty from ``frame``'s schema as the batch writers
    create theirs (``tables.create_empty``: Delta through the session's
    ``DeltaCatalog``, Iceberg through the copy of its catalog that keeps the
    NOT NULL); an existing table's nullability is compared with the frame's
    (``tables.check_nullability``: a column the table declares NOT NULL that the
    frame may hold NULL in is refused before the query starts). A partitioned
    new table, or a session whose catalog cannot create one from a schema, is
    left to Spark's sink to create (every column nullable; logged).
    """
    from pydantable_spark._spark import tables
    from pydantable_spark._spark.writes import _name_parts, _provider, _quoted

    spark = frame.sparkSession
    table = request.table
    if table is None:
        path = request.path or ""
        name = tables.delta_path_name(path)
        exists = _delta_at(spark, path)
        read: Callable[[], SparkDataFrame] = lambda: spark.read.format("delta").load(path)  # noqa: E731
    else:
        name = _quoted(_name_parts(table))
        exists = bool(spark.catalog.tableExists(table))
        read = lambda: spark.read.table(table)  # noqa: E731
        if exists:
            provider = _provider(spark, table)
            if provider != request.fmt:
                msg = (
                    f"{request.action}: the table exists as a {provider or 'non-lakehouse'} table, and this sink "
                    f"writes {request.fmt!r}; pass format={provider!r} if it is a Delta or Iceberg table"
                )
                raise WriteError(msg)
    if exists:
        tables.check_nullability(frame, read(), request.action, request.fmt)
        return
    made = None
    if request.partition_by:
        made = "a partitioned table cannot be created from a schema by Spark's catalog API"
    elif request.fmt == "delta" and not tables.delta_catalog(spark):
        made = "the session catalog is not Delta's (spark.sql.catalog.spark_catalog=...DeltaCatalog)"
    elif request.fmt == "iceberg":
        required = tables.iceberg_required_name(spark, table or "")
        if required is None:
            made = "the Iceberg table's catalog is not one named by spark.sql.catalog.<name>"
        else:
            name = required
    if made is not None:
        log.warning("%s: %s; Spark's sink creates the table, every column nullable", request.action, made)
        return
    if not tables.create_empty(spark, name, frame.schema, request.fmt):  # made meanwhile: compare it
        tables.check_nullability(frame, read(), request.action, request.fmt)
    elif table is not None:
        spark.catalog.refreshTable(table)


def _delta_at(spark: Any, path: str) -> bool:
    """Whether a Delta table is at ``path`` (its log resolves); a directory of other files is Spark's to refuse."""
    try:
        spark.read.format("delta").load(path).schema  # noqa: B018  -- resolving reads the table's log
    except Exception as error:
        text = str(error)
        if "PATH_NOT_FOUND" in text or "DELTA_MISSING_DELTA_TABLE" in text or "is not a Delta table" in text:
            return False
        raise
    return True


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
