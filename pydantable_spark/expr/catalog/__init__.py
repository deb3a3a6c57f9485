"""The function catalog: every function the façade offers, one declarative entry each.

``CATALOG`` maps every ``F`` name and alias to its ``Function`` entry;
``METHODS`` maps namespace methods (``"str.strip"``) to theirs. Entries live
in one module per category; ``spec`` says what an entry holds.
"""

from __future__ import annotations

from pydantable_spark.expr.catalog import (
    aggregates,
    bits,
    collections,
    conditional,
    csv_text,
    datetime,
    higher_order,
    json_text,
    math,
    session,
    sketches,
    strings,
    time_windows,
    variant,
    vectors,
    windows,
    xml,
)
from pydantable_spark.expr.catalog.spec import ABSENT, REQUIRED, Accepts, Args, Function, Kind, Param

__all__ = ["ABSENT", "CATALOG", "ENTRIES", "METHODS", "REQUIRED", "Accepts", "Args", "Function", "Kind", "Param"]

ENTRIES: tuple[Function, ...] = (
    *strings.ENTRIES,
    *datetime.ENTRIES,
    *time_windows.ENTRIES,
    *collections.ENTRIES,
    *higher_order.ENTRIES,
    *json_text.ENTRIES,
    *csv_text.ENTRIES,
    *variant.ENTRIES,
    *math.ENTRIES,
    *bits.ENTRIES,
    *conditional.ENTRIES,
    *aggregates.ENTRIES,
    *sketches.ENTRIES,
    *vectors.ENTRIES,
    *xml.ENTRIES,
    *session.ENTRIES,
    *windows.ENTRIES,
)
"""Every entry, category by category."""


def _index() -> tuple[dict[str, Function], dict[str, Function]]:
    by_name: dict[str, Function] = {}
    by_method: dict[str, Function] = {}
    for entry in ENTRIES:
        names = [entry.name, *entry.signature.aliases] if entry.signature.in_f else []
        for name in names:
            if name in by_name:
                msg = f"the catalog names {name!r} twice"
                raise AssertionError(msg)
            by_name[name] = entry
        for method in entry.signature.methods:
            if method in by_method:
                msg = f"the catalog gives method {method!r} twice"
                raise AssertionError(msg)
            by_method[method] = entry
    return by_name, by_method


CATALOG, METHODS = _index()
