"""Stage boundaries mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import Dept, Out, User

from pydantable_spark import DataFrame


def unnamed(users: DataFrame[User]) -> DataFrame[Out]:
    return users.select(User.id, next=User.age + 1)  # E: Incompatible return value type


def missing(users: DataFrame[User]) -> DataFrame[Out]:
    return users.select(User.id).as_model(Out)  # E: as_model(Out): next: missing from the source


def wrong_type(users: DataFrame[User]) -> DataFrame[Dept]:
    staged = users.select(User.id, name=User.id, budget=User.score)
    return staged.as_model(Dept)  # E: as_model(Dept): name: cannot convert bigint
