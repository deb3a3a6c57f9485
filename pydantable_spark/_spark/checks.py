"""A model's constraints and dataset-level checks → one Spark job of counts, and one more for examples.

``validate`` extends the constraint job of ``pydantable_spark._spark.constraints``:

* row checks are counted in its global aggregate, beside the constraints
  (``count_if(NOT coalesce(predicate, FALSE))``: FALSE and NULL violate);
* ``rows`` and ``agg`` checks are read from the same aggregate (``count(1)``,
  the check's own expression and the values of its aggregates);
* each ``unique``/``primary_key`` check is a grouping by its key, reduced to
  one row (duplicated groups, their rows, and the most repeated keys as
  examples, ``max_by(key, n, k)`` over the duplicated groups only);
* each ``references`` check is one left-anti join of the rows whose
  referencing columns hold no NULL with the referenced frame's key columns
  (Spark broadcasts the smaller side when it is small), whose result (the
  violating rows only) is grouped by the referencing columns and reduced to
  one row as a key's groups are;
* those rows and the global aggregate's are joined into one row: one collect, one job;
* when a constraint or a row check is violated and examples are asked for, a
  second job picks them among the violating rows, as ``validate`` of the
  constraints does.

A write or a MERGE runs the same counting job before it writes
(``checked_dataset``): a violated ``fail`` check raises ``CheckError``, a
violated ``drop`` check becomes a flag column of the written plan
(``drop_flags``: its predicate, or one left join with the referenced keys)
that the write filters on or quarantines by; a read's ``fail`` row checks
join its per-row filter (``raising_rows``).

Every expression reaches Spark as the SQL of ``pydantable_spark._spark.sql``
(literals as typed values, names as Spark names); check names never do.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pydantable_spark._spark.constraints import (
    CHECK_MARK,
    _example_sql,
    _named,
    _report,
    by_sql,
    failing_at_first,
    violation_sql,
)
from pydantable_spark._spark.sql import column_sql, internal_sql, string_sql, to_sql
from pydantable_spark.constraints import CheckResult, ValidationReport, examples_text
from pydantable_spark.errors import CheckError

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.checks.declare import Check
    from pydantable_spark.constraints import SparkConstraints
    from pydantable_spark.expr.core import Node
    from pydantable_spark.plan.nodes import Plan

__all__ = [
    "check_error",
    "checked_dataset",
    "drop_flags",
    "raising_rows",
    "row_violation_sql",
    "validate",
    "without_dropped",
]

log = logging.getLogger("pydantable_spark")


def row_violation_sql(check: Check) -> str:
    """SQL that is TRUE exactly when a row violates the row check (its predicate is FALSE or NULL)."""
    assert check.expr is not None
    return f"(NOT coalesce({to_sql(check.expr)}, FALSE))"


def _aggregates(node: Node) -> list[Node]:
    """The aggregate calls of an ``agg`` check (none is nested in another: the check was refused otherwise)."""
    found: list[Node] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if current.is_aggregate:
            found.append(current)
        else:
            pending.extend(reversed(current.kids))
    return found


def _key_struct(columns: Sequence[str], extra: str = "") -> str:
    items = [f"{string_sql(name)}, {column_sql(name)}" for name in columns]
    return "named_struct(" + ", ".join([*items, *([extra] if extra else [])]) + ")"


def _present(columns: Sequence[str]) -> str:
    return " AND ".join(f"{column_sql(name)} IS NOT NULL" for name in columns)


def _unique_row(named: SparkDataFrame, check: Check, i: int, k: int) -> SparkDataFrame:
    """One row: the duplicated key groups of ``check``, their rows, and up to ``k`` of the most repeated keys."""
    groups = _groups(named.filter(_present(check.columns)), check.columns)
    return _reduced(groups.filter("`__pydantable_n` > 1"), check.columns, i, k)


def _groups(rows: SparkDataFrame, columns: Sequence[str]) -> SparkDataFrame:
    """``rows`` grouped by ``columns``, with the rows of each group (``__pydantable_n``)."""
    return rows.groupBy(*(column_sql(name) for name in columns)).count().withColumnRenamed("count", "__pydantable_n")


def _reduced(groups: SparkDataFrame, columns: Sequence[str], i: int, k: int) -> SparkDataFrame:
    """One row: the rows of ``groups`` (``__pydantable_k{i}``) and up to ``k`` of the largest groups' keys."""
    example = _key_struct(columns, f"{string_sql('rows')}, `__pydantable_n`")
    items = [f"coalesce(sum(`__pydantable_n`), 0) AS `__pydantable_k{i}`"]
    if k > 0:
        items.append(f"{by_sql('max_by', example, '`__pydantable_n`', k, groups.sparkSession)} AS `__pydantable_ke{i}`")
    return groups.selectExpr(*items)


def _reference_row(named: SparkDataFrame, reference: SparkDataFrame, check: Check, i: int, k: int) -> SparkDataFrame:
    """One row: the rows of ``named`` whose referencing columns match no key of ``reference``, and examples.

    One left-anti join on equal values (the referenced side's key columns
    renamed to internal names, so no name is on both sides); rows with a NULL
    in the referencing columns are no violation (SQL's ``FOREIGN KEY``) and
    stay out of the join.
    """
    from pyspark.sql import functions as sf

    names = [f"__pydantable_rk{j}" for j in range(len(check.referenced))]
    keys = reference.selectExpr(
        *(f"{column_sql(c.name)} AS {internal_sql(n)}" for c, n in zip(check.referenced, names, strict=True))
    )
    pairs = [f"{column_sql(c)} = {internal_sql(n)}" for c, n in zip(check.columns, names, strict=True)]
    missing = named.filter(_present(check.columns)).join(keys, on=sf.expr(" AND ".join(pairs)), how="left_anti")
    return _reduced(_groups(missing, check.columns), check.columns, i, k)


def validate(
    frame: SparkDataFrame,
    constraints: SparkConstraints,
    checks: Sequence[Check],
    key: Sequence[str],
    examples: int,
    references: Mapping[str, SparkDataFrame] | None = None,
    *,
    row_examples: Collection[str] | None = None,
) -> ValidationReport:
    """Every constraint and check over ``frame``: one job of counts (and keys' examples), one more for row examples.

    ``references``: the referenced frame of each ``references`` check, by the check's name.
    ``row_examples``: the names of the row checks whose violations get
    example rows (None: every row check's); a write asks for its ``fail``
    checks' only, so that the second job runs only when the write fails.
    """
    from pydantable_spark._spark.constraints import _counts

    named, _ = _named(frame)
    items = _counts(constraints)
    rows = [(i, c) for i, c in enumerate(checks) if c.kind == "row"]
    for i, c in rows:
        items.append(f"count_if({row_violation_sql(c)}) AS `__pydantable_r{i}`")
    for i, c in enumerate(checks):
        if c.kind == "agg":
            assert c.expr is not None
            items.append(f"coalesce({to_sql(c.expr)}, FALSE) AS `__pydantable_a{i}`")
            items += [f"{to_sql(a)} AS `__pydantable_a{i}_{j}`" for j, a in enumerate(_aggregates(c.expr))]
        elif c.kind == "primary_key":
            nulls = " OR ".join(f"{column_sql(name)} IS NULL" for name in c.columns)
            items.append(f"count_if({nulls}) AS `__pydantable_p{i}`")
    joined = named.selectExpr(*items)
    for i, c in enumerate(checks):
        if c.kind in ("unique", "primary_key"):
            joined = joined.crossJoin(_unique_row(named, c, i, examples))
        elif c.kind == "references":
            assert references is not None
            reference, _ = _named(references[c.name])
            joined = joined.crossJoin(_reference_row(named, reference, c, i, examples))
    values: dict[str, Any] = joined.collect()[0].asDict(recursive=False)

    violated = [i for i in range(len(constraints.checked)) if values[f"__pydantable_c{i}"]]
    violated_rows = [
        (i, c) for i, c in rows if values[f"__pydantable_r{i}"] and (row_examples is None or c.name in row_examples)
    ]
    if examples > 0 and (violated or violated_rows):
        values |= _row_examples(named, constraints, violated, violated_rows, key, examples)
    report = _report(values, constraints, key)
    results = tuple(_result(values, i, c) for i, c in enumerate(checks))
    return ValidationReport(report.rows, report.results, report.python_only, report.key, results)


def _row_examples(
    named: SparkDataFrame,
    constraints: SparkConstraints,
    violated: list[int],
    rows: list[tuple[int, Check]],
    key: Sequence[str],
    k: int,
) -> dict[str, Any]:
    """Up to ``k`` violating rows of each violated constraint and row check, picked among the violating rows only."""
    flags = [(f"__pydantable_v{i}", violation_sql(constraints.checked[i]), f"__pydantable_e{i}",
              _example_sql(constraints.checked[i], key)) for i in violated]  # fmt: skip
    for i, c in rows:
        assert c.expr is not None
        shown = list(dict.fromkeys([*key, *(ref.name for ref in c.expr.refs)]))
        flags.append((f"__pydantable_rv{i}", row_violation_sql(c), f"__pydantable_re{i}", _key_struct(shown)))
    picked = named.filter(" OR ".join(sql for _, sql, _, _ in flags))
    flagged = picked.selectExpr(*(f"{sql} AS `{flag}`" for flag, sql, _, _ in flags), *(
        f"{example} AS `{name}_x`" for _, _, name, example in flags))  # fmt: skip
    items = [f"{by_sql('min_by', f'IF(`{flag}`, `{name}_x`, NULL)', f'IF(`{flag}`, 0, NULL)', k, named.sparkSession)}"
             f" AS `{name}`" for flag, _, name, _ in flags]  # fmt: skip
    return flagged.selectExpr(*items).collect()[0].asDict()


def _rows_of(found: Any) -> tuple[dict[str, Any], ...]:
    return tuple(row.asDict(recursive=True) if hasattr(row, "asDict") else dict(row) for row in found or [])


def _result(values: dict[str, Any], i: int, check: Check) -> CheckResult:
    rows = int(values["__pydantable_rows"] or 0)
    if check.kind == "row":
        return CheckResult(check, int(values[f"__pydantable_r{i}"] or 0), _rows_of(values.get(f"__pydantable_re{i}")))
    if check.kind == "rows":
        low = check.min if check.min is not None else 0
        high = check.max if check.max is not None else rows
        bad = not low <= rows <= high
        return CheckResult(check, int(bad), ({"rows": rows},) if bad else ())
    if check.kind == "agg":
        assert check.expr is not None
        bad = not values[f"__pydantable_a{i}"]
        shown = {a.render(): values[f"__pydantable_a{i}_{j}"] for j, a in enumerate(_aggregates(check.expr))}
        return CheckResult(check, int(bad), (shown,) if bad else ())
    duplicated = int(values[f"__pydantable_k{i}"] or 0)
    nulls = int(values.get(f"__pydantable_p{i}") or 0)
    return CheckResult(check, duplicated + nulls, _rows_of(values.get(f"__pydantable_ke{i}")))


# --- on write: what a violated check does to the written rows -------------------------------------


def check_error(report: ValidationReport, action: str, outcome: str) -> CheckError | None:
    """The ``CheckError`` of the ``fail`` checks ``report`` found violated (None if none was).

    The message names each such check, what it checks, its count and its
    examples, then ``outcome`` (what became of the write).
    """
    failed = report.failed_checks
    if not failed:
        return None
    parts = []
    for r in failed:
        shown = f" (examples: {examples_text(r)})" if r.examples else ""
        parts.append(f"check {r.check.name!r} ({r.check.label}) failed: {r.count} violation(s){shown}")
    return CheckError(f"{action}: {'; '.join(parts)}{outcome}", report=report)


EXAMPLES = 5
"""How many examples a write's or a MERGE's check results (and its ``CheckError``) show per check."""


def checked_dataset(
    frame: SparkDataFrame,
    dataset: Sequence[Check],
    references: Mapping[str, Plan],
    action: str,
    outcome: str,
    *,
    reported: bool,
) -> tuple[tuple[CheckResult, ...], SparkDataFrame, list[tuple[str, str]]]:
    """The dataset checks of a write or a MERGE over ``frame``: counted in one action, then acted on.

    ``references``: the plan of each ``references`` check's rows, by the
    check's name. A violated ``fail`` check raises ``CheckError`` (``outcome``
    ends its message). Returns the checks' results, ``frame`` with a flag
    column per violated ``drop`` check (``drop_flags``; a check that found
    nothing to drop adds no join), and those flags with the checks' names.
    Unless the caller reports the results (``reported``), a violated ``warn``
    or ``drop`` check is logged (logger ``pydantable_spark``) with its count.
    """
    from pydantic import BaseModel

    from pydantable_spark._spark.lower import to_spark
    from pydantable_spark._spark.session import run_action
    from pydantable_spark.constraints import SparkConstraints

    lowered = {name: to_spark(other) for name, other in references.items()}
    none = SparkConstraints(BaseModel, (), ())  # the value constraints run in the job that writes
    failing = {c.name for c in dataset if c.action == "fail"}
    counted = run_action(
        frame.sparkSession, lambda: validate(frame, none, dataset, (), EXAMPLES, lowered, row_examples=failing)
    )
    failed = check_error(counted, action, outcome)
    if failed is not None:
        raise failed
    if not reported:
        for r in counted.checks:
            if r.count:
                what = "rows not written" if r.check.action == "drop" else "violations"
                log.warning("%s: check %r (%s): %d %s", action, r.check.name, r.check.label, r.count, what)
    dropping = [r.check for r in counted.checks if r.check.action == "drop" and r.count]
    flagged, dropped = drop_flags(frame, dropping, lowered)
    return counted.checks, flagged, dropped


def drop_flags(
    frame: SparkDataFrame, checks: Sequence[Check], references: Mapping[str, SparkDataFrame]
) -> tuple[SparkDataFrame, list[tuple[str, str]]]:
    """``frame`` with one boolean column per ``drop`` check of ``checks``: TRUE on the rows it takes out.

    Returns the frame (its own columns first, by their user names) and each
    flag column's name with the check's name (a quarantined row's reason). A
    row check's flag is its violation predicate; a reference's is one left
    join with the referenced frame's distinct keys (each row meets at most
    one): no match, and no NULL in the referencing columns.
    """
    from pyspark.sql import functions as sf

    named, names = _named(frame)
    taken = set(names)
    flags: list[tuple[str, str]] = []
    for i, c in enumerate(checks):
        if c.action != "drop":
            continue
        flag = f"__pydantable_drop{i}"
        while flag in taken:
            flag += "_"
        taken.add(flag)
        if c.kind == "row":
            named = named.selectExpr("*", f"{row_violation_sql(c)} AS {column_sql(flag)}")
        else:
            reference, _ = _named(references[c.name])
            keys = [f"__pydantable_rk{j}" for j in range(len(c.referenced))]
            matched = "__pydantable_rm"
            distinct = reference.selectExpr(
                *(f"{column_sql(k.name)} AS {internal_sql(n)}" for k, n in zip(c.referenced, keys, strict=True)),
                f"TRUE AS {internal_sql(matched)}",
            ).distinct()
            pairs = [f"{column_sql(a)} = {internal_sql(b)}" for a, b in zip(c.columns, keys, strict=True)]
            own = [f"`{name}`" for name in named.columns]  # Spark names: plain, or internal hex ones
            joined = named.join(distinct, on=sf.expr(" AND ".join(pairs)), how="left")
            flagged = f"({internal_sql(matched)} IS NULL AND {_present(c.columns)}) AS {column_sql(flag)}"
            named = joined.selectExpr(*own, flagged)
        flags.append((flag, c.name))
    return named.toDF(*names, *(flag for flag, _ in flags)), flags


def without_dropped(frame: SparkDataFrame, flags: Sequence[str]) -> SparkDataFrame:
    """The rows of ``frame`` that no flag column of ``drop_flags`` marks, without those columns."""
    if not flags:
        return frame
    named, names = _named(frame)
    kept = [name for name in names if name not in flags]
    dropped = " OR ".join(column_sql(flag) for flag in flags)
    return named.filter(f"NOT ({dropped})").selectExpr(*(column_sql(name) for name in kept)).toDF(*kept)


# --- on read: row checks that fail the job ------------------------------------------------------


def raising_rows(frame: SparkDataFrame, rows: Sequence[Check], action: str, outcome: str = "") -> SparkDataFrame:
    """``frame`` with a filter that keeps every row and fails the job at the first row violating one of ``rows``.

    As ``_spark.constraints.raising`` does for constraints: the OR of the
    violations is the fast path, the CASE naming the check runs for a
    violating row only; the error shows the columns the check reads (as
    JSON, at most 200 characters).
    """
    violations = []
    for c in rows:
        assert c.expr is not None
        message = f"{action}: a row violates the model's check {c.name!r} ({c.label}){outcome}"
        read = list(dict.fromkeys(ref.name for ref in c.expr.refs))
        shown = f"to_json({_key_struct(read)})"
        violations.append((row_violation_sql(c), f"{CHECK_MARK}{message.encode('utf-8').hex()}", shown))
    return failing_at_first(frame, violations)
