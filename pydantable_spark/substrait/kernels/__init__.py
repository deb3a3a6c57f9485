"""Spark's semantics of catalog functions and operators, in Python, for the local engine.

Each category module lists its kernels (``KERNELS``); ``kernel_of(call)``
finds the one for a catalog call, or None when the local engine has no kernel
for it or refuses this call (``refusal`` says why). What a kernel is, and how
it is proven equal to Spark, is in ``spec``; how DataFusion calls one, in
``pydantable_spark.substrait.udfs``.

>>> from pydantable_spark import F
>>> from pydantable_spark.expr.catalog import CATALOG
>>> "round" in KERNELS, len(KERNELS) >= 1
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark.substrait.kernels import (
    aggregates,
    arithmetic,
    binary,
    collections,
    conditional,
    csv_text,
    datetime,
    hashing,
    json_text,
    math,
    strings,
    vectors,
)
from pydantable_spark.substrait.kernels.spec import Aggregate, Kernel, Scalar, Session, Site, SparkError

if TYPE_CHECKING:
    from pydantable_spark.expr.call import Call

__all__ = [
    "KERNELS",
    "Aggregate",
    "Kernel",
    "Scalar",
    "Session",
    "Site",
    "SparkError",
    "kernel_of",
    "local_names",
    "refusal",
]


def _index(*modules: object) -> dict[str, Kernel]:
    found: dict[str, Kernel] = {}
    for module in modules:
        for kernel in module.KERNELS:  # type: ignore[attr-defined]
            assert kernel.name not in found, f"two kernels for {kernel.name}"
            found[kernel.name] = kernel
    return found


KERNELS: dict[str, Kernel] = _index(
    aggregates, binary, collections, conditional, csv_text, datetime, hashing, json_text, math, strings, vectors
)
"""Catalog entry name → its kernel."""

REFUSED: dict[str, str] = {name: why for module in (math, vectors) for name, why in module.REFUSED.items()}
"""Entries no kernel will compute, and why (Spark's answer depends on what Python cannot reproduce)."""

OPERATORS = arithmetic.OPERATORS
"""Operator kernels (``/``, ``%``, ``//``, decimal arithmetic Spark rounds), by the name the plan calls them."""


def local_names() -> list[str]:
    """The catalog's names the local engine runs (``F`` names and aliases; a method-only entry by its name).

    An entry runs where a kernel computes it or where Substrait's standard function, run by DataFusion, gives
    Spark's answer (``functions.CATALOG_FUNCTIONS``); some calls of it may still be refused by name.
    """
    from pydantable_spark.expr.catalog import CATALOG, ENTRIES
    from pydantable_spark.substrait.functions import CATALOG_FUNCTIONS

    native = {name for name, mapped in CATALOG_FUNCTIONS.items() if mapped.local}
    runs = {e.name for e in ENTRIES if e.name in KERNELS or e.name in native}
    names = {name for name, entry in CATALOG.items() if entry.name in runs}
    names |= {e.name for e in ENTRIES if e.name in runs and not e.signature.in_f}
    return sorted(names)


def refusal(call: Call) -> str | None:
    """Why the local engine cannot run ``call`` with a kernel (None: it can)."""
    kernel = KERNELS.get(call.function.name)
    if kernel is None:
        if call.function.name in REFUSED:
            return f"the local engine does not compute {call.function.name}(): {REFUSED[call.function.name]}"
        return f"the local engine has no kernel for {call.function.name}() yet"
    if kernel.refuse is not None:
        return kernel.refuse(call)
    return None


def kernel_of(call: Call) -> Kernel | None:
    """The kernel computing ``call`` as Spark does, or None (see ``refusal`` for why)."""
    return KERNELS[call.function.name] if refusal(call) is None else None
