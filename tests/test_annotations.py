"""DESIGN §5: Python annotations → logical types, and the errors for unmapped ones."""

from __future__ import annotations

import datetime
import decimal
import enum
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Optional, Union

import pydantic
import pytest
from pydantic import BaseModel, Field

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import field_of_annotation, fields_of_model, python_name
from pydantable_spark.errors import UnsupportedTypeError

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


class Mixed(enum.Enum):
    A = 1
    B = "b"


class Point(BaseModel):
    x: float
    y: float | None = None


@pytest.mark.parametrize(
    ("annotation", "dtype", "nullable"),
    [
        (bool, dt.Boolean(), False),
        (int, dt.Int64(), False),
        (float, dt.Float64(), False),
        (str, dt.String(), False),
        (bytes, dt.Binary(), False),
        (decimal.Decimal, dt.Decimal(38, 18), False),
        (datetime.date, dt.Date(), False),
        (datetime.datetime, dt.Datetime(), False),
        (pydantic.AwareDatetime, dt.Datetime(), False),
        (pydantic.NaiveDatetime, dt.DatetimeNTZ(), False),
        (datetime.timedelta, dt.Duration(), False),
        (Color, dt.String(), False),
        (Level, dt.Int64(), False),
        (Literal["a", "b"], dt.String(), False),
        (Literal[1, 2], dt.Int64(), False),
        (Literal[True], dt.Boolean(), False),
        (int | None, dt.Int64(), True),
        (Optional[str], dt.String(), True),  # noqa: UP045 - the old spelling must work too
        (Union[float, None], dt.Float64(), True),  # noqa: UP007
        (list[int], dt.List(dt.Int64(), False), False),
        (list[int | None], dt.List(dt.Int64(), True), False),
        (tuple[str, ...], dt.List(dt.String(), False), False),
        (set[int], dt.List(dt.Int64(), False), False),
        (frozenset[str], dt.List(dt.String(), False), False),
        (Sequence[int], dt.List(dt.Int64(), False), False),
        (dict[str, int], dt.Map(dt.String(), dt.Int64(), False), False),
        (dict[str, float | None], dt.Map(dt.String(), dt.Float64(), True), False),
        (list[list[int]] | None, dt.List(dt.List(dt.Int64(), False), False), True),
        (Annotated[int, dt.Int32], dt.Int32(), False),
        (Annotated[int, dt.Int16()], dt.Int16(), False),
        (Annotated[int, dt.Int8] | None, dt.Int8(), True),
        (Annotated[float, dt.Float32], dt.Float32(), False),
        (Annotated[datetime.datetime, dt.DatetimeNTZ], dt.DatetimeNTZ(), False),
        (Annotated[decimal.Decimal, dt.Decimal(10, 2)], dt.Decimal(10, 2), False),
        (Annotated[decimal.Decimal, Field(max_digits=7, decimal_places=3)], dt.Decimal(7, 3), False),
        (pydantic.condecimal(max_digits=5, decimal_places=0), dt.Decimal(5, 0), False),
        (pydantic.conint(ge=0), dt.Int64(), False),
        (pydantic.constr(max_length=3), dt.String(), False),
    ],
)
def test_annotation_maps_to_spark_type(annotation: Any, dtype: dt.DType, nullable: bool) -> None:
    field = field_of_annotation("c", annotation)
    assert (field.dtype, field.nullable) == (dtype, nullable)


def test_nested_model_becomes_struct_remembering_its_class() -> None:
    field = field_of_annotation("p", Point | None)
    assert field.nullable
    assert isinstance(field.dtype, dt.Struct)
    assert field.dtype == dt.Struct((dt.Field("x", dt.Float64(), False), dt.Field("y", dt.Float64(), True)))
    assert field.dtype.model is Point


def test_decimal_field_constraints_set_precision_and_scale() -> None:
    class Price(BaseModel):
        amount: decimal.Decimal = Field(max_digits=12, decimal_places=4)
        rate: decimal.Decimal = Field(decimal_places=6)

    fields = fields_of_model(Price)
    assert fields[0].dtype == dt.Decimal(12, 4)
    assert fields[1].dtype == dt.Decimal(38, 6)


def test_alias_is_the_column_name() -> None:
    class Event(BaseModel):
        user_id: int = Field(alias="userId")

    assert [f.name for f in fields_of_model(Event)] == ["userId"]


@pytest.mark.parametrize(
    ("annotation", "fragment"),
    [
        (Any, "Any"),
        (object, "object"),
        (int | str, "a union of several types"),
        (dict[int, str], "map keys must be str"),
        (dict[str | None, int], "map keys must be str"),
        (list, "give the element type"),
        (tuple[int, str], "tuple[T, ...]"),
        (Mixed, "enum values must all be str or all be int"),
        (Literal["a", 1], "Literal values"),
        (type(None), "only hold None"),
        (complex, "complex"),
        (datetime.time, "TIME type is a preview it refuses unless spark.sql.timeType.enabled"),
    ],
)
def test_unsupported_annotation_names_the_field(annotation: Any, fragment: str) -> None:
    with pytest.raises(UnsupportedTypeError, match="field 'M.bad'") as info:
        field_of_annotation("bad", annotation, path="M.bad")
    assert fragment in str(info.value)
    assert "supported:" in str(info.value)


def test_marker_on_the_wrong_python_type_is_rejected() -> None:
    with pytest.raises(UnsupportedTypeError, match="marker Int32 .* does not fit annotation str"):
        field_of_annotation("c", Annotated[str, dt.Int32])


def test_recursive_model_is_rejected() -> None:
    class Node(BaseModel):
        value: int
        child: Node | None = None

    Node.model_rebuild()
    with pytest.raises(UnsupportedTypeError, match="refers to itself"):
        fields_of_model(Node)


@pytest.mark.parametrize(
    ("dtype", "nullable", "shown"),
    [
        (dt.Int32(), False, "int"),
        (dt.Decimal(5, 2), True, "Decimal | None"),
        (dt.Map(dt.String(), dt.Int64(), True), False, "dict[str, int | None]"),
        (dt.Struct((dt.Field("x", dt.Float64(), False),), Point), False, "Point"),
        (dt.Struct((dt.Field("x", dt.Float64(), False),)), True, "struct | None"),
    ],
)
def test_python_name(dtype: dt.DType, nullable: bool, shown: str) -> None:
    assert python_name(dtype, nullable=nullable) == shown
