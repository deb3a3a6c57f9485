"""Columns, operators and expression methods that must type-check, with their exact types."""

from __future__ import annotations

import datetime
import decimal
from typing import Any

from models import Address, User
from typing_extensions import assert_type

from pydantable_spark import F
from pydantable_spark.expr import Col, Expr
from pydantable_spark.functions import WhenThen

assert_type(User.age, Col[int | None])
assert_type(User.id, Col[int])
assert_type(User.address, Col[Address | None])
assert_type(User.tags, Col[list[str]])
assert_type(User(id=1, name="a", age=None, score=1.0, joined=datetime.date(2020, 1, 1), seen=None,
                 price=decimal.Decimal(1), active=True, small=1, address=None, tags=[]).age, int | None)  # fmt: skip

# arithmetic: promotion and nullability as at run time
assert_type(User.age + 1, Expr[int | None])
assert_type(User.id + 1, Expr[int])
assert_type(1 + User.id, Expr[int])
assert_type(User.id + User.score, Expr[float])
assert_type(User.id - User.age, Expr[int | None])
assert_type(User.id * 2.5, Expr[float])
assert_type(User.id / 2, Expr[float | None])
assert_type(User.id // 2, Expr[int | None])
assert_type(User.id % 3, Expr[int | None])
assert_type(User.price * 2, Expr[decimal.Decimal])
assert_type(User.price + User.score, Expr[float])
assert_type(-User.age, Expr[int | None])
assert_type(User.small + User.id, Expr[int])

# an operand nested in another operator is typed by the runtime's rule, not by the outer operator's
# inferred type (mypy would otherwise require the int in 1 - price to be a Decimal)
assert_type(User.price * (1 - User.price), Expr[decimal.Decimal])
assert_type(User.price * (1 + User.price), Expr[decimal.Decimal])
assert_type(User.price * (User.price - 1), Expr[decimal.Decimal])
assert_type(User.price * (User.price - User.id), Expr[decimal.Decimal])
assert_type(User.price * User.price.fill_null(0), Expr[decimal.Decimal])
assert_type(User.price * F.when(User.active, User.price).otherwise(0), Expr[decimal.Decimal])
assert_type(F.sum(User.price * (1 - User.price) * (1 + User.price)), Expr[decimal.Decimal | None])
assert_type(User.score * (1 - User.score), Expr[float])
assert_type(User.id * (1 - User.id), Expr[int])
assert_type(User.age * (1.5 - User.id), Expr[float | None])

# comparisons and Kleene logic
assert_type(User.age > 3, Expr[bool | None])
assert_type(User.id == 3, Expr[bool])
assert_type(User.name != "x", Expr[bool])
assert_type(User.joined < datetime.date(2020, 1, 1), Expr[bool])
assert_type((User.id > 1) & User.active, Expr[bool])
assert_type((User.age > 1) | User.active, Expr[bool | None])
assert_type(~User.active, Expr[bool])
assert_type(User.active & True, Expr[bool])

# methods
assert_type(User.age.is_null(), Expr[bool])
assert_type(User.age.is_not_null(), Expr[bool])
assert_type(User.age.is_in([1, 2]), Expr[bool | None])
assert_type(User.id.is_in([1, 2]), Expr[bool])
assert_type(User.id.between(1, 5), Expr[bool])
assert_type(User.age.between(1, 5), Expr[bool | None])
assert_type(User.age.fill_null(0), Expr[int])
assert_type(User.age.fill_null(User.age), Expr[int | None])
assert_type(User.age.cast(float), Expr[float | None])
assert_type(User.id.cast(str), Expr[str])
assert_type(User.name.cast(int), Expr[int | None])
assert_type(User.tags.cast(list[str]), Expr[list[str]])  # a parameterized type names its element type
assert_type(User.tags.cast(list[int]), Expr[list[int]])
assert_type(User.age.alias("years"), Expr[int | None])

# namespaces
assert_type(User.name.str.upper(), Expr[str])
assert_type(User.name.str.length(), Expr[int])
assert_type(User.name.str.contains("a"), Expr[bool])
assert_type(User.name.str.slice(0, 2), Expr[str])
assert_type(User.joined.dt.year(), Expr[int])
assert_type(User.seen.dt.month(), Expr[int | None])

# F functions
assert_type(F.lit(1), Expr[int])
assert_type(F.lit("a"), Expr[str])
assert_type(F.lit(None, dtype=int), Expr[int | None])
assert_type(F.lit(None), Expr[Any])  # its context gives it a type when the plan is built
assert_type(F.coalesce(User.age, 0), Expr[int])
assert_type(F.coalesce(User.age, User.score), Expr[float])
assert_type(F.concat(User.name, F.lit("!")), Expr[str])
assert_type(F.upper(User.name), Expr[str])
assert_type(F.date_add(User.joined, 1), Expr[datetime.date])
assert_type(F.datediff(User.joined, User.joined), Expr[int])
assert_type(F.when(User.active, 1), WhenThen[int])
assert_type(F.when(User.active, 1).otherwise(0), Expr[int])
assert_type(F.when(User.active, User.age).otherwise(0), Expr[int | None])
assert_type(F.when(User.active, 1).when(User.id > 2, 2.5).otherwise(0), Expr[float])
assert_type(F.when(User.active, 1).otherwise(None), Expr[int | None])
assert_type(F.col("anything"), Col[Any])
# what the plugin cannot type stays unknown (the signatures' approximations are for checkers without it)
assert_type(F.col("anything") > 1, Expr[Any])
assert_type(F.col("anything") + 1, Expr[Any])
assert_type(F.col("anything").fill_null(0), Expr[Any])
assert_type(F.col("anything").cast(int), Expr[Any])
assert_type(F.col("anything").str.length(), Expr[Any])
assert_type(F.upper("anything"), Expr[Any])
assert_type(F.when(F.col("anything"), 1).otherwise(0), Expr[Any])
assert_type(User.address.struct.field("city"), Expr[str | None])
assert_type(User.tags.list.len(), Expr[int])
assert_type(F.to_date(User.seen), Expr[datetime.date | None])  # a datetime's date
assert_type(F.to_date(User.joined), Expr[datetime.date])
assert_type(User.tags.list.get(0), Expr[str | None])
assert_type(User.name.str.split(","), Expr[list[str]])


@F.udf
def shout(text: str) -> str:
    return text.upper()


assert_type(shout(F.col("name")), Expr[str | None])  # Spark marks a Python UDF's result nullable


@F.udf
def scaled(value: float | None, by: int) -> float:
    return (value or 0.0) * by


# arguments are checked by the runtime's rules: a column of the parameter's type (a narrower integer
# for an int parameter), a nullable one only for an Optional parameter, a column name, a literal
assert_type(shout(User.name), Expr[str | None])
assert_type(shout("name"), Expr[str | None])
assert_type(scaled(User.score, User.id), Expr[float | None])
assert_type(scaled(User.age.cast(float), User.small), Expr[float | None])
assert_type(scaled(User.score, F.size(User.tags)), Expr[float | None])
