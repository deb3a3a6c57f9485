"""``references`` checks run by ``validate()`` in Spark: one frame, every shape of reference, one job of counts."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import Field

from pydantable_spark import Check, DataFrameModel
from pydantable_spark.errors import CheckError

pytestmark = pytest.mark.spark

ODD = "c.u`s'to\"mer id"
"""A column name with a dot, a backtick and both quotes: a name, never SQL."""


class Customer(DataFrameModel):
    id: int = Field(alias=ODD)
    region: str


class Order(DataFrameModel):
    id: int
    customer_id: int | None = Field(alias="x`y.z")
    region: str | None
    parent: int | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.references(cls.customer_id, Customer.id, name="customer_fk", action="drop"),
            Check.references(
                (cls.customer_id, cls.region), (Customer.id, Customer.region), name="customer_region", action="warn"
            ),
            Check.references(cls.parent, cls.id, name="parent_fk"),
        )


CUSTOMERS = [{ODD: 1, "region": "eu"}, {ODD: 2, "region": "us"}, {ODD: 2, "region": "ap"}]
ORDERS = [
    {"id": 1, "x`y.z": 1, "region": "eu", "parent": None},  # every reference holds
    {"id": 2, "x`y.z": 3, "region": "eu", "parent": 1},  # customer 3 does not exist
    {"id": 3, "x`y.z": 3, "region": "us", "parent": 9},  # nor does it here; no order 9
    {"id": 4, "x`y.z": None, "region": "eu", "parent": None},  # a NULL references nothing: no violation
    {"id": 5, "x`y.z": 2, "region": "eu", "parent": 4},  # customer 2 exists, but not in "eu"
    {"id": 6, "x`y.z": 2, "region": None, "parent": 4},  # NULL in the composite reference: not checked
]


def test_references_are_counted_in_one_validate_with_their_examples_and_actions() -> None:
    customers = Customer.from_rows(CUSTOMERS)
    report = Order.from_rows(ORDERS).validate(key="id", references={Customer: customers})
    found = {r.check.name: r for r in report.checks}
    assert (found["customer_fk"].count, found["customer_fk"].examples) == (2, ({"x`y.z": 3, "rows": 2},))
    composite = found["customer_region"]
    assert composite.count == 3
    assert sorted(composite.examples, key=str) == sorted(
        [{"x`y.z": 3, "region": "eu", "rows": 1}, {"x`y.z": 3, "region": "us", "rows": 1},
         {"x`y.z": 2, "region": "eu", "rows": 1}],
        key=str,
    )  # fmt: skip
    assert (found["parent_fk"].count, found["parent_fk"].examples) == (1, ({"parent": 9, "rows": 1},))
    assert [r.check.name for r in report.failed_checks] == ["parent_fk"]
    text = str(report)
    assert "3 of 3 checks violated" in text
    assert "references(`x``y.z`) -> Customer(`c.u``s'to\"mer id`)" in text
    with pytest.raises(CheckError, match="parent_fk"):
        report.raise_for_errors()
    # drop: the orders of unknown customers leave the validated frame; a NULL customer stays
    assert sorted(report.frame.to_dict()["id"]) == [1, 4, 5, 6]
    assert report.frame.model is Order
