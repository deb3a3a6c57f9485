"""DataFrameModel: columns as class attributes, schemas, configs, nested models, derived row models."""

from __future__ import annotations

import datetime
import decimal
from typing import Annotated

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pyspark.sql import types as st

from pydantable_spark import Col, DataFrameModel, Schema
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedTypeError
from pydantable_spark.model import row_model

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class Address(DataFrameModel):
    city: str
    zip: str | None


class User(DataFrameModel):
    id: int
    name: str
    age: int | None = None
    joined: datetime.date
    address: Address | None
    tags: list[str]
    scores: dict[str, float | None] = Field(default_factory=dict)


def test_class_attribute_access_gives_typed_columns() -> None:
    assert isinstance(User.age, Col)
    assert repr(User.age) == "Col[int | None](age)"
    assert repr(User.address) == "Col[Address | None](address)"
    assert str(User.tags.typed) == "list[str] (array<string not null>)"


def test_instances_keep_plain_attribute_access() -> None:
    user = User(id=1, name="Ada", joined=datetime.date(2020, 1, 1), address=None, tags=[])
    assert user.age is None
    assert user.id == 1
    assert user.scores == {}


def test_a_typo_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="agee"):
        User.agee  # noqa: B018


def test_spark_schema_follows_the_type_mapping() -> None:
    assert User.spark_schema() == st.StructType(
        [
            st.StructField("id", st.LongType(), False),
            st.StructField("name", st.StringType(), False),
            st.StructField("age", st.LongType(), True),
            st.StructField("joined", st.DateType(), False),
            st.StructField(
                "address",
                st.StructType(
                    [st.StructField("city", st.StringType(), False), st.StructField("zip", st.StringType(), True)]
                ),
                True,
            ),
            st.StructField("tags", st.ArrayType(st.StringType(), False), False),
            st.StructField("scores", st.MapType(st.StringType(), st.DoubleType(), True), False),
        ]
    )


def test_frame_schema_prints_readably() -> None:
    assert str(User.frame_schema()).splitlines()[:9] == [
        "id: int (bigint)",
        "name: str (string)",
        "age: int | None (bigint)",
        "joined: date (date)",
        "address: Address | None (struct)",
        "├── city: str (string)",
        "└── zip: str | None (string)",
        "tags: list[str] (array<string not null>)",
        "scores: dict[str, float | None] (map<string,double>)",
    ]


def test_unsupported_annotation_fails_at_class_definition_naming_the_field() -> None:
    with pytest.raises(UnsupportedTypeError, match="field 'Bad.payload'"):

        class Bad(DataFrameModel):
            id: int
            payload: int | str


def test_model_config_and_validators_keep_working() -> None:
    class Strict(DataFrameModel):
        model_config = ConfigDict(str_strip_whitespace=True, frozen=True)
        name: str
        code: Annotated[int, dt.Int32]

        @field_validator("code")
        @classmethod
        def positive(cls, value: int) -> int:
            if value <= 0:
                raise ValueError("code must be positive")
            return value

    row = Strict(name="  a ", code=3)
    assert row.name == "a"
    with pytest.raises(ValidationError):
        Strict(name="a", code=0)
    assert Strict.code.typed is not None
    assert Strict.code.typed.dtype == dt.Int32()
    with pytest.raises(ValidationError, match="frozen"):
        row.name = "b"  # type: ignore[misc]


def test_unknown_keys_are_rejected_not_dropped() -> None:
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Address.model_validate({"city": "x", "zip": None, "street": "y"})


def test_inheritance_extends_the_schema_without_warnings() -> None:
    class Admin(User):
        level: int

    assert Admin.frame_schema().names[-1] == "level"
    assert Admin.level.typed is not None
    assert User.frame_schema().names[-1] == "scores"


def test_plain_pydantic_models_nest_as_structs() -> None:
    class Money(BaseModel):
        amount: decimal.Decimal = Field(max_digits=12, decimal_places=2)
        currency: str

    class Order(DataFrameModel):
        total: Money

    total = Order.frame_schema()["total"]
    assert total.dtype == dt.Struct(
        (dt.Field("amount", dt.Decimal(12, 2), False), dt.Field("currency", dt.String(), False))
    )


def test_forward_references_resolve_on_first_use() -> None:
    class Later(DataFrameModel):
        child: LaterChild

    class LaterChild(DataFrameModel):
        x: int

    Later.model_rebuild()
    assert Later.frame_schema()["child"].dtype == dt.Struct((dt.Field("x", dt.Int64(), False),))


def test_row_model_round_trips_every_type() -> None:
    schema = Schema.of(
        dt.Field("a", dt.Int8(), False),
        dt.Field("b", dt.Float32(), True),
        dt.Field("c", dt.Decimal(7, 3), False),
        dt.Field("d", dt.DatetimeNTZ(), True),
        dt.Field("e", dt.Datetime(), False),
        dt.Field("f", dt.Duration(), False),
        dt.Field("g", dt.Binary(), False),
        dt.Field("h", dt.List(dt.Map(dt.String(), dt.Int32(), True), False), True),
        dt.Field("i", dt.Struct((dt.Field("x y", dt.String(), False),)), True),
        dt.Field("j k", dt.Boolean(), False),
        dt.Field("_hidden", dt.Int64(), False),
        dt.Field("class", dt.Int64(), False),
    )
    model = row_model(schema)
    assert model.frame_schema() == schema
    assert row_model(schema) is model  # cached
    assert list(model.model_fields)[-3:] == ["j_k", "hidden", "c_class"]


def test_row_model_of_naive_timestamps_rejects_aware_values() -> None:
    model = row_model(Schema.of(dt.Field("t", dt.DatetimeNTZ(), False)))
    model.model_validate({"t": datetime.datetime(2020, 1, 1)})
    with pytest.raises(ValidationError):
        model.model_validate({"t": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)})
