"""The typing guide's tour (docs/typing.md includes this file): what mypy reports, line by line."""

from __future__ import annotations

from typing import assert_type

from models import Dept, User

from pydantable_spark import Col, DataFrame, Expr, F

assert_type(User.age, Col[int | None])
User.agee  # E: "type[User]" has no attribute "agee"
assert_type(User.age + 1, Expr[int | None])
assert_type(User.id + User.score, Expr[float])
assert_type(User.age > 3, Expr[bool | None])
assert_type(User.age**2, Expr[float | None])  # Spark's power() is a double
User.name**2  # E: Unsupported operand types for ** ("Col[str]" and "int")
User.name + 1  # E: Unsupported operand types for + ("Col[str]" and "int")
User.id.str.upper()  # E: str.upper(): col must be a string; got column 'User.id' of type int (bigint)
assert_type(User.name.cast(int), Expr[int | None])  # parsing a string can fail: Spark makes it nullable
F.when(User.id > 1, 1).otherwise("x")  # E: no common type

users = User.from_rows([])
assert_type(users, DataFrame[User])
users.filter(User.age)  # E: incompatible type "Col[int | None]"; expected "Expr[bool | None]"
out = users.select(User.id, (User.age + 1).alias("next"))
assert_type(out.collect()[0].next, int | None)
out.collect()[0].missing  # E: "Row[id: int, next: int | None]" has no attribute "missing"
users.select("nope")  # E: select(): unknown column 'nope' in the frame

depts = Dept.from_rows([])
joined = users.join(depts, on="id", how="left")  # the right side's columns become Optional
assert_type(joined.collect()[0].budget, float | None)
grouped = users.group_by(User.name).agg(n=F.count(), total=F.sum(User.age))
assert_type(grouped.collect()[0].n, int)
assert_type(grouped.collect()[0].total, int | None)
users.join(depts, on="joined")  # E: join(): unknown column 'joined' in the right frame
