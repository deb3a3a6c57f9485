"""Typed Structured Streaming: the same models and typed plans over ``spark.readStream`` and ``writeStream``.

A stream is a ``DataFrame[M]`` whose ``is_streaming`` is true, made by
``Model.read_stream_parquet/json/csv(path)`` or ``read_stream_rate()``;
``with_watermark`` marks its event time; ``write_stream_parquet/json/csv``
(and ``write_stream_memory`` for tests) start a query and return its typed
``StreamingQuery``. What Spark refuses on streams is refused when the plan is
built (``pydantable_spark.plan.streaming``), the output mode before the query
starts. The guide is ``docs/streaming.md``.
"""

from pydantable_spark.streaming.frames import StreamConstraints, Streams
from pydantable_spark.streaming.query import StreamingQuery

__all__ = ["StreamConstraints", "StreamingQuery", "Streams"]
