"""Streams: a stream is a frame of its model; foreach_batch's function takes that model's frame."""

from __future__ import annotations

from models import User
from typing_extensions import assert_type

from pydantable_spark import DataFrame
from pydantable_spark.streaming import StreamingQuery

stream = User.read_stream_json("/in")
assert_type(stream, DataFrame[User])


def keep(frame: DataFrame[User], batch_id: int) -> None:
    assert_type(frame.collect(), list[User])


def count(frame: DataFrame[User], batch_id: int) -> int:  # what fn returns is ignored
    return frame.count() + batch_id


assert_type(stream.foreach_batch(keep, checkpoint="/cp"), StreamingQuery)
assert_type(stream.filter(User.age > 1).foreach_batch(count, checkpoint="/cp", output_mode="append"), StreamingQuery)
assert_type(stream.write_stream_delta("/out", checkpoint="/cp", output_mode="complete"), StreamingQuery)
assert_type(stream.write_stream_table("db.t", checkpoint="/cp", format="iceberg"), StreamingQuery)
once = stream.with_watermark(User.seen, "1 minute").drop_duplicates_within_watermark(User.id, "name")
assert_type(once, DataFrame[User])
