"""What the session and the task know: the current catalog, schema and user, Spark's version, the input file.

The session functions (``current_user``, ``version``...) are ``session=True``:
their value comes from the session that runs the plan, and equals PySpark's on
the same session. Measured on Spark 4.3: none is ever NULL; ``input_file_name``
is ``''`` and the block functions ``-1`` where no file is being read; Spark
marks ``spark_partition_id`` and the input-file functions nondeterministic, and
so does the catalog (a filter never moves across them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog.spec import (
    EntryOptions,
    Function,
    entry,
    fixed,
    never,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES"]


def _entry(name: str, returns: dt.DType, summary: str, **options: Unpack[EntryOptions]) -> Function:
    options.setdefault("nullable", never)
    return entry(name, (), fixed(returns), summary, "session", **options)


ENTRIES: tuple[Function, ...] = (
    _entry("current_catalog", dt.String(), "The session's current catalog.", session=True),
    _entry(
        "current_database",
        dt.String(),
        "The session's current database (schema).",
        session=True,
        aliases=("current_schema",),
    ),
    _entry("current_path", dt.String(), "The session's function search path.", session=True),
    _entry(
        "current_user",
        dt.String(),
        "The user running the session.",
        session=True,
        aliases=("user", "session_user"),
    ),
    _entry("version", dt.String(), "Spark's version and its git revision.", session=True),
    _entry("spark_partition_id", dt.Int32(), "The id of the partition the row is in.", deterministic=False),
    _entry("input_file_name", dt.String(), "The file the row was read from ('' if none).", deterministic=False),
    _entry(
        "input_file_block_start",
        dt.Int64(),
        "The start offset of the file block the row was read from (-1 if none).",
        deterministic=False,
    ),
    _entry(
        "input_file_block_length",
        dt.Int64(),
        "The length of the file block the row was read from (-1 if none).",
        deterministic=False,
    ),
)
