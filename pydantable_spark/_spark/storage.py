"""The Spark side of typed IO: readers and writers, and Spark errors translated to the façade's."""

from __future__ import annotations

import contextlib
import re
import sys
from typing import TYPE_CHECKING, Any

from pydantable_spark._spark import writes
from pydantable_spark._spark.constraints import constraint_error
from pydantable_spark._spark.null_checks import NULL_CHECK_MARK
from pydantable_spark._spark.session import is_connect, is_stopped, resolve_session
from pydantable_spark._spark.sql import spark_name
from pydantable_spark._spark.strict_text import BAD_VALUE_MARK
from pydantable_spark._spark.types import spark_type, struct_of
from pydantable_spark._spark.writes import Request as WriteRequest
from pydantable_spark.errors import (
    ArgumentValueError,
    MalformedDataError,
    NullCheckError,
    PydantableSparkError,
    SessionStoppedError,
    SparkJobError,
    TargetExistsError,
    UdfError,
    WriteError,
)
from pydantable_spark.expr.udf_results import UDF_ERROR_MARK
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import SparkData

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark import dtypes as dt
    from pydantable_spark.constraints import SparkConstraints, ValidationReport
    from pydantable_spark.schema import Schema

__all__ = [
    "WriteRequest",
    "csv_header",
    "csv_uses_crlf",
    "file_in_error",
    "honest_nullability",
    "json_keys",
    "partitions_in_files",
    "read",
    "read_table",
    "read_text",
    "spark_errors",
    "spark_paragraph",
    "spark_reason",
    "with_comments",
    "with_null_columns",
    "write",
    "write_counted",
    "write_quarantined",
]


def read(
    fmt: str, paths: Sequence[str], options: Mapping[str, Any], schema: Schema | None, session: Any
) -> SparkDataFrame:
    """``spark.read.format(fmt)`` of ``paths`` with ``options``, and ``schema`` if given (no inference)."""
    reader = resolve_session(session).read.format(fmt).options(**options)
    if schema is not None:
        reader = reader.schema(struct_of(schema))
    frame = reader.load(list(paths) if len(paths) != 1 else paths[0])
    frame.schema  # noqa: B018  -- a Connect reader is lazy: resolve it now, so errors surface at the read
    if fmt == "delta" and not is_connect(frame):
        # Plan the scan now: Delta jars built for another Spark fail while planning, and inside an Arrow
        # collect that failure would leave the Python side waiting forever (planning runs no job)
        frame._jdf.queryExecution().executedPlan()
    return frame


def read_text(
    fmt: str, paths: Sequence[str], options: Mapping[str, Any], schema: Schema, target: Schema, allow_lossy: Any,
    session: Any,
) -> SparkDataFrame:  # fmt: skip
    """A CSV or JSON read of ``schema``'s columns, strictly typed (``_spark.strict_text``)."""
    from pydantable_spark._spark.strict_text import read_struct, strict_columns

    reader = resolve_session(session).read.format(fmt).options(**options).schema(read_struct(schema, fmt))
    frame = reader.load(list(paths))
    items = strict_columns(target, fmt, schema, allow_lossy)
    if items is not None:  # the items name columns by their Spark names (``sql.spark_name``)
        names = frame.columns
        frame = frame.toDF(*map(spark_name, names)).selectExpr(*items).toDF(*names)
    frame.schema  # noqa: B018  -- resolved now on Connect too
    return frame


JSON_KEY_SAMPLE = 1000
"""How many JSON records ``json_keys`` looks at (the first ones; a read's one extra small job)."""

_OBJECTS = "ARRAY<MAP<STRING, VARIANT>>"


def json_keys(
    paths: Sequence[str], options: Mapping[str, Any], objects: Mapping[tuple[str, ...], bool], session: Any
) -> dict[tuple[str, ...], list[str]]:
    """The keys the first ``JSON_KEY_SAMPLE`` records hold at each object path of ``objects``.

    ``objects`` maps a path of field names (``()`` for the record itself) to
    whether it is a list of objects. Each record is read whole as a VARIANT
    (``singleVariantColumn``), so no key is dropped by a schema; every path is
    an array of the objects found there, and one aggregate collects their keys.
    """
    from pydantable_spark._spark.sql import string_sql

    def objects_at(path: tuple[str, ...]) -> str:
        if not path:
            return "array(try_cast(`__pydantable_v` AS MAP<STRING, VARIANT>))"
        outer, key, element = objects_at(path[:-1]), string_sql(path[-1]), f"__pydantable_m{len(path)}"
        value = f"try_element_at({element}, {key})"
        if objects[path]:
            found = f"coalesce(try_cast({value} AS {_OBJECTS}), CAST(array() AS {_OBJECTS}))"
            return f"flatten(transform({outer}, {element} -> {found}))"
        return f"transform({outer}, {element} -> try_cast({value} AS MAP<STRING, VARIANT>))"

    def keys_at(path: tuple[str, ...]) -> str:
        element = f"__pydantable_k{len(path)}"
        keys = f"flatten(transform({objects_at(path)}, {element} -> coalesce(map_keys({element}), array())))"
        return f"array_distinct(flatten(collect_list({keys})))"

    reader = resolve_session(session).read.format("json").options(**options)
    records = reader.option("singleVariantColumn", "__pydantable_v").load(list(paths)).limit(JSON_KEY_SAMPLE)
    ordered = list(objects)
    row = records.selectExpr(*[f"{keys_at(path)} AS `k{i}`" for i, path in enumerate(ordered)]).first()
    return {path: list(row[i] or []) if row is not None else [] for i, path in enumerate(ordered)}


def honest_nullability(sdf: SparkDataFrame) -> tuple[SparkDataFrame, frozenset[str]]:
    """``sdf`` with the non-null claims Spark cannot vouch for taken back, and the columns that made any.

    A DataFrame made from Python data or an RDD with a schema
    (``createDataFrame(..., schema, verifySchema=False)``) is a ``LogicalRDD``
    whose non-null columns are whatever the caller said: Spark never checks,
    and its scan writes a NULL there as 0, "" or 1970-01-01 (or fails with a
    NullPointerException). Such a frame is rebuilt over the same rows with
    every column nullable (no job runs), so the caller can check the
    columns it names at run time. Other plans (files, tables, the façade's
    own frames) keep their schema: Spark derived it. On Spark Connect the
    client checks the rows against the schema when it makes them.
    """
    if is_connect(sdf):
        return sdf, frozenset()
    claimed = frozenset(f.name for f in sdf.schema.fields if _claims_non_null(f.dataType, f.nullable))
    if not claimed:
        return sdf, frozenset()
    plan = sdf._jdf.queryExecution().analyzed()
    if plan.nodeName() != "LogicalRDD":
        return sdf, frozenset()
    from pyspark.sql import DataFrame as ClassicFrame

    session = sdf.sparkSession
    relaxed = session._jsparkSession.parseDataType(_nullable(sdf.schema).json())
    rebuilt = session._jsparkSession.internalCreateDataFrame(plan.rdd(), relaxed, plan.isStreaming())
    return ClassicFrame(rebuilt, session), claimed


def _claims_non_null(dtype: Any, nullable: bool) -> bool:
    from pyspark.sql import types as st

    if not nullable:
        return True
    if isinstance(dtype, st.StructType):
        return any(_claims_non_null(f.dataType, f.nullable) for f in dtype.fields)
    if isinstance(dtype, st.ArrayType):
        return _claims_non_null(dtype.elementType, dtype.containsNull)
    if isinstance(dtype, st.MapType):
        return _claims_non_null(dtype.valueType, dtype.valueContainsNull)
    return False


def _nullable(dtype: Any) -> Any:
    from pyspark.sql import types as st

    if isinstance(dtype, st.StructType):
        return st.StructType([st.StructField(f.name, _nullable(f.dataType), True, f.metadata) for f in dtype.fields])
    if isinstance(dtype, st.ArrayType):
        return st.ArrayType(_nullable(dtype.elementType), True)
    if isinstance(dtype, st.MapType):
        return st.MapType(dtype.keyType, _nullable(dtype.valueType), True)
    return dtype


def partitions_in_files(
    frame: SparkDataFrame, fmt: str, paths: Sequence[str], options: Mapping[str, Any], wanted: Sequence[str],
    file_keys: Sequence[str] | None = None,
) -> list[str]:  # fmt: skip
    """The partition columns of ``wanted`` (directories named ``k=1``) that the files also hold as a column.

    Spark reads such a column's value from the directory name and ignores
    the file's. ``frame`` is the read; ``file_keys`` are a JSON read's record
    keys when known. A classic session answers from the read's own relation
    (no job); otherwise the directories are listed, and the files' own
    columns read without partition discovery, only when a partition column
    is one of ``wanted``.
    """
    lowered = {name.lower() for name in wanted}
    relation = None if is_connect(frame) else _file_relation(frame)
    if relation is not None:
        partitions = list(relation.partitionSchema().fieldNames())
    else:
        listed = {key: value for key, value in options.items() if key.lower() in _LISTING_OPTIONS}
        listing = frame.sparkSession.read.format("binaryFile").options(**listed).load(list(paths))
        partitions = listing.columns[len(_BINARY_FILE_COLUMNS) :]
    partitions = [name for name in partitions if name.lower() in lowered]
    if not partitions:
        return []
    if file_keys is not None:
        inside = list(file_keys)
    elif relation is not None and fmt in ("parquet", "orc"):
        inside = list(relation.dataSchema().fieldNames())
    elif fmt == "csv":
        inside = csv_header(paths, {**options, "recursiveFileLookup": "true"}, frame.sparkSession)
    else:
        reader = frame.sparkSession.read.format(fmt).options(**options).option("recursiveFileLookup", "true")
        inside = reader.load(list(paths)).columns
    found = {name.lower() for name in inside}
    return [name for name in partitions if name.lower() in found]


_BINARY_FILE_COLUMNS = ("path", "modificationTime", "length", "content")
"""The columns of Spark's ``binaryFile`` source; partition columns follow them."""

_LISTING_OPTIONS = ("recursivefilelookup", "basepath", "pathglobfilter", "modifiedbefore", "modifiedafter")
"""The read options that decide which files and partition directories a read sees (lower-cased)."""


def _file_relation(frame: SparkDataFrame) -> Any:
    """The ``HadoopFsRelation`` that a classic read's plan scans, if it scans exactly one."""
    leaves = frame._jdf.queryExecution().analyzed().collectLeaves()
    if leaves.size() != 1:
        return None
    relation = getattr(leaves.head(), "relation", None)
    if relation is None:
        return None
    try:
        found = relation()
        found.partitionSchema()
    except Exception:  # not a file relation
        return None
    return found


def with_null_columns(frame: SparkDataFrame, fields: Sequence[dt.Field]) -> SparkDataFrame:
    """``frame`` with a typed NULL column for each of ``fields`` (columns the data lacks and may lack)."""
    from pyspark.sql import functions as sf

    if not fields:
        return frame
    nulls = [sf.lit(None).cast(spark_type(f.dtype)).alias(f.name) for f in fields]  # alias takes the name as is
    return frame.select("*", *nulls)


def with_comments(frame: SparkDataFrame, comments: Mapping[str, str]) -> SparkDataFrame:
    """``frame`` with ``comments`` (column name → text) as its columns' ``comment`` metadata (no job runs)."""
    from pyspark.sql import functions as sf

    if not any(name in comments for name in frame.columns):
        return frame
    schema = frame.schema
    columns = []
    for name in frame.columns:
        ref = sf.col("`" + name.replace("`", "``") + "`")  # backticks quote the name: nothing parses it as SQL
        if name in comments:
            ref = ref.alias(name, metadata={**schema[name].metadata, "comment": comments[name]})
        columns.append(ref)
    return frame.select(*columns)


def read_table(name: str, session: Any, options: Mapping[str, str]) -> SparkDataFrame:
    """``spark.read.options(**options).table(name)``."""
    frame = resolve_session(session).read.options(**options).table(name)
    frame.schema  # noqa: B018  -- resolved now on Connect too
    return frame


def csv_uses_crlf(paths: Sequence[str], options: Mapping[str, Any], session: Any) -> bool:
    """Whether the first line of the first CSV file ends with CR LF (Spark reads that one line)."""
    listed = {key: value for key, value in options.items() if key.lower() in _LISTING_OPTIONS}
    reader = resolve_session(session).read.format("text").options(**listed).option("lineSep", "\n")
    first = reader.load(list(paths)).limit(1).first()
    return first is not None and str(first[0]).endswith("\r")


def csv_header(paths: Sequence[str], options: Mapping[str, Any], session: Any) -> list[str]:
    """The column names in the header line of the first CSV file (Spark reads that one line)."""
    reader = resolve_session(session).read.options(**options).option("header", "true").option("inferSchema", "false")
    return list(reader.csv(list(paths)).columns)


REFUSED_WRITE_MARK = "pydantable:refused_write:"
"""Marks a value a writer refused while Spark ran; the readable reason follows in hex, then ``]``."""


Refusals = dict[str, tuple[str, str]]
"""Per column name: SQL that is true on a value the writer refuses, and the reason it gives."""


def _empty_partition_values(frame: SparkDataFrame, request: WriteRequest) -> Refusals:
    """A string partition column holding ``""`` fails the write: Spark would write it as NULL.

    Hive-style partition directories cannot spell an empty value; Spark writes
    ``__HIVE_DEFAULT_PARTITION__``, which reads back as NULL. Rather than change
    the value, the write is refused (before anything is swapped in).
    """
    from pyspark.sql import types as st

    from pydantable_spark._spark.sql import column_sql

    strings = {f.name for f in frame.schema.fields if isinstance(f.dataType, st.StringType)}
    reason = (
        "{action}: partition column {name!r} holds an empty string, which a partition directory "
        "cannot spell (Spark would write it as NULL, __HIVE_DEFAULT_PARTITION__); replace it in the plan "
        "(e.g. with a marker value or NULL), or do not partition by this column"
    )
    return {
        name: (f"{column_sql(name)} = ''", reason.format(action=request.action, name=name))
        for name in request.partition_by
        if name in strings
    }


def _negative_zero(value: str, dtype: Any, depth: int = 0) -> str | None:
    """SQL that is true when ``value`` (of Spark type ``dtype``) holds a -0.0 at any depth; None: no float in it."""
    from pyspark.sql import types as st

    from pydantable_spark._spark.sql import struct_field_sql

    if isinstance(dtype, st.FloatType | st.DoubleType):
        # -0.0 = 0 is true; only its text keeps the sign
        return f"({value} = 0 AND startswith(CAST({value} AS STRING), '-'))"
    element = f"__pydantable_e{depth}"  # a lambda variable; no user name lowers to it (see INTERNAL_PREFIX)
    if isinstance(dtype, st.ArrayType):
        inner = _negative_zero(element, dtype.elementType, depth + 1)
        return None if inner is None else f"exists({value}, {element} -> {inner})"
    if isinstance(dtype, st.MapType):
        parts = []
        for side, side_type in [("map_keys", dtype.keyType), ("map_values", dtype.valueType)]:
            inner = _negative_zero(element, side_type, depth + 1)
            if inner is not None:
                parts.append(f"exists({side}({value}), {element} -> {inner})")
        return " OR ".join(parts) or None
    if isinstance(dtype, st.StructType):
        fields = [_negative_zero(struct_field_sql(value, f.name), f.dataType, depth) for f in dtype.fields]
        return " OR ".join(f"coalesce({f}, FALSE)" for f in fields if f is not None) or None
    return None


def _negative_zeros_in_orc(frame: SparkDataFrame, request: WriteRequest) -> Refusals:
    """A -0.0 anywhere in a float column fails an ORC write: Spark's ORC reader may not give it back.

    The file keeps the sign, but Spark's ORC reader takes a batch whose values
    all compare equal as one repeated value, and -0.0 equals 0.0: a batch of
    zeros of both signs reads back with the first one's sign for all. Rather
    than write values that may read back changed, the write is refused (before
    anything is swapped in) when a -0.0 is there.
    """
    from pydantable_spark._spark.sql import column_sql

    if request.fmt != "orc":
        return {}
    refusals: Refusals = {}
    for f in frame.schema.fields:
        holds = _negative_zero(column_sql(f.name), f.dataType)
        if holds is not None:
            refusals[f.name] = (
                holds,
                f"{request.action}: column {f.name!r} holds -0.0, which Spark's ORC reader does not reliably give "
                "back (a batch of zeros of both signs reads as one sign); write Parquet, or make it 0.0 in the plan "
                "(e.g. F.when(x == 0, 0.0).otherwise(x))",
            )
    return refusals


def _with_refusals(frame: SparkDataFrame, refusals: Refusals) -> SparkDataFrame:
    """``frame``, whose job fails with the reason where a column holds a value its writer refuses.

    The columns are renamed to their Spark names for the check (``column_sql``
    refers to those) and back afterwards; ``spark_errors`` turns the failure
    into ``WriteError``.
    """
    from pydantable_spark._spark.sql import column_sql, spark_name, string_sql

    if not refusals:
        return frame
    names = frame.columns
    items = []
    for name in names:
        column = column_sql(name)
        if name in refusals:
            holds, reason = refusals[name]
            fail = f"raise_error({string_sql('[' + REFUSED_WRITE_MARK + reason.encode('utf-8').hex() + ']')})"
            column = f"coalesce(IF({holds}, {fail}, {column}), {column}) AS {column}"
        items.append(column)
    return frame.toDF(*map(spark_name, names)).selectExpr(*items).toDF(*names)


def write(frame: SparkDataFrame, request: WriteRequest, *, table: bool) -> bool:
    """Write ``frame`` as ``request`` says, all-or-nothing (``pydantable_spark._spark.writes``).

    An overwrite of a path or table that ``frame`` reads is refused first.
    ``False``: nothing ran (``mode="ignore"`` and the target exists).
    """
    _refuse_overwriting_what_is_read(frame, [request], table=table)
    frame = _with_refusals(frame, _empty_partition_values(frame, request) | _negative_zeros_in_orc(frame, request))
    if table:
        return writes.write_table(frame, request)
    return writes.write_path(frame, request)


def write_quarantined(
    frame: SparkDataFrame,
    checks: SparkConstraints,
    request: WriteRequest,
    aside: WriteRequest,
    *,
    table: bool,
    dropped: Sequence[tuple[str, str]] = (),
) -> ValidationReport:
    """The rows that violate a constraint to ``aside``, then the others to ``request``'s target; the counts.

    The plan runs once, into a checkpoint (its run-time NULL checks fail
    there, before anything is written) that both writes and the count read;
    the count reads the rows' ``violations``, not the predicates again. The
    violating rows are written first: the target changes only once they are
    kept. CSV, which holds no list, gets the labels joined by ``"; "``.
    ``dropped``: the flag columns of ``drop`` checks (``_spark.checks.drop_flags``)
    and the checks' names: their rows are quarantined with those names.
    """
    from pyspark.sql import functions as sf

    from pydantable_spark._spark import constraints as spark_checks

    writes.check_apart(request, aside, frame.sparkSession, table=table)
    _refuse_overwriting_what_is_read(frame, [request, aside], table=table)
    checkpoint = spark_checks.flagged_rows(frame, checks, dropped).localCheckpoint(eager=True)
    try:
        report = spark_checks.flagged_counts(checkpoint, checks)
        violations = sf.col(spark_checks.VIOLATIONS)
        bad = checkpoint.filter(sf.size(violations) > 0)
        if request.fmt == "csv":
            bad = bad.withColumn(spark_checks.VIOLATIONS, sf.array_join(violations, "; "))
        write(bad, aside, table=table)
        write(checkpoint.filter(sf.size(violations) == 0).drop(spark_checks.VIOLATIONS), request, table=table)
    finally:
        writes.release_checkpoint(checkpoint)
    return report


def write_counted(
    frame: SparkDataFrame, checks: SparkConstraints, request: WriteRequest, *, table: bool, dropped: Sequence[str] = ()
) -> ValidationReport:
    """``constraints="report"`` on Spark Connect: the plan runs once into a checkpoint, counted, then written.

    ``dropped``: flag columns of ``drop`` checks (``_spark.checks.drop_flags``): their rows are not written.
    """
    from pydantable_spark._spark import constraints as spark_checks
    from pydantable_spark._spark.checks import without_dropped

    _refuse_overwriting_what_is_read(frame, [request], table=table)
    checkpoint = frame.localCheckpoint(eager=True)
    try:
        report = spark_checks.counted(checkpoint, checks)
        written = write(without_dropped(checkpoint, dropped), request, table=table)
    finally:
        writes.release_checkpoint(checkpoint)
    return report if written else spark_checks.empty_report(checks)


def _refuse_overwriting_what_is_read(frame: SparkDataFrame, requests: Sequence[WriteRequest], *, table: bool) -> None:
    """``write``'s up-front refusal, made on the frame itself: a checkpoint of it reads no file."""
    for request in requests:
        if request.mode == "overwrite":
            writes.check_not_reading(frame, request, table=table)


_NULL_CHECK = re.compile(re.escape(NULL_CHECK_MARK) + r"([0-9a-f]*)\]")
_MERGE = re.compile(r'CANNOT_MERGE_SCHEMAS[^\n]*\n[^\n]*\n"STRUCT<(.*)>"\n[^\n]*\n"STRUCT<(.*)>"')
_REFUSED_WRITE = re.compile(r"\[" + re.escape(REFUSED_WRITE_MARK) + r"([0-9A-Fa-f]*)\]")
_UDF_ERROR = re.compile(r"\[" + re.escape(UDF_ERROR_MARK) + r"([0-9A-Fa-f]*)\]")
_BAD_VALUE = re.compile(r"\[" + re.escape(BAD_VALUE_MARK) + r"([0-9A-Fa-f]*)\]")
_MALFORMED = re.compile(r"\[MALFORMED_RECORD_IN_PARSING[^\]]*\] *([^\n]*)")
_FILE = re.compile(r"while reading file (\S+?)\.? ")
_READING = re.compile(r"error while reading file (\S+?)\.? ")
_WRONG_BUILD = re.compile(r"java\.lang\.(?:NoSuchMethod|NoSuchField|IncompatibleClassChange|AbstractMethod)Error")
_LAKEHOUSE_JARS = (
    ("io.delta.", "Delta Lake"),
    ("org.apache.spark.sql.delta.", "Delta Lake"),
    ("org.apache.iceberg.", "Iceberg"),
)
_ROOT = re.compile(r"Caused by: (java\.[\w.$]+(?:Exception|Error): [^\n]*)")


_FIRST_LINE = re.compile(r"^(?:: )?(\S[^\n]*)$", re.MULTILINE)
_CALLING = re.compile(r"^An error occurred while calling [\w.]+\.?$")
_MAX_SHOWN = 600


@contextlib.contextmanager
def spark_errors(action: str, plan: p.Plan | None = None) -> Iterator[None]:
    """Translate errors from Spark into the façade's own, keeping Spark's as the ``__cause__``.

    With ``plan``, a plan that needs a stopped session raises
    ``SessionStoppedError`` before anything runs. A failed run-time NULL check
    becomes ``NullCheckError`` naming the column; a value a CSV/JSON reader
    could not parse (``mode=FAILFAST``) ``MalformedDataError``; an existing
    target of ``mode="error"`` ``TargetExistsError``; any other error raised by
    Spark (py4j, PySpark, Spark Connect) ``SparkJobError`` naming the action
    and Spark's reason. Errors of the façade, errors raised while a
    ``KeyboardInterrupt`` unwinds, and plain Python errors pass unchanged.
    """
    if plan is not None:
        _check_sessions(plan, action)
    try:
        yield
    except PydantableSparkError:
        raise
    except Exception as error:
        translated = _translate(error, action)
        if translated is None:
            raise
        raise translated from error


def _check_sessions(plan: p.Plan, action: str) -> None:
    """``SessionStoppedError`` if a source of ``plan`` belongs to (or was given) a stopped session."""
    for node in plan.walk():
        if not isinstance(node, p.Source):
            continue
        if node.session is not None and is_stopped(node.session):
            raise SessionStoppedError(action, "the session passed as session= when the frame was made")
        if isinstance(node.data, SparkData) and is_stopped(node.data.frame.sparkSession):
            raise SessionStoppedError(action, f"the frame's source ({node.data.label})")


def _wrong_build(text: str, action: str) -> PydantableSparkError | None:
    """The error for Delta Lake or Iceberg jars built for another Spark version than the session's (None: not that).

    Such jars load, and the first call into a Spark class that changed fails
    with a JVM linkage error (``NoSuchMethodError``...), often mid-job.
    """
    linkage = _WRONG_BUILD.search(text)
    if linkage is None:
        return None
    for package, name in _LAKEHOUSE_JARS:
        if package in text:
            from pyspark import __version__ as spark_version

            line = text[linkage.start() :].split("\n", 1)[0].strip()
            msg = (
                f"{action}: the {name} jars on this Spark session's classpath were built for another Spark "
                f"version than this one (PySpark {spark_version}): {line[:300]}. Use the {name} release "
                "built for this Spark version; docs/lakehouse.md lists the pairs that work"
            )
            return PydantableSparkError(msg)
    return None


def _from_spark(error: BaseException) -> bool:
    return type(error).__module__.split(".")[0] in ("py4j", "pyspark", "grpc")


def _translate(error: Exception, action: str) -> Exception | None:
    """The façade's error for a Spark error (None: leave it as it is)."""
    context: BaseException | None = error
    while context is not None:  # raised while Ctrl-C unwound a job: the KeyboardInterrupt is what happened
        if isinstance(context, KeyboardInterrupt):
            return None
        context = context.__context__
    text = _error_text(error)
    failed = constraint_error(text)
    if failed is not None:
        return failed
    found = _NULL_CHECK.search(text)
    if found:
        path = bytes.fromhex(found.group(1)).decode("utf-8", "surrogatepass")
        return NullCheckError(path, action)
    clash = _MERGE.search(text)
    if clash:
        from pydantable_spark.storage import files_disagree

        first, other = _struct_fields(clash.group(1)), _struct_fields(clash.group(2))
        return files_disagree(action, first, other, f"{clash.group(1)} against {clash.group(2)}")
    udf = _UDF_ERROR.search(text)
    if udf:
        said = bytes.fromhex(udf.group(1)).decode("utf-8", "replace")
        return UdfError(action, said)
    refused = _REFUSED_WRITE.search(text)
    if refused:
        return WriteError(bytes.fromhex(refused.group(1)).decode("utf-8", "replace"))
    bad = _BAD_VALUE.search(text)
    if bad:
        return MalformedDataError(f"{action}: {bytes.fromhex(bad.group(1)).decode('utf-8', 'replace')}")
    if "DATA_SOURCE_NOT_FOUND" in text and ("delta" in text.lower() or "iceberg" in text.lower()):
        name = "Delta Lake" if "delta" in text.lower() else "Iceberg"
        msg = (
            f"{action}: {name} is not on this Spark session's classpath. Start the session with its jars, "
            "built for your Spark version (spark.jars.packages, e.g. io.delta:delta-spark_2.13:<version>), "
            "and its SQL extension and catalog settings; docs/lakehouse.md lists versions that work"
        )
        return PydantableSparkError(msg)
    if "UNSUPPORTED_FEATURE.TIME_TRAVEL" in text:
        msg = (
            f"{action}: this table keeps no versions to read; version= and timestamp= (time travel) read "
            "Delta Lake and Iceberg tables only"
        )
        return ArgumentValueError(msg)
    built_for = _wrong_build(text, action)
    if built_for is not None:
        return built_for
    if "Unescaped quote character" in text:
        file = _FILE.search(text) or _READING.search(text)
        where = f" in {file.group(1)}" if file else ""
        msg = (
            f"{action}: a quoted field{where} holds a quote that is not doubled (a backslash does not escape it "
            'in RFC 4180 CSV: write "he said ""hi"""); fix the file, or read it as Spark would by default '
            "with unescapedQuoteHandling='STOP_AT_DELIMITER' (such quotes then stay in the text as they are)"
        )
        return MalformedDataError(msg)
    if "Number of column in CSV header is not equal" in text or "CSV header does not conform" in text:
        file = _FILE.search(text) or _READING.search(text)
        where = f"of {file.group(1)} " if file else ""
        msg = (
            f"{action}: the header line {where}does not name the first file's columns; every file of one "
            "read needs the same header, and the same line endings (the first file's decide, CR LF or LF: a "
            "file with the other kind reads as one long line); pass lineSep='\\n' or '\\r\\n' to choose"
        )
        return MalformedDataError(msg)
    malformed = _MALFORMED.search(text)
    if malformed:
        file = _FILE.search(text)
        roots = _ROOT.findall(text)
        where = f" in {file.group(1)}" if file else ""
        why = f" ({roots[-1].strip()})" if roots else ""
        msg = (
            f"{action}: a record{where} does not parse as the model's types{why}; "
            f"Spark's reading of it: {malformed.group(1).strip()}"
        )
        return MalformedDataError(msg)
    if not _from_spark(error):
        return None
    if "PATH_ALREADY_EXISTS" in text or "TABLE_OR_VIEW_ALREADY_EXISTS" in text:
        msg = f"{action}: the target already exists and mode='error' (the default); {_WRITE_MODES_HINT}"
        return TargetExistsError(msg)
    reason = spark_reason(text)
    if "No module named 'pyarrow'" in text:
        msg = (
            "Spark's Python workers cannot import pyarrow (they run the interpreter named by PYSPARK_PYTHON, "
            f"or `python3` on PATH). Point PYSPARK_PYTHON at an interpreter that has pyarrow (this one is "
            f"{sys.executable}) before the session starts, or install pyarrow there. Spark said: {reason}"
        )
        return SparkJobError(action, msg)
    if "FAILED_READ_FILE" in text:
        file = _FILE.search(text)
        where = f" {file.group(1)}" if file else " a file"
        msg = (
            f"Spark could not read{where} of the source: {reason}. If the files of a directory disagree on a "
            "column's type, rewrite them with one schema or read them separately; if they changed since the "
            "frame was made, make the frame again"
        )
        return SparkJobError(action, msg)
    return SparkJobError(action, f"Spark failed: {reason}")


def _error_text(error: Exception) -> str:
    """The text of a Spark error to read the reason from; a failed streaming query's with its causes' trace.

    A ``StreamingQueryException``'s message is the query's, and the micro-batch's
    own error (a malformed record, ...) is only in the JVM trace of its causes.
    """
    text = str(error)
    trace = getattr(error, "_stackTrace", None)
    if type(error).__name__ == "StreamingQueryException" and isinstance(trace, str) and trace not in text:
        text += "\n" + trace
    return text


_WRITE_MODES_HINT = "pass mode='overwrite' to replace it, 'append' to add to it, or 'ignore' to leave it"


def _struct_fields(text: str) -> dict[str, str]:
    """Top-level ``name: TYPE`` pairs of the inside of a ``STRUCT<...>`` as Spark prints it."""
    fields: dict[str, str] = {}
    depth, start = 0, 0
    for i, char in enumerate(text + ","):
        if char in "<(":
            depth += 1
        elif char in ">)":
            depth -= 1
        elif char == "," and depth == 0:
            name, _, kind = text[start:i].strip().partition(": ")
            fields[name.strip("`")] = kind.lower()
            start = i + 1
    return fields


_STACK = re.compile(r"^\s+(?:at |\.\.\. \d+ more|Suppressed: )")
_THROWABLE = re.compile(
    r"^(?:(?:[\w$]+\.)+[\w$]*(?:Exception|Error)(?::\s*|$)"  # classic: ``org.x.SomeException: message``
    r"|\((?:[\w$]+\.)+[\w$]*(?:Exception|Error)\)\s*)"  # Spark Connect: ``(org.x.SomeException) message``
)
_TRACE_HEADINGS = frozenset({"JVM stacktrace:", "Driver stacktrace:"})
_WRAPPERS = ("Job aborted due to stage failure", "Exception thrown in awaitResult")


def _spark_messages(text: str) -> list[str]:
    """Each distinct message of a Spark error's chain (the error, then its causes), without stack lines or class names.

    A message that only wraps another (a failed stage, ``awaitResult``) is left out.
    """
    messages: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if _CALLING.match(stripped) or stripped in _TRACE_HEADINGS or _STACK.match(line):
            current = None
            continue
        if line.startswith("Caused by: "):
            line, current = line[len("Caused by: ") :], None
        if current is None:
            if stripped:
                current = [_THROWABLE.sub("", line.removeprefix(": ").strip())]
                messages.append(current)
        elif stripped:
            current.append(stripped)
    shown: list[str] = []
    for message in (" ".join(lines).strip() for lines in messages):
        if message and message not in shown and not message.startswith(_WRAPPERS):
            shown.append(message)
    return shown


def spark_paragraph(text: str) -> str:
    """Spark's reason in one paragraph: its error's message, and its root cause's when that says more.

    Stack lines, exception class names and the messages that only wrap another
    are left out; each message is cut at 600 characters.
    """
    messages = [m if len(m) <= _MAX_SHOWN else m[:_MAX_SHOWN] + "..." for m in _spark_messages(text)]
    if not messages:
        return spark_reason(text)
    first, root = messages[0], messages[-1]
    return first if root == first or root in first else f"{first} (caused by: {root})"


def file_in_error(text: str) -> str | None:
    """The file a Spark read error names (``while reading file file:/data/x.json``), or None."""
    found = _FILE.search(text) or _READING.search(text)
    return found.group(1) if found else None


def spark_reason(text: str) -> str:
    """The first line of a Spark error that says what went wrong (py4j's "while calling" line skipped)."""
    for found in _FIRST_LINE.finditer(text):
        line = found.group(1).strip()
        if line and not _CALLING.match(line):
            return line if len(line) <= _MAX_SHOWN else line[:_MAX_SHOWN] + "..."
    return "(no message)"
