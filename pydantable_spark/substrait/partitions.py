"""Partition directories (``k=v``) as Spark discovers them, for the local read of files (``substrait.files``).

Spark reads a directory ``k=v`` under the read's root as a column ``k`` and
infers its type from the values (``PartitioningUtils.inferPartitionColumnValue``):
an integer is an ``int`` (a ``bigint`` past 32 bits), a number with a fraction a
``double``, ``yyyy-MM-dd`` a ``date``, ``__HIVE_DEFAULT_PARTITION__`` NULL, other
text a ``string``; directories whose values infer differently take the wider
type, or ``string`` (a ``bigint`` beside a ``double`` too), each value then
read from its directory name as that type (``007`` beside ``a`` is ``'007'``); a
column of NULLs only is Spark's ``void``, which no model maps. ``discover``
follows those rules for the values whose reading it is sure of and refuses the
others (``UnsupportedEngineError``, naming the directory), so a local read never
types a partition otherwise than Spark.

>>> [f"{f.name}: {f.dtype}" for f in discover([(("k", "1"),), (("k", "2"),)]).fields]
['k: int']
>>> discover([(("k", "007"),), (("k", "a"),)]).values
[('007',), ('a',)]
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError, UnsupportedTypeError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["DEFAULT_PARTITION", "Partitions", "discover", "unescape"]

DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
"""The directory value Spark writes for NULL (and reads as NULL)."""

_INTEGER = re.compile(r"[+-]?[0-9]+")
_FRACTION = re.compile(r"[+-]?[0-9]+\.[0-9]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_HEX = frozenset("0123456789abcdefABCDEF")
_JAVA_TRIMMED = "".join(chr(c) for c in range(33))
"""What Java's ``String.trim`` removes (``Double.parseDouble`` trims its text first)."""

Spelling = tuple[tuple[str, str], ...]
"""One leaf directory's partition directories from the root down: (column name, raw value) as written."""


@dataclass(frozen=True, slots=True)
class Partitions:
    """The partition columns (all nullable, in directory order) and each leaf directory's values, in input order."""

    fields: tuple[dt.Field, ...]
    values: list[tuple[Any, ...]]


def discover(leaves: Sequence[Spelling]) -> Partitions:
    """The partition columns of the leaf directories ``leaves`` (each a spelling), typed as Spark types them."""
    names = {tuple(unescape(name) for name, _ in leaf) for leaf in leaves}
    if len(names) > 1:
        shown = "; ".join("/".join(f"{n}=..." for n in sorted_names) or "(none)" for sorted_names in sorted(names))
        msg = (
            f"the local read does not take directories partitioned in different ways ({shown}); Spark refuses "
            "them too (conflicting directory structures): read each part on its own"
        )
        raise UnsupportedEngineError(msg)
    columns = next(iter(names), ())
    for column in columns:
        if not column or column.startswith(("_", ".")) or columns.count(column) > 1:
            msg = f"the local read does not take the partition directory name {column!r}; read the files on Spark"
            raise UnsupportedEngineError(msg)
    if len({c.lower() for c in columns}) < len(columns):
        msg = f"the local read does not take partition columns that differ only in case ({', '.join(columns)})"
        raise UnsupportedEngineError(msg)
    inferred = [[_infer(leaf[i][1], leaf[i][0]) for leaf in leaves] for i in range(len(columns))]
    fields = []
    resolved = []
    for name, found in zip(columns, inferred, strict=True):
        kind: dt.DType | None = None
        for dtype, _ in found:
            kind = _wider(kind, dtype)
        if kind is None:  # a column of NULLs only: Spark's void
            raise UnsupportedTypeError.of_spark(name, "void")
        fields.append(dt.Field(name, kind, True))
        resolved.append([_value(raw, kind) for _, raw in found])
    values = [tuple(column[row] for column in resolved) for row in range(len(leaves))]
    return Partitions(tuple(fields), values)


def _infer(raw: str, column: str) -> tuple[dt.DType | None, str | None]:
    """A directory value's type as Spark infers it (None: NULL) and its text, or a refusal naming it."""
    if raw == DEFAULT_PARTITION:
        return None, None
    if _INTEGER.fullmatch(raw):
        number = int(raw)
        if dt.Int32.holds(number):
            return dt.Int32(), raw
        if dt.Int64.holds(number):
            return dt.Int64(), raw
    elif _FRACTION.fullmatch(raw):
        return dt.Float64(), raw
    elif _DATE.fullmatch(raw):
        try:
            datetime.date.fromisoformat(raw)
        except ValueError:
            pass
        else:
            return dt.Date(), raw
    elif _plainly_text(raw):
        return dt.String(), raw
    msg = (
        f"the local read does not type the partition directory {column}={raw}: Spark infers a type from its "
        "value by rules (numbers, dates, timestamps in several spellings) the local read reproduces only for "
        "integers, decimals like 1.5, yyyy-MM-dd dates and text that starts with no digit; read the files on Spark"
    )
    raise UnsupportedEngineError(msg)


def _plainly_text(raw: str) -> bool:
    """Whether none of Spark's number, date and timestamp parsers can read ``raw``, escaped or not."""
    if not raw:
        return False
    for text in (raw, unescape(raw)):
        start = text.lstrip(_JAVA_TRIMMED)
        start = start[1:] if start[:1] in ("+", "-") else start
        if not start or start[0].isdecimal() or start[0] == "." or start.startswith(("NaN", "Infinity")):
            return False
    return True


def unescape(text: str) -> str:
    """A directory name's ``%XX`` escapes decoded, as Spark's ``unescapePathName`` decodes them.

    >>> unescape("a%3Ab%2")
    'a:b%2'
    """
    out = []
    i = 0
    while i < len(text):
        char = text[i]
        code = text[i + 1 : i + 3]
        if char == "%" and len(code) == 2 and set(code) <= _HEX:
            out.append(chr(int(code, 16)))
            i += 3
            continue
        if char == "%" and len(code) == 2 and (code[0] == "+" or any(c.isdecimal() and c not in _HEX for c in code)):
            msg = f"the local read does not decode the escape %{code} in partition directory {text!r} as Java would"
            raise UnsupportedEngineError(msg)
        out.append(char)
        i += 1
    return "".join(out)


def _wider(left: dt.DType | None, right: dt.DType | None) -> dt.DType | None:
    """Spark's ``findWiderTypeForPartitionColumn`` over the types ``_infer`` gives."""
    if left is None or left == right:
        return right
    if right is None:
        return left
    pair = {type(left), type(right)}
    if pair == {dt.Int32, dt.Int64}:
        return dt.Int64()
    if pair == {dt.Int32, dt.Float64}:
        return dt.Float64()
    return dt.String()


def _value(raw: str | None, kind: dt.DType) -> Any:
    """A directory's text read as the column's type, as Spark reads it (``castPartValueToDesiredType``)."""
    if raw is None:
        return None
    if isinstance(kind, dt.Integral):
        return int(raw)
    if isinstance(kind, dt.Float64):
        return float(raw)
    if isinstance(kind, dt.Date):
        return datetime.date.fromisoformat(raw)
    return unescape(raw)
