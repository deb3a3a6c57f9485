"""Running a typed MERGE (``pydantable_spark.merge``) on Delta Lake or Iceberg: one ``MERGE INTO`` statement.

The source frame is lowered, its columns renamed to private names
(``__pydantable_s0``...), and registered as a temporary view for the one
statement (dropped afterwards); the target is the table, by its quoted name
parts, or ``delta.`<path>```. The statement is built from the typed spec:

* a source column is ``__pydantable_s.`__pydantable_s<i>``` (no user name is SQL);
* a target column is ``__pydantable_t.`<name>``` (backticks doubled; a name with
  ``${`` is refused, since Spark's variable substitution would rewrite it),
  cast to the model's type where the table's differs, and typed nullable where
  the table lets it be NULL, whatever the model says (no run-time NULL check:
  Spark may compute a clause's expressions for rows another clause takes,
  where the target's columns are NULL);
* literals are the typed literals of ``_spark.sql`` (strings in hex);
* each assigned value of a column the target model constrains fails the
  statement when it violates the constraint (``raise_error``, the same
  messages as writes): the table format then commits nothing.

Metrics: Delta's ``MERGE`` returns its counts as its result; Iceberg writes
them in the summary of the snapshot it commits (``spark.merge-into.*``).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.checks import checked_dataset, without_dropped
from pydantable_spark._spark.constraints import value_checked
from pydantable_spark._spark.sql import COMPILERS, field_sql, internal_sql, string_sql, to_sql, type_sql
from pydantable_spark._spark.writes import _name_parts, _provider, _quoted
from pydantable_spark.errors import (
    CardinalityError,
    NullabilityError,
    ReconciliationError,
    WriteError,
)
from pydantable_spark.expr.core import Column, Node, Typed
from pydantable_spark.expr.sides import SideColumn
from pydantable_spark.merge import MergeMetrics, MergeSpec
from pydantable_spark.reconcile import reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.checks.declare import Check
    from pydantable_spark.constraints import SparkConstraints
    from pydantable_spark.plan import nodes as p

__all__ = ["merge"]

_SOURCE = "__pydantable_s"
_TARGET = "__pydantable_t"
_FIT_MARK = "pydantable:fit:"
_FIT = re.compile(re.escape(_FIT_MARK) + r"([0-9a-fA-F]*):([0-9a-fA-F]*)\]")
_FITTED = "__pydantable_v"
_CAST_FAILED = ("CAST_OVERFLOW", "CAST_INVALID_INPUT", "NUMERIC_VALUE_OUT_OF_RANGE", "ARITHMETIC_OVERFLOW")
_NOT_DELTA = ("DELTA_MISSING_DELTA_TABLE", "DELTA_TABLE_NOT_FOUND", "is not a Delta table", "PATH_NOT_FOUND")
_MULTIPLE = ("DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE", "MERGE_CARDINALITY_VIOLATION")


@dataclass(frozen=True, slots=True)
class _Sql(Column):
    """A column reference the merge statement spells itself (its text is made here, never from user input)."""

    sql: str = ""


COMPILERS[_Sql] = lambda node: node.sql


def merge(
    plan: p.Plan,
    rebind: Callable[[Schema | None], MergeSpec],
    where: tuple[str, str],
    checks: SparkConstraints | None,
    declared: SparkConstraints | None = None,
    *,
    dataset: Sequence[Check] = (),
    references: Mapping[str, p.Plan] | None = None,
) -> MergeMetrics:
    """Run a merge with the rows of ``plan`` as the source into the table ``where`` (``("table"|"path", name)``).

    ``rebind(stored)`` types the merge again once the table's schema is known:
    ``stored`` is the target model with a column nullable where the table lets
    it be NULL, as expressions read it (a MERGE cannot check a target value for
    NULL at run time: Spark may compute a clause's expressions for rows of
    other clauses, where the target's columns are NULL).

    ``declared`` (the target model's constraints, whatever ``checks`` is): a Delta
    table's ``pydantable_*`` CHECK constraints are compared with them first
    (``tables.compare_checks``: one the model lacks is refused).

    ``dataset`` (the source's dataset checks; ``references``: the plans of
    its ``references`` checks' rows, by check name) run once the table is
    known to take the MERGE, in one action before it
    (``_spark.checks.checked_dataset``): a violated ``fail`` check raises
    ``CheckError`` and the table is unchanged; a ``drop`` check's rows leave
    the source.
    """
    from pydantable_spark._spark.lower import to_spark
    from pydantable_spark._spark.session import run_action
    from pydantable_spark._spark.storage import spark_errors
    from pydantable_spark._spark.types import fields_of_struct

    kind, name = where
    action = f"merge_into({name!r})" if kind == "table" else f"merge_into(path={name!r})"
    with spark_errors(action, plan):
        frame = to_spark(plan)
        spark = frame.sparkSession
        fmt, target_sql, table = _target(spark, where, action)
        if fmt == "delta" and declared is not None:
            from pydantable_spark._spark import tables

            tables.compare_checks(tables.declared_checks(spark, target_sql), tables.table_checks(declared), action)
        fields = {f.name: f for f in fields_of_struct(table.schema)}
        model = rebind(None)
        columns = _reconciled(model, tuple(fields.values()), action)
        stored = Schema(tuple(dt.Field(f.name, f.dtype, f.nullable or columns[f.name].nullable) for f in model.target))
        spec = rebind(stored)
        _check_table_nulls(spec, fields, action, fmt)
        _check_table_fields(spec, fields, action)
        view = f"__pydantable_merge_{uuid.uuid4().hex[:12]}"
        statement = merge_sql(spec, target_sql, internal_sql(view), columns, checks)
        if dataset:
            outcome = " (nothing was written, the table is as it was)"
            _, flagged, dropped = checked_dataset(frame, dataset, references or {}, action, outcome, reported=False)
            frame = without_dropped(flagged, [flag for flag, _ in dropped])
        frame.toDF(*[f"{_SOURCE}{i}" for i in range(len(frame.columns))]).createOrReplaceTempView(view)
        try:
            before = _snapshot(spark, target_sql) if fmt == "iceberg" else None
            rows = run_action(spark, lambda: spark.sql(statement).collect())
        except Exception as error:
            said = _said(error)
            if any(code in said for code in _MULTIPLE):
                raise _cardinality(spec, action) from error
            unfit = _unfit(said, spec, columns, action)
            if unfit is not None:
                raise unfit from error
            raise
        finally:
            spark.catalog.dropTempView(view)
        if fmt == "delta":
            return _delta_metrics(rows, action)
        return _iceberg_metrics(spark, target_sql, before)


def _target(spark: Any, where: tuple[str, str], action: str) -> tuple[str, str, SparkDataFrame]:
    """The target's format, its SQL name, and the table as Spark reads it (its schema); refused unless Delta/Iceberg."""
    kind, name = where
    if kind == "path":
        target = "delta.`" + name.replace("`", "``") + "`"
        try:
            table = spark.read.format("delta").load(name)
            table.schema  # noqa: B018  -- resolved now (Connect too)
        except Exception as error:
            if any(code in str(error) for code in _NOT_DELTA):
                msg = (
                    f"{action}: {name!r} is not a Delta table (MERGE needs a Delta Lake table at path=, or a Delta "
                    "or Iceberg catalog table by name); nothing was written"
                )
                raise WriteError(msg) from error
            raise
        return "delta", target, table
    from pydantable_spark.storage import table_name

    table_name(name, action)
    target = _quoted(_name_parts(name))
    table = spark.read.table(name)
    table.schema  # noqa: B018
    fmt = _provider(spark, name)
    if fmt not in ("delta", "iceberg"):
        msg = (
            f"{action}: table {name!r} is a {fmt or 'non-transactional'} table; MERGE needs a Delta Lake or Iceberg "
            "table, which commit it atomically (write a new table with save_as_table(..., format='delta') "
            "and merge into that); nothing was written"
        )
        raise WriteError(msg)
    return fmt, target, table


def _reconciled(spec: MergeSpec, fields: tuple[dt.Field, ...], action: str) -> Mapping[str, dt.Field]:
    """Each target model column → the table's own field, reconciled strictly as reads are."""
    try:
        rec = reconcile(fields, spec.target, case_sensitive=True, null_check=True)
    except ReconciliationError as error:
        context = f"{action}: the target table and the target model"
        raise error.within(context) from None
    return {c.result.name: c.source for c in rec.columns}


def _check_table_nulls(spec: MergeSpec, fields: Mapping[str, dt.Field], action: str, fmt: str) -> None:
    """Values the model lets be NULL but the table does not (``NOT NULL``), and inserts leaving such a column out.

    Nested too: a struct field the table declares NOT NULL (and, for Iceberg,
    a list element or map value) that the value may hold NULL in.
    """
    from pydantable_spark._spark.tables import nullability_differences

    for clause in spec.clauses:
        given = dict(clause.values)
        for name, value in given.items():
            if value.type.nullable and not fields[name].nullable:
                msg = (
                    f"{action}: {clause.kind} {clause.action} sets column {name!r} to a nullable value, and the "
                    f"table declares it NOT NULL; give a default with F.coalesce(value, default)"
                )
                raise NullabilityError(msg)
            written = dt.Field(name, value.type.dtype, value.type.nullable)
            stricter, _ = nullability_differences((fields[name],), (written,), elements=fmt != "delta")
            if stricter:
                msg = (
                    f"{action}: {clause.kind} {clause.action} sets column {name!r} to a value that may hold NULL "
                    f"at {', '.join(map(repr, stricter))}, which the table declares NOT NULL; declare the field "
                    "non-null in the model, or give it a value where it is NULL"
                )
                raise NullabilityError(msg)
        if clause.action == "insert":
            left_out = [f.name for f in fields.values() if not f.nullable and f.name not in given]
            if left_out:
                msg = (
                    f"{action}: {clause.kind} insert leaves out column(s) {', '.join(map(repr, left_out))}, which "
                    "the table declares NOT NULL; give them a value"
                )
                raise NullabilityError(msg)


def merge_sql(
    spec: MergeSpec, target: str, source: str, columns: Mapping[str, dt.Field], checks: SparkConstraints | None
) -> str:
    """The ``MERGE INTO`` statement of ``spec``, from the view ``source`` (SQL text: a quoted private name)."""
    positions = {name: i for i, name in enumerate(spec.source.names)}
    wanted = {f.name: f for f in spec.target}

    def lowered(node: Node) -> str:
        def swap(item: Node) -> Node:
            if isinstance(item, SideColumn):
                typed = Typed(*item.type)
                if item.side == "source":
                    ref = f"{_SOURCE}.{internal_sql(f'{_SOURCE}{positions[item.name]}')}"
                    return _Sql(ref, typed, None, ref)
                ref = f"{_TARGET}.{field_sql(item.name)}"
                if columns[item.name].dtype != wanted[item.name].dtype:
                    ref = f"CAST({ref} AS {type_sql(wanted[item.name].dtype)})"
                return _Sql(item.name, typed, None, ref)
            return item.map_children(swap)

        return to_sql(swap(node))

    def assigned(name: str, node: Node) -> str:
        text = lowered(node)
        if checks is not None:  # on the model's value, before it takes the table's type
            text = value_checked(text, [c for c in checks.checked if c.column == name], spec.action)
        if columns[name].dtype != wanted[name].dtype:
            text = fitted(text, name, columns[name].dtype, wanted[name].dtype, spec.action)
        return text

    parts = [f"MERGE INTO {target} AS {_TARGET} USING {source} AS {_SOURCE} ON {lowered(spec.on)}"]
    for clause in spec.clauses:
        head = {"when_matched": "WHEN MATCHED", "when_not_matched": "WHEN NOT MATCHED"}.get(
            clause.kind, "WHEN NOT MATCHED BY SOURCE"
        )
        if clause.condition is not None:
            head += f" AND {lowered(clause.condition)}"
        if clause.action == "delete":
            parts.append(f"{head} THEN DELETE")
        elif clause.action == "update":
            sets = ", ".join(f"{field_sql(name)} = {assigned(name, value)}" for name, value in clause.values)
            parts.append(f"{head} THEN UPDATE SET {sets}")
        else:
            names = ", ".join(field_sql(name) for name, _ in clause.values)
            values = ", ".join(assigned(name, value) for name, value in clause.values)
            parts.append(f"{head} THEN INSERT ({names}) VALUES ({values})")
    return "\n".join(parts)


def fitted(value: str, name: str, table: dt.DType, model: dt.DType, action: str) -> str:
    """``value`` (SQL, of the model's type) cast to the table's type, failing naming ``name`` where it does not fit.

    A value that does not fit: an integer or decimal the table's narrower type
    cannot hold. A struct, list or map is cast as it is (its fields were matched before the
    statement, ``_check_table_fields``); a failure inside one is named after
    the job (``_unfit``).
    """
    target = type_sql(table)
    if isinstance(table, dt.Struct | dt.List | dt.Map):
        return f"CAST({value} AS {target})"
    message = (
        f"{action}: column {name!r} gets a value that the table's {target} cannot hold (the model's type is "
        f"{type_sql(model)}); nothing was written, the table is as it was. Keep the values in the table's range "
        "(a model constraint such as Field(le=...) refuses them before the statement), or widen the table's column"
    )
    mark = string_sql(f"[{_FIT_MARK}{message.encode('utf-8').hex()}:")
    shown = f"coalesce(hex(substr(CAST({_FITTED} AS STRING), 1, 200)), {string_sql('')})"
    fail = f"raise_error(concat({mark}, {shown}, {string_sql(']')}))"
    body = (
        f"CASE WHEN {_FITTED} IS NOT NULL AND try_cast({_FITTED} AS {target}) IS NULL THEN {fail} "
        f"ELSE CAST({_FITTED} AS {target}) END"
    )
    return f"element_at(transform(array({value}), {_FITTED} -> {body}), 1)"


def _said(error: BaseException) -> str:
    """The text of ``error`` and of its causes (Spark's reason may be in either)."""
    texts: list[str] = []
    seen: BaseException | None = error
    while seen is not None and len(texts) < 8:
        texts.append(str(seen))
        seen = seen.__cause__ or seen.__context__
    return "\n".join(texts)


def _unfit(said: str, spec: MergeSpec, columns: Mapping[str, dt.Field], action: str) -> WriteError | None:
    """The error naming the column whose value the table's type cannot hold (None: the failure is another)."""
    found = _FIT.search(said)
    if found is not None:
        message = bytes.fromhex(found.group(1)).decode("utf-8", "replace")
        value = bytes.fromhex(found.group(2)).decode("utf-8", "replace")
        return WriteError(f"{message}; the row's value: {value}")
    if not any(code in said for code in _CAST_FAILED):
        return None
    wanted = {f.name: f.dtype for f in spec.target}
    nested = sorted(
        {
            name
            for clause in spec.clauses
            for name, _ in clause.values
            if columns[name].dtype != wanted[name] and isinstance(columns[name].dtype, dt.Struct | dt.List | dt.Map)
        }
    )
    if not nested:
        return None
    from pydantable_spark._spark.storage import spark_paragraph

    msg = (
        f"{action}: a value of column(s) {', '.join(map(repr, nested))} does not fit the table's type "
        f"({'; '.join(f'{n}: {type_sql(columns[n].dtype)}' for n in nested)}); nothing was written, the table is as "
        f"it was. Spark's reason: {spark_paragraph(said)}"
    )
    return WriteError(msg)


def _check_table_fields(spec: MergeSpec, fields: Mapping[str, dt.Field], action: str) -> None:
    """A struct field the table has and an assigned value lacks, named before the statement runs.

    Spark's MERGE cannot write a struct without one of the table's fields
    (it would not know what to keep there); the message names the user's
    column and the field, at any depth (``ship.zip``, ``lines[].sku``).
    """
    for clause in spec.clauses:
        for name, value in clause.values:
            lacking = list(_lacking(name, fields[name].dtype, value.type.dtype))
            if lacking:
                msg = (
                    f"{action}: {clause.kind} {clause.action} sets column {name!r} to the model's value, which "
                    f"lacks the table's field(s) {', '.join(lacking)}; add them to the model's struct (as "
                    "Optional fields if they may be NULL), or read the table's model with modelgen; nothing was "
                    "written"
                )
                raise WriteError(msg)


def _lacking(where: str, table: dt.DType, value: dt.DType) -> list[str]:
    if isinstance(table, dt.Struct) and isinstance(value, dt.Struct):
        have = {f.name: f for f in value.fields}
        found: list[str] = []
        for f in table.fields:
            if f.name not in have:
                found.append(f"{where}.{f.name} ({type_sql(f.dtype)})")
            else:
                found += _lacking(f"{where}.{f.name}", f.dtype, have[f.name].dtype)
        return found
    if isinstance(table, dt.List) and isinstance(value, dt.List):
        return _lacking(f"{where}[]", table.inner, value.inner)
    if isinstance(table, dt.Map) and isinstance(value, dt.Map):
        return _lacking(f"{where}{{value}}", table.value, value.value)
    return []


def _cardinality(spec: MergeSpec, action: str) -> CardinalityError:
    on = f"keys {', '.join(map(repr, spec.keys))}" if spec.keys else "the on= condition"
    msg = (
        f"{action}: several source rows match one target row on {on}, so MERGE cannot tell which one updates or "
        "deletes it; nothing was written (the table's version is unchanged). Make the source unique on "
        f"{'them' if spec.keys else 'what the condition matches'} first (e.g. unique(subset=...) or a group_by)"
    )
    return CardinalityError(msg)


def _delta_metrics(rows: list[Any], action: str) -> MergeMetrics:
    if len(rows) != 1:
        msg = f"{action}: Delta's MERGE returned {len(rows)} result rows instead of one with its counts"
        raise WriteError(msg)
    row = rows[0].asDict()
    return MergeMetrics(
        inserted=int(row["num_inserted_rows"]),
        updated=int(row["num_updated_rows"]),
        deleted=int(row["num_deleted_rows"]),
    )


def _snapshot(spark: Any, target: str) -> int | None:
    """The current snapshot id of an Iceberg table (None: it has none)."""
    rows = spark.sql(f"SELECT snapshot_id FROM {target}.`snapshots` ORDER BY committed_at DESC LIMIT 1").collect()
    return int(rows[0][0]) if rows else None


def _iceberg_metrics(spark: Any, target: str, before: int | None) -> MergeMetrics:
    """The counts in the summary of the snapshot the MERGE committed (none committed: nothing changed)."""
    rows = spark.sql(
        f"SELECT snapshot_id, summary FROM {target}.`snapshots` ORDER BY committed_at DESC LIMIT 1"
    ).collect()
    if not rows or int(rows[0][0]) == before:
        return MergeMetrics(0, 0, 0)
    summary = rows[0][1]

    def count(key: str) -> int:
        return int(summary.get(f"spark.merge-into.{key}", 0))

    return MergeMetrics(
        inserted=count("num-target-rows-inserted"),
        updated=count("num-target-rows-updated"),
        deleted=count("num-target-rows-deleted"),
    )
