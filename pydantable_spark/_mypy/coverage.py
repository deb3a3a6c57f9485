"""What the plugin replays statically, name by name: the registry its dispatch reads and a test keeps whole.

Every public name of the surfaces a pipeline calls (the frame's methods, its
mixins' included; ``GroupBy``; the join sides; ``Window`` and window specs;
``merge``; ``testing``; ``F``; the expression namespaces; the selectors) is
either ``Replayed`` (the plugin runs the runtime's own code on static stand-ins:
``by`` says how, ``partial`` what of the call stays run-time only) or
``RunTimeOnly`` (with the reason). ``tests/typing/test_coverage.py`` enumerates
the public names by introspection and fails on a name not classified here, on
a classified name that is gone, and on a replayed name the plugin has no hook
for; docs/typing.md lists the run-time-only names with their reasons
(``python -m pydantable_spark._mypy.coverage`` prints that list).

The dispatch reads it: ``replay.frame_methods()``, ``GROUP_BY_METHODS`` and
``PIVOTS`` are the frame's and ``GroupBy``'s names replayed ``by=PLAN``, and the
inexact selectors are those marked ``inexact``. The F functions and namespace
methods are the catalog's, replayed by its rules (``CATALOG_RULES``); the hooks
are built from the same catalog, and the test asks the plugin for each one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "CALL",
    "CATALOG_RULES",
    "HOOK",
    "PLAN",
    "SURFACES",
    "Entry",
    "Replayed",
    "RunTimeOnly",
    "Surface",
    "catalog_surface",
    "replayed_names",
    "summary",
]

PLAN = "the runtime's method, run on a frame of the static schema (replay.check)"
CALL = "the call, evaluated with the runtime's API on its arguments' values (evaluate)"
CATALOG_RULES = "the catalog entry's type rules on the static types, then the call evaluated"
HOOK = "a hook of its own that runs the runtime's check"


@dataclass(frozen=True, slots=True)
class Replayed:
    """The plugin runs the runtime's code for this name (``by``); ``partial``: what stays run-time only."""

    by: str
    partial: str = ""
    inexact: bool = False  # its result depends on what mypy cannot know (integer widths): checked, not reported


@dataclass(frozen=True, slots=True)
class RunTimeOnly:
    """The plugin does not replay this name; ``reason`` says why."""

    reason: str


Entry = Replayed | RunTimeOnly


@dataclass(frozen=True, slots=True)
class Surface:
    """One public surface: where its names live (``owner``, the runtime's dotted path) and their entries."""

    title: str
    owner: str
    entries: Mapping[str, Entry]


# --- reasons, once each -----------------------------------------------------------------------------

_ROWS = RunTimeOnly(
    "reads the rows (a Spark job, or the local engine's run): what it raises depends on the data; the local "
    "engine's refusals come from the plan's Substrait export, which the plugin does not load"
)
_WRITES = RunTimeOnly("writes the rows (a Spark job): a path, a table and the data exist at run time only")
_INPUT = RunTimeOnly("builds a frame from data or a source the plugin does not have (typed by its model)")
_READ = RunTimeOnly("reads files or a table of the session: their schema exists at run time only")
_EAGER = RunTimeOnly("acts on Spark when called (caches, checkpoints or frees data): no plan to check")
_PROPERTY = RunTimeOnly("a property: nothing to check when read (its declared type is what mypy needs)")
_COUNTED = RunTimeOnly("a property computed by a Spark job (it counts rows)")
_JOB = RunTimeOnly("starts a background job running a callable the plugin cannot see")
_STREAM = RunTimeOnly("streams the rows (a Spark job per batch)")
_RAISES_NOTHING = RunTimeOnly("returns the plan's text; the frame's construction was checked where it was built")

_STREAM_SOURCE = RunTimeOnly(
    "opens a stream when its query starts: the model is its schema, and a stream's plan is checked at run time"
)
_STREAM_SINK = RunTimeOnly(
    "starts a streaming query (Spark jobs per micro-batch) into a path, a table, a Kafka topic, a memory table or a "
    "function"
)

_PLAN = Replayed(PLAN)
_CALL = Replayed(CALL)

FRAME_ENTRIES: dict[str, Entry] = {
    # relational methods that only build a plan: replayed on the static schema
    **dict.fromkeys(
        [
            "cache",
            "clip",
            "coalesce",
            "concat",
            "drop",
            "drop_duplicate_groups",
            "drop_duplicates_within_watermark",
            "drop_nulls",
            "duplicated",
            "except_all",
            "explode",
            "explode_all",
            "explode_outer",
            "fill_null",
            "filter",
            "group_by",
            "group_by_dynamic",
            "head",
            "hint",
            "inline",
            "inline_outer",
            "intersect",
            "intersect_all",
            "join",
            "limit",
            "melt",
            "move",
            "offset",
            "persist",
            "pivot_longer",
            "posexplode",
            "posexplode_outer",
            "rename",
            "rename_prefix",
            "rename_replace",
            "rename_suffix",
            "rename_with_selector",
            "reorder_columns",
            "repartition",
            "rolling_agg",
            "sample",
            "select",
            "select_first",
            "select_last",
            "sort",
            "subtract",
            "union",
            "union_by_name",
            "unique",
            "unnest",
            "unnest_all",
            "unpivot",
            "with_columns",
            "with_row_count",
            "with_watermark",
        ],
        _PLAN,
    ),
    "pivot": Replayed(PLAN, partial="a call without pivot_values= (its columns come from the data)"),
    "pivot_wider": Replayed(PLAN, partial="a call without pivot_values= (its columns come from the data)"),
    "as_model": Replayed(HOOK, partial="the run-time NULL check (null_check=), which fails on data"),
    "merge_into": Replayed(HOOK, partial="the target table's own schema (the frame's model stands for it)"),
    "from_rows": Replayed(
        HOOK, partial="the rows' values (pydantic validates them); rows of another model are reported"
    ),
    # reading rows
    **dict.fromkeys(
        [
            "acollect",
            "ato_arrow",
            "ato_dict",
            "ato_polars",
            "collect",
            "collect_batches",
            "count",
            "describe",
            "info",
            "show",
            "to_arrow",
            "to_dict",
            "to_pandas",
            "to_polars",
            "to_spark",
            "validate",
            "value_counts",
        ],
        _ROWS,
    ),
    "astream": _STREAM,
    "stream": _STREAM,
    "submit": _JOB,
    **dict.fromkeys(("write_csv", "write_delta", "write_json", "write_orc", "write_parquet", "save_as_table"), _WRITES),
    **dict.fromkeys(("checkpoint", "local_checkpoint", "unpersist"), _EAGER),
    **dict.fromkeys(("from_arrow", "from_columns", "from_pandas", "from_polars", "from_spark"), _INPUT),
    **dict.fromkeys(("read_csv", "read_delta", "read_json", "read_orc", "read_parquet", "read_table"), _READ),
    **dict.fromkeys(("columns", "dtypes", "is_streaming", "model", "plan", "schema"), _PROPERTY),
    **dict.fromkeys(
        ("read_stream_csv", "read_stream_json", "read_stream_kafka", "read_stream_parquet", "read_stream_rate"),
        _STREAM_SOURCE,
    ),
    **dict.fromkeys(
        (
            "foreach_batch",
            "write_stream_csv",
            "write_stream_delta",
            "write_stream_json",
            "write_stream_kafka",
            "write_stream_memory",
            "write_stream_parquet",
            "write_stream_table",
        ),
        _STREAM_SINK,
    ),
    **dict.fromkeys(("empty", "shape"), _COUNTED),
    "explain": _RAISES_NOTHING,
}
"""``DataFrame``'s public names (its mixins' too), but PySpark's spellings (``pyspark_names.FRAME``)."""

GROUP_BY_ENTRIES: dict[str, Entry] = {
    "agg": _PLAN,
    "count": _PLAN,
    "null_dropped_keys": _PROPERTY,
}

JOIN_SIDE_ENTRIES: dict[str, Entry] = {
    "col": Replayed(HOOK),  # relational.join_side_column: the column of that side, checked by the join
}

WINDOW_ENTRIES: dict[str, Entry] = {
    "order_by": _CALL,
    "partition_by": _CALL,
    "unbounded": _CALL,
}

WINDOW_SPEC_ENTRIES: dict[str, Entry] = {
    "order_by": _CALL,
    "partition_by": _CALL,
    "over": _CALL,
    "range_between": _CALL,
    "rows_between": _CALL,
}

MERGE_ENTRIES: dict[str, Entry] = {
    **dict.fromkeys(("delete", "insert", "insert_all", "update", "update_all"), _CALL),
}
"""``merge``'s clause functions (``source``/``target`` are ``MergeSide`` values; their ``col`` is below)."""

MERGE_SIDE_ENTRIES: dict[str, Entry] = {
    "col": Replayed(HOOK),  # merge.side_column: the side's column, checked by merge_into
}

TESTING_ENTRIES: dict[str, Entry] = {
    "assert_frame_equal": Replayed(
        HOOK, partial="the rows: compared at run time; a schema difference is the assertion's own failure"
    ),
    "build_frame": Replayed(
        HOOK,
        partial="the values, nested rows' keys and a field given by its name and its alias; models that set "
        "model_config",
    ),
}

SELECTOR_ENTRIES: dict[str, Entry] = {
    **dict.fromkeys(
        [
            "all",
            "boolean",
            "by_name",
            "contains",
            "ends_with",
            "float",
            "integer",
            "list",
            "matches",
            "numeric",
            "starts_with",
            "string",
            "struct",
            "temporal",
        ],
        _CALL,
    ),
    "by_dtype": Replayed(CALL, partial="integer and decimal widths (mypy's int is a bigint)", inexact=True),
}

FORM_ENTRIES: dict[str, Entry] = {
    "col": _CALL,
    "lit": Replayed(HOOK),
    "when": Replayed(HOOK),
    "coalesce": Replayed(HOOK),
    "from_csv": Replayed(HOOK),
    "from_json": Replayed(HOOK),
    "from_xml": Replayed(HOOK),
    "udf": RunTimeOnly(
        "wraps a Python function the plugin does not run; each call of the UDF is replayed on a stand-in typed by "
        "the function's annotations (evaluate.udf_stand_in)"
    ),
}
"""``F``'s special forms (the names of ``F`` that are no catalog entry)."""

CATALOG_PARTIAL: dict[str, str] = {
    "aggregate": "that its merge returns the accumulator's type (mypy's int is a bigint, the runtime may see an int)",
}
"""Catalog entries (by entry name) part of whose checks stay run-time only."""


def catalog_surface(title: str, owner: str, names: Mapping[str, str]) -> Surface:
    """The surface of catalog names (``F``'s, or the namespaces' ``"str.upper"``), each by its entry's name."""
    entries: dict[str, Entry] = {
        name: Replayed(CATALOG_RULES, partial=CATALOG_PARTIAL.get(entry, "")) for name, entry in names.items()
    }
    return Surface(title, owner, entries)


def _catalog_surfaces() -> tuple[Surface, Surface]:
    from pydantable_spark.expr.catalog import CATALOG, METHODS

    functions = catalog_surface("F (catalog functions)", "pydantable_spark.functions", {
        name: entry.name for name, entry in CATALOG.items()
    })  # fmt: skip
    namespaces = catalog_surface("expression namespaces", "pydantable_spark.expr.namespaces", {
        name: entry.name for name, entry in METHODS.items()
    })  # fmt: skip
    return functions, namespaces


_F, _NAMESPACES = _catalog_surfaces()

_CHECK_DECLARED = Replayed(
    HOOK,
    partial=(
        "a check built outside its model's checks classmethod (a helper's, a variable's) is resolved only when the "
        "class is defined; one that reads a column of a type the plugin does not know is checked for its names only"
    ),
)
"""``_mypy.checks``: the constructor evaluated on the written arguments, then, in a model's ``checks``
classmethod, the runtime's resolver (``checks.declare.resolve_check``) on the model's static schema."""

CHECK_ENTRIES: dict[str, Entry] = {
    **dict.fromkeys(["agg", "primary_key", "references", "row", "rows", "unique"], _CHECK_DECLARED),
    "label": _PROPERTY,
}

SURFACES: tuple[Surface, ...] = (
    Surface("DataFrame", "pydantable_spark.frame.DataFrame", FRAME_ENTRIES),
    Surface("GroupBy", "pydantable_spark.groupby.GroupBy", GROUP_BY_ENTRIES),
    Surface("join sides (left, right)", "pydantable_spark.expr.sides.JoinSide", JOIN_SIDE_ENTRIES),
    Surface("Window", "pydantable_spark.expr.windowspec.Window", WINDOW_ENTRIES),
    Surface("window specs", "pydantable_spark.expr.windowspec.WindowSpec", WINDOW_SPEC_ENTRIES),
    Surface("merge", "pydantable_spark.merge", MERGE_ENTRIES),
    Surface("merge sides (source, target)", "pydantable_spark.merge.MergeSide", MERGE_SIDE_ENTRIES),
    Surface("testing", "pydantable_spark.testing", TESTING_ENTRIES),
    Surface("Check", "pydantable_spark.checks.declare.Check", CHECK_ENTRIES),
    Surface("selectors (cs)", "pydantable_spark.selectors", SELECTOR_ENTRIES),
    Surface("F (special forms)", "pydantable_spark.expr.forms", FORM_ENTRIES),
    _F,
    _NAMESPACES,
)
"""Every surface, in the order docs/typing.md lists them."""


def replayed_names(entries: Mapping[str, Entry], by: str) -> frozenset[str]:
    """The names of ``entries`` replayed ``by`` this way."""
    return frozenset(name for name, entry in entries.items() if isinstance(entry, Replayed) and entry.by == by)


def summary() -> str:
    """Per surface: how many names are replayed (wholly / partly) and which are run-time only, with the reasons.

    A name replayed partly is listed with what of it stays run-time only.
    """
    lines = []
    for surface in SURFACES:
        replayed = {n: e for n, e in surface.entries.items() if isinstance(e, Replayed)}
        partly = {n: e.partial for n, e in replayed.items() if e.partial}
        only = {n: e.reason for n, e in surface.entries.items() if isinstance(e, RunTimeOnly)}
        lines.append(
            f"{surface.title}: {len(surface.entries)} public, {len(replayed)} replayed ({len(partly)} partly), "
            f"{len(only)} run-time only"
        )
        lines.extend(f"  partly {names}; at run time only: {why}" for why, names in _grouped(partly))
        lines.extend(f"  run-time only {names}: {why}" for why, names in _grouped(only))
    return "\n".join(lines) + "\n"


def _grouped(reasons: Mapping[str, str]) -> list[tuple[str, str]]:
    by_reason: dict[str, list[str]] = {}
    for name, reason in reasons.items():
        by_reason.setdefault(reason, []).append(name)
    return [(reason, ", ".join(sorted(names))) for reason, names in by_reason.items()]


if __name__ == "__main__":
    print(summary(), end="")
