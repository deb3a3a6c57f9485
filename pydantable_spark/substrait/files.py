"""Local Parquet files read without Spark, as Spark's reader reads them: ``read_parquet`` on the local engine.

``read_parquet(paths, options, label)`` lists the files as Spark does (a
directory's files at any depth, names starting with ``_`` or ``.`` skipped,
directories ``k=v`` read as partition columns, ``substrait.partitions``), types
every file's columns by Spark's rules and merges the files' schemas
(``substrait.parquet_types``), and reads the rows with pyarrow into that
schema: every column nullable, as Spark reads files. The storage layer then
reconciles the result with the model exactly as it reconciles a Spark read
(``pydantable_spark.storage``). What Spark would refuse is refused with Spark's
reason; what Spark reads but this read does not reproduce (a glob, a remote
path, a reader option other than ``mergeSchema`` and ``recursiveFileLookup``,
an unusual type or directory) is an ``UnsupportedEngineError`` naming it, so
``auto`` reads those files on Spark.

>>> import tempfile, pyarrow as pa, pyarrow.parquet as pq
>>> where = tempfile.mkdtemp()
>>> pq.write_table(pa.table({"n": pa.array([1, 2], pa.uint8())}), f"{where}/part-0.parquet")
>>> read = read_parquet([where], {"mergeSchema": "true"}, "read_parquet()")
>>> [str(f) for f in read.fields], read.table.column("n").to_pylist()
(['n: smallint'], [1, 2])
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from pydantable_spark import dtypes as dt
from pydantable_spark.arrow import arrow_schema, arrow_type
from pydantable_spark.errors import SparkJobError, UnsupportedEngineError
from pydantable_spark.schema import Schema
from pydantable_spark.substrait import parquet_types as types
from pydantable_spark.substrait.partitions import Partitions, Spelling, discover

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["LocalFiles", "is_local", "read_parquet"]

_OPTIONS = ("mergeschema", "recursivefilelookup")
"""The reader options the local read takes (lower-cased, as Spark matches them)."""

_GLOB = frozenset("*?[]{}\\")
"""Characters Spark reads as a glob pattern in a path (``Path.globStatus``)."""

_SUMMARIES = ("_metadata", "_common_metadata")


@dataclass(frozen=True, slots=True)
class LocalFiles:
    """The rows of a read in Spark's schema: data columns, then partition columns, every one nullable.

    ``partitions`` names the partition columns; ``in_files`` the columns the
    files hold (one may be a partition column too).
    """

    table: pa.Table
    fields: tuple[dt.Field, ...]
    partitions: tuple[str, ...]
    in_files: tuple[str, ...]


def is_local(path: str) -> bool:
    """Whether ``path`` names this machine's file system (no scheme, or ``file:``)."""
    scheme, colon, _ = path.partition(":")
    return not colon or scheme == "file" or (len(scheme) == 1 and os.name == "nt")


def read_parquet(paths: Sequence[str], options: Mapping[str, str], label: str) -> LocalFiles:
    """The Parquet files at ``paths`` (files or directories) read as Spark reads them with ``options``."""
    given = {key.lower(): str(value).lower() for key, value in options.items()}
    others = [key for key in options if key.lower() not in _OPTIONS]
    if others:
        msg = (
            f"the local read of Parquet files takes the options mergeSchema and recursiveFileLookup, not "
            f"{', '.join(map(repr, others))}; read the files on Spark"
        )
        raise UnsupportedEngineError(msg)
    recursive = given.get("recursivefilelookup", "false") == "true"
    files = _listing([_local_path(path) for path in paths], recursive=recursive, label=label)
    partitions = discover([spelling for _, spelling in files]) if not recursive else Partitions((), [])
    opened = []
    for file, _ in files:
        opened.append(_open(file, label))
    schemas = [types.file_fields(parquet, file, label) for (file, _), parquet in zip(files, opened, strict=True)]
    for (file, _), parquet, columns in zip(files, opened, schemas, strict=True):
        _no_legacy_calendar(file, parquet, columns)
    if given.get("mergeschema", "false") != "true" and any(s != schemas[0] for s in schemas):
        msg = (
            "the local read does not take mergeSchema=False over files whose schemas differ (Spark then trusts "
            "one footer, which depends on its file listing); read them with mergeSchema=True, or on Spark"
        )
        raise UnsupportedEngineError(msg)
    try:
        merged = types.merge(schemas)
    except types.MergeError as clash:
        raise files_disagree(label, clash) from None
    _no_duplicates([f.name for f in merged], label)
    types.check_mapped(merged)
    fields, table = _rows(files, opened, merged, partitions, label)
    in_files = tuple(f.name for f in merged)
    return LocalFiles(table, fields, tuple(f.name for f in partitions.fields), in_files)


def files_disagree(label: str, clash: types.MergeError) -> Exception:
    """The error a Spark read raises for files whose schemas do not merge (``storage.files_disagree``)."""
    from pydantable_spark.storage import files_disagree as disagree

    first = {f.name: types.spark_sql(f.dtype, f.nullable) for f in clash.merged}
    other = {f.name: types.spark_sql(f.dtype, f.nullable) for f in clash.other}
    return disagree(label, first, other)


def _local_path(path: str) -> str:
    if not is_local(path):
        msg = f"the local read takes files on this machine, not {path!r}; read it on Spark"
        raise UnsupportedEngineError(msg)
    if path.startswith("file:"):
        path = path[len("file:") :]
        path = "/" + path.lstrip("/") if path.startswith("//") else path
    if any(char in _GLOB for char in path):
        msg = (
            f"the local read does not expand glob patterns, and Spark reads {path!r} as one "
            "(any of * ? [ ] { } \\); name the files or their directory"
        )
        raise UnsupportedEngineError(msg)
    return path


def _hidden(name: str) -> bool:
    """Spark's ``shouldFilterOutPathName``: a name it skips when it lists a directory."""
    return (name.startswith("_") and "=" not in name) or name.startswith(".") or name.endswith("._COPYING_")


def _listing(paths: Sequence[str], *, recursive: bool, label: str) -> list[tuple[str, Spelling]]:
    """The files of the read, each with the partition directories between its root and it."""
    found: list[tuple[str, Spelling]] = []
    for root in paths:
        if not os.path.exists(root):
            msg = f"[PATH_NOT_FOUND] Path does not exist: file:{os.path.abspath(root)}"
            raise SparkJobError(label, f"Spark failed: {msg}")
        if os.path.isfile(root):
            found.append((root, ()))
            continue
        found += _walk(root, (), recursive=recursive)
    if not found:
        msg = (
            "Spark failed: [UNABLE_TO_INFER_SCHEMA] Unable to infer schema for Parquet. It must be specified "
            "manually (no file to read)"
        )
        raise SparkJobError(label, msg)
    return found


def _walk(directory: str, spelling: Spelling, *, recursive: bool) -> list[tuple[str, Spelling]]:
    files, below = [], []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name in _SUMMARIES:
            msg = f"the local read does not take Parquet summary files ({path}); Spark merges their schemas too"
            raise UnsupportedEngineError(msg)
        if _hidden(name):
            continue
        if os.path.isdir(path):
            if not recursive and "=" not in name:
                msg = (
                    f"the local read does not take {path}: a directory inside the read that is not a partition "
                    "directory (k=v), whose files Spark reads with partitions of its own rules; pass "
                    "recursiveFileLookup=True to read every file below, or read it on Spark"
                )
                raise UnsupportedEngineError(msg)
            column, _, value = name.partition("=")
            below += _walk(path, (*spelling, (column, value)) if not recursive else (), recursive=recursive)
        else:
            files.append((path, spelling))
    return files + below


def _open(file: str, label: str) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(file, coerce_int96_timestamp_unit="us")
    except (OSError, pa.ArrowException) as error:
        msg = f"Spark could not read {file} of the source: {error}"
        raise SparkJobError(label, msg) from error


_LEGACY_KEYS = (b"org.apache.spark.legacyDateTime", b"org.apache.spark.legacyINT96")


def _no_legacy_calendar(file: str, parquet: pq.ParquetFile, fields: Sequence[types.FileField]) -> None:
    """Refuse dates and timestamps that Spark would rebase from the Julian calendar (files of Spark before 3.1).

    Spark reads such a file's old dates and timestamps in the hybrid Julian calendar its writer used (the
    file's metadata says so: ``org.apache.spark.legacyDateTime``, or a writer version before 3.0, 3.1 for
    INT96); pyarrow reads every value in the proleptic Gregorian calendar.
    """
    metadata = parquet.metadata.metadata or {}
    version = metadata.get(b"org.apache.spark.version", b"").decode("utf-8", "replace")
    numbers = tuple(int(part) for part in re.findall(r"[0-9]+", version)[:2])
    legacy = any(key in metadata for key in _LEGACY_KEYS) or (bool(numbers) and numbers < (3, 1))
    dated = [f.name for f in fields if _holds_dates(f.dtype)]
    if legacy and dated:
        msg = (
            f"the local read does not take {file}: written by Spark {version or 'in its legacy calendar mode'}, "
            f"its dates and timestamps ({', '.join(map(repr, dated))}) are read by Spark in the Julian calendar "
            "its writer used; read it on Spark"
        )
        raise UnsupportedEngineError(msg)


def _holds_dates(dtype: dt.DType) -> bool:
    if isinstance(dtype, dt.Date | dt.Datetime | dt.DatetimeNTZ):
        return True
    if isinstance(dtype, dt.List):
        return _holds_dates(dtype.inner)
    if isinstance(dtype, dt.Map):
        return _holds_dates(dtype.key) or _holds_dates(dtype.value)
    if isinstance(dtype, dt.Struct):
        return any(_holds_dates(f.dtype) for f in dtype.fields)
    return False


def _no_duplicates(names: Sequence[str], label: str) -> None:
    """Spark refuses a read whose columns differ only in case (``spark.sql.caseSensitive`` is false)."""
    seen: set[str] = set()
    for name in names:
        if name.lower() in seen:
            msg = (
                f"Spark failed: [COLUMN_ALREADY_EXISTS] The column `{name.lower()}` already exists. Choose another "
                "name or rename the existing column"
            )
            raise SparkJobError(label, msg)
        seen.add(name.lower())


def _rows(
    files: Sequence[tuple[str, Spelling]],
    opened: Sequence[pq.ParquetFile],
    merged: Sequence[types.FileField],
    partitions: Partitions,
    label: str,
) -> tuple[tuple[dt.Field, ...], pa.Table]:
    """Spark's fields of the read and its rows.

    The data columns come first (a partition column in place of its twin), then the other partition columns.
    """
    by_name = {f.name.lower(): f for f in partitions.fields}
    fields = [by_name.get(f.name.lower(), dt.Field(f.name, types.nullable(f.dtype), True)) for f in merged]
    taken = {f.name.lower() for f in merged}
    fields += [f for f in partitions.fields if f.name.lower() not in taken]
    position = {f.name.lower(): i for i, f in enumerate(partitions.fields)}
    schema = arrow_schema(Schema(tuple(fields)))
    tables = []
    for index, ((file, _), parquet) in enumerate(zip(files, opened, strict=True)):
        try:
            read = parquet.read()
        except (OSError, pa.ArrowException) as error:
            msg = f"Spark could not read {file} of the source: {error}"
            raise SparkJobError(label, msg) from error
        columns = {name.lower(): read.column(i) for i, name in enumerate(read.column_names)}
        arrays: list[Any] = []
        for f in fields:
            if f.name.lower() in position:
                value = partitions.values[index][position[f.name.lower()]] if partitions.values else None
                arrays.append(pa.array([value] * read.num_rows, arrow_type(f.dtype)))
            elif f.name.lower() in columns:
                arrays.append(types.conform(columns[f.name.lower()], f.dtype, f.name))
            else:
                arrays.append(types.empty_column(f.dtype, read.num_rows))
        tables.append(pa.Table.from_arrays(arrays, schema=schema))
    return tuple(fields), pa.concat_tables(tables)
