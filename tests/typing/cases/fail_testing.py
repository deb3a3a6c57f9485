"""Mistakes with the testing helpers that mypy must report (expected messages after "# E:").

The plugin runs the helpers' own checks (``check_call``, ``check_rows``) on the static schemas.
"""

from __future__ import annotations

from models import Dept, Shipment, User

from pydantable_spark.testing import assert_frame_equal, build_frame

users = build_frame(User, [{"id": 1}])
depts = Dept.from_rows([])
assert_frame_equal(users, users, ignore_columns="name")  # E: ignore_columns must be a list or tuple of column names
assert_frame_equal(users, users, ignore_columns=["nmae"])  # E: unknown column 'nmae' in ignore_columns
assert_frame_equal(users, [{"id": 1}], rtol=-1.0)  # E: rtol must be a finite number >= 0, got -1.0
assert_frame_equal(depts, depts, max_rows_shown=0)  # E: max_rows_shown must be at least 1, got 0
assert_frame_equal(depts, depts, ignore_columns=("id", "name", "budget"))  # E: leaves no column to compare
assert_frame_equal([{"id": 1}], [{"id": 1}])  # E: at least one side must be a frame
assert_frame_equal(depts, users.select(User.id), check_dtypes=False)  # the schemas differ: the assertion's failure
build_frame(User, [{"idd": 1}])  # E: unknown column 'idd' in rows[0] (model User)
build_frame(User, [{"id": 1}, {"nmae": "Ada"}])  # E: unknown column 'nmae' in rows[1] (model User)
build_frame(Dept, 2, budgett=1.0)  # E: unknown column 'budgett' in the keyword arguments of build_frame()
build_frame(Dept, -1)  # E: the number of rows must be >= 0, got -1
build_frame(Shipment, [{"trackingNo": "a"}, {"tracking": "b"}, {"trackng": "c"}])  # E: unknown column 'trackng'
