"""Constraints → Spark SQL: one violation predicate per constraint, checked in the job that reads the rows.

Every predicate is TRUE exactly when a row violates its constraint (a NULL
value violates nothing: non-nullability is checked apart). Values reach Spark
as the typed literals of ``pydantable_spark._spark.sql`` (strings and patterns
as hex bytes), column names as Spark names, so no constraint value is SQL.

Three uses:

* ``validate``: one global aggregate, ``count_if`` per constraint; when one
  is violated, a second job takes at most ``k`` example rows of each with
  ``min_by(example, ..., k)`` (bounded memory) from the violating rows;
* ``raising``: a filter that passes every row and calls ``raise_error`` at the
  first violation, so the job that writes (or reads) fails;
* ``observed``: the same counts as ``Observation`` metrics of the write job.
"""

from __future__ import annotations

import decimal
import functools
import re
import uuid
from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.sql import column_sql, int_sql, literal_sql, spark_name, string_sql, struct_field_sql
from pydantable_spark.constraints import (
    WHITESPACE,
    Constraint,
    SparkConstraints,
    ValidationReport,
    Violation,
    bound_verdict,
    decimal_type,
    multiple_verdict,
)
from pydantable_spark.errors import CheckError, ConstraintError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pyspark.sql import DataFrame as SparkDataFrame

__all__ = [
    "CHECK_MARK",
    "CONSTRAINT_MARK",
    "VIOLATIONS",
    "by_sql",
    "constraint_error",
    "counted",
    "flagged_counts",
    "flagged_rows",
    "observed",
    "raising",
    "validate",
    "value_checked",
    "violation_sql",
]

CONSTRAINT_MARK = "pydantable:constraint:"
"""Marks a failed constraint in Spark's error text: the message and the offending value follow in hex."""

CHECK_MARK = "pydantable:check:"
"""Marks a failed row check in Spark's error text (``_spark.checks.raising_rows``), as ``CONSTRAINT_MARK`` does."""

_FAILED = re.compile(r"pydantable:(constraint|check):([0-9a-fA-F]*):([0-9a-fA-F]*)\]")

_LENGTHS = {dt.String: "char_length", dt.Binary: "octet_length"}


def violation_sql(constraint: Constraint, column: str | None = None) -> str:
    """SQL that is TRUE exactly when a row violates ``constraint`` (never NULL).

    ``column`` is the column's reference (SQL text made by the caller); by
    default its Spark name in the lowered plan.
    """
    value = column_sql(constraint.column) if column is None else column
    return f"coalesce({_at(value, constraint.path, constraint, 0)}, FALSE)"


def _at(value: str, path: tuple[str, ...], constraint: Constraint, depth: int) -> str:
    if not path:
        return f"coalesce({_predicate(value, constraint)}, FALSE)"
    step, rest = path[0], path[1:]
    x = f"x{depth}"
    if step == "[]":
        return f"exists({value}, {x} -> {_at(x, rest, constraint, depth + 1)})"
    if step == "{value}":
        return f"exists(map_values({value}), {x} -> {_at(x, rest, constraint, depth + 1)})"
    if step == "{key}":
        return f"exists(map_keys({value}), {x} -> {_at(x, rest, constraint, depth + 1)})"
    return _at(struct_field_sql(value, step), rest, constraint, depth)


_OPERATORS = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<"}


def _predicate(v: str, c: Constraint) -> str:
    d = c.dtype
    if c.before == "strip_whitespace":
        v = f"btrim({v}, {string_sql(WHITESPACE)})"
    if c.kind in _OPERATORS:
        return _bound(v, c)
    if c.kind == "multiple_of":
        verdict, step = multiple_verdict(c.value, d)
        if verdict == "only":
            return f"(NOT ({v} IN ({', '.join(literal_sql(m, d) for m in step)})))"
        return f"(({v} % {_number(step, d)}) <> 0)"
    if c.kind in ("min_length", "max_length"):
        size = f"{_LENGTHS.get(type(d), 'size')}({'array_distinct(' + v + ')' if c.before == 'distinct' else v})"
        return f"({size} {'<' if c.kind == 'min_length' else '>'} {int_sql(int(c.value))})"
    if c.kind == "pattern":
        return f"(NOT rlike({v}, {string_sql(str(c.java))}))"
    if c.kind == "in":
        # a value the column's type cannot hold (Literal[10**40] on a bigint) is never stored: it matches nothing
        held = [item for item in c.value if not isinstance(d, dt.Integral) or d.holds(item)]
        if not held:
            return f"({v} IS NOT NULL)"
        return f"(NOT ({v} IN ({', '.join(literal_sql(item, d) for item in held)})))"
    if c.kind == "flags":
        # Python's Flag (boundary STRICT) takes v when ~all_bits <= v <= all_bits and v has no bit outside the
        # members' (a negative v is the complement of a combination: -1 is every flag)
        every = (1 << int(c.value).bit_length()) - 1
        low, high, outside = (literal_sql(n, dt.Int64()) for n in (~every, every, every ^ int(c.value)))
        return f"(NOT ({v} BETWEEN {low} AND {high} AND ({v} & {outside}) = 0))"
    if c.kind == "finite":
        return f"(isnan({v}) OR abs({v}) = {literal_sql(float('inf'), dt.Float64())})"
    # a decimal column's own precision and scale may already guarantee a digits constraint: then no value
    # can violate it, and the bound (10 ** whole digits) would not even fit the column's type
    if c.kind == "decimal_places":
        if isinstance(d, dt.Decimal) and d.scale <= int(c.value):
            return "FALSE"
        return f"({v} <> round({v}, {int_sql(int(c.value))}))"
    if c.kind == "max_digits":
        digits, places = c.value
        whole = digits - places
        if whole >= dt.MAX_DECIMAL_PRECISION or (isinstance(d, dt.Decimal) and d.precision - d.scale <= whole):
            return "FALSE"
        return f"(abs({v}) >= {literal_sql(decimal.Decimal(10) ** whole, dt.Decimal(whole + 1, 0))})"
    msg = f"no Spark predicate for constraint {c.kind!r}"
    raise NotImplementedError(msg)


def _bound(v: str, c: Constraint) -> str:
    """``ge``/``gt``/``le``/``lt``: compared in the column's own type, as Pydantic compares (see ``bound_verdict``).

    A bound no value of the type can reach holds for every value (``le
    10**40`` on a bigint) or for none (``ge 10**40``): a constant, which
    Spark could not even write as a literal of the column's type.
    """
    d = c.dtype
    verdict, bound = bound_verdict(c.kind, c.value, d)
    if verdict == "never":
        return "FALSE"
    if verdict == "always":
        return f"({v} IS NOT NULL)"
    held = f"({v} {_OPERATORS[c.kind]} {_number(bound, d)})"
    return f"(isnan({v}) OR NOT {held})" if isinstance(d, dt.Floating) else f"(NOT {held})"


def _number(value: Any, dtype: dt.DType) -> str:
    """A bound or step as a literal: of the column's type for numbers (``bound_verdict`` made it fit), else its own."""
    if isinstance(dtype, dt.Integral | dt.Floating) and not isinstance(value, bool):
        return literal_sql(value, dt.Int64() if isinstance(dtype, dt.Integral) else dt.Float64())
    if isinstance(dtype, dt.Decimal) and isinstance(value, decimal.Decimal):
        fitting = decimal_type(value)
        if fitting is None:  # spark_constraints lists such a step as Python-only
            msg = f"the step {value} has more than {dt.MAX_DECIMAL_PRECISION} digits; Spark cannot compute with it"
            raise NotImplementedError(msg)
        return literal_sql(value, fitting)
    return literal_sql(value, dtype)


# --- one job: validate --------------------------------------------------------------------------


def _named(frame: SparkDataFrame) -> tuple[SparkDataFrame, list[str]]:
    """``frame`` with Spark names (what ``column_sql`` refers to), and its user names."""
    names = list(frame.columns)
    return frame.toDF(*map(spark_name, names)), names


def _example_sql(c: Constraint, key: Sequence[str]) -> str:
    names = list(dict.fromkeys([*key, c.column]))
    return "named_struct(" + ", ".join(f"{string_sql(n)}, {column_sql(n)}" for n in names) + ")"


def _counts(checks: SparkConstraints) -> list[str]:
    """The aggregates that count the rows and each constraint's violations (all declarative: code-generated)."""
    items = ["count(1) AS `__pydantable_rows`"]
    items += [f"count_if({violation_sql(c)}) AS `__pydantable_c{i}`" for i, c in enumerate(checks.checked)]
    return items


def by_sql(function: Literal["min_by", "max_by"], value: str, order: str, k: int, session: Any) -> str:
    """``function(value, order, k)``: up to ``k`` values of the rows of least (greatest) ``order``, as an array.

    Spark has the ``k`` argument since 4.2; before (PySpark 4.1 is the
    lakehouse tier's) this is the one such value (``[]`` over no row), so a
    report shows one example per constraint or check there.
    """
    if _takes_k(str(session.version)):
        return f"{function}({value}, {order}, {int_sql(k)})"
    return f"filter(array({function}({value}, {order})), x -> x IS NOT NULL)"


@functools.cache
def _takes_k(version: str) -> bool:
    numbers = tuple(int(n) for n in re.findall(r"\d+", version)[:2])
    return numbers >= (4, 2)


def _examples(
    flagged: SparkDataFrame, checks: SparkConstraints, violated: list[int], key: Sequence[str], k: int
) -> dict[str, Any]:
    """Up to ``k`` example rows of each violated constraint, from the rows that violate one of them.

    ``min_by(..., k)`` keeps a bounded heap per constraint, but it is an
    object aggregate, which Spark runs without generated code: over every
    row it made ``validate()`` about twice as slow (1e7 rows, 12
    constraints), so it only sees the violating rows, in a job of its own.
    """
    rows = flagged.filter(" OR ".join(f"`__pydantable_v{i}`" for i in violated))
    items = []
    for i in violated:
        example = f"IF(`__pydantable_v{i}`, {_example_sql(checks.checked[i], key)}, NULL)"
        chosen = by_sql("min_by", example, f"IF(`__pydantable_v{i}`, 0, NULL)", k, flagged.sparkSession)
        items.append(f"{chosen} AS `__pydantable_e{i}`")
    return rows.selectExpr(*items).collect()[0].asDict()


def _flagged(named: SparkDataFrame, checks: SparkConstraints, key: Sequence[str]) -> SparkDataFrame:
    """The key and checked columns, and one boolean column ``__pydantable_v<i>`` per constraint."""
    columns = list(dict.fromkeys([*key, *(c.column for c in checks.checked)]))
    flags = [f"{violation_sql(c)} AS `__pydantable_v{i}`" for i, c in enumerate(checks.checked)]
    return named.selectExpr(*(column_sql(name) for name in columns), *flags)


def _report(values: dict[str, Any], checks: SparkConstraints, key: Sequence[str]) -> ValidationReport:
    results = []
    for i, c in enumerate(checks.checked):
        found = values.get(f"__pydantable_e{i}") or []
        shown = tuple(row.asDict(recursive=True) if hasattr(row, "asDict") else dict(row) for row in found)
        results.append(Violation(c, int(values[f"__pydantable_c{i}"] or 0), shown))
    return ValidationReport(int(values["__pydantable_rows"] or 0), tuple(results), checks.python_only, tuple(key))


def validate(frame: SparkDataFrame, checks: SparkConstraints, key: Sequence[str], examples: int) -> ValidationReport:
    """Every constraint over every row of ``frame``: one aggregation job, and one more for examples of violations.

    The counts come from one code-generated aggregation (as fast as counting
    the violations can be); when something is violated and ``examples`` asks
    for rows, a second job picks them from the violating rows only.
    """
    named, _ = _named(frame)
    values = named.selectExpr(*_counts(checks)).collect()[0].asDict()
    violated = [i for i in range(len(checks.checked)) if values[f"__pydantable_c{i}"]]
    if examples > 0 and violated:
        values |= _examples(_flagged(named, checks, key), checks, violated, key, examples)
    return _report(values, checks, key)


# --- inside another job: raise or observe -------------------------------------------------------


def raising(frame: SparkDataFrame, checks: SparkConstraints, action: str, outcome: str = "") -> SparkDataFrame:
    """``frame`` with a filter that keeps every row and fails the job at the first violated constraint."""
    violations = []
    for c in checks.checked:
        message = f"{action}: column {c.location!r} violates the model's constraint {c.label}{outcome}"
        shown = f"CAST({column_sql(c.column)} AS STRING)"
        violations.append((violation_sql(c), f"{CONSTRAINT_MARK}{message.encode('utf-8').hex()}", shown))
    return failing_at_first(frame, violations)


def failing_at_first(frame: SparkDataFrame, violations: Sequence[tuple[str, str, str]]) -> SparkDataFrame:
    """``frame`` with a filter that keeps every row and fails the job at the first row where a violation holds.

    ``violations``: each one's SQL (over ``frame``'s column names), the mark
    its error starts with, and the SQL of the text the error shows (its first
    200 characters, as hex). The OR of the violations is the fast path; the
    CASE that names the violation runs for a violating row only.
    """
    if not violations:
        return frame
    named, names = _named(frame)
    cases = []
    for sql, mark, shown in violations:
        text = f"coalesce(hex(substr({shown}, 1, 200)), {string_sql('')})"
        cases.append(f"WHEN {sql} THEN raise_error(concat({string_sql(f'[{mark}:')}, {text}, {string_sql(']')}))")
    violated = " OR ".join(sql for sql, _, _ in violations)
    return named.filter(f"IF({violated}, CASE {' '.join(cases)} END, TRUE)").toDF(*names)


_CHECKED = "__pydantable_c"


def value_checked(value: str, constraints: Sequence[Constraint], action: str) -> str:
    """The SQL value ``value`` (a column's new value), failing the statement where it violates a constraint.

    A MERGE's assigned value: the check runs only for the rows that reach its
    clause. The value is bound to a lambda variable, so it is computed once.
    """
    if not constraints:
        return value
    cases = []
    for c in constraints:
        message = (
            f"{action}: column {c.location!r} violates the model's constraint {c.label} "
            "(nothing was written, the table is as it was)"
        )
        mark = string_sql(f"[{CONSTRAINT_MARK}{message.encode('utf-8').hex()}:")
        shown = f"coalesce(hex(substr(CAST({_CHECKED} AS STRING), 1, 200)), {string_sql('')})"
        fail = f"raise_error(concat({mark}, {shown}, {string_sql(']')}))"
        violated = f"coalesce({_at(_CHECKED, c.path, c, 0)}, FALSE)"
        cases.append(f"WHEN {violated} THEN {fail}")
    body = f"CASE {' '.join(cases)} ELSE {_CHECKED} END"
    return f"element_at(transform(array({value}), {_CHECKED} -> {body}), 1)"


def observed(frame: SparkDataFrame, checks: SparkConstraints) -> tuple[SparkDataFrame, Any]:
    """``frame`` observed with the violation counts (no examples): read them after the job with ``report``."""
    from pyspark.sql import Observation
    from pyspark.sql import functions as sf

    named, names = _named(frame)
    observation = Observation(f"pydantable_constraints_{uuid.uuid4().hex[:12]}")
    metrics = [sf.expr(item) for item in _counts(checks)]
    return named.observe(observation, *metrics).toDF(*names), observation


def empty_report(checks: SparkConstraints) -> ValidationReport:
    """The report of a write that wrote nothing (``mode="ignore"`` on an existing target): 0 rows, no violation."""
    return ValidationReport(0, tuple(Violation(c, 0, ()) for c in checks.checked), checks.python_only)


def observed_report(observation: Any, checks: SparkConstraints) -> ValidationReport:
    """The report of a finished job observed by ``observed``."""
    return _report(dict(observation.get), checks, ())


VIOLATIONS = "violations"
"""The column of a quarantined row that lists the constraints it violates."""


def _label(c: Constraint) -> str:
    return f"{c.location}: {c.label}"


def violations_sql(checks: SparkConstraints, dropped: Sequence[tuple[str, str]] = ()) -> str:
    """The SQL of the constraints (``"location: label"``) a row violates, an array (over Spark's column names).

    ``dropped``: boolean columns (``_spark.checks.drop_flags``) with the check
    each stands for: where one is TRUE, the check's name joins the violations.
    """
    labels = [f"IF({violation_sql(c)}, {string_sql(_label(c))}, NULL)" for c in checks.checked]
    labels += [f"IF({column_sql(flag)}, {string_sql(name)}, NULL)" for flag, name in dropped]
    violations = f"filter(array({', '.join(labels)}), label -> label IS NOT NULL)" if labels else "array()"
    return f"CAST({violations} AS ARRAY<STRING>)"


def flagged_rows(
    frame: SparkDataFrame, checks: SparkConstraints | str, dropped: Sequence[tuple[str, str]] = ()
) -> SparkDataFrame:
    """``frame`` and a column ``violations``: the constraints (``"location: label"``) each row violates (or none).

    ``checks`` may be their ``violations_sql`` already (text, which pickles
    without the model). ``dropped``: as ``violations_sql`` takes them; the
    flag columns themselves are left out.
    """
    named, names = _named(frame)
    violations = checks if isinstance(checks, str) else violations_sql(checks, dropped)
    flags = {flag for flag, _ in dropped}
    kept = [name for name in names if name not in flags]
    return named.selectExpr(*(column_sql(name) for name in kept), violations).toDF(*kept, VIOLATIONS)


def flagged_counts(flagged: SparkDataFrame, checks: SparkConstraints) -> ValidationReport:
    """The violation counts of rows ``flagged_rows`` made, read from their ``violations`` (no predicate runs again)."""
    items = ["count(1) AS `__pydantable_rows`"]
    for i, c in enumerate(checks.checked):
        items.append(f"count_if(array_contains(`{VIOLATIONS}`, {string_sql(_label(c))})) AS `__pydantable_c{i}`")
    return _report(flagged.selectExpr(*items).collect()[0].asDict(), checks, ())


def counted(frame: SparkDataFrame, checks: SparkConstraints) -> ValidationReport:
    """The violation counts over ``frame`` (no examples), in one aggregation job."""
    named, _ = _named(frame)
    return _report(named.selectExpr(*_counts(checks)).collect()[0].asDict(), checks, ())


def constraint_error(text: str) -> ConstraintError | None:
    """The ``ConstraintError`` of a Spark error raised by ``raising`` (``CheckError``: by ``raising_rows``), or None."""
    found = _FAILED.search(text)
    if found is None:
        return None
    message = bytes.fromhex(found.group(2)).decode("utf-8", "replace")
    value = bytes.fromhex(found.group(3)).decode("utf-8", "replace")
    hint = "run df.validate() for the count and examples of every violation"
    if found.group(1) == "check":
        return CheckError(f"{message}; the row's values: {value}; {hint}")
    return ConstraintError(f"{message}; the row's value: {value}; {hint}")
