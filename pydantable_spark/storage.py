"""Typed storage: files and tables read with the model's schema and reconciled strictly; writes.

Readers never infer a schema. CSV and JSON are read with the model's
``StructType`` and ``mode=FAILFAST`` (a value that does not parse is an
error, not a NULL); a CSV header is read first so columns match by name and a
missing one is reported before any data is read. Parquet, ORC, Delta and
catalog tables carry their own schema, which is reconciled with the model by
the strict rules of ``reconcile``: a file column of the wrong type or a
missing column raises ``ReconciliationError`` naming it, when the frame is
built. Spark reads every file column as nullable, so a column (or nested
value) the model declares non-null gets a run-time NULL check; a NULL then
raises ``NullCheckError`` naming the column at ``collect()`` or write time.

>>> import tempfile
>>> from pydantable_spark import DataFrameModel
>>> class Point(DataFrameModel):
...     id: int
...     label: str | None
>>> path = tempfile.mkdtemp() + "/points"
>>> Point.from_rows([{"id": 1, "label": "a"}, {"id": 2, "label": None}]).write_parquet(path)
>>> Point.read_parquet(path).sort(Point.id).collect()
[Point(id=1, label='a'), Point(id=2, label=None)]
"""

from __future__ import annotations

import dataclasses
import datetime
import os
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.constraints import MODES, ConstraintMode, SparkConstraints, ValidationReport, spark_constraints
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    IncompatibleCastError,
    MissingColumnError,
    ReconciliationError,
    UnknownColumnError,
    shown,
    suggest,
)
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import ArrowData, SparkData
from pydantable_spark.plan.streaming import refuse_batch_action
from pydantable_spark.reconcile import Reconciliation, Selection, check_near_names, reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantic import BaseModel
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark._spark.writes import Request as WriteRequest
    from pydantable_spark.checks.declare import Check
    from pydantable_spark.constraints import CheckResult
    from pydantable_spark.substrait.files import LocalFiles

__all__ = [
    "FileFormat",
    "Paths",
    "WriteMode",
    "derived_spark_source",
    "partition_columns",
    "read_files",
    "read_table",
    "spark_source",
    "table_name",
    "time_travel",
    "write",
]

FileFormat = Literal["parquet", "orc", "csv", "json", "delta"]
WriteMode = Literal["error", "errorifexists", "append", "overwrite", "ignore"]
Paths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]

_MODES = ("error", "errorifexists", "append", "overwrite", "ignore")
_TEXT_FORMATS = ("csv", "json")


def _paths(paths: Paths) -> list[str]:
    items = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    if not items:
        msg = "no path given"
        raise ArgumentValueError(msg)
    return [os.fspath(item) for item in items]


def _spark_options(options: Mapping[str, Any]) -> dict[str, str]:
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}


def time_travel(version: object, timestamp: object, action: str, *, names: bool) -> dict[str, str]:
    """Spark's reader options for a table as it was: ``versionAsOf`` or ``timestampAsOf`` (none: as it is).

    ``version`` is a Delta version number, or an Iceberg snapshot id (an int)
    or tag name (a str, when ``names``). ``timestamp`` is a ``datetime``: one
    with a time zone is that instant; a naive one is read in the session's
    time zone, as Spark reads such text. The values reach Spark as reader
    options, never as SQL text.

    >>> time_travel(3, None, "read_delta('t')", names=False)
    {'versionAsOf': '3'}
    >>> import datetime as d
    >>> time_travel(None, d.datetime(2026, 1, 2, 3, 4, 5, tzinfo=d.timezone.utc), "read_table('t')", names=True)
    {'timestampAsOf': '2026-01-02T03:04:05+00:00'}
    >>> time_travel(-1, None, "read_delta('t')", names=False)
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ArgumentValueError: read_delta('t'): version=-1 is not a version; versions count from 0
    """
    if version is not None and timestamp is not None:
        msg = f"{action}: give version= or timestamp=, not both (got {shown(version)} and {shown(timestamp)})"
        raise ArgumentValueError(msg)
    if version is not None:
        kinds = "int (a version or snapshot id) or str (a tag)" if names else "int (a version number)"
        if isinstance(version, bool) or not isinstance(version, (int, str) if names else int):
            msg = f"{action}: version= must be {kinds}, got {shown(version)} ({type(version).__name__})"
            raise ArgumentTypeError(msg)
        if isinstance(version, int) and version < 0:
            msg = f"{action}: version={version} is not a version; versions count from 0"
            raise ArgumentValueError(msg)
        if isinstance(version, str) and not version:
            msg = f"{action}: version='' names no tag"
            raise ArgumentValueError(msg)
        if isinstance(version, str) and version.isascii() and version.isdigit():
            msg = (
                f"{action}: version={version!r} is all digits, and Iceberg reads such a version as the snapshot id "
                f"{int(version)}, never as a tag of that name (Spark has no other way to name a tag); pass "
                f"version={int(version)} for that snapshot, or find the tag's snapshot id in the table's refs "
                "metadata table (<table>.refs) and pass it"
            )
            raise ArgumentValueError(msg)
        return {"versionAsOf": str(version)}
    if timestamp is not None:
        if not isinstance(timestamp, datetime.datetime):
            kind = type(timestamp).__name__
            msg = f"{action}: timestamp= must be a datetime.datetime, got {shown(timestamp)} ({kind})"
            raise ArgumentTypeError(msg)
        return {"timestampAsOf": timestamp.isoformat()}
    return {}


def spark_source(
    sdf: SparkDataFrame,
    target: Schema,
    *,
    label: str,
    allow_lossy: Selection,
    null_check: Selection,
    case_sensitive: bool,
    checks: SparkConstraints | None = None,
    may_lack: Collection[str] = (),
    absent: Collection[str] = (),
    streaming: bool = False,
) -> p.Plan:
    """A plan over ``sdf`` reconciled strictly with ``target`` (errors prefixed with ``label``).

    ``streaming``: ``sdf`` is a stream (``from_spark`` of ``spark.readStream``'s frame).

    ``may_lack`` names target columns the data may lack (``may_be_absent``: the
    model gives them the default None); a missing one reads as NULL, unless
    the data has a column no field reads under a near name (``check_near_names``;
    ``absent`` names the fields exempt from that check).

    Non-null claims that Spark cannot vouch for (``_spark.storage.honest_nullability``)
    are checked at run time: a NULL there raises ``NullCheckError`` naming the
    column instead of reaching Python as 0 or "". ``checks`` (a reader's
    ``constraints="raise"``) fail the job that reads a violating row.
    """
    from pydantable_spark._spark.storage import honest_nullability, with_null_columns
    from pydantable_spark._spark.types import fields_of_struct

    if may_lack:
        lacking = _lacking(target, sdf.columns, may_lack, absent, label, case_sensitive=case_sensitive)
        sdf = with_null_columns(sdf, lacking)
    if checks is not None:
        sdf = _checked_source(sdf, checks, label)
    sdf, claimed = honest_nullability(sdf)
    if claimed and null_check is not True:
        chosen = set() if null_check is False else set(null_check)
        null_check = chosen | {
            f.name for f in target if f.name in claimed or f.name.lower() in {c.lower() for c in claimed}
        }
    fields = fields_of_struct(sdf.schema)
    rec = _reconciled(
        fields, target, label=label, allow_lossy=allow_lossy, null_check=null_check, case_sensitive=case_sensitive
    )
    if len({f.name.lower() for f in fields}) < len(fields):
        # drop case-colliding unused columns (select by name: backticks quote it, nothing parses it as SQL)
        sdf = sdf.select(*["`" + c.source.name.replace("`", "``") + "`" for c in rec.columns])
        fields = fields_of_struct(sdf.schema)
    source = p.Source(SparkData(sdf, label, streaming), Schema(fields))
    return p.Reconcile(source, rec)


def _lacking(
    target: Schema,
    columns: Sequence[str],
    may_lack: Collection[str],
    absent: Collection[str],
    label: str,
    *,
    case_sensitive: bool,
) -> list[dt.Field]:
    """The fields of ``may_lack`` that the data's ``columns`` lack (read as NULL): the schema-evolution rule.

    One the data holds under another case is an error (``_no_case_twins``), as
    is one whose name is near a column no field reads, unless ``absent`` names
    it (``reconcile.check_near_names``): a misspelt field does not read NULL.
    """
    have = set(columns) if case_sensitive else {c.lower() for c in columns}
    lacking = [f for f in target if f.name in may_lack and (f.name if case_sensitive else f.name.lower()) not in have]
    _no_case_twins(lacking, columns, label)
    check_near_names(lacking, columns, target, absent, label)
    return lacking


def _reconciled(
    fields: Sequence[dt.Field],
    target: Schema,
    *,
    label: str,
    allow_lossy: Selection,
    null_check: Selection,
    case_sensitive: bool,
) -> Reconciliation:
    """``reconcile`` of a read's ``fields`` with ``target``; the error says how to declare a field older data lacks.

    One rule for every engine: Spark's reads and the local engine's (``local_source``) both come here.
    """
    try:
        return reconcile(fields, target, case_sensitive=case_sensitive, allow_lossy=allow_lossy, null_check=null_check)
    except ReconciliationError as error:
        missing = [pr.path for pr in error.problems if issubclass(pr.kind, MissingColumnError) and "." not in pr.path]
        folded = {f.name.lower() for f in fields}  # a name held under another case gets a did-you-mean, not this hint
        optional = [n for n in missing if n in target and target[n].nullable and n.lower() not in folded]
        if optional:
            hint = (
                f"\n(data written before a field existed: declare it with the default None, e.g. "
                f"`{optional[0]}: ... | None = None`, and it reads as NULL where the data lacks it)"
            )
            msg = f"{label}: {error}{hint}"
            raise type(error)(msg, error.problems) from None
        raise error.within(label) from None


def _no_case_twins(lacking: Sequence[dt.Field], columns: Sequence[str], label: str) -> None:
    """A field the data lacks (read as NULL) but holds under another case is an error, not an all-NULL column.

    Names match exactly (case-sensitive), as JSON keys do (``_json_keys_match``).
    """
    for field in lacking:
        twins = [c for c in columns if c.lower() == field.name.lower()]
        if twins:
            msg = (
                f"{label}: {field.name}: the data has column {twins[0]!r}{suggest(field.name, twins)}; columns match "
                f"fields exactly (case-sensitive), so the field would read as NULL (its default) and {twins[0]!r} "
                f"would be dropped. Rename the column in the data, or name the field {twins[0]!r} "
                f"(e.g. Field(alias={twins[0]!r}))"
            )
            raise MissingColumnError(msg)


def read_checks(model: type[BaseModel], constraints: object, action: str) -> SparkConstraints | None:
    """The constraints a reader checks: all of ``model``'s with ``"raise"``, none with ``"skip"``."""
    if constraints == "skip":
        return None
    if constraints == "raise":
        return spark_constraints(model)
    if constraints == "report":
        msg = (
            f"{action}: constraints='report' is for writes (a read runs no job to report on); read with "
            "constraints='skip' and call validate() on the frame for a report"
        )
        raise ArgumentValueError(msg)
    msg = f"{action}: constraints={shown(constraints)} is not one of 'raise', 'skip'"
    raise ArgumentValueError(msg)


def _checked_source(sdf: SparkDataFrame, checks: SparkConstraints, label: str) -> SparkDataFrame:
    """``sdf`` failing its job at the first row that violates a constraint or a ``fail`` row check of the model.

    Columns it lacks are left to reconcile: a constraint or a check that
    reads one is not checked here. The model's other checks need a job of
    their own, which a read does not run (``read_row_checks``).
    """
    from pydantable_spark._spark.checks import raising_rows
    from pydantable_spark._spark.constraints import raising

    present = set(sdf.columns)
    usable = tuple(c for c in checks.checked if c.column in present)
    subset = SparkConstraints(checks.model, usable, checks.python_only)
    outcome = " (read with constraints='raise')"
    rows = [c for c in read_row_checks(checks.model) if c.expr is not None and {r.name for r in c.expr.refs} <= present]
    return raising_rows(raising(sdf, subset, label, outcome), rows, label, outcome)


def read_row_checks(model: type[BaseModel]) -> tuple[Check, ...]:
    """The dataset checks a read with ``constraints="raise"`` runs: the model's row checks whose action is ``fail``.

    A ``warn`` or ``drop`` row check would need a report, which a read has
    not; keys, row counts, aggregates and references need a job of their own
    over every row. ``validate()`` on the read frame runs them all.
    """
    from pydantable_spark.model import DataFrameModel

    if not (isinstance(model, type) and issubclass(model, DataFrameModel)):
        return ()
    return tuple(c for c in model.dataset_checks() if c.kind == "row" and c.action == "fail")


def derived_spark_source(sdf: SparkDataFrame, label: str, *, streaming: bool = False) -> p.Plan:
    """A plan over ``sdf`` typed by Spark's own schema (``from_spark`` without a model).

    Non-null claims Spark cannot vouch for are checked at run time, as in
    ``spark_source``.
    """
    from pydantable_spark._spark.storage import honest_nullability
    from pydantable_spark._spark.types import fields_of_struct

    declared = Schema(fields_of_struct(sdf.schema))
    checked, claimed = honest_nullability(sdf)
    if not claimed:
        return p.Source(SparkData(sdf, label, streaming), declared)
    return spark_source(
        checked, declared, label=label, allow_lossy=False, null_check=claimed, case_sensitive=True, streaming=streaming
    )


CSV_NULL = "\x00pydantable:null\x00"
"""What an unquoted empty CSV field reads as before Spark turns it into NULL (no real value is spelled so).

Spark compares a field with ``nullValue`` after the parser has made a quoted
empty field ``""`` and an unquoted empty one alike; giving the parser this
stand-in for the unquoted one keeps ``""`` an empty string.
"""

CSV_READ_DEFAULTS = {
    "header": "true",
    "quote": '"',
    "escape": '"',
    "multiLine": "true",
    "ignoreLeadingWhiteSpace": "false",
    "ignoreTrailingWhiteSpace": "false",
    "nullValue": CSV_NULL,
    "emptyValue": "",
    "unescapedQuoteHandling": "RAISE_ERROR",
}
"""RFC 4180 as read by default: ``""`` inside a quoted field is one quote (a lone quote there, or one
"escaped" by a backslash, is a ``MalformedDataError``), quoted fields may hold line breaks, spaces
are data, an unquoted empty field is NULL and a quoted empty one ``""``. A file whose first line
ends with CR LF is read with ``lineSep="\r\n"``, so a CR LF inside a quoted field stays CR LF."""

CSV_WRITE_DEFAULTS = {
    "header": "true",
    "quote": '"',
    "escape": '"',
    "ignoreLeadingWhiteSpace": "false",
    "ignoreTrailingWhiteSpace": "false",
    "nullValue": "",
    "emptyValue": '""',
    "timestampFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
    "timestampNTZFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSS",
}
"""What ``write_csv`` writes by default: the dialect ``CSV_READ_DEFAULTS`` reads, NULL as an empty
field, ``""`` as a quoted empty field, timestamps with microseconds."""

JSON_WRITE_DEFAULTS = {
    "timestampFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
    "timestampNTZFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSS",
}
"""``write_json`` keeps a timestamp's microseconds (Spark's default pattern stops at milliseconds)."""

_SELF_DESCRIBING_DEFAULTS = {"parquet": {"mergeSchema": "true"}, "orc": {"mergeSchema": "true"}}
"""Every file's footer is read, so a file lacking a column or typing it otherwise is seen (not only the first's)."""


def read_files(
    fmt: FileFormat,
    paths: Paths,
    target: Schema,
    *,
    session: Any,
    allow_lossy: Selection,
    options: Mapping[str, Any],
    checks: SparkConstraints | None = None,
    may_lack: Collection[str] = (),
    absent: Collection[str] = (),
) -> p.Plan:
    """The plan of reading ``paths`` as ``fmt`` into ``target`` (see the module docstring).

    ``may_lack``: the columns the files may lack, read as NULL; ``absent``: those of them exempt from the
    near-name check (see ``spark_source``).
    """
    files = _paths(paths)
    label = f"read_{fmt}({files[0]!r}{', ...' if len(files) > 1 else ''})"
    local = _read_locally(
        fmt, files, target, label=label, session=session, allow_lossy=allow_lossy, options=options, checks=checks,
        may_lack=may_lack, absent=absent,
    )  # fmt: skip
    if local is not None:
        return local
    from pydantable_spark._spark import storage as spark_side
    from pydantable_spark._spark.session import resolve_session

    spark = resolve_session(session)
    opts = _spark_options(options)
    if fmt in _TEXT_FORMATS:
        read_schema = target
        if fmt == "csv":
            _csv_atomic_only(target, label)
            for key, value in CSV_READ_DEFAULTS.items():
                opts.setdefault(key, value)
            if opts["header"] == "true":
                with spark_side.spark_errors(label):
                    if not any(key.lower() == "linesep" for key in opts) and spark_side.csv_uses_crlf(
                        files, opts, spark
                    ):
                        opts["lineSep"] = "\r\n"  # else Spark makes a CR LF inside a quoted field LF
                    header = spark_side.csv_header(files, opts, spark)
                read_schema = _csv_read_schema(header, target)
                opts.setdefault("enforceSchema", "false")
        if opts.setdefault("mode", "FAILFAST").upper() != "FAILFAST":
            msg = (
                f"{label}: mode={shown(opts['mode'])} would turn unparsable values into NULLs or drop rows; "
                "only FAILFAST"
            )
            raise ArgumentValueError(msg)
        keys = None
        with spark_side.spark_errors(label):
            if fmt == "json":
                found = spark_side.json_keys(files, opts, _json_objects(target), spark)
                _json_keys_match(found, target, label)
                keys = found[()]
                _lacking(target, keys, may_lack, absent, label, case_sensitive=True)  # the rule's checks; reads NULL
            sdf = spark_side.read_text(fmt, files, opts, read_schema, target, allow_lossy, spark)
            _refuse_partitions_in_files(
                spark_side.partitions_in_files(sdf, fmt, files, opts, target.names, keys), label
            )
    else:
        for key, value in _SELF_DESCRIBING_DEFAULTS.get(fmt, {}).items():
            opts.setdefault(key, value)
        with spark_side.spark_errors(label):
            sdf = spark_side.read(fmt, files, opts, None, spark)
            _refuse_partitions_in_files(spark_side.partitions_in_files(sdf, fmt, files, opts, target.names), label)
    return spark_source(
        sdf, target, label=label, allow_lossy=allow_lossy, null_check=True, case_sensitive=True, checks=checks,
        may_lack=may_lack, absent=absent,
    )  # fmt: skip


_LOCAL_TEXT_REFUSAL = (
    "CSV and JSON are parsed by Spark's own readers (its CSV parser's quoting, header, line-ending and "
    "malformed-record rules under mode=FAILFAST; Jackson's JSON parsing with the strict string and decimal "
    "checks of docs/io.md), which the local engine does not reproduce"
)


def _read_locally(
    fmt: FileFormat,
    files: Sequence[str],
    target: Schema,
    *,
    label: str,
    session: Any,
    allow_lossy: Selection,
    options: Mapping[str, Any],
    checks: SparkConstraints | None,
    may_lack: Collection[str],
    absent: Collection[str],
) -> p.Plan | None:
    """The read on the local engine when one is in force (``engines.use_engine``); None: read on Spark.

    Under ``"local"`` a read it does not take is an ``UnsupportedEngineError``
    naming why; under ``"auto"`` that read runs on Spark, as without an engine,
    and the fall-back is reported (``engines.recording``). The files' schema
    is reconciled with ``target`` by the same rules as a Spark read's
    (``local_source``).
    """
    from pydantable_spark.engines import default_engine, fell_back
    from pydantable_spark.errors import UnsupportedEngineError

    engine = default_engine()
    if engine == "spark":
        return None
    try:
        if fmt != "parquet":
            why = _LOCAL_TEXT_REFUSAL if fmt in _TEXT_FORMATS else f"{fmt} is read by Spark's own reader"
            msg = f"{label}: the local engine reads Parquet files only; {why}. Read it on Spark (engine spark or auto)"
            raise UnsupportedEngineError(msg)
        if checks is not None:
            msg = (
                f"{label}: the local engine does not check constraints='raise' while reading; read with "
                "constraints='skip' and call validate(), or read on Spark"
            )
            raise UnsupportedEngineError(msg)
        from pydantable_spark.substrait.files import read_parquet

        _session_reads_as_by_default(label)
        opts = _spark_options(options)
        for key, value in _SELF_DESCRIBING_DEFAULTS["parquet"].items():
            if not any(given.lower() == key.lower() for given in opts):
                opts[key] = value
        try:
            read = read_parquet(files, opts, label)
        except UnsupportedEngineError as refused:
            msg = f"{label}: {refused}"
            raise UnsupportedEngineError(msg) from None
    except UnsupportedEngineError as refused:
        if engine == "local":
            raise
        fell_back(label, str(refused))
        return None
    lowered = {name.lower() for name in target.names}
    inside = {name.lower() for name in read.in_files}
    _refuse_partitions_in_files([n for n in read.partitions if n.lower() in lowered and n.lower() in inside], label)
    return local_source(
        read, target, label=label, session=session, allow_lossy=allow_lossy, may_lack=may_lack, absent=absent
    )


PARQUET_READ_SETTINGS = {
    "spark.sql.caseSensitive": "false",
    "spark.sql.parquet.binaryAsString": "false",
    "spark.sql.parquet.int96AsTimestamp": "true",
    "spark.sql.parquet.inferTimestampNTZ.enabled": "true",
    "spark.sql.legacy.parquet.nanosAsLong": "false",
    "spark.sql.parquet.fieldId.read.enabled": "false",
    "spark.sql.parquet.respectSummaryFiles": "false",
    "spark.sql.parquet.int96RebaseModeInRead": "corrected",
    "spark.sql.parquet.datetimeRebaseModeInRead": "corrected",
    "spark.sql.sources.partitionColumnTypeInference.enabled": "true",
    "spark.sql.files.ignoreCorruptFiles": "false",
    "spark.sql.files.ignoreMissingFiles": "false",
}
"""The session settings that change how Spark reads Parquet files, at the values the local read follows (Spark 4's
defaults, lower-cased). A running session that sets another value is refused: the local read would read otherwise."""


def _session_reads_as_by_default(label: str) -> None:
    """``UnsupportedEngineError`` if this thread's active Spark session reads Parquet otherwise than by default.

    Only when PySpark is loaded already: nothing here imports it or starts a session.
    """
    import sys

    if "pyspark.sql" not in sys.modules:
        return
    from pydantable_spark._spark.session import active_conf
    from pydantable_spark.errors import UnsupportedEngineError

    found = active_conf(PARQUET_READ_SETTINGS)
    changed = [
        f"{key}={found[key]}" for key, value in PARQUET_READ_SETTINGS.items() if found[key].lower() != value.lower()
    ]
    if changed:
        msg = (
            f"{label}: the active Spark session sets {', '.join(changed)}, and the local read follows Spark's "
            "defaults for reading Parquet files; read on Spark, or leave the setting at its default"
        )
        raise UnsupportedEngineError(msg)


def local_source(
    read: LocalFiles,
    target: Schema,
    *,
    label: str,
    session: Any,
    allow_lossy: Selection,
    may_lack: Collection[str],
    absent: Collection[str] = (),
) -> p.Plan:
    """A plan over files read locally, reconciled with ``target`` as ``spark_source`` reconciles a Spark read.

    Every file column is nullable, as Spark reads it, so a non-null field gets
    the same run-time NULL check (run by the local engine's ``as_model``
    kernels, or by Spark if the frame runs there); a column of ``may_lack`` the
    files lack reads as NULL, by the same rule (``_lacking``).
    """
    import pyarrow as pa

    from pydantable_spark.arrow import arrow_schema

    lacking = _lacking(target, [f.name for f in read.fields], may_lack, absent, label, case_sensitive=True)
    fields = (*read.fields, *(dt.Field(f.name, f.dtype, True) for f in lacking))
    rec = _reconciled(fields, target, label=label, allow_lossy=allow_lossy, null_check=True, case_sensitive=True)
    schema = Schema(fields)
    nulls = [pa.nulls(read.table.num_rows, arrow_schema(Schema((f,))).field(0).type) for f in lacking]
    table = pa.Table.from_arrays([*read.table.columns, *nulls], schema=arrow_schema(schema))
    source = p.Source(ArrowData(table, label=label), schema, session)
    return p.Reconcile(source, rec)


def files_disagree(
    action: str, first: Mapping[str, str], other: Mapping[str, str], shown: str | None = None
) -> IncompatibleCastError:
    """The error for files whose schemas do not merge: each column both name, with its two types.

    ``first`` and ``other`` map column names to their types as Spark prints
    them (lower-cased); a Spark read and a local read both raise it.
    """
    differ = [
        f"{name}: {kind} in one file, {other[name]} in another"
        for name, kind in first.items()
        if other.get(name, kind) != kind
    ]
    listing = "; ".join(differ) or shown or f"{dict(first)} against {dict(other)}"
    msg = (
        f"{action}: the files disagree on a column's type ({listing}), so their schemas cannot be merged; "
        "rewrite the files with one schema, or read them separately and cast in the plan"
    )
    return IncompatibleCastError(msg)


def _refuse_partitions_in_files(names: Sequence[str], action: str) -> None:
    """``AmbiguousColumnError`` for columns that are both a partition directory and a column in the files."""
    from pydantable_spark.errors import AmbiguousColumnError

    if not names:
        return
    listing = ", ".join(repr(name) for name in names)
    first = names[0]
    msg = (
        f"{action}: column {listing} is both a partition directory ({first}=.../) and a column inside the files; "
        f"Spark would read the directory's value and ignore the files' (a {first} of 5 in a file under "
        f"{first}=1/ would read as 1). Rename the column in the files or the directories, or read the files' "
        "own values without partition discovery (recursiveFileLookup=True)"
    )
    raise AmbiguousColumnError(msg)


def _json_objects(schema: Schema) -> dict[tuple[str, ...], bool]:
    """The object paths of a JSON record of ``schema`` (see ``_spark.storage.json_keys``): itself and its structs."""
    objects: dict[tuple[str, ...], bool] = {(): False}
    for f in schema.fields:
        objects |= _json_field_objects(f.dtype, (f.name,))
    return objects


def _json_field_objects(dtype: dt.DType, path: tuple[str, ...]) -> dict[tuple[str, ...], bool]:
    if isinstance(dtype, dt.Struct):
        found = {path: False}
    elif isinstance(dtype, dt.List) and isinstance(dtype.inner, dt.Struct):
        found, dtype = {path: True}, dtype.inner
    else:
        return {}
    for f in dtype.fields:
        found |= _json_field_objects(f.dtype, (*path, f.name))
    return found


def _json_keys_match(keys: Mapping[tuple[str, ...], Sequence[str]], schema: Schema, action: str) -> None:
    """A JSON key that differs from a field only in case is an error: names match exactly, so it would be lost."""
    from pydantable_spark._spark.storage import JSON_KEY_SAMPLE
    from pydantable_spark.errors import MissingColumnError, suggest

    for path, found in keys.items():
        fields = _fields_at(schema, path)
        for key in found:
            if key in fields:
                continue
            twins = [name for name in fields if name.lower() == key.lower()]
            if twins:
                where = ".".join((*path, twins[0]))
                msg = (
                    f"{action}: {where}: the JSON records have key {key!r}{suggest(twins[0], [key])}; keys match "
                    f"fields exactly (case-sensitive), so its values would read as NULL. Rename the key in the data, "
                    f"or name the field {key!r} (e.g. Field(alias={key!r})). (Checked: the first "
                    f"{JSON_KEY_SAMPLE} records.)"
                )
                raise MissingColumnError(msg)


def _fields_at(schema: Schema, path: tuple[str, ...]) -> list[str]:
    """The field names of the struct at ``path`` (a list of structs counts as its struct)."""
    fields = schema.fields
    for name in path:
        dtype = next(f.dtype for f in fields if f.name == name)
        if isinstance(dtype, dt.List):
            dtype = dtype.inner
        assert isinstance(dtype, dt.Struct)
        fields = dtype.fields
    return [f.name for f in fields]


def table_name(name: object, action: str) -> str:
    """A catalog table name, checked: Spark parses it as SQL, where ``${...}`` would be substituted."""
    if not isinstance(name, str) or not name.strip():
        msg = f"{action}: the table name must be a non-empty str, got {name!r}"
        raise ArgumentValueError(msg)
    if "${" in name:
        msg = (
            f"{action}: table name {name!r} contains '${{', which Spark's variable substitution "
            "(spark.sql.variable.substitute) would rewrite before reading the name; rename the table"
        )
        raise ArgumentValueError(msg)
    return name


def read_table(
    name: str,
    target: Schema,
    *,
    session: Any,
    allow_lossy: Selection,
    checks: SparkConstraints | None = None,
    options: Mapping[str, str] | None = None,
    may_lack: Collection[str] = (),
    absent: Collection[str] = (),
) -> p.Plan:
    """The plan of reading catalog table ``name`` into ``target`` (``options``: a version, see ``time_travel``)."""
    from pydantable_spark._spark import storage as spark_side
    from pydantable_spark._spark.session import resolve_session

    table_name(name, f"read_table({name!r})")
    spark = resolve_session(session)
    with spark_side.spark_errors(f"read_table({name!r})"):
        sdf = spark_side.read_table(name, spark, options or {})
    return spark_source(
        sdf,
        target,
        label=f"read_table({name!r})",
        allow_lossy=allow_lossy,
        null_check=True,
        case_sensitive=True,
        checks=checks,
        may_lack=may_lack,
        absent=absent,
    )


def _csv_read_schema(header: Sequence[str], target: Schema) -> Schema:
    """The schema to read a CSV with: the header's columns in order, typed by the model where it names them."""
    by_name = {f.name: f for f in target}
    fields = []
    for column in header:
        wanted = by_name.get(column)
        fields.append(dt.Field(column, wanted.dtype if wanted else dt.String(), True))
    return Schema(tuple(fields))


def _csv_atomic_only(schema: Schema, action: str) -> None:
    """CSV holds text: nested columns (no nesting) and bytes (no binary encoding) are refused, each named."""
    nested = [f for f in schema if f.dtype.is_nested or isinstance(f.dtype, dt.Binary)]
    if nested:
        listing = ", ".join(f"{f.name} ({python_name(f.dtype, nullable=f.nullable)})" for f in nested)
        msg = (
            f"{action}: CSV holds atomic columns only, not {listing} (CSV has no nesting and no binary "
            "encoding); use Parquet, ORC or JSON, or select them out"
        )
        raise ColumnTypeError(msg)


def partition_columns(partition_by: object, schema: Schema, action: str) -> tuple[str, ...]:
    """The columns of a writer's (or a stream sink's) ``partition_by``: columns of ``schema``, each atomic."""
    columns = [partition_by] if isinstance(partition_by, str) else list(partition_by or ())  # type: ignore[call-overload]
    for name in columns:
        found = schema.get(name) if isinstance(name, str) else None
        if found is None:
            raise UnknownColumnError(str(name), schema.names, where=f"{action}'s partition_by")
        if found.dtype.is_nested:
            kind = python_name(found.dtype, nullable=found.nullable)
            msg = f"{action}: cannot partition by {name!r} of type {kind}; partition columns must be atomic"
            raise ColumnTypeError(msg)
    return tuple(columns)


def write(
    plan: p.Plan,
    fmt: str,
    target: str,
    *,
    mode: str,
    partition_by: str | Sequence[str] | None,
    options: Mapping[str, Any],
    table: bool = False,
    constraints: ConstraintMode = "raise",
    checks: SparkConstraints | None = None,
    quarantine: object = None,
    comments: Mapping[str, str] | None = None,
    table_constraints: object = False,
    dataset: Sequence[Check] = (),
    references: Mapping[str, p.Plan] | None = None,
) -> ValidationReport | None:
    """Write the result of ``plan`` all-or-nothing; ``mode`` and ``partition_by`` are checked first.

    ``comments`` (the model's ``Field(description=...)`` by column) become the
    written columns' comments: Spark's ``comment`` metadata, which Parquet
    files keep in their schema and catalog tables show as column comments
    (Spark's ORC writer keeps no column metadata in ORC files).

    The whole plan runs, NULL checks included, into a staging place; only a
    finished write replaces or joins the target (``pydantable_spark._spark.writes``),
    so a failure, or Ctrl-C, leaves the target as it was. Overwriting a path or
    table the frame reads is refused before anything runs.

    ``checks`` (the model's constraints) are evaluated in the same job:
    ``constraints="raise"`` fails it at the first violation
    (``ConstraintError``, the target as it was), ``"report"`` writes and returns
    the violation counts, ``"skip"`` checks nothing. ``"quarantine"`` writes
    the violating rows, with a ``violations`` column, to ``quarantine`` (a path,
    or a table for ``save_as_table``; same format and mode) and then the other
    rows to the target, and returns the counts: the plan runs once, into a
    checkpoint both writes read. On Spark Connect, ``"report"`` works the same
    way (Connect does not deliver the metrics a write observes).

    ``table_constraints=True`` (Delta Lake only) declares ``checks`` as the
    table's ``CHECK`` constraints (``pydantable_spark._spark.tables``); a Delta
    table's own ``pydantable_*`` constraints are compared with them in any case.

    ``dataset`` (the model's dataset checks, unless ``constraints="skip"``)
    are counted in one Spark action before the write (``references``: the
    plan of each ``references`` check's rows, by the check's name): a
    violated ``fail`` check raises ``CheckError`` and nothing is written; the
    rows of a violated ``drop`` check are not written (with ``"quarantine"``
    they go to the quarantine, the check's name among their ``violations``);
    every check's count joins the report.
    """
    from pydantable_spark._spark import constraints as spark_checks
    from pydantable_spark._spark import storage as spark_side
    from pydantable_spark._spark import tables as spark_tables
    from pydantable_spark._spark.checks import checked_dataset, without_dropped
    from pydantable_spark._spark.lower import to_spark
    from pydantable_spark._spark.session import is_connect, run_action

    action = f"save_as_table({target!r})" if table else f"write_{fmt}({target!r})"
    refuse_batch_action(plan, action)
    if table:
        table_name(target, action)
    if mode not in _MODES:
        msg = f"{action}: mode={shown(mode)} is not one of {', '.join(map(repr, _MODES))}"
        raise ArgumentValueError(msg)
    schema = plan.schema
    columns = partition_columns(partition_by, schema, action)
    opts = _spark_options(options)
    if fmt == "csv":
        _csv_atomic_only(schema, action)
    for key, value in {"csv": CSV_WRITE_DEFAULTS, "json": JSON_WRITE_DEFAULTS}.get(fmt, {}).items():
        opts.setdefault(key, value)
    check_mode(constraints, action)
    if (constraints == "quarantine") != (quarantine is not None):
        msg = (
            f"{action}: constraints='quarantine' needs quarantine= (where the violating rows go), and "
            f"quarantine= needs constraints='quarantine'; got constraints={shown(constraints)}, "
            f"quarantine={shown(quarantine)}"
        )
        raise ArgumentValueError(msg)
    if constraints in ("report", "quarantine") and checks is None:
        msg = f"{action}: constraints={shown(constraints)} needs the frame's model constraints (as_model names a model)"
        raise ArgumentValueError(msg)
    if not isinstance(table_constraints, bool):
        msg = f"{action}: table_constraints= must be True or False, got {shown(table_constraints)}"
        raise ArgumentTypeError(msg)
    if table_constraints and fmt not in ("delta", ""):
        msg = (
            f"{action}: table_constraints=True declares the model's constraints as Delta Lake CHECK constraints; "
            f"a {fmt} {'table' if table else 'file'} has none"
            + (" (Iceberg keeps only required fields, which every write declares)" if fmt == "iceberg" else "")
        )
        raise ArgumentValueError(msg)
    if table_constraints and checks is None:
        msg = f"{action}: table_constraints=True needs the frame's model constraints (as_model names a model)"
        raise ArgumentValueError(msg)
    table_checks = spark_tables.table_checks(checks) if checks is not None and fmt in ("delta", "") else ()
    request = spark_side.WriteRequest(
        action, fmt, target, mode, tuple(columns), opts, checks=table_checks, declare_checks=table_constraints
    )
    aside = _quarantine_request(quarantine, request, schema, table) if constraints == "quarantine" else None
    outcome = " (nothing was written, the target is as it was)"
    with spark_side.spark_errors(action, plan):
        frame = spark_side.with_comments(to_spark(plan), comments or {})
        results: tuple[CheckResult, ...] = ()
        dropped: list[tuple[str, str]] = []
        if dataset and constraints != "skip":
            results, frame, dropped = checked_dataset(
                frame, dataset, references or {}, action, outcome, reported=constraints != "raise"
            )
        if checks is not None and aside is not None:
            report: ValidationReport = run_action(
                frame.sparkSession,
                lambda: spark_side.write_quarantined(frame, checks, request, aside, table=table, dropped=dropped),
            )
            return dataclasses.replace(report, checks=results)
        flags = [flag for flag, _ in dropped]
        if checks is not None and constraints == "report" and is_connect(frame):
            report = run_action(
                frame.sparkSession, lambda: spark_side.write_counted(frame, checks, request, table=table, dropped=flags)
            )
            return dataclasses.replace(report, checks=results)
        observation = None
        if checks is not None and checks.checked and constraints == "raise":
            frame = spark_checks.raising(frame, checks, action, outcome)
        elif checks is not None and constraints == "report":
            frame, observation = spark_checks.observed(frame, checks)
        frame = spark_side.with_comments(without_dropped(frame, flags), comments or {})  # projections drop metadata
        written = run_action(frame.sparkSession, lambda: spark_side.write(frame, request, table=table))
    if checks is None or observation is None:
        return None
    if not written:  # mode="ignore" found the target: no job ran, and no row was written or counted
        return spark_checks.empty_report(checks)
    return dataclasses.replace(spark_checks.observed_report(observation, checks), checks=results)


def _quarantine_request(quarantine: object, request: WriteRequest, schema: Schema, table: bool) -> WriteRequest:
    """Where and how the violating rows of a ``constraints="quarantine"`` write go: like the target."""
    from pydantable_spark._spark import storage as spark_side
    from pydantable_spark._spark.constraints import VIOLATIONS

    action = f"{request.action}'s quarantine"
    if not isinstance(quarantine, str | os.PathLike):
        msg = f"{action}: quarantine= must be a {'table name' if table else 'path'} (str), got {shown(quarantine)}"
        raise ArgumentTypeError(msg)
    where = os.fspath(quarantine)
    if table:
        table_name(where, action)
    if VIOLATIONS in schema.names:
        msg = (
            f"{action}: the frame has a column {VIOLATIONS!r}, the name the quarantined rows' list of violated "
            "constraints takes; rename that column first"
        )
        raise ArgumentValueError(msg)
    return spark_side.WriteRequest(
        f"{request.action} (quarantine {shown(where)})", request.fmt, where, request.mode, (), request.options
    )


def check_mode(constraints: object, action: str) -> None:
    """``ValueError`` unless ``constraints`` is one of ``"raise"``, ``"report"``, ``"skip"``."""
    if constraints not in MODES:
        msg = f"{action}: constraints={shown(constraints)} is not one of {', '.join(map(repr, MODES))}"
        raise ArgumentValueError(msg)
