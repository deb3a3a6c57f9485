"""The streaming methods of ``DataFrame[M]``: stream sources, ``with_watermark``, stream sinks.

``Streams`` is a mixin of ``pydantable_spark.frame.DataFrame``. A stream is a
frame like any other (same class, same typed API), whose ``is_streaming`` is
true; what Spark refuses on streams is refused when the plan is built
(``pydantable_spark.plan.streaming``), and its results come from a query
started by ``write_stream_*``, never from ``collect()``.

```pycon
>>> import tempfile
>>> from pydantable_spark import DataFrameModel
>>> class Visit(DataFrameModel):
...     page: str
...     ms: int | None
>>> visits = Visit.read_stream_json(tempfile.mkdtemp(), max_files_per_trigger=10)
>>> visits.is_streaming, visits.filter(Visit.ms > 100).is_streaming, Visit.from_rows([]).is_streaming
(True, True, False)
>>> visits.collect()
Traceback (most recent call last):
...
pydantable_spark.errors.StreamingError: collect() on a stream: a stream has no last row, ...

```
"""

from __future__ import annotations

import dataclasses
import logging
import os
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown
from pydantable_spark.expr.core import check_param
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import StreamSource
from pydantable_spark.plan.streaming import DedupWithinWatermark, Watermark, check_output_mode
from pydantable_spark.reconcile import reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from pyspark.sql import SparkSession

    from pydantable_spark.checks.declare import Check
    from pydantable_spark.expr.api import Expr
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.reconcile import Selection
    from pydantable_spark.streaming.kafka import KafkaRecords
    from pydantable_spark.streaming.query import StreamingQuery
    from pydantable_spark.timeseries import Duration

__all__ = ["FILE_STREAM_OPTIONS", "StreamConstraints", "Streams"]

M = TypeVar("M", bound=BaseModel)
M2 = TypeVar("M2", bound=BaseModel)

StreamConstraints = Literal["raise", "report", "quarantine", "skip"]
"""What a stream sink does with the model's value constraints, per micro-batch: fail it, count the violations
(``StreamingQuery.constraint_reports``), set the violating rows apart (Delta Lake sinks), or check nothing."""

FILE_STREAM_OPTIONS = {
    "maxfilespertrigger": "max_files_per_trigger",
    "latestfirst": "latest_first",
    "maxfileage": "max_file_age",
    "rowspersecond": "rows_per_second",
    "numpartitions": "num_partitions",
    "checkpointlocation": "checkpoint",
    "path": "the path argument",
}
"""Spark options that the streaming calls take as typed keywords (lower-cased Spark name → keyword)."""

log = logging.getLogger("pydantable_spark")

_RATE = Schema((dt.Field("timestamp", dt.Datetime(), True), dt.Field("value", dt.Int64(), True)))
"""What Spark's rate source yields (both nullable, as Spark declares them)."""

_FILE_SINKS = ("parquet", "json", "csv")
_TABLE_SINKS = ("delta", "iceberg")
_ALL_MODES = ("append", "update", "complete")
_BATCHES = "foreachBatch"
_TABLE = "table"
"""``fmt`` of ``write_stream_table`` (its ``format=`` says Delta or Iceberg)."""
_SINK_OPTIONS = {**FILE_STREAM_OPTIONS, "outputmode": "output_mode", "format": "format"}


def _loose(dtype: dt.DType) -> dt.DType:
    """``dtype`` with every nested part nullable, as Spark reads files."""
    if isinstance(dtype, dt.Struct):
        return dt.Struct(tuple(dt.Field(f.name, _loose(f.dtype), True) for f in dtype.fields), dtype.model)
    if isinstance(dtype, dt.List):
        return dt.List(_loose(dtype.inner), True)
    if isinstance(dtype, dt.Map):
        return dt.Map(dtype.key, _loose(dtype.value), True)
    return dtype


def _micros(value: object, what: str, *, zero: bool) -> int:
    from pydantable_spark.timeseries import _micros as parse

    return parse(value, what, "the duration", zero=zero)


def typed_options(
    options: Mapping[str, Any], action: str, typed: Mapping[str, str] = FILE_STREAM_OPTIONS
) -> dict[str, str]:  # fmt: skip
    """Spark's other reader/writer ``options`` as text; one the call takes as a keyword is refused, naming it.

    ``typed`` maps the lower-cased Spark names the call takes as keywords to those keywords. A value is text,
    a number or a bool (``"true"``/``"false"``); anything else is refused when the call is made.
    """
    out = {}
    for key, value in options.items():
        keyword = typed.get(key.lower())
        if keyword is not None:
            msg = f"{action}: pass {key} as {keyword}= (checked by type when the call is made), not as an option"
            raise ArgumentTypeError(msg)
        if not isinstance(value, str | int | float | bool):
            msg = f"{action}: option {key!r} must be text, a number or a bool, got {shown(value)}"
            raise ArgumentTypeError(msg)
        out[key] = str(value).lower() if isinstance(value, bool) else str(value)
    return out


def _stream_checks(model: type[BaseModel], action: str) -> tuple[Check, ...]:
    """The model's dataset checks a stream sink runs on each micro-batch: its row checks.

    A ``fail`` row check fails the micro-batch at its first violating row; a
    ``warn`` one is counted, and a ``drop`` one counted and its rows taken out
    (into the quarantine of a ``constraints="quarantine"`` sink), each
    micro-batch's counts in its progress report. Keys, row counts, aggregates
    and references are checks of the whole table, which no micro-batch holds:
    they are not run, and the sink says so in the log (``validate()`` of the
    table written, in batch, runs them).
    """
    from pydantable_spark.model import DataFrameModel

    if not (isinstance(model, type) and issubclass(model, DataFrameModel)):
        return ()
    declared = model.dataset_checks()
    whole = [c for c in declared if c.kind != "row"]
    if whole:
        log.warning(
            "%s: the model's check(s) %s cover the whole table, which no micro-batch holds: not run on the stream "
            "(validate() the table written, in batch)",
            action,
            ", ".join(f"{c.name!r} ({c.label})" for c in whole),
        )
    return tuple(c for c in declared if c.kind == "row")


def _one_path(path: object, action: str) -> str:
    if not isinstance(path, str | os.PathLike):
        msg = f"{action}: path must be one directory (str or PathLike), got {shown(path)} ({type(path).__name__})"
        raise ArgumentTypeError(msg)
    return os.fspath(path)


class Streams(Generic[M]):
    """The streaming methods of ``DataFrame``: ``read_stream_*``, ``with_watermark``, ``write_stream_*``."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the streaming methods use of the frame (``DataFrame`` defines them)
        _plan: p.Plan
        _model: type[M] | None

        @property
        def schema(self) -> Schema: ...

        @property
        def model(self) -> type[M]: ...

        @classmethod
        def _require_model(cls, model: type[Any] | None, constructor: str) -> type[BaseModel]: ...

    # --- sources -----------------------------------------------------------------------------

    @classmethod
    def _open_stream(
        cls, fmt: str, path: str | None, model: type[Any] | None, session: Any, allow_lossy: Selection,
        options: dict[str, str], action: str,
    ) -> DataFrame[Any]:  # fmt: skip
        from pydantable_spark.constructors import schema_of_model
        from pydantable_spark.frame import DataFrame
        from pydantable_spark.storage import CSV_READ_DEFAULTS, _csv_atomic_only

        chosen = cls._require_model(model, action.partition("(")[0])
        target = schema_of_model(chosen)
        read: Schema | None = None
        if fmt == "rate":
            source = _RATE
        else:
            read = target
            source = Schema(tuple(dt.Field(f.name, _loose(f.dtype), True) for f in target))
        if fmt == "csv":
            _csv_atomic_only(target, action)
            for key, value in CSV_READ_DEFAULTS.items():
                options.setdefault(key, value)
            options.setdefault("enforceSchema", "false")  # Spark checks each file's header against the model's names
        if fmt in ("csv", "json") and options.setdefault("mode", "FAILFAST").upper() != "FAILFAST":
            msg = f"{action}: mode={shown(options['mode'])} would turn unparsable values into NULLs; only FAILFAST"
            raise ArgumentValueError(msg)
        lossy = allow_lossy if read is not None else False
        data = StreamSource(fmt, () if path is None else (path,), tuple(options.items()), read, action, lossy)
        rec = reconcile(source.fields, target, allow_lossy=allow_lossy, null_check=True)
        return DataFrame(p.Reconcile(p.Source(data, source, session), rec, action), chosen)

    @classmethod
    def _file_stream(
        cls, fmt: str, path: object, model: type[Any] | None, session: Any, allow_lossy: Selection,
        max_files_per_trigger: int | None, latest_first: bool, max_file_age: Duration | None,
        options: Mapping[str, Any],
    ) -> DataFrame[Any]:  # fmt: skip
        action = f"read_stream_{fmt}"
        where = _one_path(path, action)
        action = f"{action}({where!r})"
        check_param(action, "max_files_per_trigger", max_files_per_trigger, int, optional=True)
        check_param(action, "latest_first", latest_first, bool)
        opts = typed_options(options, action)
        if max_files_per_trigger is not None:
            if max_files_per_trigger < 1:
                msg = f"{action}: max_files_per_trigger must be at least 1, got {max_files_per_trigger}"
                raise ArgumentValueError(msg)
            opts["maxFilesPerTrigger"] = str(max_files_per_trigger)
        if latest_first:
            opts["latestFirst"] = "true"
        if max_file_age is not None:
            opts["maxFileAge"] = f"{_micros(max_file_age, f'{action}: max_file_age', zero=False) // 1000}ms"
        return cls._open_stream(fmt, where, model, session, allow_lossy, opts, action)

    @classmethod
    def read_stream_parquet(
        cls: type[Streams[M2]], path: str | os.PathLike[str], *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False, max_files_per_trigger: int | None = None,
        latest_first: bool = False, max_file_age: Duration | None = None, **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """A stream of the Parquet files that land in directory ``path``, read with the model's schema.

        The schema is the model's, never inferred (Spark needs one for a file
        stream): every column is read nullable and a column the model declares
        non-null is checked when each micro-batch runs (a NULL there, or a
        column a file lacks, is ``NullCheckError`` naming it; an Optional field
        a file lacks reads NULL). A file column of another type is read as
        Spark's Parquet reader converts it (a widening) or fails the query
        (``SparkJobError`` naming the file).

        Args:
            path: the directory the files land in (one; Spark lists it each trigger).
            model: the row model (``DataFrame[Model]`` or ``Model.read_stream_parquet`` gives it).
            session: the Spark session (default: the active one).
            allow_lossy: columns whose lossy conversion to the model's type is accepted.
            max_files_per_trigger: at most this many new files per micro-batch (Spark's ``maxFilesPerTrigger``).
            latest_first: read the newest files first (``latestFirst``).
            max_file_age: ignore files older than this, a duration (``maxFileAge``).
            options: Spark's other file-source options, as text.

        Returns:
            A streaming ``DataFrame[M]`` (``is_streaming`` is true).

        """
        return cls._file_stream(
            "parquet", path, model, session, allow_lossy, max_files_per_trigger, latest_first, max_file_age, options
        )

    @classmethod
    def read_stream_json(
        cls: type[Streams[M2]], path: str | os.PathLike[str], *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False, max_files_per_trigger: int | None = None,
        latest_first: bool = False, max_file_age: Duration | None = None, **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """A stream of the JSON Lines files that land in ``path``, read as ``read_json`` reads (``mode=FAILFAST``).

        A value that does not parse as its column's type fails the query
        (``MalformedDataError``); a key absent from a record is NULL (a
        ``NullCheckError`` in a non-null column). Keywords as ``read_stream_parquet``.
        """
        return cls._file_stream(
            "json", path, model, session, allow_lossy, max_files_per_trigger, latest_first, max_file_age, options
        )

    @classmethod
    def read_stream_csv(
        cls: type[Streams[M2]], path: str | os.PathLike[str], *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False, max_files_per_trigger: int | None = None,
        latest_first: bool = False, max_file_age: Duration | None = None, **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """A stream of the CSV files that land in ``path``, read as ``read_csv`` reads (RFC 4180, ``FAILFAST``).

        Each file has a header naming the model's columns in the model's order
        (Spark checks every file's header against the model's names,
        ``enforceSchema=false``; a batch ``read_csv`` reads the header first and
        takes any order). Keywords as ``read_stream_parquet``.
        """
        return cls._file_stream(
            "csv", path, model, session, allow_lossy, max_files_per_trigger, latest_first, max_file_age, options
        )

    @classmethod
    def read_stream_rate(
        cls: type[Streams[M2]], rows_per_second: int = 1, *, model: type[M2] | None = None,
        num_partitions: int | None = None, session: SparkSession | None = None,
    ) -> DataFrame[M2]:  # fmt: skip
        """Spark's rate source (for tests and demos): ``rows_per_second`` rows of ``timestamp`` and ``value``.

        The model types them: ``timestamp: datetime`` and ``value: int`` (a
        model may leave either out). Spark declares both nullable, so non-null
        fields are checked as each micro-batch runs (the source never yields NULL).
        """
        action = "read_stream_rate()"
        check_param(action, "rows_per_second", rows_per_second, int)
        check_param(action, "num_partitions", num_partitions, int, optional=True)
        if rows_per_second < 1 or (num_partitions is not None and num_partitions < 1):
            msg = f"{action}: rows_per_second and num_partitions must be at least 1, got {rows_per_second}"
            msg += f" and {num_partitions}" if num_partitions is not None else ""
            raise ArgumentValueError(msg)
        opts = {"rowsPerSecond": str(rows_per_second)}
        if num_partitions is not None:
            opts["numPartitions"] = str(num_partitions)
        return cls._open_stream("rate", None, model, session, False, opts, action)

    @classmethod
    def read_stream_kafka(
        cls: type[Streams[M2]], bootstrap_servers: str | Sequence[str], *, topic: str | None = None,
        topics: Sequence[str] | None = None, pattern: str | None = None, model: type[M2] | None = None,
        format: Literal["json"] = "json", starting_offsets: str | Mapping[str, Mapping[int, int]] = "latest",
        max_offsets_per_trigger: int | None = None, fail_on_data_loss: bool = True,
        session: SparkSession | None = None, **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """A stream of a Kafka topic's records, each value JSON parsed by the model (never inferred).

        The value is decoded as UTF-8 and parsed with the typed ``F.from_json``
        of the model's fields in ``FAILFAST`` mode, as ``read_stream_json``
        reads files: a record that is not JSON of the model, or a value Spark
        would change (a number for a string field), fails the micro-batch
        (``MalformedDataError`` naming the record or the field); a key the
        record lacks is NULL (``NullCheckError`` in a non-null field, as is a
        NULL value, Kafka's tombstone). Model fields named ``kafka_key``
        (``str`` or ``bytes``, may be NULL), ``kafka_topic`` (``str``),
        ``kafka_partition``, ``kafka_offset`` (``int``) and ``kafka_timestamp``
        (``datetime``) hold the record's metadata instead. Needs Spark's Kafka
        connector on the session (``spark-sql-kafka-0-10``; see docs/streaming.md).

        Args:
            bootstrap_servers: the brokers, ``"host:port"`` text (comma-separated) or a list of them.
            topic: one topic to read (give one of ``topic``, ``topics``, ``pattern``).
            topics: topics to read.
            pattern: the topics whose names match this Java regular expression.
            model: the row model (``DataFrame[Model]`` or ``Model.read_stream_kafka`` gives it).
            format: the values' format: ``"json"``.
            starting_offsets: where a new query starts (a restarted one goes on from its checkpoint):
                ``"earliest"``, ``"latest"`` (Spark's default) or ``{topic: {partition: offset}}``
                (offset -2 is the earliest, -1 the latest).
            max_offsets_per_trigger: at most this many records per micro-batch.
            fail_on_data_loss: fail the query when records it should read are gone (deleted, aged out).
            session: the Spark session (default: the active one).
            options: Spark's other Kafka source options (``kafka.``-prefixed consumer settings...), as text.

        Returns:
            A streaming ``DataFrame[M]`` (``is_streaming`` is true).

        """
        from pydantable_spark.streaming.kafka import kafka_stream

        chosen = cls._require_model(model, "read_stream_kafka")
        return kafka_stream(
            chosen, session, bootstrap_servers, topic=topic, topics=topics, pattern=pattern, format=format,
            starting_offsets=starting_offsets, max_offsets_per_trigger=max_offsets_per_trigger,
            fail_on_data_loss=fail_on_data_loss, options=options,
        )  # fmt: skip

    # --- the stream itself ---------------------------------------------------------------------

    @property
    def is_streaming(self) -> bool:
        """Whether the frame reads a stream: its results come from ``write_stream_*``, not ``collect()``."""
        return self._plan.streaming

    def with_watermark(self, column: str | Expr[Any], delay: Duration) -> DataFrame[M]:
        """This frame with an event-time watermark on timestamp ``column``, ``delay`` behind the latest time seen.

        Rows whose time is more than ``delay`` behind the latest are late:
        an aggregation grouped by the column or by ``F.window(column, ...)``
        can then finish a group (append mode needs that) and ``unique()`` drop
        old keys. ``delay`` is a duration as the time windows take it (a
        ``timedelta``, ``"10 minutes"`` or ``"10m"``; not negative). On a batch
        frame it changes nothing, as in Spark.
        """
        from pydantable_spark.frame import DataFrame
        from pydantable_spark.into import name_of

        name = name_of(column, "with_watermark()")
        micros = _micros(delay, "with_watermark(): delay", zero=True)
        return DataFrame(Watermark(self._plan, name, micros), self._model)

    def drop_duplicates_within_watermark(self, *keys: str | Expr[Any]) -> DataFrame[M]:
        """This stream without the rows whose ``keys`` repeat an earlier row's within the watermark's delay.

        Spark's ``dropDuplicatesWithinWatermark``: a row is dropped when a row
        of the same keys came before it, until the watermark passes that first
        row's event time plus the watermark's delay; then Spark forgets the key,
        so its state stays bounded. The stream needs a watermark
        (``with_watermark``, before this call); the keys need not hold its
        column, which suits events whose time differs between duplicates.
        Which row of a key is kept is the first one Spark sees.

        On a batch frame it is ``unique(subset=keys)``, every duplicate dropped
        (Spark 4.3 refuses the call on batch frames), so one pipeline runs on a
        stream and on a batch frame of its rows.

        See docs/streaming.md for an example that runs.

        Args:
            keys: column names or columns of the frame (none: every column); a map or VARIANT column cannot
                be one.

        Returns:
            A ``DataFrame[M]`` of the same schema.

        Raises:
            UnknownColumnError: a key is not a column of the frame.
            StreamingError: the stream carries no watermark.

        """
        from pydantable_spark.frame import DataFrame
        from pydantable_spark.into import names_of

        what = "drop_duplicates_within_watermark()"
        names = names_of(keys, self.schema, what) if keys else self.schema.names
        if not self._plan.streaming:
            return DataFrame(p.Distinct(self._plan, names if keys else None), self._model)
        return DataFrame(DedupWithinWatermark(self._plan, names), self._model)

    # --- sinks -------------------------------------------------------------------------------

    def _write_stream(
        self, fmt: str, path: object, *, checkpoint: object, output_mode: object, query_name: object,
        available_now: object, processing_time: object, once: object, partition_by: object,
        constraints: object, options: Mapping[str, Any], format: object = None, fn: object = None,
        quarantine: object = None, records: KafkaRecords | None = None,
    ) -> StreamingQuery:  # fmt: skip
        from pydantable_spark._spark import streaming as spark_side
        from pydantable_spark._spark.lower import to_spark
        from pydantable_spark._spark.storage import spark_errors
        from pydantable_spark.constraints import spark_constraints
        from pydantable_spark.storage import (
            CSV_WRITE_DEFAULTS,
            JSON_WRITE_DEFAULTS,
            _csv_atomic_only,
            partition_columns,
        )
        from pydantable_spark.streaming.query import StreamingQuery

        table = batches = None
        if fmt == _BATCHES:
            from pydantable_spark.streaming.batches import BatchFunction

            if not callable(fn):
                msg = f"foreach_batch: fn must be a function of (frame, batch_id), got {shown(fn)}"
                raise ArgumentTypeError(msg)
            batches = BatchFunction(fn, self.model)
            target, action = None, f"foreach_batch({getattr(fn, '__qualname__', type(fn).__name__)})"
        elif fmt == _TABLE:
            table = _table_name(path)
            target, action = None, f"write_stream_table({table!r})"
        elif fmt == "kafka":
            target, action = None, f"write_stream_kafka(topic={dict(options).get('topic')!r})"
        else:
            target = None if path is None else _one_path(path, f"write_stream_{fmt}")
            action = f"write_stream_{fmt}({target!r})" if target is not None else f"write_stream_memory({query_name!r})"
        if fmt == _TABLE and format not in _TABLE_SINKS:
            msg = f"{action}: format={shown(format)} is not one of 'delta', 'iceberg'"
            raise ArgumentValueError(msg)
        lakehouse = fmt in (_TABLE, "delta")
        modes = ("append",) if fmt in _FILE_SINKS else ("append", "complete") if lakehouse else _ALL_MODES
        mode = check_output_mode(self._plan, output_mode, action, sink_modes=modes)
        where = _checkpoint(checkpoint, action, required=fmt != "memory")
        if query_name is not None and (not isinstance(query_name, str) or not query_name.isidentifier()):
            msg = f"{action}: query_name must be an identifier (a memory sink's table name), got {shown(query_name)}"
            raise ArgumentValueError(msg)
        trigger = _trigger(available_now, processing_time, once, action)
        columns = partition_columns(partition_by, self.schema, action)
        if fmt in _FILE_SINKS and any(key.lower().replace("_", "") == "outputmode" for key in options):
            msg = (
                f"{action}: a file sink writes in output mode 'append' only (it adds files); write an aggregation "
                "with a watermark on its key, or to write_stream_memory(output_mode=...)"
            )
            raise ArgumentTypeError(msg)
        opts = typed_options(options, action, _SINK_OPTIONS) if records is None else dict(options)
        if fmt == "csv":
            _csv_atomic_only(self.schema, action)
        for key, value in {"csv": CSV_WRITE_DEFAULTS, "json": JSON_WRITE_DEFAULTS}.get(fmt, {}).items():
            opts.setdefault(key, value)
        delta = fmt == "delta" or (fmt == _TABLE and format == "delta")
        _check_quarantine(constraints, quarantine, action, delta=delta, mode=mode, schema=self.schema)
        request = spark_side.SinkRequest(
            action, str(format) if table is not None else fmt, target, mode, where, query_name, trigger, columns,
            tuple(opts.items()), table, batches,
        )  # fmt: skip
        checks = spark_constraints(self.model) if constraints != "skip" else None
        rows = _stream_checks(self.model, action) if constraints != "skip" else ()
        with spark_errors(action):
            from pydantable_spark._spark.stream_constraints import checked_stream

            frame = to_spark(self._plan)
            if lakehouse:
                spark_side.prepare_table(frame, request)  # from the model's columns (no flag column yet)
            frame, observed, dropped = checked_stream(frame, checks, rows, str(constraints), action)
            if checks is not None and constraints == "quarantine" and (checks.checked or dropped):
                from pydantable_spark._spark.constraints import violations_sql
                from pydantable_spark._spark.stream_constraints import Quarantine

                aside = Quarantine(
                    action, table or str(target), table is not None, os.fspath(quarantine),  # type: ignore[call-overload]
                    violations_sql(checks, dropped), str(where), columns, tuple(opts.items()), tuple(dropped),
                )  # fmt: skip
                request = dataclasses.replace(request, batches=aside)
            if records is not None:
                frame = spark_side.kafka_records(frame, records)
            query = spark_side.start(frame, request)
        return StreamingQuery(query, action, batches, observed)

    def write_stream_parquet(
        self, path: str | os.PathLike[str], *, checkpoint: str | os.PathLike[str], available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, partition_by: str | Sequence[str] | None = None,
        query_name: str | None = None, constraints: StreamConstraints = "raise", **options: Any,
    ) -> StreamingQuery:  # fmt: skip
        """Start a query writing each micro-batch as Parquet files under ``path``; its typed handle.

        Spark's file sink is exactly-once: a micro-batch's files count (for
        Spark's readers of ``path``) only once its commit is in
        ``path/_spark_metadata``, and a query restarted from the same
        ``checkpoint`` goes on from the last committed batch. The output mode
        is append (a file sink only adds files): an aggregation needs a
        watermark on its key, checked before the query starts.

        Args:
            path: the directory to write to.
            checkpoint: where the query keeps its progress and state (required).
            available_now: read what is there now, in micro-batches, then stop (a trigger).
            processing_time: a micro-batch every such duration (``"10 seconds"``; a trigger).
            once: one micro-batch of what is there, then stop (a trigger; Spark deprecates it).
            partition_by: partition columns (directories ``k=v``).
            query_name: a name for the query (``StreamingQuery.name``).
            constraints: ``"raise"`` (the default) fails the micro-batch (and the
                query) at the first value that violates the model's constraints,
                before it is committed; ``"report"`` writes every row and counts
                the violations of each micro-batch (``StreamingQuery.constraint_reports``);
                ``"skip"`` checks nothing. (``"quarantine"`` is offered on the Delta sinks.)
            options: Spark's other Parquet writer options, as text.

        Returns:
            The running query's ``StreamingQuery`` handle.

        Raises:
            StreamingError: the frame is not a stream, or its plan does not fit the output mode.

        """
        return self._write_stream(
            "parquet", path, checkpoint=checkpoint, output_mode="append", query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=partition_by,
            constraints=constraints, options=options,
        )  # fmt: skip

    def write_stream_json(
        self, path: str | os.PathLike[str], *, checkpoint: str | os.PathLike[str], available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, partition_by: str | Sequence[str] | None = None,
        query_name: str | None = None, constraints: StreamConstraints = "raise", **options: Any,
    ) -> StreamingQuery:  # fmt: skip
        """Start a query writing JSON Lines files under ``path``, as ``write_stream_parquet`` does."""
        return self._write_stream(
            "json", path, checkpoint=checkpoint, output_mode="append", query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=partition_by,
            constraints=constraints, options=options,
        )  # fmt: skip

    def write_stream_csv(
        self, path: str | os.PathLike[str], *, checkpoint: str | os.PathLike[str], available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, partition_by: str | Sequence[str] | None = None,
        query_name: str | None = None, constraints: StreamConstraints = "raise", **options: Any,
    ) -> StreamingQuery:  # fmt: skip
        """Start a query writing CSV files under ``path``, as ``write_stream_parquet`` (``write_csv``'s dialect)."""
        return self._write_stream(
            "csv", path, checkpoint=checkpoint, output_mode="append", query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=partition_by,
            constraints=constraints, options=options,
        )  # fmt: skip

    def write_stream_delta(
        self, path: str | os.PathLike[str], *, checkpoint: str | os.PathLike[str],
        output_mode: Literal["append", "complete"] = "append", available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, partition_by: str | Sequence[str] | None = None,
        query_name: str | None = None, constraints: StreamConstraints = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> StreamingQuery:  # fmt: skip
        """Start a query appending each micro-batch to the Delta Lake table at ``path``; its typed handle.

        Delta's sink is exactly-once: each micro-batch is one Delta commit
        that records the query's id and the batch's id, so a micro-batch that a
        restart runs again (it was written, but the checkpoint had not recorded
        it) is not written twice. A new table is created first, empty, from the
        model (its non-null fields NOT NULL, as ``write_delta`` makes one); an
        existing table is compared with the model before the query starts (a
        column the table declares NOT NULL that the frame may hold NULL in is
        ``NullabilityError``). ``output_mode`` is ``"append"`` or ``"complete"``
        (the whole result replaces the table each trigger), checked against the
        plan before start. Needs Delta Lake on the session (docs/lakehouse.md).

        Args:
            path: the Delta table's directory.
            checkpoint: where the query keeps its progress and state (required).
            output_mode: ``"append"`` (an aggregation needs a watermark) or ``"complete"``.
            available_now: read what is there now, in micro-batches, then stop (a trigger).
            processing_time: a micro-batch every such duration (a trigger).
            once: one micro-batch of what is there, then stop (a trigger).
            partition_by: partition columns (a new table is then created by Spark's sink, every column nullable).
            query_name: a name for the query.
            constraints: per micro-batch: ``"raise"`` fails it at the first violation (nothing committed),
                ``"report"`` writes every row and counts the violations (``StreamingQuery.constraint_reports``),
                ``"quarantine"`` appends the violating rows, with a ``violations`` column, to the Delta
                table at ``quarantine`` and the others to ``path`` (append mode; see docs/streaming.md for
                what holds on restart), ``"skip"`` checks nothing.
            quarantine: the Delta table's path for the violating rows (with ``constraints="quarantine"``).
            options: Spark's other Delta sink options, as text.

        Returns:
            The running query's ``StreamingQuery`` handle.

        Raises:
            StreamingError: the frame is not a stream, or its plan does not fit the output mode.
            NullabilityError: the existing table is NOT NULL where the model is not.

        """
        return self._write_stream(
            "delta", path, checkpoint=checkpoint, output_mode=output_mode, query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=partition_by,
            constraints=constraints, options=options, quarantine=quarantine,
        )  # fmt: skip

    def write_stream_table(
        self, name: str, *, checkpoint: str | os.PathLike[str], format: Literal["delta", "iceberg"] = "delta",
        output_mode: Literal["append", "complete"] = "append", available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, partition_by: str | Sequence[str] | None = None,
        query_name: str | None = None, constraints: StreamConstraints = "raise", quarantine: str | None = None,
        **options: Any,
    ) -> StreamingQuery:  # fmt: skip
        """Start a query writing each micro-batch to the catalog table ``name`` (Delta Lake or Iceberg).

        As ``write_stream_delta``, to a table of the session's catalogs: a new
        table is created from the model (``format`` says which; an Iceberg
        table through its catalog's copy that keeps the NOT NULL, as
        ``write_table`` does), an existing one compared with the model before
        start, and refused if it is not of ``format``. Iceberg's sink commits
        each micro-batch once too (it records the query and batch ids in the
        snapshot). ``constraints="quarantine"`` (Delta tables only) sets the
        violating rows apart in the Delta table named ``quarantine``.
        """
        return self._write_stream(
            _TABLE, name, checkpoint=checkpoint, output_mode=output_mode, query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=partition_by,
            constraints=constraints, options=options, format=format, quarantine=quarantine,
        )  # fmt: skip

    def foreach_batch(
        self, fn: Callable[[DataFrame[M], int], object], *, checkpoint: str | os.PathLike[str],
        output_mode: Literal["append", "update", "complete"] = "append", available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, query_name: str | None = None,
        constraints: StreamConstraints = "raise",
    ) -> StreamingQuery:  # fmt: skip
        """Start a query that calls ``fn(frame, batch_id)`` with each micro-batch as a typed batch frame.

        ``frame`` is a ``DataFrame`` of this stream's model over the
        micro-batch: a batch frame, so ``collect()`` and the batch writers
        (``write_delta(..., mode="append")``...) work on it. ``batch_id`` counts
        the micro-batches from 0 and is kept across restarts from the same
        ``checkpoint``. A micro-batch that failed, or that ran while the query
        was stopped, is run again with the same id on restart: make ``fn``
        idempotent by ``batch_id`` (Delta's writers take ``txnAppId`` and
        ``txnVersion`` options for that). An exception from ``fn`` fails the
        query; ``await_termination`` raises it as ``BatchFunctionError`` naming
        the micro-batch (the exception is its ``__cause__``). ``output_mode``
        and the model's constraints are checked as for the other sinks.

        See docs/streaming.md for an example that runs.

        Args:
            fn: called with each micro-batch's frame and id; what it returns is ignored.
            checkpoint: where the query keeps its progress (required).
            output_mode: ``"append"``, ``"update"`` or ``"complete"``, checked against the plan.
            available_now: read what is there now, in micro-batches, then stop (a trigger).
            processing_time: a micro-batch every such duration (a trigger).
            once: one micro-batch of what is there, then stop (a trigger).
            query_name: a name for the query.
            constraints: as ``write_stream_parquet`` (checked before ``fn`` sees the rows).

        Returns:
            The running query's ``StreamingQuery`` handle.

        """
        return self._write_stream(
            _BATCHES, None, checkpoint=checkpoint, output_mode=output_mode, query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=None,
            constraints=constraints, options={}, fn=fn,
        )  # fmt: skip

    def write_stream_kafka(
        self, bootstrap_servers: str | Sequence[str], *, topic: str, checkpoint: str | os.PathLike[str],
        key: str | Expr[Any] | None = None, output_mode: Literal["append", "update", "complete"] = "append",
        available_now: bool = False, processing_time: Duration | None = None, once: bool = False,
        query_name: str | None = None, constraints: StreamConstraints = "raise", **options: Any,
    ) -> StreamingQuery:  # fmt: skip
        """Start a query writing each row as a record of the Kafka topic ``topic``: its value the row's JSON.

        The value is a JSON object of the frame's columns (``to_json``; a NULL
        field is left out), which ``Model.read_stream_kafka`` of the same model
        reads back as it was; model fields named as Kafka's metadata
        (``kafka_key``, ``kafka_partition``...) are not in it. ``key`` names the
        record key's column (``str`` or ``bytes``; an int, date, datetime,
        decimal or bool column is written as its text); without it a
        ``kafka_key`` column is the key, else records have none. Spark's Kafka
        sink is at-least-once: a micro-batch that fails, or that a restart runs
        again, may have written some of its records already, and they are
        written again (deduplicate downstream, e.g. by a key column with
        ``drop_duplicates_within_watermark``). Every output mode is taken,
        checked against the plan before the query starts. Needs Spark's Kafka
        connector on the session (see docs/streaming.md).

        Args:
            bootstrap_servers: the brokers, ``"host:port"`` text (comma-separated) or a list of them.
            topic: the topic to write to (a Kafka topic name).
            checkpoint: where the query keeps its progress and state (required).
            key: the record key's column (a name or a model attribute), or None.
            output_mode: ``"append"``, ``"update"`` or ``"complete"``.
            available_now: read what is there now, in micro-batches, then stop (a trigger).
            processing_time: a micro-batch every such duration (``"10 seconds"``; a trigger).
            once: one micro-batch of what is there, then stop (a trigger; Spark deprecates it).
            query_name: a name for the query (``StreamingQuery.name``).
            constraints: ``"raise"`` (the default: a violating row fails its
                micro-batch), ``"report"`` (counted, ``StreamingQuery.constraint_reports``)
                or ``"skip"``; ``"quarantine"`` is offered on the Delta sinks.
            options: Spark's other Kafka sink options (``kafka.``-prefixed producer settings...), as text.

        """
        from pydantable_spark.streaming.kafka import kafka_sink

        opts, records = kafka_sink(self.schema, bootstrap_servers, topic=topic, key=key, options=options)
        return self._write_stream(
            "kafka", None, checkpoint=checkpoint, output_mode=output_mode, query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=None,
            constraints=constraints, options=opts, records=records,
        )  # fmt: skip

    def write_stream_memory(
        self, query_name: str, *, output_mode: Literal["append", "update", "complete"] = "append",
        checkpoint: str | os.PathLike[str] | None = None, available_now: bool = False,
        processing_time: Duration | None = None, once: bool = False, constraints: StreamConstraints = "raise",
    ) -> StreamingQuery:  # fmt: skip
        """Start a query into Spark's memory sink, a temporary table named ``query_name`` (for tests and demos).

        Read what it holds with ``Model.read_table(query_name)`` (a batch frame).
        ``output_mode`` is checked against the plan before the query starts:
        ``"append"`` with an aggregation needs a watermark on its key,
        ``"complete"`` needs an aggregation, a sort needs ``"complete"``.
        The memory sink keeps everything in the driver; it is not for production.
        """
        return self._write_stream(
            "memory", None, checkpoint=checkpoint, output_mode=output_mode, query_name=query_name,
            available_now=available_now, processing_time=processing_time, once=once, partition_by=None,
            constraints=constraints, options={},
        )  # fmt: skip


def _check_quarantine(
    constraints: object, quarantine: object, action: str, *, delta: bool, mode: str, schema: Schema
) -> None:  # fmt: skip
    """Refuse a ``constraints``/``quarantine`` pair the sink cannot keep exactly-once, before the query starts."""
    from pydantable_spark._spark.constraints import VIOLATIONS

    if constraints not in ("raise", "report", "quarantine", "skip"):
        msg = f"{action}: constraints={shown(constraints)} is not one of 'raise', 'report', 'quarantine', 'skip'"
        raise ArgumentValueError(msg)
    if constraints != "quarantine":
        if quarantine is not None:
            msg = f"{action}: quarantine= needs constraints='quarantine', got constraints={constraints!r}"
            raise ArgumentTypeError(msg)
        return
    if not delta:
        msg = (
            f"{action}: constraints='quarantine' on a stream is offered on Delta Lake sinks only (write_stream_delta, "
            "write_stream_table(format='delta')): each micro-batch is then two appends that Delta's idempotent "
            "writes (txnAppId, txnVersion) keep exactly-once on restart, which this sink's writer cannot; use "
            "constraints='report' or 'raise' here, or foreach_batch"
        )
        raise NotImplementedError(msg)
    if not isinstance(quarantine, str | os.PathLike):
        msg = f"{action}: constraints='quarantine' needs quarantine= (where violating rows go), got {shown(quarantine)}"
        raise ArgumentTypeError(msg)
    if mode != "append":
        msg = (
            f"{action}: constraints='quarantine' appends each micro-batch's rows; output_mode={mode!r} would "
            "replace the table with the whole result each trigger"
        )
        raise ArgumentValueError(msg)
    if VIOLATIONS in schema.names:
        msg = (
            f"{action}: the frame has a column {VIOLATIONS!r}, the name the quarantined rows' list of violated "
            "constraints takes; rename that column first"
        )
        raise ArgumentValueError(msg)


def _table_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        msg = f"write_stream_table: name must be a table name (text such as 'db.events'), got {shown(name)}"
        raise ArgumentTypeError(msg)
    return name


def _checkpoint(checkpoint: object, action: str, *, required: bool) -> str | None:
    if checkpoint is None:
        if required:
            msg = (
                f"{action} needs checkpoint= (a directory where the query keeps its progress, so a restart neither "
                "loses nor repeats a micro-batch); give each query its own"
            )
            raise ArgumentTypeError(msg)
        return None
    if not isinstance(checkpoint, str | os.PathLike):
        msg = f"{action}: checkpoint must be a directory (str or PathLike), got {shown(checkpoint)}"
        raise ArgumentTypeError(msg)
    return os.fspath(checkpoint)


def _trigger(available_now: object, processing_time: object, once: object, action: str) -> tuple[str, Any] | None:
    """Spark's ``trigger(...)`` keyword for the one trigger asked for (None: micro-batches as fast as data comes)."""
    from pydantable_spark.expr.catalog.time_windows import micros_text

    check_param(action, "available_now", available_now, bool)
    check_param(action, "once", once, bool)
    chosen = [name for name, on in (("available_now", available_now), ("once", once)) if on]
    if processing_time is not None:
        chosen.append("processing_time")
    if len(chosen) > 1:
        msg = f"{action}: give one trigger, not {' and '.join(chosen)}"
        raise ArgumentValueError(msg)
    if available_now:
        return ("availableNow", True)
    if once:
        return ("once", True)
    if processing_time is not None:
        micros = _micros(processing_time, f"{action}: processing_time", zero=False)
        return ("processingTime", micros_text(micros))
    return None
