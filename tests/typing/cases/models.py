"""Models shared by the typing cases."""

from __future__ import annotations

import datetime
import decimal
import enum
from typing import Annotated, Literal

from pydantic import Field

from pydantable_spark import DataFrameModel
from pydantable_spark import dtypes as dt


class Address(DataFrameModel):
    city: str
    zip: str | None


class User(DataFrameModel):
    id: int
    name: str
    age: int | None
    score: float
    joined: datetime.date
    seen: datetime.datetime | None
    price: decimal.Decimal
    active: bool
    small: Annotated[int, dt.Int32]
    address: Address | None
    tags: list[str]


class Out(DataFrameModel):
    id: int
    next: int | None


class Dept(DataFrameModel):
    id: int
    name: str
    budget: float


class Status(str, enum.Enum):
    OPEN = "open"
    SHIPPED = "shipped"


class Shipment(DataFrameModel):
    """An alias (the column is ``trackingNo``), an enum, ``Literal`` fields and a nested model."""

    id: int
    tracking: str | None = Field(default=None, alias="trackingNo")
    status: Status
    kind: Literal["parcel", "letter"]
    priority: Literal[1, 2, 3] | None
    to: Address
