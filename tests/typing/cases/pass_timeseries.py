"""The interface contract's remaining clauses: time windows, rolling aggregates, struct helpers, trusted rows."""

from __future__ import annotations

import datetime

from models import User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, Expr, F

users = User.from_rows([], trusted=True)
assert_type(users, DataFrame[User])
assert_type(User.from_columns({}, trusted=True), DataFrame[User])

# group_by_dynamic: the by keys, the index column (each window's start: a datetime), the aggregates
daily = users.group_by_dynamic("joined", every="1d", period="2d", by="name").agg(n=F.count(), top=F.max(User.score))
assert_type(daily.collect()[0].name, str)
assert_type(daily.collect()[0].joined, datetime.datetime)
assert_type(daily.collect()[0].n, int)
assert_type(daily.collect()[0].top, float | None)
assert_type(users.group_by_dynamic(User.joined, every=datetime.timedelta(hours=6)).count().collect()[0].count, int)

# rolling_agg: the frame and one more column, typed as the aggregate over a window
rolled = users.rolling_agg(on="joined", column="score", window_size="2d", op="sum", out_name="s", by=["name"])
assert_type(rolled.collect()[0].s, float | None)
assert_type(rolled.collect()[0].tags, list[str])
counted = users.rolling_agg(on="id", column="age", window_size=3, op="count", out_name="n")
assert_type(counted.collect()[0].n, int)

# struct helpers under the contract's names and short ones
assert_type(User.address.struct.json_encode(), Expr[str | None])
assert_type(User.address.struct.struct_json_path_match("$.city"), Expr[str | None])
users.select(
    renamed=User.address.struct.rename_fields(["town", "code"]),
    added=User.address.struct.with_fields(n=User.id, city=F.upper(User.name)),
)

# a stream is a frame of its model; with_watermark keeps it
events = User.read_stream_json("/in", max_files_per_trigger=10).with_watermark(User.seen, "10 minutes")
assert_type(events, DataFrame[User])
assert_type(events.is_streaming, bool)
