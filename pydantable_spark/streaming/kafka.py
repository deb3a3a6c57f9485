"""``Model.read_stream_kafka``: a Kafka topic's records typed by a model, their metadata typed too.

Spark's Kafka source yields every record as binary ``key`` and ``value``
with its ``topic``, ``partition``, ``offset`` and ``timestamp``. The plan here
(built without a JVM) decodes the value as UTF-8 and parses it with the typed
``F.from_json`` of the model's fields in ``FAILFAST`` mode, as the strict
readers read JSON files: a record that is not JSON of the model, or a value
Spark would change (a number for a string field, a decimal its scale rounds),
fails the micro-batch with ``MalformedDataError``; a key a record lacks is
NULL (``NullCheckError`` in a non-null field). A value or a ``str`` key
whose bytes are not UTF-8 fails the micro-batch (never replaced). A model field named as one of
``KAFKA_METADATA`` is filled from the record's metadata instead of its value.

Every argument is checked by type and value when the call is made; they
reach Spark as reader options (text), never as SQL.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> class Click(DataFrameModel):
...     page: str
...     ms: int | None
...     kafka_partition: int
...     kafka_offset: int
>>> clicks = Click.read_stream_kafka("127.0.0.1:9092", topic="clicks", starting_offsets="earliest")
>>> clicks.is_streaming
True
>>> print(clicks.schema)
page: str (string)
ms: int | None (bigint)
kafka_partition: int (bigint)
kafka_offset: int (bigint)
>>> Click.read_stream_kafka("127.0.0.1:9092", topic="clicks", topics=["views"])
Traceback (most recent call last):
...
pydantable_spark.errors.ArgumentTypeError: read_stream_kafka(): give one of topic=, topics=, pattern=; got topic ...

```
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.catalog.spec import kind_label
from pydantable_spark.expr.core import check_param
from pydantable_spark.schema import Schema
from pydantable_spark.streaming.frames import typed_options

if TYPE_CHECKING:
    from pydantic import BaseModel

    from pydantable_spark.frame import DataFrame

__all__ = [
    "KAFKA_METADATA",
    "KAFKA_OPTIONS",
    "KAFKA_SCHEMA",
    "KAFKA_SINK_OPTIONS",
    "KafkaRecords",
    "kafka_sink",
    "kafka_stream",
]

KAFKA_SCHEMA = Schema(
    (
        dt.Field("key", dt.Binary(), True),
        dt.Field("value", dt.Binary(), True),
        dt.Field("topic", dt.String(), True),
        dt.Field("partition", dt.Int32(), True),
        dt.Field("offset", dt.Int64(), True),
        dt.Field("timestamp", dt.Datetime(), True),
        dt.Field("timestampType", dt.Int32(), True),
    )
)
"""What Spark's Kafka source yields (every column nullable, as Spark declares them)."""

KAFKA_METADATA = {
    "kafka_key": ("key", (dt.String, dt.Binary), "str (the key decoded as UTF-8) or bytes"),
    "kafka_topic": ("topic", (dt.String,), "str"),
    "kafka_partition": ("partition", (dt.Int32, dt.Int64), "int"),
    "kafka_offset": ("offset", (dt.Int64,), "int"),
    "kafka_timestamp": ("timestamp", (dt.Datetime,), "datetime"),
}
"""Model fields filled from a record's metadata: field → (Spark's column, the types it may have, what to declare).

A record's key may be NULL (declare ``kafka_key: str | None``); the others never are.
"""

KAFKA_OPTIONS = {
    "kafka.bootstrap.servers": "bootstrap_servers",
    "subscribe": "topic= or topics",
    "subscribepattern": "pattern",
    "assign": "topics= (whole topics) or starting_offsets",
    "startingoffsets": "starting_offsets",
    "maxoffsetspertrigger": "max_offsets_per_trigger",
    "failondataloss": "fail_on_data_loss",
}
"""Spark's Kafka options that ``read_stream_kafka`` takes as typed keywords (lower-cased Spark name → keyword)."""

KAFKA_SINK_OPTIONS = {
    "kafka.bootstrap.servers": "bootstrap_servers",
    "topic": "topic",
    "checkpointlocation": "checkpoint",
    "outputmode": "output_mode",
}
"""Spark's Kafka sink options that ``write_stream_kafka`` takes as typed keywords (lower-cased Spark name → keyword)."""

_FORMATS = ("json",)

_TOPIC = re.compile(r"[A-Za-z0-9._-]{1,249}")
"""Kafka's legal topic names."""

_SERVER = re.compile(r"(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}")
"""``host:port`` (a name, an IPv4 address or a bracketed IPv6 address)."""


def _servers(value: object, action: str) -> str:
    entries: list[object]
    if isinstance(value, str):
        entries = list(value.split(","))
    elif isinstance(value, Sequence) and value:
        entries = list(value)
    else:
        msg = f"{action}: bootstrap_servers must be 'host:port' text or a list of them, got {shown(value)}"
        raise ArgumentTypeError(msg)
    for entry in entries:
        if not isinstance(entry, str):
            msg = (
                f"{action}: bootstrap_servers holds {shown(entry)} ({type(entry).__name__}); each server is 'host:port'"
            )
            raise ArgumentTypeError(msg)
        if not _SERVER.fullmatch(entry):
            msg = f"{action}: bootstrap_servers holds {shown(entry)}; each server is 'host:port' (e.g. 'broker1:9092')"
            raise ArgumentValueError(msg)
    return ",".join(entries)  # type: ignore[arg-type]


def _topic(value: object, action: str, name: str) -> str:
    if not isinstance(value, str):
        msg = f"{action}: {name} must be a topic name (str), got {shown(value)} ({type(value).__name__})"
        raise ArgumentTypeError(msg)
    if not _TOPIC.fullmatch(value):
        msg = f"{action}: {name} is {shown(value)}; a Kafka topic name is 1 to 249 letters, digits, '.', '_' or '-'"
        raise ArgumentValueError(msg)
    return value


def _subscription(topic: object, topics: object, pattern: object, action: str) -> tuple[str, str]:
    given = [name for name, value in (("topic", topic), ("topics", topics), ("pattern", pattern)) if value is not None]
    if len(given) != 1:
        got = " and ".join(given) if given else "none"
        msg = f"{action}: give one of topic=, topics=, pattern=; got {got}"
        raise ArgumentTypeError(msg)
    if topic is not None:
        return "subscribe", _topic(topic, action, "topic")
    if topics is not None:
        if isinstance(topics, str) or not isinstance(topics, Sequence) or not topics:
            msg = f"{action}: topics must be a non-empty list of topic names, got {shown(topics)}"
            raise ArgumentTypeError(msg)
        return "subscribe", ",".join(_topic(t, action, "topics") for t in topics)
    if not isinstance(pattern, str) or not pattern:
        msg = f"{action}: pattern must be a non-empty regular expression (str, Java's syntax), got {shown(pattern)}"
        raise ArgumentTypeError(msg)
    return "subscribePattern", pattern


def _offsets(value: object, action: str) -> str:
    """``startingOffsets``: ``"earliest"``, ``"latest"``, or JSON of ``{topic: {partition: offset}}``."""
    if value in ("earliest", "latest"):
        return str(value)
    if not isinstance(value, Mapping):
        msg = (
            f"{action}: starting_offsets must be 'earliest', 'latest' or {{topic: {{partition: offset}}}} "
            f"(offset -2 earliest, -1 latest), got {shown(value)}"
        )
        raise ArgumentValueError(msg)
    out: dict[str, dict[str, int]] = {}
    for topic, partitions in value.items():
        name = _topic(topic, action, "a topic of starting_offsets")
        if not isinstance(partitions, Mapping):
            msg = f"{action}: starting_offsets[{name!r}] must map partitions to offsets, got {shown(partitions)}"
            raise ArgumentTypeError(msg)
        out[name] = {}
        for partition, offset in partitions.items():
            check_param(action, f"a partition of starting_offsets[{name!r}]", partition, int)
            check_param(action, f"starting_offsets[{name!r}][{partition}]", offset, int)
            if partition < 0 or offset < -2:
                msg = (
                    f"{action}: starting_offsets[{name!r}] has partition {partition} at offset {offset}; a partition "
                    "is at least 0 and an offset at least -2 (-2 earliest, -1 latest)"
                )
                raise ArgumentValueError(msg)
            out[name][str(partition)] = offset
    return json.dumps(out)


def _metadata_field(field: dt.Field, model: str) -> None:
    column, kinds, declare = KAFKA_METADATA[field.name]
    if not isinstance(field.dtype, kinds):
        msg = (
            f"read_stream_kafka(): field {field.name!r} of {model} is {kind_label(field.dtype)}; it holds the "
            f"record's {column}, declare it {declare}"
        )
        raise ColumnTypeError(msg)


def kafka_stream(
    model: type[BaseModel], session: Any, bootstrap_servers: object, *, topic: object, topics: object,
    pattern: object, format: object, starting_offsets: object, max_offsets_per_trigger: object,
    fail_on_data_loss: object, options: Mapping[str, Any],
) -> DataFrame[Any]:  # fmt: skip
    """The streaming frame of ``Model.read_stream_kafka`` (arguments as there), checked when called."""
    from pydantable_spark import F
    from pydantable_spark.constructors import schema_of_model
    from pydantable_spark.expr.api import Expr
    from pydantable_spark.expr.text_formats import FromText
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.plan import nodes as p
    from pydantable_spark.plan.sources import StreamSource
    from pydantable_spark.reconcile import reconcile

    action = "read_stream_kafka()"
    servers = _servers(bootstrap_servers, action)
    kind, subscription = _subscription(topic, topics, pattern, action)
    if not isinstance(format, str):
        msg = f"{action}: format must be 'json', got {shown(format)}"
        raise ArgumentTypeError(msg)
    if format not in _FORMATS:
        msg = (
            f"{action}: format={format!r}: Kafka values are read as JSON only (format='json'); Avro is not offered "
            "(Spark's from_avro reads plain Avro binary, not the schema registry's framing most Kafka producers write)"
        )
        raise NotImplementedError(msg)
    check_param(action, "max_offsets_per_trigger", max_offsets_per_trigger, int, optional=True)
    check_param(action, "fail_on_data_loss", fail_on_data_loss, bool)
    opts = typed_options(options, action, KAFKA_OPTIONS)
    opts.update({"kafka.bootstrap.servers": servers, kind: subscription})
    opts["startingOffsets"] = _offsets(starting_offsets, action)
    if max_offsets_per_trigger is not None:
        if max_offsets_per_trigger < 1:  # type: ignore[operator]
            msg = f"{action}: max_offsets_per_trigger must be at least 1, got {max_offsets_per_trigger}"
            raise ArgumentValueError(msg)
        opts["maxOffsetsPerTrigger"] = str(max_offsets_per_trigger)
    opts["failOnDataLoss"] = str(fail_on_data_loss).lower()

    target = schema_of_model(model)
    label = f"{action} of {subscription!r}"
    data = StreamSource("kafka", (), tuple(opts.items()), None, label)
    frame: DataFrame[Any] = DataFrame(p.Source(data, KAFKA_SCHEMA, session), None)
    value_fields = tuple(dt.Field(f.name, f.dtype, True) for f in target if f.name not in KAFKA_METADATA)
    columns: dict[str, Any] = {}
    if value_fields:
        schema: Any = dt.Struct(value_fields)  # F.from_json takes a dtypes struct too (typed for models only)
        text = F.validate_utf8(F.col("value").cast(dt.String()))  # bytes that are not UTF-8 fail, never replaced
        parsed = F.from_json(text, schema, {"mode": "FAILFAST"})
        assert isinstance(parsed.node, FromText)
        parsed = Expr(replace(parsed.node, name=model.__name__))  # messages name the model, not its struct
        # the parsed record comes out of a generator (a one-element array, exploded): Spark pushes a filter through
        # projections, where it would parse each record again below them, but not below a generator's output; the
        # outer form, as for explode Spark infers a size() filter below it that parses again
        frame = frame.with_columns(__pydantable_value=F.array(parsed)).explode_outer("__pydantable_value")
        record = F.col("__pydantable_value")
    for f in target:
        if f.name in KAFKA_METADATA:
            _metadata_field(f, model.__name__)
            column = F.col(KAFKA_METADATA[f.name][0])
            columns[f.name] = F.validate_utf8(column.cast(dt.String())) if isinstance(f.dtype, dt.String) else column
        else:
            columns[f.name] = record.struct.field(f.name)
    frame = frame.select(**columns)
    rec = reconcile(frame.schema.fields, target, allow_lossy=False, null_check=True)
    return DataFrame(p.Reconcile(frame._plan, rec, label), model)


@dataclass(frozen=True, slots=True)
class KafkaRecords:
    """How ``write_stream_kafka`` makes a frame's rows Kafka records: the JSON value's columns and the key's."""

    value: tuple[str, ...]
    """The columns of the value, a JSON object (``to_json``: a NULL field is left out, and reads back as NULL)."""
    key: str | None
    """The key's column (None: no key), written as its text (``str``; ``bytes`` as they are; others cast to text)."""
    key_is_text: bool = True


_KEY_TYPES = (dt.String, dt.Binary, dt.Int8, dt.Int16, dt.Int32, dt.Int64, dt.Date, dt.Datetime, dt.Decimal, dt.Boolean)


def kafka_sink(
    schema: Schema, bootstrap_servers: object, *, topic: object, key: object, options: Mapping[str, Any]
) -> tuple[dict[str, str], KafkaRecords]:  # fmt: skip
    """The options and the records of ``write_stream_kafka`` (arguments as there), checked when called."""
    from pydantable_spark.into import names_of

    action = "write_stream_kafka()"
    servers = _servers(bootstrap_servers, action)
    name = _topic(topic, action, "topic")
    key_name: str | None
    if key is None:
        key_name = "kafka_key" if "kafka_key" in schema.names else None
    else:
        chosen = names_of([key], schema, f"{action}'s key")
        if len(chosen) != 1:
            msg = f"{action}: key must be one column of the frame (a name or a model attribute), got {shown(key)}"
            raise ArgumentTypeError(msg)
        key_name = chosen[0]
    if key_name is not None and not isinstance(schema[key_name].dtype, _KEY_TYPES):
        msg = (
            f"{action}: key column {key_name!r} is {kind_label(schema[key_name].dtype)}; a Kafka key is text or "
            "bytes (str, bytes, or an int, date, datetime, decimal or bool written as its text)"
        )
        raise ColumnTypeError(msg)
    opts = typed_options(options, action, KAFKA_SINK_OPTIONS)
    opts.update({"kafka.bootstrap.servers": servers, "topic": name})
    value = tuple(n for n in schema.names if n not in KAFKA_METADATA)
    if not value:
        msg = f"{action}: the frame has no column for the record's value (only Kafka metadata: {schema.names})"
        raise ArgumentValueError(msg)
    is_text = key_name is None or not isinstance(schema[key_name].dtype, dt.Binary)
    return opts, KafkaRecords(value, key_name, is_text)
