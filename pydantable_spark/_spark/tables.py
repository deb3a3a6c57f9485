"""Delta Lake and Iceberg tables that carry the model: NOT NULL columns when a table is made, and a comparison after.

Spark's writers make every column of a table they create nullable (its
``CREATE TABLE AS SELECT`` relaxes the query's schema, for Delta and Iceberg
alike), so here a table is made otherwise:

* Delta Lake (a path or a catalog table): the table is created empty from
  the frame's ``StructType`` (``spark.catalog.createTable``: no SQL text; NOT
  NULL on columns and struct fields, which Delta enforces for every writer;
  list elements and map values stay nullable, since Delta takes a NULL there
  from a DataFrame append), then the rows are appended: two commits (``CREATE TABLE``, then ``WRITE``). A write
  that fails after the first drops the table it made (a catalog table, or on
  classic Spark the path's directory), so the target is again absent; on
  Spark Connect, which has no filesystem API, a new path is first written
  into a checkpoint, where every run-time check runs, so only a crash between
  the two commits can leave an empty table behind. A partitioned Delta table
  cannot be created from a schema by the catalog API, and a session whose
  catalog is not Delta's (``DeltaCatalog``) cannot create one by path: then
  Spark's writer makes it, every column nullable (logged).
* Iceberg, in a catalog named by ``spark.sql.catalog.<name>``: the table is
  created (or, with ``mode="overwrite"``, replaced) in one commit through a
  copy of that catalog's settings with ``use-nullable-query-schema=false``,
  Iceberg's own switch for keeping the query's nullability.

Appending to an existing table (and overwriting a Delta table, which keeps its
schema) compares the table's nullability with the frame's first
(``check_nullability``): a column the table declares NOT NULL that the frame
may hold NULL in is refused before any job; a column the model declares
non-null that the table lets be NULL is logged (the table cannot be made
stricter: neither format changes a nullable column to NOT NULL).
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.session import is_connect
from pydantable_spark._spark.writes import _FileSystem, _name_parts, _quoted, release_checkpoint
from pydantable_spark.errors import ArgumentValueError, ConstraintError, NullabilityError, TargetExistsError, WriteError

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark._spark.writes import Request
    from pydantable_spark.constraints import SparkConstraints

__all__ = ["check_nullability", "create_delta", "create_empty", "iceberg_required_name", "nullability_differences"]

log = logging.getLogger("pydantable_spark")

_ICEBERG_CATALOG = "org.apache.iceberg.spark.SparkCatalog"
_DELTA_CATALOG = "org.apache.spark.sql.delta.catalog.DeltaCatalog"
_REQUIRED = "__pydantable_required"
"""Suffix of the copy of an Iceberg catalog that keeps the query's nullability."""


# --- Delta Lake -------------------------------------------------------------------------------------


def delta_path_name(path: str) -> str:
    """``delta.`<path>``` (backticks doubled): Delta's name for the table at ``path``."""
    if "${" in path:
        msg = f"the path {path!r} contains '${{', which Spark's variable substitution would rewrite in a table name"
        raise WriteError(msg)
    return "delta.`" + path.replace("`", "``") + "`"


def delta_catalog(spark: Any) -> bool:
    """Whether the session catalog is Delta Lake's (which creates tables by path, ``delta.`<path>```)."""
    return _settings(spark).get("spark.sql.catalog.spark_catalog", "") == _DELTA_CATALOG


def create_delta(frame: SparkDataFrame, request: Request, *, table: bool) -> bool:
    """Create the Delta table of ``request`` with ``frame``'s schema (its NOT NULL kept), then append the rows.

    ``False``: the table appeared meanwhile (another write); the caller then
    writes as for an existing table, or refuses, by ``request.mode``.
    """
    spark = frame.sparkSession
    name = _quoted(_name_parts(request.target)) if table else delta_path_name(request.target)
    if request.declare_checks:
        refuse_regex_names(spark, request.checks, request.action)  # before the table is made
    checkpoint = None
    if not table and is_connect(frame):  # no filesystem to undo with: the checks run before the path is made
        checkpoint = frame = frame.localCheckpoint(eager=True)
    try:
        if not create_empty(spark, name, frame.schema, "delta"):
            return False
        try:
            if request.declare_checks:
                add_checks(spark, name, request.checks, request.action)
            writer = request.spark_write(frame, "append")
            if table:
                writer.saveAsTable(request.target)
            else:
                writer.save(request.target)
        except BaseException:
            _undo_create(spark, request, name, table=table)
            raise
    finally:
        if checkpoint is not None:
            release_checkpoint(checkpoint)
    return True


def create_empty(spark: Any, name: str, schema: Any, fmt: str) -> bool:
    """Create the empty ``fmt`` table ``name`` (SQL name, quoted) of the Spark ``schema``, its NOT NULL kept.

    No SQL text: ``spark.catalog.createTable`` from the ``StructType``. ``False``:
    the table exists already (made meanwhile by another write).
    """
    declared = delta_schema(schema) if fmt == "delta" else schema
    try:
        spark.catalog.createTable(name, source=fmt, schema=declared)
    except Exception as error:
        if "ALREADY_EXISTS" in str(error) or "already exists" in str(error):
            return False
        raise
    return True


def delta_schema(dtype: Any) -> Any:
    """``dtype`` (a Spark type) with list elements and map values nullable: Delta Lake does not enforce them.

    Delta keeps a column's and a struct field's NOT NULL and refuses a NULL
    there from any writer; an element or map value NULL appended by a
    DataFrame (or an ``INSERT`` that casts) is taken, so declaring them would
    make the schema claim what the table does not hold.
    """
    from pyspark.sql import types as st

    if isinstance(dtype, st.StructType):
        return st.StructType(
            [st.StructField(f.name, delta_schema(f.dataType), f.nullable, f.metadata) for f in dtype.fields]
        )
    if isinstance(dtype, st.ArrayType):
        return st.ArrayType(delta_schema(dtype.elementType), containsNull=True)
    if isinstance(dtype, st.MapType):
        return st.MapType(delta_schema(dtype.keyType), delta_schema(dtype.valueType), valueContainsNull=True)
    return dtype


def _undo_create(spark: Any, request: Request, name: str, *, table: bool) -> None:
    """Remove the Delta table this write created (its rows failed): the target is absent again."""
    try:
        if table:
            spark.sql(f"DROP TABLE IF EXISTS {name}")
        elif not is_connect(spark):
            fs = _FileSystem(spark, request)
            fs.delete(fs.target)
        else:
            log.error(
                "%s: the Delta table created at %s holds no rows (the write failed after creating it); "
                "delete the directory",
                request.action,
                request.target,
            )
    except Exception:
        log.error("%s: could not remove the table it created at %s", request.action, request.target, exc_info=True)


def exists_error(request: Request) -> TargetExistsError:
    """The refusal of a write whose new table another write made meanwhile (``mode="error"``)."""
    msg = (
        f"{request.action}: the table did not exist when this write started, but another write made it "
        f"meanwhile and mode={request.mode!r}: this write's rows were not written"
    )
    return TargetExistsError(msg)


# --- Iceberg --------------------------------------------------------------------------------------


def iceberg_required_name(spark: Any, target: str) -> str | None:
    """``target`` in a copy of its Iceberg catalog that keeps the query's nullability (None: not such a catalog).

    The copy has the catalog's own settings (``spark.sql.catalog.<name>.*``),
    its table cache off, and ``use-nullable-query-schema=false``.
    """
    parts = _name_parts(target)
    settings = _settings(spark)
    if len(parts) > 1 and f"spark.sql.catalog.{parts[0]}" in settings:
        catalog, rest = parts[0], parts[1:]
    else:
        catalog, rest = str(spark.catalog.currentCatalog()), parts
    if settings.get(f"spark.sql.catalog.{catalog}") != _ICEBERG_CATALOG:
        return None
    copy = f"{catalog}{_REQUIRED}"
    prefix = f"spark.sql.catalog.{catalog}"
    for key, value in settings.items():
        if key == prefix or key.startswith(prefix + "."):
            spark.conf.set(f"spark.sql.catalog.{copy}{key[len(prefix) :]}", value)
    spark.conf.set(f"spark.sql.catalog.{copy}.cache-enabled", "false")
    spark.conf.set(f"spark.sql.catalog.{copy}.use-nullable-query-schema", "false")
    return _quoted([copy, *rest])


def write_iceberg_required(frame: SparkDataFrame, request: Request, mode: str) -> bool:
    """Create (or replace) the Iceberg table of ``request`` keeping ``frame``'s nullability; False if it cannot."""
    spark = frame.sparkSession
    name = iceberg_required_name(spark, request.target)
    if name is None:
        return False
    # DataFrameWriterV2: its name resolves in the frame's session (the v1 writer resolves a catalog in the
    # thread's active session, which a helper thread may not have)
    writer = frame.writeTo(name).using("iceberg").options(**request.options)
    if request.partition_by:
        from pyspark.sql import functions as sf

        first, *rest = (sf.col(column) for column in request.partition_by)
        writer = writer.partitionedBy(first, *rest)
    if mode == "overwrite":
        writer.createOrReplace()
    else:
        writer.create()
    spark.catalog.refreshTable(request.target)  # the catalog's cached view of the table is stale now
    return True


def _settings(spark: Any) -> dict[str, str]:
    found = spark.conf.getAll
    return dict(found() if callable(found) else found)


# --- comparing a table with the frame -------------------------------------------------------------


def nullability_differences(
    table: Sequence[dt.Field], frame: Sequence[dt.Field], *, elements: bool = True
) -> tuple[list[str], list[str]]:
    """Where the table is NOT NULL and the frame may be NULL (stricter), and the other way round (looser).

    Columns are matched by name; locations read ``ship.city``, ``tags[]``,
    ``scores{value}``. Columns only one side has are left to the writers.
    ``elements=False`` leaves list elements and map values out (Delta Lake
    does not enforce their NOT NULL).
    """
    stricter: list[str] = []
    looser: list[str] = []
    by_name = {f.name: f for f in table}
    for f in frame:
        t = by_name.get(f.name)
        if t is not None:
            for where, table_null, frame_null in _pairs(f.name, t.dtype, t.nullable, f.dtype, f.nullable):
                if not elements and where.endswith(("[]", "{value}")):
                    continue
                if frame_null and not table_null:
                    stricter.append(where)
                elif table_null and not frame_null:
                    looser.append(where)
    return stricter, looser


def _pairs(
    where: str, table: dt.DType, table_null: bool, frame: dt.DType, frame_null: bool
) -> Iterator[tuple[str, bool, bool]]:
    yield where, table_null, frame_null
    if isinstance(table, dt.Struct) and isinstance(frame, dt.Struct):
        inner = {f.name: f for f in table.fields}
        for f in frame.fields:
            t = inner.get(f.name)
            if t is not None:
                yield from _pairs(f"{where}.{f.name}", t.dtype, t.nullable, f.dtype, f.nullable)
    elif isinstance(table, dt.List) and isinstance(frame, dt.List):
        yield from _pairs(f"{where}[]", table.inner, table.contains_null, frame.inner, frame.contains_null)
    elif isinstance(table, dt.Map) and isinstance(frame, dt.Map):
        yield from _pairs(
            f"{where}{{value}}", table.value, table.value_contains_null, frame.value, frame.value_contains_null
        )


def check_nullability(frame: SparkDataFrame, existing: SparkDataFrame, action: str, fmt: str) -> None:
    """Refuse rows that may be NULL where the existing table is NOT NULL; log where the table is looser."""
    from pydantable_spark._spark.types import fields_of_struct

    table, rows = fields_of_struct(existing.schema), fields_of_struct(frame.schema)
    stricter, looser = nullability_differences(table, rows, elements=fmt != "delta")
    if stricter:
        msg = (
            f"{action}: the table declares {', '.join(map(repr, stricter))} NOT NULL, and this frame may hold NULL "
            "there; declare the field(s) non-null in the model (the write then checks for NULL before it "
            "commits) or give a value where it is NULL (F.coalesce); nothing was written"
        )
        raise NullabilityError(msg)
    if looser:
        log.warning(
            "%s: the model declares %s non-null, and the table lets it be NULL (neither Delta Lake nor Iceberg "
            "makes a nullable column NOT NULL; to get them, write the rows to a new table)",
            action,
            ", ".join(map(repr, looser)),
        )


# --- CHECK constraints (Delta Lake) -----------------------------------------------------------------

_ELEMENT_STEPS = frozenset({"[]", "{key}", "{value}"})
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

CHECK_PREFIX = "pydantable_"
"""The names of the CHECK constraints this library declares start with this (others' are left alone)."""


@dataclass(frozen=True, slots=True)
class TableCheck:
    """One model constraint as a Delta ``CHECK``: its name, what it says (``qty ge 0``), and its SQL."""

    name: str
    said: str
    sql: str
    column: str


def table_checks(checks: SparkConstraints) -> tuple[TableCheck, ...]:
    """The Spark-checked constraints of a model as Delta ``CHECK`` constraints, named from field and kind.

    A name is ``pydantable_<location>_<kind>`` in lower-case letters, digits
    and ``_``; a location that does not spell itself so (``unit price``,
    ``Qty``) gets a short hash of itself, so two columns never share a name.
    The SQL is TRUE where the value holds (NULL holds), with the table's
    column names and literals as the lowering writes them (strings in hex).
    Constraints on list elements and map keys or values are left out: their
    predicate is a lambda, and Delta stores a CHECK's text re-spaced
    (``x - > ...``), which it cannot parse again.
    """
    from pydantable_spark._spark.constraints import violation_sql
    from pydantable_spark._spark.sql import field_sql

    made: list[TableCheck] = []
    taken: set[str] = set()
    for c in checks.checked:
        if any(step in _ELEMENT_STEPS for step in c.path):
            continue  # a lambda: Delta re-spaces a CHECK's text and cannot parse its ``->`` again
        plain = re.sub(r"[^a-z0-9]+", "_", c.location.lower()).strip("_")
        if plain != c.location:
            plain += "_" + hashlib.sha256(c.location.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        name = f"{CHECK_PREFIX}{plain}_{c.kind}"
        number = 2
        while name in taken:
            name = f"{CHECK_PREFIX}{plain}_{c.kind}_{number}"
            number += 1
        taken.add(name)
        sql = f"NOT {violation_sql(c, field_sql(c.column))}"
        made.append(TableCheck(name, f"{c.location} {c.label}", sql, c.column))
    return tuple(made)


def no_iceberg_checks(action: str) -> ArgumentValueError:
    """``table_constraints=True`` on an Iceberg table: Iceberg has no CHECK constraints."""
    msg = (
        f"{action}: table_constraints=True declares the model's constraints as Delta Lake CHECK constraints; "
        "Iceberg tables have none (only required fields, which every write declares); nothing was written"
    )
    return ArgumentValueError(msg)


def refuse_regex_names(spark: Any, checks: Sequence[TableCheck], action: str) -> None:
    """``WriteError`` if a CHECK would quote a name Spark reads as a regular expression in this session."""
    regex = str(spark.conf.get("spark.sql.parser.quotedRegexColumnNames", "false")).lower() == "true"
    odd = sorted({check.column for check in checks if not _PLAIN_NAME.match(check.column)})
    if regex and odd:
        msg = (
            f"{action}: spark.sql.parser.quotedRegexColumnNames=true makes Spark read the quoted column name(s) "
            f"{', '.join(map(repr, odd))} in a CHECK constraint as a regular expression; write with that setting "
            "off, or without table_constraints=True; nothing was written"
        )
        raise WriteError(msg)


def add_checks(spark: Any, name: str, checks: Sequence[TableCheck], action: str) -> None:
    """Declare ``checks`` on the Delta table ``name`` (SQL text: a quoted name), one ``ALTER TABLE`` each.

    Delta parses a CHECK's text in the session of each write; under
    ``spark.sql.parser.quotedRegexColumnNames`` a quoted column name that is
    not a plain identifier reads as a regular expression there, so such a
    constraint is refused under that setting.
    """
    refuse_regex_names(spark, checks, action)
    for check in checks:
        try:
            spark.sql(f"ALTER TABLE {name} ADD CONSTRAINT {check.name} CHECK ({check.sql})").collect()
        except Exception as error:
            msg = f"{action}: Delta Lake refused the CHECK constraint {check.name} ({check.said}): {error}"
            raise WriteError(msg) from error


def declared_checks(spark: Any, name: str) -> dict[str, str]:
    """The ``pydantable_*`` CHECK constraints of the Delta table ``name``: name → its SQL as Delta keeps it."""
    prefix = f"delta.constraints.{CHECK_PREFIX}"
    rows = spark.sql(f"SHOW TBLPROPERTIES {name}").collect()
    return {str(row[0])[len("delta.constraints.") :]: str(row[1]) for row in rows if str(row[0]).startswith(prefix)}


def compare_checks(declared: dict[str, str], model: Sequence[TableCheck], action: str) -> None:
    """Refuse a write under ``pydantable_*`` CHECKs the model does not declare; log the model's the table lacks.

    Delta keeps a constraint's SQL re-spaced (``qty >= CAST ( 0 AS BIGINT )``),
    so the texts are compared without their white space (the literals in them
    are hex or numbers).
    """
    ours = {check.name: check for check in model}
    differing = [
        f"{name} ({sql})"
        for name, sql in sorted(declared.items())
        if name not in ours or _bare(sql) != _bare(ours[name].sql)
    ]
    if differing:
        msg = (
            f"{action}: the table declares CHECK constraint(s) {', '.join(differing)}, which the model does not "
            "(another version of the model, or another writer, declared them); every row must hold them, and "
            "this model does not check them. Declare the same constraints on the model, or drop the table's "
            "(ALTER TABLE ... DROP CONSTRAINT name); nothing was written"
        )
        raise ConstraintError(msg)
    missing = [f"{check.name} ({check.said})" for name, check in ours.items() if name not in declared]
    if missing and declared:
        log.warning(
            "%s: the table does not declare the model's constraint(s) %s; this write checks them, other writers do not",
            action,
            ", ".join(missing),
        )


def _bare(sql: str) -> str:
    return re.sub(r"\s+", "", sql)
