"""Derived rows as the runtime makes them: aliases, Literal and enum fields, nested models.

* A field's alias is its column name: ``select(Shipment.tracking)`` gives the
  column ``trackingNo``, and a derived row has the attribute ``trackingNo``; rows
  of the model itself keep the field name ``tracking``.
* A frame whose columns are unchanged keeps its model (the runtime does).
* In derived rows a ``Literal`` field stays ``Literal``; an enum becomes its
  values' type, as in the runtime's derived row model.
"""

from __future__ import annotations

from typing import Literal

from models import Address, Shipment, Status
from typing_extensions import assert_type

from pydantable_spark import Col, DataFrame, F

shipments = Shipment.from_rows([])
assert_type(Shipment.tracking, Col[str | None])
assert_type(Shipment.status, Col[Status])
assert_type(Shipment.kind, Col[Literal["parcel", "letter"]])
assert_type(shipments.collect()[0].tracking, str | None)

picked = shipments.select(Shipment.id, Shipment.tracking)
assert_type(picked.collect()[0].trackingNo, str | None)
assert_type(shipments.select("trackingNo").collect()[0].trackingNo, str | None)
assert_type(shipments.select(F.col("trackingNo")).collect()[0].trackingNo, str | None)
assert_type(shipments.drop(Shipment.tracking).collect()[0].id, int)
assert_type(shipments.rename({"trackingNo": "code"}).collect()[0].code, str | None)
keyed = shipments.group_by(Shipment.tracking).agg(n=F.count())
assert_type(keyed.collect()[0].trackingNo, str)  # NULL keys are dropped
assert_type(shipments.join(shipments, on=Shipment.tracking, how="semi"), DataFrame[Shipment])

unchanged = shipments.filter(Shipment.id > 1).with_columns(Shipment.kind)
assert_type(unchanged, DataFrame[Shipment])
assert_type(unchanged.collect()[0].status, Status)
assert_type(unchanged.collect()[0].tracking, str | None)

derived = shipments.with_columns(n=F.lit(1))
assert_type(derived.collect()[0].kind, Literal["parcel", "letter"])
assert_type(derived.collect()[0].priority, Literal[1, 2, 3] | None)
assert_type(derived.collect()[0].status, str)
assert_type(derived.collect()[0].trackingNo, str | None)
assert_type(derived.collect()[0].to, Address)
assert_type(shipments.select(Shipment.kind.alias("k")).collect()[0].k, Literal["parcel", "letter"])
assert_type(shipments.select(F.col("kind")).collect()[0].kind, Literal["parcel", "letter"])
assert_type(shipments.select(Shipment.kind.str.upper()).collect()[0].kind, str)  # computed: any string
assert_type(shipments.select(Shipment.to.struct.field("city")).collect()[0].city, str)
