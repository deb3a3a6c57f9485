"""Text typed by models: ``F.from_json(col, Model)`` parses into a struct of the model's fields, every one NULL-able.

PERMISSIVE parsing makes a field NULL where the text lacks it or it does not
parse, so the runtime types every field (deeply) nullable and a collected row
holds a derived row of them, not a ``Model``: statically too.
"""

from __future__ import annotations

from models import Address, User
from pydantic import BaseModel
from typing_extensions import assert_type

from pydantable_spark import F


class Reading(BaseModel):
    sensor: str
    value: float
    tags: list[str]
    at: Address


users = User.from_rows([])
parsed = users.select(User.id, where=F.from_json(User.name, Address))
where = parsed.collect()[0].where
assert_type(where is None, bool)  # the struct is NULL-able (a NULL text)
if where is not None:
    assert_type(where.city, str | None)  # declared str: NULL where the text lacks it
    assert_type(where.zip, str | None)

failfast = users.select(r=F.from_json("name", Reading, {"mode": "FAILFAST"})).collect()[0].r
if failfast is not None:
    assert_type(failfast.value, float | None)
    assert_type(failfast.tags, list[str | None] | None)  # deeply: elements too
    if failfast.at is not None:
        assert_type(failfast.at.city, str | None)

# from_csv of a text that is never NULL is never NULL itself; its fields are
line = users.select(a=F.from_csv(User.name, Address)).collect()[0].a
assert_type(line.city, str | None)
xml = users.select(a=F.from_xml(User.name, Address, {"rowTag": "a"})).collect()[0].a
assert_type(xml is None, bool)
