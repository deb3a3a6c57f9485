"""Mistakes in higher-order calls that mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import Dept, User

from pydantable_spark import F, Window

F.transform(User.tags, lambda t: t + 1)  # E: Unsupported operand types for + ("Expr[str]" and "int")
F.filter(User.tags, lambda t: t.str.len_chars())  # E: F.filter(): f must return a boolean for t: str (string)
F.exists(User.tags, lambda t, i: t == "a")  # E: F.exists(): f takes a function of 1 parameter (x: the element)
F.transform(User.age, lambda x: x)  # E: F.transform(): col must be a list; got column 'User.age'
F.transform_keys(F.create_map(F.lit("a"), User.age), lambda k, v: v)  # E: f must return a string for k: str
F.transform(User.tags, 3)  # E: Argument 2 to "transform" has incompatible type "int"

# the body is evaluated with the runtime's API on the runtime's variables: namespaces, nested calls, refusals
F.transform(User.tags, lambda t: t.dt.year())  # E: dt.year(): col must be a date or datetime; got expression on 't'
F.transform(F.array(User.score), lambda s: s.str.upper())  # E: str.upper(): col must be a string; got expression on 's'
F.transform(User.tags, lambda t, i: i.str.upper())  # E: str.upper(): col must be a string; got expression on 'i'
F.transform(User.tags, lambda t: F.count(t))  # E: F.transform(): the body of f (lambda t: count(t)) uses an aggregate
F.transform(User.tags, lambda t: F.rank().over(Window.order_by(User.id)))  # E: uses a window function
F.filter(User.tags, lambda t: t.str.len_chars() == "3")  # E: F.filter(): the body of f does not type for t: str
F.transform(F.array(User.tags), lambda ts: F.transform(ts, lambda t: t.dt.day()))  # E: dt.day(): col must be a date
F.transform(F.array(User.tags), lambda ts: F.filter(ts, lambda t: F.max(t) > "a"))  # E: (lambda t: (max(t) > 'a')) uses
F.transform(F.array(User.tags), lambda ts: F.exists(User.tags, lambda t: ts.str.contains(t)))  # E: left must be a
F.aggregate(User.tags, 0, lambda acc, t: acc.str.upper())  # E: str.upper(): col must be a string; got expression on
F.aggregate(User.tags, F.lit(""), lambda a, t: F.concat(a, t), lambda a: a.dt.year())  # E: dt.year(): col must be
F.aggregate(User.name, 0, lambda acc, c: acc + 1)  # E: F.aggregate(): col must be a list; got column 'User.name'
F.reduce(User.score, F.lit(0.0), lambda acc, x: acc + x)  # E: F.reduce(): col must be a list; got column 'User.score'
F.aggregate(User.tags, 0, lambda n, t: n + F.count(t))  # E: the body of merge (lambda n, t: (n + count(t))) uses an
F.map_filter(F.create_map(F.lit("a"), User.score), lambda k, v: v.str.contains("x"))  # E: str.contains(): left must
F.zip_with(User.tags, F.array(User.age), lambda t, a: a.dt.month())  # E: dt.month(): col must be a date or datetime
users = User.from_rows([])
users.select(F.transform(User.tags, lambda t: F.concat(t, Dept.budget.cast(str))))  # E: unknown column 'Dept.budget'
users.select(F.transform(User.tags, lambda t: F.concat(t, F.col("nmae"))))  # E: select(): unknown column 'nmae'
by_name = users.group_by(User.name)
by_name.agg(v=F.transform(F.collect_list(User.score), lambda s: s + User.score))  # E: 'score' is used outside an
slim = users.select(User.id, User.tags)
slim.with_columns(F.filter(User.tags, lambda t: t == User.name))  # E: unknown column 'User.name'
