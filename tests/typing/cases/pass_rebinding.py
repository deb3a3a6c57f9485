"""Rebinding a frame variable to a frame derived from it type-checks, and the variable then has the new columns.

A derived frame is accepted where the frame it was derived from is expected, so
``lines = lines.with_columns(...)`` is a valid assignment; after it mypy narrows
``lines`` to the derived frame, whose columns are the ones checked from there on.
"""

from __future__ import annotations

from models import Dept, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, F

lines = User.from_rows([])
lines = lines.with_columns(margin=User.score * 2)
assert_type(lines.collect()[0].margin, float)
assert_type(lines.collect()[0].age, int | None)
lines = lines.filter(User.age > 18).sort(User.id).limit(10).head(5).unique()
assert_type(lines.collect()[0].margin, float)
lines = lines.select(User.id, User.name, "margin")
assert_type(lines.collect()[0].name, str)
lines = lines.rename({"name": "label"})
assert_type(lines.collect()[0].label, str)
lines = lines.drop("margin")
lines = lines.join(Dept.from_rows([]), on="id", how="left")
assert_type(lines.collect()[0].budget, float | None)
lines = lines.group_by("label").agg(n=F.count())
assert_type(lines.collect()[0].n, int)
assert_type(lines.collect()[0].label, str)

same = User.from_rows([])
same = same.with_columns(User.age).select(User.id, "name", "age", "score", "joined", "seen", "price", "active",
                                           "small", "address", "tags")  # fmt: skip
assert_type(same, DataFrame[User])  # the columns are unchanged: the runtime keeps the model, so does mypy


def stage(users: DataFrame[User], flag: bool) -> list[int]:
    """A parameter, rebound in branches and loops."""
    users = users.with_columns(next=User.age + 1)
    if flag:
        users = users.with_columns(bonus=F.lit(1.5))
    if not flag:
        users = users.filter(User.active)
    assert_type(users.collect()[0].next, int | None)  # both branches have it
    for _ in range(3):
        users = users.with_columns(twice=User.id * 2).filter(User.id > 1)
    while flag:
        users = users.with_columns(tmp=F.lit(1)).drop("tmp")
        flag = False
    assert_type(users.collect()[0].id, int)
    try:
        users = users.select(User.id)
    except ValueError:
        users = users.select(User.id, User.name)
    return [row.id for row in users.collect()]


ids = User.from_rows([]).select(User.id)
wide = ids.with_columns(tmp=F.lit(1))
wide = wide.drop("tmp")  # back to columns it was derived from
assert_type(wide.collect()[0].id, int)
wide = wide.with_columns(tmp=F.lit(2))
assert_type(wide.collect()[0].tmp, int)
