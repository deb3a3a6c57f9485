"""What pyright and Pylance infer without the mypy plugin, with the generated model stubs on stubPath.

Every ``assert_type`` is checked by basedpyright in ``tests/typing/test_pyright.py``; the file must
have no error. ``models`` resolves to ``stubs/models.pyi`` (the typing cases' models).
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any

from models import Address, Out, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, F
from pydantable_spark import dtypes as dt
from pydantable_spark.expr import Col, Expr
from pydantable_spark.functions import WhenThen

# columns: Col[T] on the class, T on an instance
assert_type(User.age, Col[int | None])
assert_type(User.id, Col[int])
assert_type(User.address, Col[Address | None])
assert_type(User.tags, Col[list[str]])
user = User(id=1, name="a", age=None, score=1.0, joined=datetime.date(2020, 1, 1), seen=None,
            price=decimal.Decimal(1), active=True, small=1, address=None, tags=[])  # fmt: skip
assert_type(user.age, int | None)
assert_type(user.tags, list[str])

# arithmetic: nullability is exact; mixed types are the union of the operands' types
assert_type(User.age + 1, Expr[int | None])
assert_type(User.id + 1, Expr[int])
assert_type(1 + User.id, Expr[int])
assert_type(User.id - User.age, Expr[int | None])
assert_type(User.id + User.score, Expr[int | float])
assert_type(User.id * 2.5, Expr[int | float])
assert_type(User.id / 2, Expr[int | float | None])
assert_type(User.id // 2, Expr[int | None])
assert_type(User.id % 3, Expr[int | None])
assert_type(-User.age, Expr[int | None])
assert_type(User.price * 2, Expr[decimal.Decimal | int])

# comparisons and Kleene logic
assert_type(User.age > 3, Expr[bool | None])
assert_type(User.id == 3, Expr[bool | None])
assert_type((User.id > 1) & User.active, Expr[bool | None])
assert_type(User.active & True, Expr[bool])
assert_type(~User.active, Expr[bool])

# methods
assert_type(User.age.is_null(), Expr[bool])
assert_type(User.age.is_in([1, 2]), Expr[bool | None])
assert_type(User.age.between(1, 5), Expr[bool | None])
assert_type(User.age.fill_null(0), Expr[int])
assert_type(User.age.fill_null(User.age), Expr[int | None])
assert_type(User.age.cast(float), Expr[float | None])
assert_type(User.age.cast(dt.Int32), Expr[Any | None])
assert_type(User.age.alias("years"), Expr[int | None])

# namespaces: the receiver's nullability where the result follows it alone
assert_type(User.name.str.upper(), Expr[str])
assert_type(User.name.str.length(), Expr[int])
assert_type(User.name.str.split(","), Expr[list[str]])
assert_type(User.name.str.contains("a"), Expr[bool | None])
assert_type(User.joined.dt.strftime("%Y"), Expr[str])
assert_type(User.joined.dt.year(), Expr[int | None])
assert_type(User.tags.list.len(), Expr[int])
assert_type(User.tags.list.get(0), Expr[Any])

# F: fixed result types; Any where the type follows the arguments
assert_type(F.lit(1), Expr[int])
assert_type(F.lit(None, dtype=int), Expr[int | None])
assert_type(F.count("id"), Expr[int])
assert_type(F.upper(User.name), Expr[str | None])
assert_type(F.datediff(User.joined, User.joined), Expr[int | None])
assert_type(F.sum(User.id), Expr[Any])
assert_type(F.col("anything"), Col[Any])
assert_type(F.when(User.active, 1), WhenThen[int])
assert_type(F.when(User.active, User.age).otherwise(0), Expr[int | None])
assert_type(F.when(User.active, 1).otherwise(None), Expr[int | None])

# frames: a schema-changing transform has no row type, as_model names it
users = User.from_rows([])
assert_type(users, DataFrame[User])
assert_type(users.filter(User.age >= 18), DataFrame[User])
out = users.select(User.id, (User.age + 1).alias("next"))
assert_type(out, DataFrame[Any])
assert_type(out.as_model(Out), DataFrame[Out])
assert_type(out.as_model(Out).collect(), list[Out])
assert_type(users.collect()[0].age, int | None)
