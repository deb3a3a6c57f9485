"""The testing helpers: ``build_frame`` keeps the model's row type, as the constructors do."""

from __future__ import annotations

from models import Address, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame
from pydantable_spark.testing import assert_frame_equal, build_frame

users = build_frame(User, [{"id": 1}, {"name": "Ada"}], age=3)
assert_type(users, DataFrame[User])
assert_type(users.collect()[0].age, int | None)
assert_type(build_frame(Address, 2), DataFrame[Address])
assert_type(users.filter(User.age > 1).select(User.id).collect()[0].id, int)

assert_type(assert_frame_equal(users, User.from_rows([])), None)
assert_type(assert_frame_equal(users, [{"id": 1}], ignore_columns=["name"], rtol=1e-3, atol=0), None)
assert_type(assert_frame_equal([(1, "x")], users.select(User.id, User.name).to_spark()), None)
