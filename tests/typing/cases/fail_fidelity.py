"""Aliases, derived rows and nested models, wrongly used (expected messages after "# E:")."""

from __future__ import annotations

from models import Shipment, User

from pydantable_spark import F

shipments = Shipment.from_rows([])
picked = shipments.select(Shipment.id, Shipment.tracking)
picked.collect()[0].tracking  # E: "Row[id: int, trackingNo: str | None]" has no attribute "tracking"
shipments.select("tracking")  # E: unknown column 'tracking' in the frame; existing columns: id, trackingNo, status
shipments.rename({"tracking": "code"})  # E: did you mean 'trackingNo'?
shipments.collect()[0].trackingNo  # E: "Shipment" has no attribute "trackingNo"
shipments.with_columns(n=F.lit(1)).collect()[0].status.value  # E: "str" has no attribute "value"

# nested models are shown with their fields, as in the runtime's messages
User.address + 1  # E: column 'User.address' of type Address | None (struct<city:string not null,zip:string>)
Shipment.to.str.upper()  # E: got column 'Shipment.to' of type Address (struct<city:string not null,zip:string>)
F.upper(User.address)  # E: (struct<city:string not null,zip:string>)
