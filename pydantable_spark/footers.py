"""Which columns of Parquet files are non-null: those every file's footer declares REQUIRED.

Spark reads every column of a file source as nullable (one file of a directory
may lack a column another has), so a schema read by Spark cannot tell a model
which columns never hold NULL. A Parquet footer can: a REQUIRED column (or
struct field, list element, map value) holds no NULL in that file. Read with
pyarrow, whose schema takes its nullability from the footer's repetition.

```pycon
>>> import tempfile, pyarrow as pa, pyarrow.parquet as pq
>>> from pydantable_spark import dtypes as dt
>>> where = tempfile.mkdtemp()
>>> schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("note", pa.string())])
>>> pq.write_table(pa.table({"id": [1], "note": [None]}, schema=schema), f"{where}/a.parquet")
>>> spark_read = (dt.Field("id", dt.Int64(), True), dt.Field("note", dt.String(), True))
>>> [str(f) for f in required_in_every_file(spark_read, [f"file://{where}/a.parquet"])]
['id: bigint not null', 'note: string']

```
"""

from __future__ import annotations

import urllib.parse
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["FooterError", "required_in_every_file"]


class FooterError(Exception):
    """A file's footer could not be read (its filesystem is not one pyarrow opens, or it is no Parquet file)."""


def _open(uri: str) -> tuple[pafs.FileSystem, str]:
    """The filesystem and path of a file Spark lists (``file:///a%20b/x.parquet``, ``s3://...``, a plain path)."""
    parts = urllib.parse.urlsplit(uri)
    if parts.scheme in ("", "file"):
        return pafs.LocalFileSystem(), urllib.parse.unquote(parts.path) if parts.scheme else uri
    try:
        return pafs.FileSystem.from_uri(uri)
    except (pa.ArrowException, ValueError) as error:
        msg = f"pyarrow cannot open {uri!r} ({error})"
        raise FooterError(msg) from error


def _schema(uri: str) -> pa.Schema:
    filesystem, path = _open(uri)
    try:
        return pq.read_schema(path, filesystem=filesystem)
    except (pa.ArrowException, OSError) as error:
        msg = f"cannot read the Parquet footer of {uri!r} ({error})"
        raise FooterError(msg) from error


def required_in_every_file(fields: Sequence[dt.Field], files: Sequence[str]) -> tuple[dt.Field, ...]:
    """``fields`` (as Spark read them) made non-null wherever the footer of every one of ``files`` says REQUIRED.

    A column missing from one file, or of another shape there, stays as Spark
    read it; so does everything when there is no file.

    Raises:
        FooterError: a file's footer cannot be read.

    """
    schemas = [_schema(uri) for uri in files]
    if not schemas:
        return tuple(fields)
    return tuple(
        _narrowed(f, [s.field(f.name) if s.get_field_index(f.name) >= 0 else None for s in schemas]) for f in fields
    )


def _all_required(found: Sequence[pa.Field[Any] | None]) -> bool:
    return all(f is not None and not f.nullable for f in found)


def _narrowed(field: dt.Field, found: Sequence[pa.Field[Any] | None]) -> dt.Field:
    """``field`` with its nullability (and its parts') narrowed by the same field of each file (None: absent)."""
    return dt.Field(field.name, _narrowed_type(field.dtype, found), field.nullable and not _all_required(found))


def _narrowed_type(dtype: dt.DType, found: Sequence[pa.Field[Any] | None]) -> dt.DType:
    types = [f.type if f is not None else None for f in found]
    if isinstance(dtype, dt.Struct):
        structs = [t if isinstance(t, pa.StructType) else None for t in types]
        children = [
            _narrowed(child, [s.field(child.name) if s is not None and s.get_field_index(child.name) >= 0 else None
                              for s in structs])
            for child in dtype.fields
        ]  # fmt: skip
        return dt.Struct(tuple(children), dtype.model)
    if isinstance(dtype, dt.List):
        lists = (pa.ListType, pa.LargeListType, pa.FixedSizeListType)
        elements = [t.value_field if isinstance(t, lists) else None for t in types]
        contains_null = dtype.contains_null and not _all_required(elements)
        return dt.List(_narrowed_type(dtype.inner, elements), contains_null)
    if isinstance(dtype, dt.Map):
        values = [t.item_field if isinstance(t, pa.MapType) else None for t in types]
        value_contains_null = dtype.value_contains_null and not _all_required(values)
        return dt.Map(dtype.key, _narrowed_type(dtype.value, values), value_contains_null)
    return dtype
