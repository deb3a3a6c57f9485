"""Typed stage boundaries: a function returning a derived frame names its row type with ``as_model``."""

from __future__ import annotations

from models import Out, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, F


def next_ages(users: DataFrame[User]) -> DataFrame[Out]:
    """A stage: whatever it derives, callers see ``DataFrame[Out]``."""
    return users.select(User.id, next=User.age + 1).as_model(Out)


def adults(users: DataFrame[User]) -> DataFrame[User]:
    """A stage that keeps the row type needs nothing: filter and sort keep ``DataFrame[User]``."""
    return users.filter(User.age >= 18).sort(User.id)


staged = next_ages(adults(User.from_rows([])))
assert_type(staged, DataFrame[Out])
assert_type(staged.collect(), list[Out])
assert_type(staged.select(Out.id, next=Out.next * 2).as_model(Out), DataFrame[Out])
assert_type(next_ages(User.from_rows([])).filter(F.col("next") > 1), DataFrame[Out])
