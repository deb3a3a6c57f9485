"""The interface contract's renaming, ordering and reshaping helpers, predicates and result forms."""

from __future__ import annotations

from typing import Any, Literal

import polars as pl
from models import Address, Dept, Shipment, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, Expr, cs

users = User.from_rows([])
shipments = Shipment.from_rows([])

# renamed columns keep the types of the columns they were (Literal, enum and nested model included)
prefixed = shipments.rename_prefix("s_", selector=["kind", "to", "status"])
assert_type(prefixed.collect()[0].s_kind, Literal["parcel", "letter"])
assert_type(prefixed.collect()[0].s_to, Address)
assert_type(prefixed.collect()[0].s_status, str)  # an enum column of a derived row: its values
assert_type(prefixed.collect()[0].id, int)
assert_type(users.rename_suffix("_x", selector=cs.numeric()).collect()[0].age_x, int | None)
assert_type(users.rename_suffix("_x", selector=cs.numeric()).collect()[0].name, str)
assert_type(users.rename_replace("score", "points").collect()[0].points, float)
assert_type(users.rename_with_selector("age", lambda name: name + "_years"), DataFrame[Any])  # fn runs at run time

# reordering keeps every column's type
assert_type(users.select_first("tags", User.age).collect()[0].tags, list[str])
assert_type(users.select_last(cs.string()).collect()[0].address, Address | None)
assert_type(users.reorder_columns(["price", "id"]).collect()[0].price.as_tuple().exponent, int | Literal["n", "N", "F"])
assert_type(users.move("active", before="id").collect()[0].active, bool)

# reshaping under the contract's names
assert_type(users.explode_all().collect()[0].tags, str)
assert_type(users.unnest_all().collect()[0].address_city, str | None)
assert_type(users.pivot_longer("id", ["age", "small"], value_name="v").collect()[0].v, int | None)
wide = Dept.from_rows([]).pivot_wider("id", "name", "budget", pivot_values=["a"])
assert_type(wide.collect()[0].a_first, float | None)
assert_type(users.sort("age", maintain_order=True), DataFrame[User])

# results
assert_type(users.collect(as_lists=True), dict[str, list[Any]])
assert_type(users.collect(trusted=True), list[User])
assert_type(users.collect_batches(10), list[pl.DataFrame])
assert_type(users.shape, tuple[int, int])
assert_type(users.empty, bool)


async def later() -> None:
    assert_type(await users.ato_polars(), pl.DataFrame)
    assert_type(await users.acollect(as_lists=True), dict[str, list[Any]])
    assert_type(await users.acollect(), list[User])


# predicates
assert_type(User.age.isin(1, 2), Expr[bool | None])
assert_type(User.name.isin(["a", "b"]), Expr[bool])
assert_type(User.name.str.is_empty_str(), Expr[bool])
assert_type(User.name.str.is_blank_str(), Expr[bool])
assert_type(User.name.str.matches("^A"), Expr[bool])
assert_type(User.name.str.is_null_or_empty_str(), Expr[bool])
assert_type(User.tags.list.contains_any(["a", "b"]), Expr[bool])
assert_type(User.tags.list.contains_all(["a"]), Expr[bool])
assert_type(User.tags.list.list_is_empty(), Expr[bool])
assert_type(User.tags.list.is_empty(), Expr[bool])
users.filter(User.name.str.matches("^A") & User.tags.list.contains_any(["x"]))
