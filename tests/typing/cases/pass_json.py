"""JSON text typed by models: ``F.from_json(col, Model)`` is an expression of that model, NULL-able."""

from __future__ import annotations

from models import Address, User
from typing_extensions import assert_type

from pydantable_spark import Expr, F

assert_type(F.from_json(User.name, Address), Expr[Address | None])
assert_type(F.from_json("name", Address, {"mode": "FAILFAST"}), Expr[Address | None])
parsed = User.from_rows([]).select(User.id, where=F.from_json(User.name, Address))
assert_type(parsed.collect()[0].where, Address | None)
