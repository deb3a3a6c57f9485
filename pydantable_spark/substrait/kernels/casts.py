"""The cast kernel: ``CAST(x AS type)`` as Spark computes it under ANSI, for the casts DataFusion does otherwise.

The local engine casts natively only where no value can convert differently
(widening numbers, ``expressions._safe_cast``); every other cast is this
kernel, which refuses (``refusal``) the pairs of types it does not compute yet.

>>> from pydantable_spark import dtypes as dt
>>> refusal(dt.String(), dt.Int64()) is not None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantable_spark.substrait.kernels.spec import Scalar

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark import dtypes as dt
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["CAST", "refusal"]

_CASTS: dict[tuple[type[dt.DType], type[dt.DType]], Callable[[Site], Callable[[Any], Any]]] = {}
"""(source type class, target type class) → the maker of that conversion."""


def refusal(source: dt.DType, target: dt.DType) -> str | None:
    """Why the local engine does not cast ``source`` to ``target`` (None: the kernel does)."""
    if (type(source), type(target)) in _CASTS:
        return None
    return f"the local engine does not cast {source.sql_name} to {target.sql_name} yet"


def _make(site: Site) -> Callable[[Any], Any]:
    source, target = site.args[0].dtype, site.result.dtype
    return _CASTS[type(source), type(target)](site)


CAST = Scalar("cast", _make)
"""The kernel of every cast ``refusal`` accepts; its site's argument is the source, its result the target."""
