"""The Spark side of typed IO: readers and writers, and Spark errors translated to the façade's."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

from pydantable_spark._spark.checks import NULL_CHECK_MARK
from pydantable_spark._spark.session import resolve_session
from pydantable_spark._spark.types import struct_of
from pydantable_spark.errors import MalformedDataError, NullCheckError, PydantableSparkError

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.schema import Schema

__all__ = ["csv_header", "read", "read_table", "spark_errors", "write"]


def read(
    fmt: str, paths: Sequence[str], options: Mapping[str, Any], schema: Schema | None, session: Any
) -> SparkDataFrame:
    """``spark.read.format(fmt)`` of ``paths`` with ``options``, and ``schema`` if given (no inference)."""
    reader = resolve_session(session).read.format(fmt).options(**options)
    if schema is not None:
        reader = reader.schema(struct_of(schema))
    frame = reader.load(list(paths))
    frame.schema  # noqa: B018  -- a Connect reader is lazy: resolve it now, so errors surface at the read
    return frame


def read_table(name: str, session: Any) -> SparkDataFrame:
    """``spark.read.table(name)``."""
    frame = resolve_session(session).read.table(name)
    frame.schema  # noqa: B018  -- resolved now on Connect too
    return frame


def csv_header(paths: Sequence[str], options: Mapping[str, Any], session: Any) -> list[str]:
    """The column names in the header line of the first CSV file (Spark reads that one line)."""
    reader = resolve_session(session).read.options(**options).option("header", "true").option("inferSchema", "false")
    return list(reader.csv(list(paths)).columns)


def write(
    frame: SparkDataFrame,
    fmt: str,
    target: str,
    *,
    mode: str,
    partition_by: Sequence[str],
    options: Mapping[str, Any],
    table: bool,
) -> None:
    """``frame.write`` as ``fmt`` to a path, or to a table with ``table=True``."""
    writer = frame.write.mode(mode).options(**options)
    if fmt:
        writer = writer.format(fmt)
    if partition_by:
        writer = writer.partitionBy(*partition_by)
    if table:
        writer.saveAsTable(target)
    else:
        writer.save(target)


_NULL_CHECK = re.compile(re.escape(NULL_CHECK_MARK) + r"([0-9a-f]*)\]")
_MALFORMED = re.compile(r"\[MALFORMED_RECORD_IN_PARSING[^\]]*\] *([^\n]*)")
_FILE = re.compile(r"while reading file (\S+?)\.? ")
_ROOT = re.compile(r"Caused by: (java\.[\w.$]+(?:Exception|Error): [^\n]*)")


@contextlib.contextmanager
def spark_errors(action: str) -> Iterator[None]:
    """Translate the Spark errors that the façade planted or expects into its own, keeping the cause.

    A failed run-time NULL check becomes ``NullCheckError`` naming the column; a
    value a CSV/JSON reader could not parse (``mode=FAILFAST``) becomes
    ``MalformedDataError``. Anything else passes through unchanged.
    """
    try:
        yield
    except Exception as error:
        text = str(error)
        found = _NULL_CHECK.search(text)
        if found:
            path = bytes.fromhex(found.group(1)).decode("utf-8", "surrogatepass")
            raise NullCheckError(path, action) from error
        if "DATA_SOURCE_NOT_FOUND" in text and "delta" in text.lower():
            msg = (
                f"{action}: Delta Lake is not on this Spark session's classpath. Install the extra "
                "(pip install 'pydantable-spark[delta]') and build the session with "
                "delta.configure_spark_with_delta_pip(builder), which adds the Delta jars (fetched from Maven), "
                "or start Spark with --packages io.delta:delta-spark_2.13:<version>"
            )
            raise PydantableSparkError(msg) from error
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
            raise MalformedDataError(msg) from error
        raise
