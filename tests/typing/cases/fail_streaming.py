"""Streams: foreach_batch's function must take the stream's frame and an int."""

from __future__ import annotations

from models import Dept, User

from pydantable_spark import DataFrame

stream = User.read_stream_json("/in")


def depts(frame: DataFrame[Dept], batch_id: int) -> None: ...


def no_id(frame: DataFrame[User]) -> None: ...


stream.foreach_batch(depts, checkpoint="/cp")  # E: Argument 1 to "foreach_batch" of "DataFrame" has incompatible type
stream.foreach_batch(no_id, checkpoint="/cp")  # E: Argument 1 to "foreach_batch" of "DataFrame" has incompatible type
stream.write_stream_delta("/out", checkpoint="/cp", output_mode="update")  # E: Argument "output_mode"
stream.drop_duplicates_within_watermark(User.id, "nmae")  # E: unknown column 'nmae' in drop_duplicates_within
