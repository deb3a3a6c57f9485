"""Dataset checks declared in a model's ``checks`` classmethod: what mypy and the plugin report.

``Order``: what types alone show (a row or aggregate check takes an ``Expr[bool | None]``; ``cls.nope``
is no attribute). ``Shipment``: what the model's class refuses when it is defined, reported by the
plugin with the runtime's own resolver (``checks.declare.resolve_check``) on the static schema, and
by ``Check``'s constructors evaluated on the written arguments.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from pydantable_spark import Check, DataFrameModel, F, Window


class Order(DataFrameModel):
    id: int
    qty: int | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.row(cls.qty + 1, name="not_boolean"),  # E: Argument 1 to "row" of "Check" has incompatible type
            Check.agg(F.max(cls.qty) + 1, name="not_boolean_agg"),  # E: Argument 1 to "agg" of "Check"
            Check.row(cls.nope > 1, name="unknown"),  # E: "type[Order]" has no attribute "nope"
            Check.unique(cls.id, 3, name="bad_key"),  # E: Argument 2 to "unique" of "Check" has incompatible type
            Check.rows(min="1", name="bad_bound"),  # E: Argument "min" to "rows" of "Check" has incompatible type
            Check.row(cls.qty > 1, name="bad_action", action="stop"),  # E: Argument "action" to "row" of "Check"
        )


class Customer(DataFrameModel):
    id: int
    name: str


@F.udf
def positive(value: int) -> bool:
    return value > 0


class Shipment(DataFrameModel):
    id: int
    qty: int | None
    customer_id: int | None
    customer_name: str

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.row(F.col("qtty") > 1, name="unknown"),  # E: unknown column 'qtty' in check 'unknown' of Shipment
            Check.unique("idd", name="unknown_key"),  # E: customer_id, customer_name; did you mean 'id'?
            Check.row(Customer.id > 1, name="other"),  # E: Customer.id is a column of another model
            Check.unique(Customer.name, name="another_key"),  # E: Customer.name is a column of another model
            Check.row(F.col("qty") + 1, name="nb"),  # E: (qty + 1) is int | None (bigint), not a boolean
            Check.agg(F.max(F.col("qty")), name="not_boolean_agg"),  # E: not a boolean; an agg check is a condition
            Check.row(F.rand() > 0.5, name="moving"),  # E: check 'moving' of Shipment: rand() is not deterministic
            Check.row(F.current_date() > datetime.date(2024, 1, 1), name="clock"),  # E: an agg check may compare with
            Check.row(F.max(cls.qty) > 1, name="aggregated"),  # E: (max(qty) > 1) aggregates rows
            Check.row(F.sum(cls.qty).over(Window.partition_by(cls.id)) > 1, name="windowed"),  # E: uses a window
            Check.agg(cls.qty > 1, name="not_aggregated"),  # E: (qty > 1) is not an aggregate
            Check.agg(F.max(cls.qty) > cls.id, name="outside"),  # E: outside an aggregate
            Check.row(positive(cls.id), name="udf"),  # E: calls a Python UDF
            Check.unique(cls.id, name="twice"),
            Check.rows(min=1, name="twice"),  # E: Shipment.checks: two checks are named 'twice'
            Check.unique(cls.id, name="bad name"),  # E: name must be a plain identifier
            Check.unique(cls.id, name="keyed", action="drop"),  # E: only a row or a references check names
            Check.rows(min=3, max=1, name="bounds"),  # E: Check.rows() 'bounds': min=3 is larger than max=1
            Check.rows(min=-1, name="negative"),  # E: Check.rows() 'negative': min must be an int >= 0, got -1
            Check.rows(name="unbounded"),  # E: give min=, max= or both
            Check.unique(cls.id, cls.id, name="key_twice"),  # E: column 'id' is named twice in the key
            Check.references(cls.customer_name, Customer.id, name="typed"),  # E: cannot reference Customer.id of type
            Check.references((cls.customer_id, cls.qty), Customer.id, name="arity"),  # E: but 1 key column(s)
            Check.references(cls.customer_id, F.col("id"), name="unowned"),  # E: a column of a model (Customer.id)
            Check.references((cls.customer_id, cls.qty), (Customer.id, Order.id), name="two"),  # E: Customer, Order
            Check.references("customer_idd", Customer.id, name="unknown_reference"),  # E: did you mean 'customer_id'?
            Check.references(cls.customer_id, Customer.id, name="shipped", action="drop"),
            Check.references(cls.id, cls.id, name="itself"),
        )


class Sale(DataFrameModel):
    id: int
    customer_id: int | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (Check.references(cls.customer_id, Customer.id, name="known_customer"),)


class Renamed(DataFrameModel):
    """Customer's columns under another model: its frames are not Customer's."""

    id: int
    name: str


sales = Sale.from_rows([])
customers = Customer.from_rows([])
sales.validate()  # E: check 'known_customer' (references(customer_id) -> Customer(id)) needs the rows of Customer
sales.validate(references={})  # E: validate(references={Customer: <a DataFrame[Customer]>})
sales.validate(references={Renamed: Renamed.from_rows([])})  # E: references[Renamed] is referenced by no check
sales.validate(references={"known": customers})  # E: references['known'] names no references check
sales.validate(references={"known_customer": Renamed.from_rows([])})  # E: must be a frame of Customer, got a frame
sales.validate(references={Customer: customers})
sales.validate(references={"known_customer": customers}, key="id")
Shipment.from_rows([]).validate()  # some of Shipment's checks are refused: no verdict on its references
