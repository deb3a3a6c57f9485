"""One parser for the arguments that name columns: a name, an expression, a selector, or a list of them.

Every frame method, window and function that takes columns asks here, so each
accepts the same forms and refuses the rest with the same kind of message:

* ``into_node``: a name (``str``) or an expression as an expression node;
  with ``scalars=True`` any other Python value is a literal (``coalesce``).
* ``items_of``: one item or a list/tuple of them, as a list.
* ``nodes_of``: names, expressions, selectors and lists of them, as nodes
  bound to a schema (a selector gives its columns in schema order).
* ``names_of``: names, column expressions and selectors, as column names that
  exist (an unknown one is ``UnknownColumnError`` with a did-you-mean).
* ``name_of``: one name or column expression, as its name.

>>> from pydantable_spark import F, Schema, cs, dtypes as dt
>>> schema = Schema.of(
...     dt.Field("id", dt.Int64(), False), dt.Field("name", dt.String(), False), dt.Field("score", dt.Float64(), True)
... )
>>> names_of(["id", cs.numeric(), F.col("name")], schema, "select()")
('id', 'score', 'name')
>>> name_of(F.col("id") + 1, "drop()")
Traceback (most recent call last):
...
pydantable_spark.errors.ArgumentTypeError: drop() takes column names or columns, not (id + 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark.errors import ArgumentTypeError, UnknownColumnError, shown
from pydantable_spark.expr.api import Expr, into_node
from pydantable_spark.expr.core import Column, Node, bind, render
from pydantable_spark.selectors import Selector

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pydantable_spark.schema import Schema

__all__ = ["into_node", "items_of", "name_of", "names_of", "nodes_of"]


def items_of(value: object, what: str) -> list[object]:
    """``value`` as a list of items: one name, expression or selector, or a list/tuple of them."""
    if isinstance(value, str | Expr | Selector):
        return [value]
    if isinstance(value, list | tuple):
        return list(value)
    msg = f"{what} takes a column name, a column, a selector or a list of them, got {shown(value)}"
    raise ArgumentTypeError(msg)


def nodes_of(items: Iterable[object], schema: Schema, what: str) -> list[Node]:
    """Names, expressions, selectors (and lists of them) as expression nodes bound to ``schema``."""
    flat: list[object] = []
    for item in items:
        if isinstance(item, list | tuple):
            flat.extend(item)
        elif isinstance(item, Selector):
            flat.extend(item.resolve(schema))
        else:
            flat.append(item)
    return [bind(into_node(item, what), schema) for item in flat]


def names_of(items: Iterable[object], schema: Schema, what: str) -> tuple[str, ...]:
    """Column names from names, column expressions and selectors, in the order given (each once)."""
    out: dict[str, None] = {}
    for item in items:
        if isinstance(item, Selector):
            out.update(dict.fromkeys(item.resolve(schema)))
            continue
        name = name_of(item, what, selectors=True)
        if name not in schema:
            raise UnknownColumnError(name, schema.names, where=what)
        out[name] = None
    return tuple(out)


def name_of(item: object, what: str, *, selectors: bool = False) -> str:
    """The name of a column given by name or as a column expression (``F.col("x")``, ``User.x``)."""
    if isinstance(item, str):
        return item
    if isinstance(item, Expr) and isinstance(item.node, Column):
        return item.node.name
    given = render(item.node) if isinstance(item, Expr) else shown(item)
    kinds = "column names, columns or selectors" if selectors else "column names or columns"
    msg = f"{what} takes {kinds}, not {given}"
    raise ArgumentTypeError(msg)
