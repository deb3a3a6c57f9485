"""Substrait export of a typed plan (``to_substrait``) and the local engine that runs it without a JVM.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> from pydantable_spark.substrait import to_substrait
>>> class Sale(DataFrameModel):
...     shop: str
...     amount: int
>>> sales = Sale.from_rows([{"shop": "a", "amount": 3}, {"shop": "b", "amount": 5}])
>>> plan = to_substrait(sales.filter(Sale.amount > 4))
>>> list(plan.relations[0].root.names)
['shop', 'amount']
>>> [e.extension_function.name for e in plan.extensions]
['gt']

```

Needs the ``local`` extra (``pip install 'pydantable-spark[local]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from substrait.plan_pb2 import Plan

__all__ = ["to_substrait"]


def to_substrait(frame: Any) -> Plan:
    """The frame's typed plan as a Substrait ``Plan`` (protobuf; ``.SerializeToString()`` gives its bytes).

    Column types and nullability are the derived ones; data from Python is
    read as the named tables ``source_0``, ``source_1``... A step, function or
    type with no Substrait form raises ``UnsupportedEngineError`` naming it.
    """
    from pydantable_spark.substrait.relations import export

    return export(frame._plan).plan
