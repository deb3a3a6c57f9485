"""The writers of ``DataFrame[M]``: files (Parquet, ORC, CSV, JSON, Delta) and catalog tables.

``Writers`` is a mixin of ``pydantable_spark.frame.DataFrame``. A write runs
the whole plan, NULL checks included, and is all-or-nothing (see
``pydantable_spark.storage`` and ``docs/io.md``); what was written reads back with
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
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeVar, cast

from pydantic import BaseModel

from pydantable_spark import storage
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pydantable_spark.constraints import ConstraintMode, ValidationReport
    from pydantable_spark.expr.api import Expr
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.merge import Delete, Insert, MergeMetrics, Update
    from pydantable_spark.model import DataFrameModel
    from pydantable_spark.plan import nodes as p

    References: TypeAlias = Mapping[str | type[DataFrameModel], DataFrame[Any]]
    """``validate(references=...)``'s mapping: a check's name or a referenced model → a frame of that model."""

__all__ = ["Writers"]

M = TypeVar("M", bound=BaseModel)


class Writers(Generic[M]):
    """The ``write_*`` and ``save_as_table`` methods of ``DataFrame``."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the writers use of the frame (``DataFrame`` defines it)
        _plan: p.Plan
        _model: type[M] | None

        @property
        def model(self) -> type[M]: ...

    def _write(
        self, fmt: str, target: str | os.PathLike[str], mode: storage.WriteMode,
        partition_by: str | Sequence[str] | None, options: Mapping[str, Any], constraints: ConstraintMode,
        quarantine: str | os.PathLike[str] | None, references: object,
        *, table: bool = False, table_constraints: bool = False,
    ) -> ValidationReport | None:  # fmt: skip
        from pydantable_spark.annotations import column_comments
        from pydantable_spark.checks.references import checks_to_run
        from pydantable_spark.constraints import spark_constraints

        action = f"save_as_table({os.fspath(target)!r})" if table else f"write_{fmt}({os.fspath(target)!r})"
        storage.check_mode(constraints, action)
        dataset, referenced = checks_to_run(cast("DataFrame[Any]", self), constraints, references, action)
        return storage.write(
            self._plan, fmt, os.fspath(target), mode=mode, partition_by=partition_by, options=options, table=table,
            constraints=constraints, checks=spark_constraints(self.model),
            quarantine=quarantine, comments=column_comments(self.model), table_constraints=table_constraints,
            dataset=dataset, references={name: other._plan for name, other in referenced.items()},
        )  # fmt: skip

    def write_parquet(
        self, path: str | os.PathLike[str], *, mode: storage.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, references: References | None = None, **options: Any,
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
        ``"skip"`` checks nothing. The model's dataset checks (``Model.checks()``)
        run too, unless ``"skip"``: counted in one Spark action before the
        write; a violated ``fail`` check raises ``CheckError`` and nothing is
        written, a ``drop`` check's rows are not written (with ``"quarantine"``
        they are quarantined, the check's name among their ``violations``),
        and every check's count is in the report (``report.checks``).
        ``references`` gives the rows of its ``references`` checks, as
        ``validate(references=...)`` does. See ``docs/constraints.md``.
        """
        return self._write("parquet", path, mode, partition_by, options, constraints, quarantine, references)

    def write_orc(
        self, path: str | os.PathLike[str], *, mode: storage.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, references: References | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write ORC files, like ``write_parquet``."""
        return self._write("orc", path, mode, partition_by, options, constraints, quarantine, references)

    def write_csv(
        self, path: str | os.PathLike[str], *, mode: storage.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, references: References | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write CSV files with a header line; nested columns cannot be written as CSV (an error names them)."""
        return self._write("csv", path, mode, partition_by, options, constraints, quarantine, references)

    def write_json(
        self, path: str | os.PathLike[str], *, mode: storage.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, references: References | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write JSON Lines files (NULL fields are left out of a record, as Spark does)."""
        return self._write("json", path, mode, partition_by, options, constraints, quarantine, references)

    def write_delta(
        self, path: str | os.PathLike[str], *, mode: storage.WriteMode = "error",
        partition_by: str | Sequence[str] | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, table_constraints: bool = False,
        references: References | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Write a Delta Lake table at ``path`` (needs Delta on the session's classpath).

        A new table declares the model's non-null fields ``NOT NULL`` (columns
        and struct fields: Delta refuses a NULL there from any writer); its
        first write is two versions (``CREATE TABLE``, then ``WRITE``). An
        existing table's ``NOT NULL`` columns and ``pydantable_*`` CHECK
        constraints are compared with the model's first. ``table_constraints=True``
        also declares the model's Spark-checkable constraints as ``CHECK``
        constraints named ``pydantable_<field>_<kind>``. See ``docs/lakehouse.md``.
        """
        return self._write(
            "delta", path, mode, partition_by, options, constraints, quarantine, references,
            table_constraints=table_constraints,
        )  # fmt: skip

    def save_as_table(
        self, name: str, *, mode: storage.WriteMode = "error", partition_by: str | Sequence[str] | None = None,
        format: str | None = None, constraints: ConstraintMode = "raise",
        quarantine: str | os.PathLike[str] | None = None, table_constraints: bool = False,
        references: References | None = None, **options: Any,
    ) -> ValidationReport | None:  # fmt: skip
        """Save as catalog table ``name`` (``format`` defaults to the session's, usually Parquet).

        Delta Lake and Iceberg tables carry the model as ``write_delta`` says:
        a new Iceberg table (or one ``mode="overwrite"`` replaces) has the
        model's non-null fields, struct fields, list elements and map values
        required, in one commit. ``table_constraints=True`` is for Delta
        tables (Iceberg has no CHECK constraints: ``ArgumentValueError``).
        """
        return self._write(
            format or "", name, mode, partition_by, options, constraints, quarantine, references, table=True,
            table_constraints=table_constraints,
        )  # fmt: skip

    def merge_into(
        self, table: str | None = None, *, path: str | os.PathLike[str] | None = None,
        model: type[BaseModel] | None = None, on: str | Sequence[str] | Expr[Any],
        when_matched: Update | Delete | Sequence[Update | Delete] | None = None,
        when_not_matched: Insert | Sequence[Insert] | None = None,
        when_not_matched_by_source: Update | Delete | Sequence[Update | Delete] | None = None,
        constraints: Literal["raise", "skip"] = "raise", references: References | None = None,
    ) -> MergeMetrics:  # fmt: skip
        """MERGE these rows (the source) into a Delta Lake or Iceberg table, in one commit; the counts.

        See ``pydantable_spark.merge`` and ``docs/lakehouse.md``. Everything is
        typed when the call is made, before Spark runs anything; then the
        table's schema is read and reconciled with ``model``, as reads are.

        Args:
            table: the target catalog table (Delta Lake or Iceberg), by name.
            path: or the path of a Delta Lake table (give one of ``table`` and ``path``).
            model: the target's model (default: this frame's).
            on: key column names present on both sides (``"id"``, ``["a", "b"]``),
                or a boolean expression over ``source.col(...)`` and ``target.col(...)``.
            when_matched: ``update(...)``, ``update_all(...)``, ``delete()``, or a list tried in order.
            when_not_matched: ``insert(...)``, ``insert_all(...)``, or a list.
            when_not_matched_by_source: ``update(...)``, ``delete()``, or a list.
            constraints: ``"raise"`` (the default): every value written to a
                column the target model constrains (``Field(ge=0)``, ...) is
                checked in the MERGE, and a violation fails it, leaving the
                table's version as it was; ``"skip"`` checks nothing. The source's
                dataset checks (its model's ``checks()``) run first, in one Spark
                action, unless ``"skip"``: a violated ``fail`` check raises
                ``CheckError`` and the table is unchanged, a ``drop`` check's rows
                leave the source, ``warn`` and ``drop`` counts are logged.
            references: the rows of the source's ``references`` checks, as
                ``validate(references=...)`` takes them.

        Returns:
            ``MergeMetrics(inserted, updated, deleted)``, as the table format reports them.

        Raises:
            UnknownColumnError, ColumnTypeError, ReconciliationError: a key, a value
                or a condition that does not type-check (before any Spark job).
            CardinalityError: several source rows match one target row (nothing written).
            WriteError: the target is neither a Delta Lake nor an Iceberg table.
            ConstraintError: a written value violates the model's constraints, or the Delta table
                declares a ``pydantable_*`` CHECK constraint the model does not (nothing written).
            NullabilityError: a value that may be NULL into a column the table declares NOT NULL.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> from pydantable_spark.merge import insert_all, update_all
        >>> class Price(DataFrameModel):
        ...     sku: str
        ...     cents: int
        >>> Price.from_rows([]).merge_into("lake.shop.prices", on="id", when_matched=update_all())
        Traceback (most recent call last):
        ...
        pydantable_spark.errors.UnknownColumnError: unknown column 'id' in the source frame (on=); existing columns: ...
        >>> Price.from_rows([]).merge_into("lake.shop.prices", on="sku", when_not_matched=update_all())
        Traceback (most recent call last):
        ...
        pydantable_spark.errors.ArgumentTypeError: merge_into('lake.shop.prices'): when_not_matched= takes ...

        ```

        """
        from pydantable_spark.constructors import schema_of_model
        from pydantable_spark.merge import merge_target, typed_merge
        from pydantable_spark.model import is_derived_row

        kind, where, action = merge_target(table, path)
        target_model = self.model if model is None else model
        if not (isinstance(target_model, type) and issubclass(target_model, BaseModel)):
            msg = f"{action}: model= must be a DataFrameModel class, got {shown(target_model)}"
            raise ArgumentTypeError(msg)
        if constraints not in ("raise", "skip"):
            msg = f"{action}: constraints={shown(constraints)} is not one of 'raise', 'skip'"
            raise ArgumentValueError(msg)
        from pydantable_spark.checks.references import checks_to_run

        dataset, referenced = checks_to_run(cast("DataFrame[Any]", self), constraints, references, action)
        own = self._model
        models = (None if own is None or is_derived_row(own) else own.__name__, target_model.__name__)
        clauses = {
            "when_matched": when_matched,
            "when_not_matched": when_not_matched,
            "when_not_matched_by_source": when_not_matched_by_source,
        }
        # every type check, before Spark is asked anything (the mypy plugin runs the same)
        typed = typed_merge(action, self._plan.schema, schema_of_model(target_model), models, on, clauses)
        from pydantable_spark._spark.merge import merge
        from pydantable_spark.constraints import spark_constraints

        declared = spark_constraints(target_model)
        return merge(
            self._plan, typed, (kind, where), declared if constraints == "raise" else None, declared,
            dataset=dataset, references={name: other._plan for name, other in referenced.items()},
        )  # fmt: skip
