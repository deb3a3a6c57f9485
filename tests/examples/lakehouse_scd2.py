"""Slowly changing dimension, type 2, with one typed MERGE (run by tests/test_merge.py).

Each customer keeps a row per city it lived in: the current one (``current=True``,
``valid_to=None``) and closed ones. A new snapshot of the customers closes the
rows whose city changed and opens new ones, in one commit. Needs a session with
Delta Lake (see docs/lakehouse.md).
"""

import tempfile
from datetime import date

from pydantable_spark import DataFrameModel, F
from pydantable_spark.merge import MergeMetrics, insert, source, target, update


class Customer(DataFrameModel):  # the snapshot that arrives
    id: int
    city: str


class CustomerHistory(DataFrameModel):  # the dimension table
    id: int
    city: str
    valid_from: date
    valid_to: date | None
    current: bool


class Staged(DataFrameModel):  # the snapshot, staged for the MERGE
    merge_key: int | None  # NULL: matches no row, so the row is inserted
    id: int
    city: str


def apply_snapshot(path: str, snapshot: "list[dict[str, object]]", today: date) -> MergeMetrics:
    incoming = Customer.from_rows(snapshot)
    current = CustomerHistory.read_delta(path).filter(CustomerHistory.current)
    old = current.select(CustomerHistory.id, CustomerHistory.city.alias("old_city"))
    moved = incoming.join(old, on="id").filter(F.col("city") != F.col("old_city"))
    # every incoming row keyed by its id (it closes the current row of a customer who moved), and once more
    # with no key for a customer who moved (its new current row): one MERGE does both
    staged = incoming.select(F.col("id").alias("merge_key"), F.col("id"), F.col("city")).as_model(Staged)
    reopened = moved.select(F.lit(None, dtype=int).alias("merge_key"), F.col("id"), F.col("city")).as_model(Staged)
    return staged.union(reopened).merge_into(
        path=path,
        model=CustomerHistory,
        on=(target.col("id") == source.col("merge_key")) & target.col("current"),
        when_matched=update(current=False, valid_to=today, condition=target.col("city") != source.col("city")),
        when_not_matched=insert(
            id=source.col("id"), city=source.col("city"), valid_from=today, valid_to=None, current=True
        ),
    )


path = tempfile.mkdtemp() + "/customers"
CustomerHistory.from_rows(
    [
        {"id": 1, "city": "Lyon", "valid_from": date(2025, 1, 1), "valid_to": None, "current": True},
        {"id": 2, "city": "Oslo", "valid_from": date(2025, 1, 1), "valid_to": None, "current": True},
    ]
).write_delta(path)

# customer 1 moves to Paris, customer 2 stays, customer 3 is new
metrics = apply_snapshot(
    path, [{"id": 1, "city": "Paris"}, {"id": 2, "city": "Oslo"}, {"id": 3, "city": "Rome"}], date(2026, 2, 1)
)
assert metrics == MergeMetrics(inserted=2, updated=1, deleted=0)  # Paris and Rome opened, Lyon closed

rows = sorted((r.id, r.city, r.valid_to, r.current) for r in CustomerHistory.read_delta(path).collect())
assert rows == [
    (1, "Lyon", date(2026, 2, 1), False),
    (1, "Paris", None, True),
    (2, "Oslo", None, True),
    (3, "Rome", None, True),
]
