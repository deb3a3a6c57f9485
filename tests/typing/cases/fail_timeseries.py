"""Mistakes with the interface contract's remaining clauses that mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import User

from pydantable_spark import F

users = User.from_rows([])
users.group_by_dynamic("name", every="1d")  # E: index_column 'name' is str (string); it must be a date or a datetime
users.group_by_dynamic("joined", every="1 month")  # E: every holds months or years, whose length varies
users.group_by_dynamic("joined", every="2d", period="1d")  # E: period ('1d') is shorter than every ('2d')
users.group_by_dynamic("joined", every="1d").agg(x=User.id)  # E: agg(): id.alias('x') is not an aggregate
users.rolling_agg(on="seen", column="score", window_size="1h", op="sum", out_name="s")  # E: on 'seen' is nullable
users.rolling_agg(on="joined", column="score", window_size="1d", op="median", out_name="s")  # E: Argument "op"
users.rolling_agg(on="id", column="score", window_size="1h", op="sum", out_name="s")  # E: is an int in its unit
User.address.struct.rename_fields(["a"])  # E: has 2 field(s) (city, zip) but 1 new name(s) were given
users.select(User.address.struct.with_fields(User.id + 1))  # E: has no name; pass it by keyword
User.address.struct.json_path_match("city")  # E: path must be a JSONPath starting at the root
F.window(User.joined, "1mo")  # E: holds months, quarters or years
User.read_stream_json("/in").with_watermark(User.joined, "1 minute")  # E: column 'joined' is date (date); an event-time
users.with_watermark(User.seen, "1 month")  # E: holds months or years, whose length varies
