"""A stream of JSON files into a Delta table, violating rows set apart (run by tests/test_stream_lakehouse.py).

Needs a session with the Delta Lake jars (see docs/lakehouse.md).
"""

import json
import tempfile
from pathlib import Path

from pydantic import Field

from pydantable_spark import DataFrameModel


class Reading(DataFrameModel):
    sensor: str
    value: float | None = Field(default=None, ge=0)


class Rejected(DataFrameModel):  # a quarantined row: the model's fields, unconstrained, and what it violates
    sensor: str
    value: float | None
    violations: list[str]


root = Path(tempfile.mkdtemp())
(root / "landing").mkdir()
rows = [{"sensor": "a", "value": 1.5}, {"sensor": "b", "value": -2.0}, {"sensor": "c", "value": None}]
(root / "landing" / "part-0.json").write_text("".join(json.dumps(row) + "\n" for row in rows))

# Each micro-batch: the rows that violate a constraint to the quarantine table (with a "violations" column),
# the others to the sink's table; both Delta tables are created from the model (sensor NOT NULL), and both
# appends are idempotent by the micro-batch id, so a restart from the checkpoint repeats neither
query = Reading.read_stream_json(root / "landing").write_stream_delta(
    root / "readings", checkpoint=root / "checkpoint", constraints="quarantine", quarantine=root / "bad",
    available_now=True,
)  # fmt: skip
query.await_termination()
assert sorted(r.sensor for r in Reading.read_delta(root / "readings").collect()) == ["a", "c"]
assert Rejected.read_delta(root / "bad").collect() == [Rejected(sensor="b", value=-2.0, violations=["value: ge 0"])]
