r"""The kernel of ``to_csv``: a struct as the line Spark's CSV writer (univocity) makes of it (see ``spec``).

Measured on Spark 4.3, and reproduced for structs of plain values (numbers,
strings, booleans, dates, timestamps): a NULL field is empty; leading and
trailing white space (any character up to a space) is dropped; an empty
string is ``""``; a value holding a comma, a quote or a line break is quoted,
its quotes and backslashes escaped with a backslash; numbers, dates and
timestamps are written as in JSON (``text_values``); a first value starting with
``#`` is quoted. A line with nothing on it
(a struct of one NULL field) is NULL. Options but a one-character ``sep``,
bytes and nested fields are refused.

>>> csv_value(' a,"b" ')
'"a,\\"b\\""'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Literal
from pydantable_spark.substrait.kernels.spec import Scalar
from pydantable_spark.substrait.kernels.text_values import TEXT_TYPES, value_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "csv_value"]

_QUOTED_FOR = ('"', "\n", "\r")


def _trimmed(text: str) -> str:
    """Univocity drops white space at both ends of a value it writes: every character up to ``' '``."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def csv_value(text: str, separator: str = ",", *, first: bool = False) -> str:
    """A non-NULL value as it stands in the line: trimmed, ``""`` when empty, quoted where it must be.

    The first value of a line is quoted too where it starts with ``#`` (it would read as a comment).
    """
    value = _trimmed(text)
    if not value:
        return '""'
    if separator in value or any(c in value for c in _QUOTED_FOR) or (first and value.startswith("#")):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def _separator(options: Any) -> str | None:
    """The ``sep`` option: one character (None for another option or another separator, which are refused)."""
    given = {str(k).lower(): str(v) for k, v in options or ()}
    separator = given.pop("sep", ",")
    plain = len(separator) == 1 and separator > " " and separator not in ('"', "\\")
    return separator if plain and not given else None


def _refuse(call: Call) -> str | None:
    options = call.args[1].value if len(call.args) > 1 and isinstance(call.args[1], Literal) else ()
    if _separator(options) is None:
        return (
            "the local engine takes only a one-character sep among to_csv() options (no quote, backslash or white "
            f"space) yet; got {dict(options)}"
        )
    struct = call.args[0].type.dtype
    assert isinstance(struct, dt.Struct)
    other = next((f for f in struct if not isinstance(f.dtype, TEXT_TYPES)), None)
    if other is not None:
        return f"the local engine does not write a {other.dtype} field as CSV yet (to_csv(), field {other.name!r})"
    return None


def _to_csv(site: Site) -> Callable[[dict[str, Any]], str | None]:
    struct = site.args[0].dtype
    assert isinstance(struct, dt.Struct)
    texts = [value_text(f.dtype, site.session.tzinfo) for f in struct]
    separator = _separator(site.literals[1] if len(site.literals) > 1 else ())
    assert separator is not None

    def run(row: dict[str, Any], *_: Any) -> str | None:
        values = enumerate(zip(texts, row.values(), strict=True))
        line = separator.join("" if v is None else csv_value(t(v), separator, first=i == 0) for i, (t, v) in values)
        return line or None

    return run


KERNELS: tuple[Scalar, ...] = (Scalar("to_csv", _to_csv, refuse=_refuse),)
"""The CSV kernel (``schema_of_csv`` has none: Spark's inference is not reproduced)."""
