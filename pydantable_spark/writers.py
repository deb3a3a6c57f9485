"""The writers of ``DataFrame[M]``: files (Parquet, ORC, CSV, JSON, Delta) and catalog tables.

``Writers`` is a mixin of ``pydantable_spark.frame.DataFrame``. A write runs
the whole plan, NULL checks included, and is all-or-nothing (see
``pydantable_spark.io`` and ``docs/io.md``); what was written reads back with
the same model.

```pycon
>>> import tempfile
>>> from pathlib import Path
>>> from pydantable_spark import DataFrameModel
>>> class Visit(DataFrameModel):
...     page: str
...     ms: int | None
>>> visits = Visit.from_rows([{"page": "/", "ms": 12}, {"page": "/a", "ms": None}])
>>> with tempfile.TemporaryDirectory() as tmp:
...     visits.write_parquet(Path(tmp) / "visits")
...     Visit.read_parquet(Path(tmp) / "visits").sort(Visit.page).to_dict()
{'page': ['/', '/a'], 'ms': [12, None]}

```
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from pydantable_spark import io

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pydantable_spark.constraints import ConstraintMode, ValidationReport
    from pydantable_spark.plan import nodes as p

__all__ = ["Writers"]

M = TypeVar("M", bound=BaseModel)


class Writers(Generic[M]):
    """The ``write_*`` and ``save_as_table`` methods of ``DataFrame``."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the writers use of the frame (``DataFrame`` defines it)
        _plan: p.Plan

        @property
        def model(self) -> type[M]: ...

    def _write(
        self, fmt: str, target: str | os.PathLike[str], mode: io.WriteMode, partition_by: str | Sequence[str] | None,
        options: Mapping[str, Any], constraints: ConstraintMode, quarantine: str | os.PathLike[str] | None,
        *, table: bool = False,
    ) -> ValidationReport | None:  # fmt: skip
        from pydantable_spark.constraints import spark_constraints

        return io.write(
            self._plan, fmt, os.fspath(target), mode=mode, partition_by=partition_by, options=options, table=table,
            constraints=constraints, checks=spark_constraints(self.model),
            quarantine=quarantine,
        )  # fmt: skip

    def write_parquet(
        self, path: str | os.PathLike[str], *, mode: io.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write Parquet files, all-or-nothing (``mode`` as in Spark; ``"error"``: refuse an existing path).

        The whole plan runs, NULL checks included, into a staging directory next
        to the path; only a finished write replaces (``"overwrite"``) or joins
        (``"append"``) the old files, so a failing check (``NullCheckError``),
        a Spark error or Ctrl-C leaves the path as it was. Overwriting a path
        the frame reads is refused (``WriteError``). See ``docs/io.md``.

        ``constraints`` (the model's value constraints, checked in Spark; see
        ``docs/constraints.md``): ``"raise"`` fails the write at the first
        violation, ``"report"`` writes and returns the counts, ``"quarantine"``
        writes the violating rows to ``quarantine`` and the others to ``path``,
        ``"skip"`` checks nothing.
        """
        return self._write("parquet", path, mode, partition_by, options, constraints, quarantine)

    def write_orc(
        self, path: str | os.PathLike[str], *, mode: io.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write ORC files, like ``write_parquet``."""
        return self._write("orc", path, mode, partition_by, options, constraints, quarantine)

    def write_csv(
        self, path: str | os.PathLike[str], *, mode: io.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write CSV files with a header line; nested columns cannot be written as CSV (an error names them)."""
        return self._write("csv", path, mode, partition_by, options, constraints, quarantine)

    def write_json(
        self, path: str | os.PathLike[str], *, mode: io.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write JSON Lines files (NULL fields are left out of a record, as Spark does)."""
        return self._write("json", path, mode, partition_by, options, constraints, quarantine)

    def write_delta(
        self, path: str | os.PathLike[str], *, mode: io.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write a Delta Lake table at ``path`` (needs Delta on the session's classpath)."""
        return self._write("delta", path, mode, partition_by, options, constraints, quarantine)

    def save_as_table(
        self, name: str, *, mode: io.WriteMode = "error", partition_by: str | Sequence[str] | None = None,
        format: str | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Save as catalog table ``name`` (``format`` defaults to the session's, usually Parquet)."""
        return self._write(format or "", name, mode, partition_by, options, constraints, quarantine, table=True)
