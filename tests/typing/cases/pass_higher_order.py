"""Higher-order functions: the plugin types a lambda's parameters as the runtime types its variables, then its body."""

from __future__ import annotations

from typing import Any

from models import User
from typing_extensions import assert_type

from pydantable_spark import Expr, F

# the element (and index) reach the body typed, and the result is a list of the body's type
assert_type(F.transform(User.tags, lambda t: t.str.upper()), Expr[list[str]])
assert_type(F.transform(User.tags, lambda t, i: F.concat(t, i.cast(str))), Expr[list[str]])
assert_type(F.transform(User.tags, lambda t, i: i), Expr[list[int]])
assert_type(F.transform(User.tags, lambda t: F.when(t == "a", t)), Expr[list[str | None]])
assert_type(F.transform(User.tags, lambda t: 1), Expr[list[int]])
assert_type(F.filter(User.tags, lambda t: t.str.len_chars() > 1), Expr[list[str]])
assert_type(F.exists(User.tags, lambda t: t == "a"), Expr[bool])
assert_type(F.forall(User.tags, lambda t: t.str.starts_with("a")), Expr[bool])
# a lambda inside a lambda sees the outer one's variable
assert_type(F.transform(User.tags, lambda t: F.transform(User.tags, lambda u: F.concat(t, u))), Expr[list[list[str]]])
# the accumulator has the initial value's type, NULL-able; finish gives the result's
assert_type(F.aggregate(User.tags, User.age, lambda acc, t: acc + t.str.len_chars()), Expr[int | None])
assert_type(F.aggregate(User.tags, 0, lambda acc, t: acc + 1, lambda acc: F.coalesce(acc, F.lit(0))), Expr[int])
assert_type(F.reduce(User.tags, F.lit(""), lambda acc, t: F.concat(acc, t)), Expr[str | None])
assert_type(F.zip_with(User.tags, F.array(User.age), lambda t, a: F.concat(t, a.cast(str))), Expr[list[str | None]])
prices = F.create_map(F.lit("a"), User.score)
assert_type(F.map_filter(prices, lambda k, v: v > 1.0), Expr[dict[str, float]])
assert_type(F.transform_values(prices, lambda k, v: v.is_null()), Expr[dict[str, bool]])
assert_type(F.transform_keys(prices, lambda k, v: F.concat(k, F.lit("!"))), Expr[dict[str, float]])
assert_type(F.map_zip_with(prices, prices, lambda k, a, b: F.coalesce(a, b)), Expr[dict[str, float | None]])

# a frame's column typed by the body
users = User.from_rows([])
assert_type(users.select(up=F.transform(User.tags, lambda t: t.str.upper())).collect()[0].up, list[str])


# bodies evaluated with the runtime's API raise nothing the runtime accepts: namespaces, nested calls, the
# frame's columns, indexes and accumulators
nested = F.transform(F.array(User.tags), lambda ts: F.filter(ts, lambda t: t.str.len_chars() > F.size(ts)))
assert_type(nested, Expr[list[list[str]]])
assert_type(F.transform(User.tags, lambda t, i: F.when(i > 0, t.str.lower()).otherwise(t)), Expr[list[str]])
assert_type(F.exists(F.array(User.joined), lambda d: d.dt.year() > 2020), Expr[bool])
assert_type(F.forall(F.array(User.tags), lambda ts: F.exists(ts, lambda t: t == User.name)), Expr[bool])
floor = F.coalesce(User.age.cast(float), F.lit(0.0))
assert_type(F.filter(F.array(User.score), lambda s: s > floor), Expr[list[float]])
summed = F.aggregate(F.array(User.score), F.lit(0.0), lambda acc, s: acc + s, lambda acc: acc * 2)
assert_type(summed, Expr[float | None])
# a 32-bit accumulator: mypy's int is a bigint, the runtime alone compares the merge's width with it
assert_type(F.aggregate(F.array(User.small), User.small, lambda acc, x: acc + x), Expr[int | None])
counted = F.transform(F.array(User.tags), lambda ts: F.aggregate(ts, F.lit(0), lambda n, t: n + 1))
assert_type(counted, Expr[list[int | None]])
zipped = F.zip_with(User.tags, F.array(User.age), lambda t, a: F.concat(t.str.upper(), a.cast(str)))
assert_type(zipped, Expr[list[str | None]])
assert_type(F.map_filter(prices, lambda k, v: k.str.starts_with("a") & (v > User.score)), Expr[dict[str, float]])
assert_type(F.transform_keys(prices, lambda k, v: k.str.upper()), Expr[dict[str, float]])
assert_type(F.transform_values(prices, lambda k, v: v * User.score), Expr[dict[str, float]])
assert_type(F.transform(User.tags, lambda t: t), Expr[list[str]])
assert_type(F.filter(User.tags, lambda t: True), Expr[list[str]])
assert_type(users.select(n=F.transform(User.tags, lambda t: F.concat(t, F.col("name")))).collect()[0].n, list[str])
grouped = users.group_by(User.name).agg(ups=F.collect_list(F.transform(User.tags, lambda t: t.str.upper())))
assert_type(grouped.collect()[0].ups, list[list[str]])


# not inferred (documented): a function passed by name, and a list named by a string; the calls type-check
def shout(t: Expr[Any]) -> Expr[Any]:
    return t.str.upper()


assert_type(F.transform(User.tags, shout), Expr[Any])
assert_type(F.transform("tags", lambda t: t.str.upper()), Expr[Any])
