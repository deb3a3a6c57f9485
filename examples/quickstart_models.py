"""The quickstart's tables, in a module of their own.

Kept apart from the code that uses them so that pyright and Pylance type their
columns from the generated stub (``stubs/quickstart_models.pyi``, written by
``pydantable-spark stubgen quickstart_models -o stubs``); mypy's plugin needs no stub.
"""

from __future__ import annotations

import datetime

from pydantable_spark import DataFrameModel


class User(DataFrameModel):
    id: int
    name: str
    age: int | None
    joined: datetime.date


class Adult(DataFrameModel):
    id: int
    name: str
    next_age: int
    member_for_days: int
