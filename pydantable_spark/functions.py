r"""``F``: typed functions under the names of ``pyspark.sql.functions``, with PySpark's argument order.

Every catalog entry (``pydantable_spark.expr.catalog``) is an ``F`` function
here, under its name and aliases; ``col``, ``lit``, ``when`` and ``coalesce``
are special forms (``expr.forms``). As in PySpark, a ``str`` passed where a
column goes is a column name; Python values are checked by type when the call
is made. Type checkers read the generated ``functions.pyi``.

```pycon
>>> from pydantable_spark import F
>>> F.upper("name")
Expr[?](upper(name))
>>> F.regexp_extract("name", r"(\w+)", 1)
Expr[?](regexp_extract(name, '(\\w+)', 1))

```
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.binding import call
from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.catalog.signatures import signature
from pydantable_spark.expr.forms import *  # noqa: F403 - the special forms are F functions too
from pydantable_spark.expr.forms import __all__ as _forms
from pydantable_spark.pyspark_names import function_error

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.catalog.spec import Function


def _function(entry: Function, name: str) -> Callable[..., Expr[Any]]:
    alias = None if name == entry.name else name

    def function(*args: object, **kwargs: object) -> Expr[Any]:
        return Expr(call(entry, args, kwargs, alias=alias))

    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = entry.docs.summary + ("" if alias is None else f"\n\nThe same as ``F.{entry.name}``.")
    function.__signature__ = signature(entry, name)  # type: ignore[attr-defined]
    return function


for _name, _entry in CATALOG.items():
    globals()[_name] = _function(_entry, _name)

__all__ = sorted({*_forms, *CATALOG})


def __getattr__(name: str) -> object:
    """A name ``F`` lacks: PySpark's spelling of a function answers what to write here, or why it is not offered.

    ``F.expr`` and the catalog's other ``NOT_OFFERED`` names give their reason,
    ``F.sumDistinct`` the snake_case ``F.sum_distinct`` (``pyspark_names``).
    """
    raise function_error(name, __all__)
