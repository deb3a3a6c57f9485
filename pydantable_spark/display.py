"""Seeing data: ``show()``'s text table and the notebook HTML repr.

Both put each column's type (as the Python annotation it reads as, ``| None``
when nullable) under its name. Rows come from one bounded Spark job
(``limit(n + 1)``, to know whether more exist); ``repr()`` and ``df.schema``
never run one. ``PREVIEW_ROWS`` sets the notebook preview's length; 0 shows
the schema only, without a job.

```pycon
>>> from pydantable_spark import dtypes as dt
>>> from pydantable_spark.schema import Schema
>>> schema = Schema.of(dt.Field("id", dt.Int64(), False), dt.Field("name", dt.String(), True))
>>> print(text_table(schema, [(1, "Ada"), (2, None)], more=False, truncate=20))
┌─────┬────────────┐
│  id ┆ name       │
│ int ┆ str | None │
╞═════╪════════════╡
│   1 ┆ Ada        │
│   2 ┆ null       │
└─────┴────────────┘

```
"""

from __future__ import annotations

import datetime
import html
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantable_spark.schema import Schema

__all__ = ["PREVIEW_ROWS"]

PREVIEW_ROWS = 10
"""Rows in a notebook's preview of a frame (``_repr_html_``); 0 turns the preview (and its Spark job) off."""


def one_line(text: str) -> str:
    r"""``text`` with every character that is not printable shown as its Python escape.

    Line breaks (``\n``, ``\r``, ``\u2028``...), terminal control codes
    (``\x1b``), bidirectional overrides and invisible spaces in a name or a
    value cannot then start a line, rewrite one, or hide, in a view made for
    people (``explain()``, ``show()``, a printed schema): each line of the view
    is one line of text. Printable text, non-ASCII letters included, is kept;
    a backslash is kept as it is.

    >>> print(one_line("a\nSource [forged]\x1b[2K"))
    a\nSource [forged]\x1b[2K
    >>> one_line("café ok")
    'café ok'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _cell(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else value.isoformat()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_cell(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def _cut(text: str, width: int | None) -> str:
    if width is None or len(text) <= width:
        return text
    return text[: max(width - 1, 1)] + "…"


def text_table(schema: Schema, rows: Sequence[Sequence[Any]], *, more: bool, truncate: int | None) -> str:
    """The rows as a box-drawn table; numbers right-aligned; ``truncate`` cuts long cells."""
    names = [one_line(f.name) for f in schema]
    types = [python_name(f.dtype, nullable=f.nullable) for f in schema]
    cells = [[_cut(one_line(_cell(v)), truncate) for v in row] for row in rows]
    right = [isinstance(f.dtype, dt.Numeric) for f in schema]
    widths = [
        max([len(n), len(t), *(len(r[i]) for r in cells)]) for i, (n, t) in enumerate(zip(names, types, strict=True))
    ]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]
        return "│ " + " ┆ ".join(parts) + " │"

    out = ["┌" + "┬".join("─" * (w + 2) for w in widths) + "┐", line(names), line(types)]
    out.append("╞" + "╪".join("═" * (w + 2) for w in widths) + "╡")
    out += [line(r) for r in cells]
    out.append("└" + "┴".join("─" * (w + 2) for w in widths) + "┘")
    if more:
        out.append(f"only showing the first {len(rows)} rows")
    return "\n".join(out)


def html_table(title: str, schema: Schema, rows: Sequence[Sequence[Any]] | None, *, more: bool, limit: int) -> str:
    """The notebook view: a title, a header with names and types, and the preview rows if any."""
    esc = html.escape
    head = "".join(f"<th>{esc(f.name)}</th>" for f in schema)
    types = "".join(f"<td><code>{esc(python_name(f.dtype, nullable=f.nullable))}</code></td>" for f in schema)
    body = ""
    if rows:
        body = "".join("<tr>" + "".join(f"<td>{esc(_cell(v))}</td>" for v in row) + "</tr>" for row in rows)
    if rows is None:
        note = "schema only (pydantable_spark.display.PREVIEW_ROWS is 0: no Spark job ran)"
    else:
        shown = f"the first {len(rows)} rows" if more else f"all {len(rows)} rows"
        note = f"preview: {shown}, from one Spark job bounded by limit({limit})"
    return (
        f'<div class="pydantable-frame"><p><b>{esc(title)}</b> · {len(schema)} columns</p>'
        f"<table><thead><tr>{head}</tr><tr>{types}</tr></thead><tbody>{body}</tbody></table>"
        f"<p><small>{esc(note)}</small></p></div>"
    )
