"""Join conditions and physical controls: the row types the runtime derives."""

from __future__ import annotations

from models import Dept, User
from pyspark.storagelevel import StorageLevel
from typing_extensions import assert_type

from pydantable_spark import DataFrame, F, left, right

users = User.from_rows([])
depts = Dept.from_rows([])

# a condition keeps the columns: the right side's become Optional in a left join, as with keys
ranged = users.join(depts, on=(User.age >= Dept.id) & (User.score < Dept.budget), how="left")
assert_type(ranged.collect()[0].budget, float | None)
assert_type(ranged.collect()[0].id_right, int | None)
assert_type(ranged.collect()[0].age, int | None)

# keys and a condition: the key is one column
keyed = users.join(depts, on=["id", User.name != Dept.name])
assert_type(keyed.collect()[0].id, int)
assert_type(keyed.collect()[0].name_right, str)

# semi and anti joins keep the left frame's rows and model
assert_type(users.join(depts, on=User.id == Dept.id, how="semi"), DataFrame[User])
assert_type(users.join(depts, on=[left.col("name") != right.col("name")], how="anti"), DataFrame[User])

# outer joins: the side that may have no match is Optional; PySpark's spellings of how= too
outer = users.join(depts.select(Dept.id, Dept.budget), on="id", how="outer")
assert_type(outer.collect()[0].id, int | None)
assert_type(outer.collect()[0].name, str | None)
assert_type(outer.collect()[0].budget, float | None)
righted = users.join(depts, on=User.id == Dept.id, how="right_outer")
assert_type(righted.collect()[0].score, float | None)
assert_type(righted.collect()[0].budget, float)
assert_type(users.join(depts, on="id", how="left_semi"), DataFrame[User])

# a side's column by its name now, after a rename; a self-join's sides
titled = users.join(depts.rename({"name": "title"}), on=User.name == right.col("title"), how="left")
assert_type(titled.collect()[0].title, str | None)
pairs = users.join(users, on=["id", left.col("score") < right.col("score")], how="semi")
assert_type(pairs, DataFrame[User])

# a cross join with a condition is an inner join on it
crossed = users.join(depts, on=User.age > Dept.id, how="cross", hint="broadcast")
assert_type(crossed.collect()[0].budget, float)

# a condition beside left_on=/right_on=
both = users.join(depts, left_on="age", right_on="id", on=User.score > Dept.budget, how="full")
assert_type(both.collect()[0].id, int | None)

# physical controls keep the frame's type
assert_type(users.cache(), DataFrame[User])
assert_type(users.persist("MEMORY_ONLY").unpersist(), DataFrame[User])
assert_type(users.persist(StorageLevel.DISK_ONLY), DataFrame[User])
assert_type(users.repartition(8, "id", User.name).coalesce(2), DataFrame[User])
assert_type(users.repartition(User.id), DataFrame[User])
assert_type(users.sample(0.1, seed=7), DataFrame[User])
assert_type(users.hint("broadcast"), DataFrame[User])
assert_type(users.local_checkpoint(eager=False), DataFrame[User])
assert_type(users.checkpoint(eager=False), DataFrame[User])
assert_type(users.local_checkpoint(), DataFrame[User])  # eager: checked without running Spark
narrow = users.select("id", F.col("name")).cache()
assert_type(narrow.collect()[0].name, str)


def above_the_top_budget(people: DataFrame[User], teams: DataFrame[Dept]) -> DataFrame[User]:
    """A condition naming the other frame's column by string, on frames the plugin knows only by type."""
    top = teams.group_by(Dept.name).agg(top=F.max(Dept.budget))
    return people.join(top, on=[User.score > F.col("top")], left_on=User.name, right_on=Dept.name, how="semi")
