"""Frames: kept row types, derived row types, model checks."""

from __future__ import annotations

from typing import Any

from models import Out, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, F

users = User.from_rows([])
assert_type(users, DataFrame[User])
assert_type(DataFrame[User].from_rows([]), DataFrame[User])
assert_type(DataFrame.from_rows([], model=User), DataFrame[User])
assert_type(users.filter(User.age > 1), DataFrame[User])
assert_type(users.filter(User.active), DataFrame[User])
assert_type(users.filter(F.col("active")), DataFrame[User])
assert_type(users.sort(User.id).limit(3).head(2).unique(), DataFrame[User])
assert_type(users.collect(), list[User])
assert_type(users.collect()[0].age, int | None)

out = users.select(User.id, (User.age + 1).alias("next"))
assert_type(out.collect()[0].next, int | None)
assert_type(out.collect()[0].id, int)
assert_type(out.as_model(Out), DataFrame[Out])
assert_type(out.as_model(Out).collect(), list[Out])

named = users.select("name", doubled=User.id * 2, one=1, label=F.lit("x"))
row = named.collect()[0]
assert_type(row.name, str)
assert_type(row.doubled, int)
assert_type(row.one, int)
assert_type(row.label, str)

computed = users.select(User.age + 1, User.name.str.upper(), F.coalesce(User.score, 0))
assert_type(computed.collect()[0].age, int | None)
assert_type(computed.collect()[0].name, str)
assert_type(computed.collect()[0].score, float)

with_cols = users.with_columns(User.age.fill_null(0), flag=User.score > 1)
assert_type(with_cols.collect()[0].age, int)
assert_type(with_cols.collect()[0].flag, bool)
assert_type(with_cols.collect()[0].name, str)

dropped = users.drop("age", User.score)
assert_type(dropped.collect()[0].id, int)
renamed = users.rename({"age": "years"})
assert_type(renamed.collect()[0].years, int | None)
by_name = users.select(F.col("age"))
assert_type(by_name.collect()[0].age, int | None)

chained = users.with_columns(x=User.id + 1).select("x", F.col("name"))
assert_type(chained.collect()[0].x, int)

expression: Any = User.age + 1
unknown = users.select(expression)
assert_type(unknown, DataFrame[Any])  # a name mypy cannot know: an unchecked frame, never a wrong one
