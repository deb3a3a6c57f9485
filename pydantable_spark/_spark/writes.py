"""All-or-nothing writes: Spark writes somewhere new, and only a finished write replaces the target.

Spark's own ``mode="overwrite"`` deletes the old files before its job runs, so
a job that fails (a run-time NULL check, a crash) leaves the target empty.
Here every file write goes to a staging directory next to the target (a
hidden sibling: ``.<name>.pydantable-staging-<id>``, which Spark's readers
skip), and only when Spark has finished is it moved in with the Hadoop
FileSystem API of the driver's JVM (renames: atomic on local and HDFS-like
filesystems, copies on object stores):

* ``overwrite``: the target is moved aside, the staging directory takes its
  name, then the old data is deleted; if the second rename fails the first is
  undone. With dynamic partition overwrite (``partitionOverwriteMode=dynamic``)
  the same happens per partition directory the new data holds.
* ``append``: the new files are moved into the target one by one; a failed
  move takes back those already moved.
* ``error``/``errorifexists``/``ignore``: the target's existence is checked
  first; the staging directory is then renamed to the target.

Spark Connect has no filesystem API, so there the result is first
materialized with ``localCheckpoint()`` (every check of the plan runs, and a
failure touches nothing), and then written by Spark's own writer from the
checkpoint: a run-time check can no longer fail the write, but a crash in the
middle of Spark's overwrite can still lose the old files.

Two writes at one target: a path or table that another write makes between
this write's existence check and its rename is never replaced or deleted.
``error`` then refuses (``TargetExistsError``: this write's rows are not
written), ``ignore`` leaves it, ``append`` adds to it, and an ``overwrite``
refuses too, keeping the old data it had set aside where the error says.
On Spark Connect, writes of one process to one path take turns instead (two
Spark jobs writing one directory lose files); other processes are not seen.

Catalog tables (classic and Connect): the frame is saved as a new staging
table in the target's namespace, then renamed to the target (``overwrite``:
the old table is renamed aside first and dropped last) or appended to it from
the staging table, which is dropped in every case. Delta Lake commits
atomically by itself and is written directly.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

from pydantable_spark._spark.session import is_connect
from pydantable_spark.errors import TargetExistsError, WriteError

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark._spark.tables import TableCheck

__all__ = ["Request", "check_apart", "check_not_reading", "release_checkpoint", "write_path", "write_table"]

log = logging.getLogger("pydantable_spark")

_EXISTS_HINT = "pass mode='overwrite' to replace it, 'append' to add to it, or 'ignore' to leave it"


@dataclass(frozen=True, slots=True)
class Request:
    """One write, as the user asked for it (already checked by ``pydantable_spark.storage``)."""

    action: str
    fmt: str
    target: str
    mode: str
    partition_by: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    checks: tuple[TableCheck, ...] = ()
    """The model's constraints as Delta ``CHECK`` constraints: compared with a Delta table's own."""
    declare_checks: bool = False
    """``table_constraints=True``: declare ``checks`` on the Delta table (a new one, or missing ones)."""

    def spark_write(self, frame: SparkDataFrame, mode: str) -> Any:
        """``frame.write`` with this request's format, options and partitioning, in ``mode``."""
        writer = frame.write.mode(mode).options(**self.options)
        if self.fmt:
            writer = writer.format(self.fmt)
        if self.partition_by:
            writer = writer.partitionBy(*self.partition_by)
        return writer


# --- reading what is written --------------------------------------------------------------------


def check_not_reading(frame: SparkDataFrame, request: Request, *, table: bool) -> None:
    """Refuse to overwrite a path or table that ``frame`` itself reads (before any Spark job).

    The write would be safe (the data goes to a staging place first), but the
    frame's file listing would then name files that no longer exist.
    """
    reads = set(frame.inputFiles())
    if not reads:
        return
    spark = frame.sparkSession
    try:
        if table:
            existing = spark.read.table(request.target).inputFiles()
        else:
            listing = spark.read.format("binaryFile").option("recursiveFileLookup", "true")
            existing = listing.load(request.target).inputFiles()
    except Exception:  # no such path or table: nothing of it is read
        return
    shared = sorted(reads.intersection(existing))
    if shared:
        what = "table" if table else "path"
        msg = (
            f"{request.action}: refusing to overwrite a {what} that this frame reads ({len(shared)} of its "
            f"files, e.g. {shared[0]}): the frame could not be read again afterwards. Write to another "
            f"{what} and replace the old one with it, or bring the data into Python first "
            "(e.g. DataFrame.from_arrow(frame.to_arrow())); the target is untouched"
        )
        raise WriteError(msg)


def check_apart(first: Request, second: Request, session: Any, *, table: bool) -> None:
    """``ValueError`` if two writes of one call would land in the same place, however each is spelled.

    Paths are compared qualified and normalised (``./``, ``..``, a trailing
    ``/``, a relative path, symbolic links on the local filesystem), and one
    inside the other counts too: replacing the outer directory would take the
    inner one with it. Table names are compared with the current catalog and
    database filled in, case-insensitively (``t``, ``default.t`` and
    ``spark_catalog.default.T`` are one table).
    """
    if table:
        a, b = _table_place(first.target, session), _table_place(second.target, session)
        clash = a == b
    else:
        a, b = _path_place(first.target, session), _path_place(second.target, session)
        clash = a[: len(b)] == b or b[: len(a)] == a
    if clash:
        relation = "the same table as" if table else ("the same path as" if a == b else "nested in or around")
        msg = (
            f"{second.action}: {second.target!r} is {relation} the target {first.target!r}; "
            f"the second write would replace the first. Give the violating rows a place of their own"
        )
        raise ValueError(msg)


def _path_place(path: str, session: Any) -> tuple[str, ...]:
    """``path`` as its filesystem and directory names, qualified as Spark would and with local links resolved."""
    if is_connect(session):  # no filesystem API: a path without a scheme is taken as the server's local one
        parts = urlsplit(path)
        scheme, authority, where = parts.scheme, parts.netloc, parts.path if parts.scheme else path
    else:
        hadoop = session.sparkContext._jvm.org.apache.hadoop.fs.Path(path)
        uri = hadoop.getFileSystem(session.sparkContext._jsc.hadoopConfiguration()).makeQualified(hadoop).toUri()
        scheme, authority, where = uri.getScheme() or "", uri.getAuthority() or "", uri.getPath() or "/"
    if scheme.lower() in ("", "file"):
        local = os.path.realpath(where)
        return ("file", *[name for name in local.split(os.sep) if name])
    where = posixpath.normpath(where or "/")
    return (f"{scheme.lower()}://{authority.lower()}", *[name for name in where.split("/") if name])


def _table_place(name: str, session: Any) -> tuple[str, ...]:
    """Catalog, database and table of ``name``, the session's current ones filled in, lower-cased."""
    parts = _name_parts(name)
    if len(parts) < 3:
        catalog = session.catalog
        current = [catalog.currentCatalog(), catalog.currentDatabase()]
        parts = current[: 3 - len(parts)] + parts
    return tuple(part.lower() for part in parts)


def release_checkpoint(checkpoint: SparkDataFrame) -> None:
    """Free a Spark Connect checkpoint on the server now, from this thread (classic Spark: nothing to do).

    The client frees it in the finalizer of the checkpoint's plan, with a
    blocking RPC. A finalizer runs wherever the garbage collector happens to
    run, and a traceback that holds the frame (a failed write) defers it to
    the cyclic collector, which may fire inside another RPC of the same
    channel: pyspark documents that such a re-entrant call can hang the
    channel. Freeing it here, between RPCs, leaves the finalizer nothing to do.
    """
    relation = getattr(checkpoint, "_plan", None)
    release = getattr(relation, "__del__", None)
    if relation is None or release is None or getattr(relation, "_relation_id", None) is None:
        return
    release()  # the client's own removal RPC; it logs and swallows its errors
    relation._relation_id = None


# --- files ----------------------------------------------------------------------------------------


def write_path(frame: SparkDataFrame, request: Request) -> bool:
    """Write ``frame`` to the path of ``request`` all-or-nothing (see the module docstring); whether it wrote.

    ``False``: ``mode="ignore"`` found the path, and no Spark job ran.
    """
    if request.fmt in TRANSACTIONAL:  # the table format's own commit makes the write all-or-nothing
        session = frame.sparkSession
        if is_connect(frame):
            exists = _path_exists(session, request.target)
        else:
            fs = _FileSystem(session, request)
            exists = fs.exists(fs.target)
        if exists and request.mode in ("error", "errorifexists"):
            msg = f"{request.action}: the path already exists and mode={request.mode!r}; {_EXISTS_HINT}"
            raise TargetExistsError(msg)
        if exists and request.mode == "ignore":
            return False
        mode = "error" if request.mode == "errorifexists" else request.mode
        if request.fmt == "delta":
            done = None if exists else _new_delta(frame, request, table=False)
            if done is not None:
                return done
            from pydantable_spark._spark.tables import add_checks, delta_path_name

            if exists:
                read = lambda: session.read.format("delta").load(request.target)  # noqa: E731
                _check_existing(frame, request, read, delta_path_name(request.target))
            request.spark_write(frame, mode).save(request.target)
            if not exists and request.declare_checks:  # a partitioned table, made by Spark's writer
                add_checks(session, delta_path_name(request.target), request.checks, request.action)
            return True
        request.spark_write(frame, mode).save(request.target)
        return True
    if request.mode == "append" and request.fmt in _SELF_DESCRIBING:
        check_appended_columns(frame, request)
    if is_connect(frame):
        if request.mode == "ignore" and _path_exists(frame.sparkSession, request.target):
            return False
        checkpoint = frame.localCheckpoint(eager=True)  # run-time checks fail here, before the target is touched
        mode = "error" if request.mode == "errorifexists" else request.mode  # Connect knows only the short name
        try:
            with _one_writer_at(_path_place(request.target, frame.sparkSession)):
                request.spark_write(checkpoint, mode).save(request.target)
        except Exception as error:
            if "PATH_ALREADY_EXISTS" not in str(error):
                raise
            msg = f"{request.action}: the path already exists and mode={request.mode!r}; {_EXISTS_HINT}"
            raise TargetExistsError(msg) from error
        finally:
            release_checkpoint(checkpoint)
        return True
    fs = _FileSystem(frame.sparkSession, request)
    exists = fs.exists(fs.target)
    if exists and request.mode in ("error", "errorifexists"):
        msg = f"{request.action}: the path already exists and mode={request.mode!r}; {_EXISTS_HINT}"
        raise TargetExistsError(msg)
    if exists and request.mode == "ignore":
        return False
    staging = fs.sibling("staging")
    try:
        request.spark_write(frame, "error").save(fs.uri(staging))
        if not exists:
            try:
                fs.move_in([(staging, fs.target)], replace=False)
                return True
            except _Appeared as appeared:  # another write made the path while this one ran
                if request.mode in ("error", "errorifexists"):
                    msg = (
                        f"{request.action}: the path did not exist when this write started, but another write "
                        f"made it meanwhile and mode={request.mode!r}: this write's rows were not written, the "
                        f"path holds the other write's; {_EXISTS_HINT}"
                    )
                    raise TargetExistsError(msg) from appeared
                if request.mode == "ignore":
                    return True  # the job ran: its rows were read, then left out
                if request.mode != "append":
                    raise
        if request.mode == "append":
            fs.move_in([(src, fs.child(fs.target, rel)) for src, rel in fs.files(staging)], replace=False)
        elif _dynamic(frame, request):
            fs.move_in([(src, fs.child(fs.target, rel)) for src, rel in fs.partitions(staging, request)], replace=True)
        else:
            fs.move_in([(staging, fs.target)], replace=True)
    finally:
        fs.delete(staging)
    return True


def _new_delta(frame: SparkDataFrame, request: Request, *, table: bool) -> bool | None:
    """Create a new Delta table with the frame's NOT NULL columns and write it (``tables.create_delta``).

    ``True``: written; ``False``: another write made the table meanwhile and
    ``mode="ignore"`` leaves it (with ``mode="error"`` that is
    ``TargetExistsError``); ``None``: the caller writes with Spark's writer (a
    partitioned table, logged: Spark's catalog API cannot create one from a
    schema, so its columns are nullable; or a table another write made).
    """
    from pydantable_spark._spark import tables

    if request.partition_by:
        log.warning(
            "%s: a partitioned Delta table is created by Spark's writer, with every column nullable (Spark's "
            "catalog API cannot create one from a schema); the model's NOT NULL columns are not declared",
            request.action,
        )
        return None
    if not tables.delta_catalog(frame.sparkSession):
        # without Delta's catalog, `delta.<path>` would name a database; Spark's writer says what is missing
        log.warning(
            "%s: the session catalog is not Delta's (spark.sql.catalog.spark_catalog="
            "org.apache.spark.sql.delta.catalog.DeltaCatalog): Spark's writer creates the table, every column "
            "nullable",
            request.action,
        )
        return None
    if tables.create_delta(frame, request, table=table):
        return True
    if request.mode in ("error", "errorifexists"):
        raise tables.exists_error(request)
    return False if request.mode == "ignore" else None


def _check_existing(frame: SparkDataFrame, request: Request, existing: Any, name: str) -> None:
    """Before writing to an existing table that keeps its schema: its NOT NULL and CHECKs against the model's.

    ``name`` is the table's SQL name (quoted). A Delta table's ``pydantable_*``
    CHECK constraints are compared with the model's (``tables.compare_checks``);
    with ``table_constraints=True`` the model's that it lacks are declared first.
    """
    schema_replaced = any(
        key.lower() == "overwriteschema" and str(value).lower() == "true" for key, value in request.options.items()
    )
    if request.mode == "overwrite" and (request.fmt != "delta" or schema_replaced):
        if schema_replaced:
            log.warning(
                "%s: overwriteSchema=True: Delta Lake replaces the table's schema with every column nullable",
                request.action,
            )
        return
    from pydantable_spark._spark import tables

    tables.check_nullability(frame, existing(), request.action, request.fmt)
    if request.fmt == "delta":
        spark = frame.sparkSession
        declared = tables.declared_checks(spark, name)
        if request.declare_checks:
            tables.add_checks(spark, name, [c for c in request.checks if c.name not in declared], request.action)
            declared = tables.declared_checks(spark, name)
        tables.compare_checks(declared, request.checks, request.action)


_SELF_DESCRIBING = frozenset({"parquet", "orc"})
"""File formats whose files carry their schema: an append is checked against the files already there."""

ADD_COLUMNS = "mergeSchema"
"""The write option that lets an append add columns (Delta Lake's and Iceberg's name for it)."""


def check_appended_columns(frame: SparkDataFrame, request: Request) -> None:
    """Refuse an append whose columns the existing files lack (unless ``mergeSchema``) or type otherwise.

    Spark appends such files silently, and the dataset then holds several
    schemas: a reader without ``mergeSchema`` sees the columns of whichever
    footer it reads, and a changed type makes reads fail later. JSON and CSV
    files hold no schema to compare with.
    """
    from pydantable_spark._spark.types import fields_of_struct

    session = frame.sparkSession
    if not _path_exists(session, request.target):
        return
    try:
        existing = session.read.format(request.fmt).load(request.target).schema
    except Exception:  # no data files yet (an empty directory): nothing to compare with
        return
    before = {f.name.lower(): f for f in fields_of_struct(existing)}
    partitions = {name.lower() for name in request.partition_by}
    changed = []
    added = []
    for new in fields_of_struct(frame.schema):
        old = before.get(new.name.lower())
        if old is None:
            added.append(new.name)
        elif old.dtype != new.dtype and new.name.lower() not in partitions:  # partition types are inferred
            changed.append(f"{new.name!r} is {old.dtype} in the files there and {new.dtype} in this frame")
    if changed:
        msg = (
            f"{request.action}: mode='append' would write columns with another type than the files already "
            f"there: {'; '.join(changed)}; readers would then fail on the mixed files. Cast the column to the "
            "existing type, or write the new data elsewhere"
        )
        raise WriteError(msg)
    opted_in = any(k.lower() == ADD_COLUMNS.lower() and str(v).lower() == "true" for k, v in request.options.items())
    if added and not opted_in:
        msg = (
            f"{request.action}: mode='append' would add column(s) {', '.join(map(repr, added))} that the files "
            f"already there lack; pass {ADD_COLUMNS}=True to add them (readers then see NULL there for the older "
            "files: declare the fields with the default None), or write a frame without them"
        )
        raise WriteError(msg)


def _path_exists(session: Any, path: str) -> bool:
    """Whether ``path`` exists, asked without a filesystem API (Spark Connect): a listing of it resolves."""
    try:
        session.read.format("binaryFile").load(path).schema  # noqa: B018  -- resolving lists the path
    except Exception as error:
        if "PATH_NOT_FOUND" in str(error):
            return False
        raise
    return True


_writers: dict[tuple[str, ...], threading.Lock] = {}
_writers_lock = threading.Lock()


@contextmanager
def _one_writer_at(place: tuple[str, ...]) -> Iterator[None]:
    """Hold the process's lock for the path ``place`` while Spark's own writer writes there (Spark Connect).

    Two Spark jobs writing one path at once share its ``_temporary``
    directory: both return, and one's files can be lost (seen on Spark 4.3,
    with ``mode="error"``). Connect has no filesystem API to stage and rename,
    so writes of this process to one path take turns; the second then finds
    the path and its mode decides. Writes from other processes are not seen.
    """
    with _writers_lock:
        lock = _writers.setdefault(place, threading.Lock())
    with lock:
        yield


def _dynamic(frame: SparkDataFrame, request: Request) -> bool:
    """Whether an overwrite replaces only the partitions it writes (Spark's dynamic partition overwrite)."""
    if not request.partition_by:
        return False
    setting = request.options.get("partitionOverwriteMode")
    if setting is None:
        setting = frame.sparkSession.conf.get("spark.sql.sources.partitionOverwriteMode", "static")
    return str(setting).lower() == "dynamic"


class _FileSystem:
    """The Hadoop FileSystem of a target path, through the driver's JVM (classic sessions only)."""

    def __init__(self, session: Any, request: Request) -> None:
        jvm = session.sparkContext._jvm
        self._jvm = jvm
        self.request = request
        path = jvm.org.apache.hadoop.fs.Path(request.target)
        self.fs = path.getFileSystem(session.sparkContext._jsc.hadoopConfiguration())
        self.target = self.fs.makeQualified(path)
        self.parent = self.target.getParent()
        if self.parent is None:
            msg = f"{request.action}: cannot write to the root of a filesystem; name a directory under it"
            raise WriteError(msg)
        self.id = uuid.uuid4().hex[:12]

    def uri(self, path: Any) -> str:
        return str(path.toString())

    def sibling(self, kind: str) -> Any:
        """A hidden path next to the target, which Spark's readers skip (``.`` prefix)."""
        return self._jvm.org.apache.hadoop.fs.Path(self.parent, f".{self.target.getName()}.pydantable-{kind}-{self.id}")

    def child(self, base: Any, relative: str) -> Any:
        return self._jvm.org.apache.hadoop.fs.Path(base, relative)

    def exists(self, path: Any) -> bool:
        return bool(self.fs.exists(path))

    def delete(self, path: Any) -> None:
        try:
            if self.fs.exists(path):
                self.fs.delete(path, True)
        except Exception:  # leftovers are hidden from readers; say so, do not fail a write that worked
            log.warning("could not delete %s", self.uri(path), exc_info=True)

    def files(self, root: Any) -> Iterator[tuple[Any, str]]:
        """The data files under ``root`` (Spark's markers such as ``_SUCCESS`` left out), with relative paths."""
        prefix = len(self.uri(root)) + 1
        listing = self.fs.listFiles(root, True)
        while listing.hasNext():
            path = listing.next().getPath()
            if not _hidden(path.getName()):
                yield path, self.uri(path)[prefix:]

    def partitions(self, root: Any, request: Request) -> Iterator[tuple[Any, str]]:
        """The leaf partition directories (``a=1/b=x``) under ``root``, with relative paths."""
        level = [(root, "")]
        for _ in request.partition_by:
            deeper = []
            for directory, relative in level:
                for status in self.fs.listStatus(directory):
                    name = status.getPath().getName()
                    if status.isDirectory() and not _hidden(name):
                        deeper.append((status.getPath(), f"{relative}/{name}".lstrip("/")))
            level = deeper
        return iter(level)

    def move_in(self, moves: Sequence[tuple[Any, Any]], *, replace: bool) -> None:
        """Rename each source to its destination; with ``replace``, what was there goes aside, deleted at the end.

        If any step fails, every step already done is undone (destinations moved
        back to their sources, old data restored) and ``WriteError`` is raised.
        A destination that another write fills meanwhile (any, if not
        ``replace``; between the step's own check and rename, if ``replace``)
        is neither replaced nor deleted: ``_Appeared`` is raised, this move's
        source is back in its place, and old data this move had set aside for
        that destination is kept where the error says.
        """
        aside = self.sibling("old")
        done: list[tuple[Any, Any, Any]] = []
        made: list[Any] = []
        try:
            for index, (source, destination) in enumerate(moves):
                backup = None
                if not replace and self.fs.exists(destination):
                    self._appeared(destination, None)
                if self.fs.exists(destination):
                    backup = self.child(aside, str(index))
                    self._mkdirs(aside, made)
                    self._rename(destination, backup)
                done.append((source, destination, backup))
                self._mkdirs(destination.getParent(), made)
                if self._renamed_into_place(source, destination):
                    continue
                done.pop()  # the destination is the other write's: neither replaced nor deleted
                self._appeared(destination, backup)
        except BaseException as error:
            self._undo(done, made)
            if isinstance(error, Exception) and not isinstance(error, WriteError):
                msg = f"{self.request.action}: moving the written files into place failed; the target is as it was"
                raise WriteError(msg) from error
            raise
        self.delete(aside)

    def _rename(self, source: Any, destination: Any) -> None:
        if not self.fs.rename(source, destination):
            msg = (
                f"{self.request.action}: the filesystem refused to rename {self.uri(source)} to "
                f"{self.uri(destination)}; the target is as it was"
            )
            raise WriteError(msg)

    def _appeared(self, destination: Any, backup: Any) -> NoReturn:
        kept = "" if backup is None else f"; the data that was there before is kept at {self.uri(backup)}"
        msg = (
            f"{self.request.action}: {self.uri(destination)} appeared while this write ran (another write?) and "
            f"was left as that write made it: this write's rows were not written{kept}"
        )
        raise _Appeared(msg)

    def _renamed_into_place(self, source: Any, destination: Any) -> bool:
        """Rename ``source`` to ``destination``, which must not exist; ``False`` if another write made it.

        Hadoop renames a directory onto an existing directory by moving it
        inside (HDFS, and the local filesystem through a copy) and reports
        success, so the check is made after the rename, and such a move undone.
        """
        self._rename(source, destination)
        nested = self.child(destination, source.getName())
        if not self.fs.exists(nested):
            return True
        self._rename(nested, source)
        return False

    def _mkdirs(self, directory: Any, made: list[Any]) -> None:
        missing = []
        while directory is not None and not self.fs.exists(directory):
            missing.append(directory)
            directory = directory.getParent()
        for path in reversed(missing):
            self.fs.mkdirs(path)
            made.append(path)

    def _undo(self, done: list[tuple[Any, Any, Any]], made: list[Any]) -> None:
        for source, destination, backup in reversed(done):
            try:
                if self.fs.exists(destination) and not self.fs.exists(source):
                    self.fs.rename(destination, source)
                if backup is not None and self.fs.exists(backup):
                    self.fs.delete(destination, True)
                    self.fs.rename(backup, destination)
            except Exception:
                log.error("could not undo a move into %s", self.uri(destination), exc_info=True)
        for directory in reversed(made):
            try:
                if not self.fs.listStatus(directory):
                    self.fs.delete(directory, False)
            except Exception:
                log.warning("could not remove %s", self.uri(directory), exc_info=True)


class _Appeared(WriteError):
    """A destination another write made between this write's check and its rename (left as it is)."""


def _hidden(name: str) -> bool:
    return name.startswith(("_", "."))


# --- tables ---------------------------------------------------------------------------------------

_PART = re.compile(r"`((?:[^`]|``)+)`|([^.`]+)")


def _name_parts(name: str) -> list[str]:
    """The parts of a multi-part table name (``db.t``, ``cat.db.t``, backticks allowed)."""
    parts = []
    position = 0
    while True:
        found = _PART.match(name, position)
        if found is None:
            msg = f"cannot read the table name {name!r}"
            raise WriteError(msg)
        parts.append(found.group(1).replace("``", "`") if found.group(1) is not None else found.group(2).strip())
        position = found.end()
        if position == len(name):
            return parts
        if name[position] != ".":
            msg = f"cannot read the table name {name!r}"
            raise WriteError(msg)
        position += 1


def _quoted(parts: Sequence[str]) -> str:
    return ".".join("`" + part.replace("`", "``") + "`" for part in parts)


TRANSACTIONAL = frozenset({"delta", "iceberg"})
"""Table formats that commit a write atomically themselves: written in place, with no staging and no rename."""


def _provider(spark: Any, target: str) -> str:
    """The format of the existing table ``target`` (``delta``, ``iceberg``, ``parquet``...; '' if not said)."""
    for row in spark.sql(f"DESCRIBE TABLE EXTENDED {_quoted(_name_parts(target))}").collect():
        if str(row[0]).strip().lower() == "provider":
            return str(row[1]).strip().lower()
    return ""


def write_table(frame: SparkDataFrame, request: Request) -> bool:
    """Save ``frame`` as the catalog table of ``request`` all-or-nothing; whether it wrote (see ``write_path``)."""
    if "path" in {key.lower() for key in request.options}:
        msg = (
            f"{request.action}: the 'path' option makes an external table whose files Spark replaces in "
            "place, which a failed write would destroy; write the files with write_parquet(path, mode=...) "
            "(all-or-nothing), then create the table on them (CREATE TABLE ... USING parquet LOCATION ...)"
        )
        raise WriteError(msg)
    spark = frame.sparkSession
    exists = bool(spark.catalog.tableExists(request.target))
    if exists and request.mode in ("error", "errorifexists"):
        msg = f"{request.action}: the table already exists and mode={request.mode!r}; {_EXISTS_HINT}"
        raise TargetExistsError(msg)
    if exists and request.mode == "ignore":
        return False
    fmt = request.fmt or (_provider(spark, request.target) if exists else "")
    if fmt in TRANSACTIONAL:
        # the table format's own commit makes the write all-or-nothing (and its tables cannot always be renamed)
        request = replace(request, fmt=fmt)
        mode = "error" if request.mode == "errorifexists" else request.mode
        from pydantable_spark._spark import tables

        if fmt == "iceberg" and request.declare_checks:
            raise tables.no_iceberg_checks(request.action)
        if fmt == "iceberg" and (not exists or mode == "overwrite"):
            if tables.write_iceberg_required(frame, request, mode):
                return True
            log.warning(
                "%s: the Iceberg table's catalog is not one named by spark.sql.catalog.<name>: Spark creates the "
                "table with every column nullable",
                request.action,
            )
        elif fmt == "delta" and not exists:
            done = _new_delta(frame, request, table=True)
            if done is not None:
                return done
        elif exists:
            _check_existing(
                frame, request, lambda: spark.read.table(request.target), _quoted(_name_parts(request.target))
            )
        request.spark_write(frame, mode).saveAsTable(request.target)
        if fmt == "delta" and not exists and request.declare_checks:  # a partitioned table, made by Spark's writer
            tables.add_checks(spark, _quoted(_name_parts(request.target)), request.checks, request.action)
        return True
    parts = _name_parts(request.target)
    suffix = uuid.uuid4().hex[:12]
    staging = _quoted([*parts[:-1], f"{parts[-1]}__pydantable_staging_{suffix}"])
    target = _quoted(parts)
    try:
        request.spark_write(frame, "error").saveAsTable(staging)
        if not exists:
            try:
                spark.sql(f"ALTER TABLE {staging} RENAME TO {target}")  # refused if the target exists
                _relocate_partitions(spark, request, target)
                return True
            except Exception as error:
                if "ALREADY_EXISTS" not in str(error):
                    raise
                if request.mode in ("error", "errorifexists"):  # another write made the table meanwhile
                    msg = (
                        f"{request.action}: the table did not exist when this write started, but another write "
                        f"made it meanwhile and mode={request.mode!r}: this write's rows were not written, the "
                        f"table holds the other write's; {_EXISTS_HINT}"
                    )
                    raise TargetExistsError(msg) from error
                if request.mode == "ignore":
                    return True  # the job ran: its rows were read, then left out
        if request.mode == "append":
            request.spark_write(spark.read.table(staging), "append").saveAsTable(target)
        else:
            aside = _quoted([*parts[:-1], f"{parts[-1]}__pydantable_old_{suffix}"])
            _replace_table(spark, request, staging, target, aside)
            _relocate_partitions(spark, request, target)
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {staging}")
    return True


def _relocate_partitions(spark: Any, request: Request, target: str) -> None:
    """Point a renamed partitioned table's partitions at its own directory.

    Spark's built-in catalog renames a managed table's directory but keeps each
    partition's location under the old name: the renamed table would read no
    rows. Syncing drops the partitions whose directory is gone, then adds the
    ones the table's directory holds.
    """
    if request.partition_by:
        spark.sql(f"MSCK REPAIR TABLE {target} SYNC PARTITIONS")


def _replace_table(spark: Any, request: Request, staging: str, target: str, aside: str) -> None:
    spark.sql(f"ALTER TABLE {target} RENAME TO {aside}")
    try:
        spark.sql(f"ALTER TABLE {staging} RENAME TO {target}")
    except BaseException as error:
        try:
            spark.sql(f"ALTER TABLE {aside} RENAME TO {target}")
        except Exception:
            msg = (
                f"{request.action}: renaming the written table into place failed, and so did renaming the old "
                f"table back; its data is intact in table {aside}: put it back with "
                f"ALTER TABLE {aside} RENAME TO {target}"
            )
            raise WriteError(msg) from error
        if isinstance(error, Exception):
            msg = f"{request.action}: renaming the written table into place failed; the table is as it was"
            raise WriteError(msg) from error
        raise
    spark.sql(f"DROP TABLE IF EXISTS {aside}")
