"""Helpers for users' tests: compare two frames, and build test frames from partial rows.

``assert_frame_equal(left, right)`` passes when both sides hold the same
schema and the same rows, and otherwise raises ``AssertionError`` with a diff
that names the schema check that failed, or the differing rows with their
differing cells marked. Its defaults are ``pyspark.testing.assertDataFrameEqual``'s
where a PySpark user would look for them (row order ignored, ``rtol=1e-5``,
``atol=1e-8``); nullability is checked (see the function).

``build_frame(Model, rows, **defaults)`` makes a validated frame of ``Model``
from rows that give only the columns a test is about; every other column gets a
value that satisfies its type, its nullability and its constraints.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> class P(DataFrameModel):
...     id: int
...     w: float
>>> frame = P.from_rows([{"id": 2, "w": 0.3}, {"id": 1, "w": 0.1 + 0.2}])
>>> assert_frame_equal(frame, [{"id": 1, "w": 0.3}, {"id": 2, "w": 0.3}])
>>> assert_frame_equal(frame, [{"id": 1, "w": 0.3}, {"id": 2, "w": 0.4}])
Traceback (most recent call last):
...
AssertionError: the frames hold different rows (row order ignored):
1 of 2 left rows and 1 of 2 right rows have no equal row on the other side
a left row and the right row most like it:
  left   id=2  w=0.3
  right  id=2  w=0.4
               ^^^^^
  w: 0.3 (left) != 0.4 (right); they differ by 0.1, the tolerance allows 4.01e-06 (atol + rtol * 0.4)

```
"""

from pydantable_spark.testing.assertion import assert_frame_equal
from pydantable_spark.testing.builder import build_frame

__all__ = ["assert_frame_equal", "build_frame"]
