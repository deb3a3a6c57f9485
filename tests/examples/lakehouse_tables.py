"""Delta Lake and Iceberg tables with a model: write, append, read as it was (run by tests/test_lakehouse.py).

Needs a session with the Delta Lake and Iceberg jars and an Iceberg catalog named ``lake``
(see docs/lakehouse.md).
"""

import tempfile

from pydantable_spark import DataFrameModel


class Reading(DataFrameModel):
    sensor: str
    value: float | None


# A Delta table at a path: each write is one version, committed by Delta or not at all; a new table is
# created first (version 0, no rows) with the model's non-null fields NOT NULL, which other writers must keep
path = tempfile.mkdtemp() + "/readings"
Reading.from_rows([{"sensor": "a", "value": 1.5}]).write_delta(path)  # versions 0 (CREATE TABLE) and 1
Reading.from_rows([{"sensor": "b", "value": None}]).write_delta(path, mode="append")  # version 2
assert Reading.read_delta(path).count() == 2
assert Reading.read_delta(path, version=1).collect() == [Reading(sensor="a", value=1.5)]

# An Iceberg table in the catalog "lake": time travel by snapshot id (or tag name, or timestamp=)
table = "lake.docs.readings_" + path.rsplit("/", 2)[-2][-8:]
Reading.from_rows([{"sensor": "a", "value": 1.5}]).save_as_table(table, format="iceberg")
Reading.from_rows([{"sensor": "c", "value": 0.5}]).save_as_table(table, mode="append")  # the table's format
assert sorted(r.sensor for r in Reading.read_table(table).collect()) == ["a", "c"]
