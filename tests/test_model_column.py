"""``ModelColumn[T]`` fields at run time: exactly ``T`` to pydantic and to every part of the library.

Each model below is declared twice, with plain annotations and with ``ModelColumn``; both must give the
same schema, Spark schema, constraints, defaults, validation and generated source. One Spark test
reads rows back through a ``ModelColumn`` model.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import sys
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from pydantable_spark import DataFrameModel, F, ModelColumn, Variant, dtypes
from pydantable_spark.errors import ArgumentTypeError, UnsupportedTypeError
from pydantable_spark.modelgen import model_source
from pydantable_spark.stubgen import stub_text


class Tier(str, enum.Enum):
    GOLD = "gold"
    SILVER = "silver"


class PlainPoint(DataFrameModel):
    x: float
    y: float | None = None


class PlainOrder(DataFrameModel):
    id: int
    day: datetime.date | None = None
    qty: int = Field(ge=0)
    small: Annotated[int, dtypes.Int32] = Field(default=1, ge=0, le=9)
    price: decimal.Decimal = Field(max_digits=10, decimal_places=2)
    tier: Tier = Tier.GOLD
    kind: Literal["a", "b"] = "a"
    tags: list[str] = Field(default_factory=list)
    at: PlainPoint | None = None
    note: str | None = Field(default=None, alias="orderNote", max_length=20, pattern="^[a-z]*$")
    blob: Variant | None = None


class Point(DataFrameModel):
    x: ModelColumn[float]
    y: ModelColumn[float | None] = ModelColumn(default=None)


class Order(DataFrameModel):
    id: ModelColumn[int]
    day: ModelColumn[datetime.date | None] = ModelColumn(default=None)
    qty: ModelColumn[int] = Field(ge=0)
    small: ModelColumn[Annotated[int, dtypes.Int32]] = ModelColumn(default=1, ge=0, le=9)
    price: ModelColumn[decimal.Decimal] = ModelColumn(max_digits=10, decimal_places=2)
    tier: ModelColumn[Tier] = ModelColumn(default=Tier.GOLD)
    kind: ModelColumn[Literal["a", "b"]] = ModelColumn(default="a")
    tags: ModelColumn[list[str]] = ModelColumn(default_factory=list)
    at: ModelColumn[Point | None] = ModelColumn(default=None)
    note: ModelColumn[str | None] = ModelColumn(default=None, alias="orderNote", max_length=20, pattern="^[a-z]*$")
    blob: ModelColumn[Variant | None] = ModelColumn(default=None)


ROW = {"id": 1, "qty": 2, "price": "3.50", "orderNote": "ab", "at": {"x": 1.0}, "blob": {"k": [1]}}


@pytest.mark.jvm_free
def test_the_model_is_the_plain_models_schema() -> None:
    plain, column = PlainOrder.frame_schema(), Order.frame_schema()
    described = [[(f.name, f.dtype, f.nullable) for f in schema.fields] for schema in (column, plain)]
    assert described[0] == described[1]
    assert str(column) == str(plain).replace("PlainPoint", "Point")
    assert repr(Order.small) == "Col[int](small)"
    assert repr(Order.note) == "Col[str | None](orderNote)"


@pytest.mark.jvm_free
def test_the_spark_schema_is_the_plain_models() -> None:
    assert Order.spark_schema() == PlainOrder.spark_schema()


@pytest.mark.jvm_free
def test_the_constraints_are_the_plain_models() -> None:
    """``COLUMN`` is no constraint: nothing is listed for it, in Spark or as Python-only."""
    column, plain = Order.spark_constraints(), PlainOrder.spark_constraints()
    assert str(column) == str(plain)
    assert "ModelColumn" not in str(column)
    assert len(column.checked) == len(plain.checked) == 9
    assert column.python_only == plain.python_only == ()


@pytest.mark.jvm_free
def test_defaults_and_validation_are_pydantics() -> None:
    order, plain = Order.model_validate(ROW), PlainOrder.model_validate(ROW)
    assert order.model_dump() == plain.model_dump()
    assert (order.day, order.tier, order.tags, order.small, order.at) == (None, Tier.GOLD, [], 1, Point(x=1.0))
    assert Order.model_json_schema()["properties"]["qty"] == {"minimum": 0, "title": "Qty", "type": "integer"}
    with pytest.raises(ValidationError, match="qty"):
        Order.model_validate({**ROW, "qty": -1})
    with pytest.raises(ValidationError, match="orderNote"):
        Order.model_validate({**ROW, "orderNote": "UPPER"})


@pytest.mark.jvm_free
def test_generated_model_source_is_the_plain_models() -> None:
    assert model_source(Order.frame_schema().fields, "Out") == model_source(PlainOrder.frame_schema().fields, "Out")


@pytest.mark.jvm_free
def test_a_frame_of_the_model_builds_plans_without_spark() -> None:
    frame = Order.from_rows([ROW]).filter(Order.day.is_null() & (Order.qty > 1)).select(Order.id, Order.note)
    assert frame.schema.names == ("id", "orderNote")
    assert frame.select(F.upper(Order.note).alias("n")).schema.fields[0].nullable


@pytest.mark.jvm_free
def test_a_plain_pydantic_model_refuses_it_when_the_library_reads_it() -> None:
    """Only a ``DataFrameModel`` has columns as class attributes: a plain model read as a struct says so."""

    class Address(BaseModel):
        city: ModelColumn[str]

    with pytest.raises(UnsupportedTypeError) as raised:

        class User(DataFrameModel):
            address: Address

    assert str(raised.value) == (
        "field 'Address.city': ModelColumn[str] declares a column of a DataFrameModel, but Address is a plain "
        "Pydantic model, whose class attributes are no columns; annotate the field str, or derive Address from "
        "DataFrameModel"
    )


@pytest.mark.jvm_free
def test_the_default_is_given_by_name() -> None:
    """pyright reads a field specifier's default from ``default=`` only: a positional one would make it required."""
    with pytest.raises(ArgumentTypeError, match=r"ModelColumn\(None\): give the default by name"):
        ModelColumn(None)  # type: ignore[call-overload]


@pytest.mark.jvm_free
def test_an_unknown_option_is_refused() -> None:
    with pytest.raises(ArgumentTypeError, match="unknown option.s. defualt; it takes pydantic.Field's: alias"):
        ModelColumn(defualt=1)


@pytest.mark.jvm_free
def test_the_annotation_is_the_value_type_with_a_marker() -> None:
    from pydantable_spark.descriptors import COLUMN, is_column_marker

    assert ModelColumn[int] == Annotated[int, COLUMN]
    assert is_column_marker(Order.model_fields["id"].metadata[0])
    assert not is_column_marker(dtypes.Int32)


@pytest.mark.jvm_free
def test_stubgen_writes_the_descriptor_once(tmp_path: Path) -> None:
    (tmp_path / "mc_models.py").write_text(
        "import datetime\n\nfrom pydantic import Field\n\nimport pydantable_spark as ps\n"
        "from pydantable_spark import DataFrameModel, ModelColumn\n\n\n"
        "class Order(DataFrameModel):\n"
        "    id: ModelColumn[int]\n"
        "    day: ModelColumn[datetime.date | None] = ModelColumn(default=None)\n"
        "    qty: ps.ModelColumn[int] = Field(ge=0)\n"
        "    plain: str = 'x'\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        text = stub_text("mc_models")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("mc_models", None)
    assert text.endswith(
        "class Order(DataFrameModel):\n"
        "    id: _ModelColumn[int]\n"
        "    day: _ModelColumn[datetime.date | None] = ...\n"
        "    qty: _ModelColumn[int]\n"
        "    plain: _ModelColumn[str] = ...\n"
    )


def test_rows_collect_through_a_model_column_model() -> None:
    """One Spark job: rows in, the same rows out as instances, a filter and a nested struct on the way."""
    rows = [ROW, {**ROW, "id": 2, "qty": 0, "day": datetime.date(2024, 1, 2), "orderNote": None, "blob": None}]
    frame = Order.from_rows(rows).filter(Order.qty >= 0).sort(Order.id)
    assert frame.to_spark().schema == Order.spark_schema()
    collected = frame.collect()
    assert [o.model_dump() for o in collected] == [Order.model_validate(r).model_dump() for r in rows]
