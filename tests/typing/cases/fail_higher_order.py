"""Mistakes in higher-order calls that mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import User

from pydantable_spark import F

F.transform(User.tags, lambda t: t + 1)  # E: Unsupported operand types for + ("Expr[str]" and "int")
F.filter(User.tags, lambda t: t.str.len_chars())  # E: F.filter(): f must return a boolean for t: str (string)
F.exists(User.tags, lambda t, i: t == "a")  # E: F.exists(): f takes a function of 1 parameter (x: the element)
F.transform(User.age, lambda x: x)  # E: F.transform(): col must be a list; got column 'User.age'
F.transform_keys(F.create_map(F.lit("a"), User.age), lambda k, v: v)  # E: f must return a string for k: str
F.transform(User.tags, 3)  # E: Argument 2 to "transform" has incompatible type "int"
