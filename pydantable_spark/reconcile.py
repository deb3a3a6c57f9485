"""Strict reconciliation of a source schema with a target schema (docs/reconciliation.md).

Spark 4.3's own ``DataFrame.to(schema)`` is looser than the façade promises:
it fills a missing nullable column with NULL, casts numbers to strings, and
silently truncates or rounds some casts. ``reconcile`` applies the strict rules
in Python, before Spark is asked anything, and reports every problem at once:

* columns match by name (ignoring case unless asked not to); extra columns are dropped;
* a missing column or nested field is an error, as is a name that matches
  several columns when case is ignored;
* widening conversions are allowed; narrowing ones are allowed and fail at run
  time on overflow (Spark's ANSI casts); conversions that would silently lose
  information (double → float or int, decimal → int, a smaller decimal scale,
  timestamp → date) are refused unless ``allow_lossy`` names the column;
* numbers ↔ strings, strings → dates and the like are refused;
* a nullable source for a non-null target is refused unless ``null_check``
  names the column, in which case a NULL fails the Spark job with an error
  naming the column (nested fields, list elements and map values too).

>>> from pydantable_spark import dtypes as dt
>>> from pydantable_spark.schema import Schema
>>> source = Schema.of(dt.Field("n", dt.Int64(), True), dt.Field("extra", dt.String(), True))
>>> target = Schema.of(dt.Field("n", dt.String(), False))
>>> reconcile(source.fields, target)
Traceback (most recent call last):
...
pydantable_spark.errors.IncompatibleCastError: cannot reconcile the schemas (2 problems):
  - n: cannot convert bigint (int) to string (str): numbers and strings do not convert implicitly; ...
  - n: nullable in the source but not null in the target; declare it Optional, ...
  source                      | target
! n: int | None (bigint)      | n: str (string)
! extra: str | None (string)  | (missing)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.errors import (
    AmbiguousColumnError,
    IncompatibleCastError,
    LossyCastError,
    MissingColumnError,
    NullabilityError,
    Problem,
    ReconciliationError,
    suggest,
)
from pydantable_spark.schema import Schema, render_diff
from pydantable_spark.typerules import Conversion, cast_forces_nullable, classify_conversion

__all__ = [
    "NEAR_NAME_LIMITS",
    "ColumnMatch",
    "Reconciliation",
    "Selection",
    "check_near_names",
    "checked_later",
    "checks_inside",
    "edit_distance",
    "has_struct",
    "is_lossy",
    "matched_fields",
    "near_name_limit",
    "reconcile",
    "selected",
]

Selection = bool | Collection[str]
"""``True`` for every column, or the names of the columns an option applies to."""


@dataclass(frozen=True, slots=True)
class ColumnMatch:
    """How one target column is produced: from which source column, checked for NULLs or not."""

    source: dt.Field
    result: dt.Field
    null_check: bool


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """The outcome of a successful ``reconcile``: one ``ColumnMatch`` per target column."""

    target: Schema
    columns: tuple[ColumnMatch, ...]

    @property
    def schema(self) -> Schema:
        """The reconciled schema, as Spark's ``to()`` reports it.

        Names and types are the target's; a non-null source stays non-null, and
        a conversion Spark marks as possibly failing is nullable.
        """
        return Schema(tuple(c.result for c in self.columns))

    @property
    def renames_or_checks(self) -> bool:
        """Whether a projection is needed before ``DataFrame.to`` (renames or NULL checks)."""
        return any(c.null_check or c.source.name != c.result.name for c in self.columns)

    def describe(self) -> str:
        """A short summary for ``explain()``."""
        parts = []
        for c in self.columns:
            text = c.result.name if c.source.name == c.result.name else f"{c.source.name} AS {c.result.name}"
            parts.append(f"{text} (null check)" if c.null_check else text)
        return ", ".join(parts)


def selected(option: Selection, name: str) -> bool:
    """Whether an option (``True`` or a collection of names) applies to column ``name``."""
    if isinstance(option, bool):
        return option
    return name in option


def reconcile(
    source: Sequence[dt.Field],
    target: Schema,
    *,
    case_sensitive: bool = False,
    allow_lossy: Selection = False,
    null_check: Selection = False,
    values_checked: bool = False,
    exact_fields: bool = False,
) -> Reconciliation:
    """Match ``source`` columns to ``target`` by the strict rules, or raise with every problem.

    Struct fields match ignoring case as Spark's ``to()`` matches them, unless
    ``exact_fields``: then a field that differs only in case is a
    ``MissingColumnError`` with a did-you-mean (``from_arrow``: an Arrow cast
    matches struct fields by exact name, and fills a nullable one it does not
    find with NULL).

    An integer wider than a float's mantissa (``bigint`` → ``double``) is a
    lossy conversion, unless ``values_checked``: the caller converts the values
    itself and refuses one that would round (``from_arrow``'s safe Arrow cast).

    The error's class is that of the first problem (``MissingColumnError``,
    ``NullabilityError``, ...); its message lists them all and ends with a
    side-by-side diff of the two schemas.
    """
    _check_option_names(allow_lossy, target, "allow_lossy")
    _check_option_names(null_check, target, "null_check")
    problems: list[Problem] = []
    columns: list[ColumnMatch] = []
    for wanted in target.fields:
        found = _find(source, wanted.name, case_sensitive, wanted.name, problems)
        if found is None:
            continue
        lossy_ok = selected(allow_lossy, wanted.name)
        check = selected(null_check, wanted.name)
        options = _Options(lossy_ok, check, values_checked, exact_fields)
        dtype = _convert(wanted.name, found.dtype, wanted.dtype, options, problems)
        if found.nullable and not wanted.nullable and not check:
            problems.append(_nullability_problem(wanted.name, top_level=True))
        # Spark keeps a non-null source non-null, and marks a cast that can fail nullable whatever the target
        checks_top = found.nullable and not wanted.nullable and check
        nullable = (found.nullable and not checks_top) or cast_forces_nullable(found.dtype, wanted.dtype)
        if checks_top and not checks_inside(found.dtype, wanted.dtype) and not has_struct(wanted.dtype):
            nullable = False  # checked after the conversion (``checked_later``): non-null whatever the cast
        if dtype is not None:
            result = dt.Field(wanted.name, dtype, nullable)
            columns.append(ColumnMatch(found, result, check and _checks_nulls(found, wanted)))
    if problems:
        diff = render_diff(source, target.fields, left="source", right="target")
        raise ReconciliationError.from_problems(problems, diff)
    return Reconciliation(target, tuple(columns))


def _check_option_names(option: Selection, target: Schema, label: str) -> None:
    if isinstance(option, bool):
        return
    unknown = [n for n in option if n not in target]
    if unknown:
        msg = (
            f"{label} names columns the target does not have: {', '.join(unknown)}; "
            f"target columns: {', '.join(target.names)}"
        )
        raise ValueError(msg)


def _find(
    fields: Sequence[dt.Field], name: str, case_sensitive: bool, path: str, problems: list[Problem]
) -> dt.Field | None:
    exact = [f for f in fields if f.name == name]
    folded = [f for f in fields if f.name.lower() == name.lower()]
    if len(exact) == 1 and (case_sensitive or len(folded) == 1):
        return exact[0]
    if not case_sensitive and len(folded) > 1:
        names = ", ".join(repr(f.name) for f in folded)
        problems.append(
            Problem(
                AmbiguousColumnError,
                path,
                f"matches {names} when case is ignored (spark.sql.caseSensitive is false); rename one of them",
            )
        )
        return None
    if not case_sensitive and len(folded) == 1:
        return folded[0]
    available = [f.name for f in fields]
    problems.append(
        Problem(
            MissingColumnError,
            path,
            f"missing from the source; source has: {', '.join(available) or '(nothing)'}{suggest(name, available)}",
        )
    )
    return None


def _nullability_problem(path: str, *, top_level: bool) -> Problem:
    remedy = (
        f"declare it Optional, filter or fill the NULLs first, or pass null_check=[{path!r}] to check at run time"
        if top_level
        else "declare it Optional in the target, fill the NULLs in the plan first, "
        "or pass null_check for its column to check at run time"
    )
    return Problem(NullabilityError, path, f"nullable in the source but not null in the target; {remedy}")


@dataclass(frozen=True, slots=True)
class _Options:
    lossy_ok: bool
    null_check: bool
    values_checked: bool = False
    exact_fields: bool = False


def _convert(path: str, src: dt.DType, dst: dt.DType, options: _Options, problems: list[Problem]) -> dt.DType | None:
    """The reconciled type at ``path`` (target shape, source non-nullability), recording problems.

    With ``null_check`` a nested NULL the target forbids is checked at run
    time instead of refused, and the result takes the target's non-nullability.
    """
    if isinstance(src, dt.Struct) and isinstance(dst, dt.Struct):
        return _convert_struct(path, src, dst, options, problems)
    if isinstance(src, dt.List) and isinstance(dst, dt.List):
        inner = _convert(f"{path}[]", src.inner, dst.inner, options, problems)
        contains_null = _nested_nullable(f"{path}[]", src.contains_null, dst.contains_null, options, problems)
        contains_null = contains_null or cast_forces_nullable(src.inner, dst.inner)
        return None if inner is None else dt.List(inner, contains_null)
    if isinstance(src, dt.Map) and isinstance(dst, dt.Map):
        key = _convert(f"{path}{{key}}", src.key, dst.key, options, problems)
        value = _convert(f"{path}{{value}}", src.value, dst.value, options, problems)
        nullable = _nested_nullable(
            f"{path}{{value}}", src.value_contains_null, dst.value_contains_null, options, problems
        )
        if key is None or value is None:
            return None
        return dt.Map(key, value, nullable or cast_forces_nullable(src.value, dst.value))
    kind = classify_conversion(src, dst)
    if not options.values_checked:
        kind = _exact_float(src, dst, kind)
    shown = f"{src} ({python_name(src, nullable=False)}) to {dst} ({python_name(dst, nullable=False)})"
    if kind is Conversion.INCOMPATIBLE:
        problems.append(Problem(IncompatibleCastError, path, f"cannot convert {shown}: {_why(src, dst)}"))
        return None
    if kind is Conversion.LOSSY and not options.lossy_ok:
        problems.append(
            Problem(
                LossyCastError,
                path,
                f"converting {shown} can silently round, truncate or reinterpret values; "
                f"pass allow_lossy=[{path.split('.')[0].split('[')[0]!r}] to accept that",
            )
        )
        return None
    return dst


_MANTISSA_BITS = {dt.Float32: 24, dt.Float64: 53}


def is_lossy(src: dt.DType, dst: dt.DType) -> bool:
    """Whether converting ``src`` to ``dst`` (atomic types) is lossy by reconciliation's rules.

    The rule ``reconcile`` refuses unless ``allow_lossy`` names the column:
    a float to an integer or a decimal, a smaller decimal scale, a timestamp to
    a date, and an integer wider than a float's mantissa (``bigint`` →
    ``double`` rounds ``2**53 + 1``).

    >>> from pydantable_spark import dtypes as dt
    >>> is_lossy(dt.Int64(), dt.Float64()), is_lossy(dt.Int32(), dt.Float64())
    (True, False)
    """
    return _exact_float(src, dst, classify_conversion(src, dst)) is Conversion.LOSSY


def _exact_float(src: dt.DType, dst: dt.DType, kind: Conversion) -> Conversion:
    """``kind``, except that an integer wider than the float's mantissa is lossy (bigint → double rounds 2**53 + 1).

    ``from_arrow`` refuses such values (a safe Arrow cast); reading data
    refuses the conversion unless ``allow_lossy`` names the column.
    """
    if isinstance(src, dt.Integral) and isinstance(dst, dt.Floating) and kind is Conversion.WIDENING:
        mantissa = _MANTISSA_BITS.get(type(dst), 53)
        if src.bits > mantissa:
            return Conversion.LOSSY
    return kind


def _convert_struct(
    path: str, src: dt.Struct, dst: dt.Struct, options: _Options, problems: list[Problem]
) -> dt.DType | None:
    fields = []
    ok = True
    for wanted in dst.fields:
        nested_path = f"{path}.{wanted.name}"
        found = _find(src.fields, wanted.name, options.exact_fields, nested_path, problems)
        if found is None:
            ok = False
            continue
        dtype = _convert(nested_path, found.dtype, wanted.dtype, options, problems)
        nullable = _nested_nullable(nested_path, found.nullable, wanted.nullable, options, problems)
        if dtype is None:
            ok = False
            continue
        fields.append(dt.Field(wanted.name, dtype, nullable or cast_forces_nullable(found.dtype, wanted.dtype)))
    return dt.Struct(tuple(fields), dst.model) if ok else None


def _nested_nullable(path: str, src: bool, dst: bool, options: _Options, problems: list[Problem]) -> bool:
    """The reconciled nullability of a nested value, recording a problem if it cannot be had."""
    if src and not dst:
        if options.null_check:
            return False
        problems.append(_nullability_problem(path, top_level=False))
    return src


def _checks_nulls(src: dt.Field, dst: dt.Field) -> bool:
    """Whether reaching ``dst`` from ``src`` needs a run-time NULL check somewhere inside."""
    return (src.nullable and not dst.nullable) or checks_inside(src.dtype, dst.dtype)


def checks_inside(src: dt.DType, dst: dt.DType) -> bool:
    """Whether some value nested in ``src`` may be NULL where ``dst`` forbids it (a run-time check inside)."""
    if isinstance(src, dt.Struct) and isinstance(dst, dt.Struct):
        by_name = {f.name.lower(): f for f in src.fields}
        return any(_checks_nulls(by_name[f.name.lower()], f) for f in dst.fields if f.name.lower() in by_name)
    if isinstance(src, dt.List) and isinstance(dst, dt.List):
        return (src.contains_null and not dst.contains_null) or checks_inside(src.inner, dst.inner)
    if isinstance(src, dt.Map) and isinstance(dst, dt.Map):
        return (src.value_contains_null and not dst.value_contains_null) or checks_inside(src.value, dst.value)
    return False


def checked_later(match: ColumnMatch, target: dt.Field) -> bool:
    """Whether ``match``'s NULL check can stay pending: a check of the top level of a value without structs.

    A check inside a value (a list's elements, a struct's fields) rebuilds
    the value, and a struct is matched by field name: such checks are
    written with the reconciling projection, below the filters.
    """
    return match.null_check and not checks_inside(match.source.dtype, target.dtype) and not has_struct(target.dtype)


def has_struct(dtype: dt.DType) -> bool:
    if isinstance(dtype, dt.Struct):
        return True
    if isinstance(dtype, dt.List):
        return has_struct(dtype.inner)
    if isinstance(dtype, dt.Map):
        return has_struct(dtype.key) or has_struct(dtype.value)
    return False


def matched_fields(src: dt.Struct, dst: dt.Struct) -> list[tuple[dt.Field, dt.Field]]:
    """Each field of struct ``dst`` with the field of ``src`` it reconciles from (names match ignoring case)."""
    by_name = {f.name.lower(): f for f in src.fields}
    return [(f, by_name[f.name.lower()]) for f in dst.fields if f.name.lower() in by_name]


def _why(src: dt.DType, dst: dt.DType) -> str:
    if isinstance(dst, dt.Variant):
        return "only a VARIANT reconciles with a VARIANT; parse JSON text with F.parse_json in the plan"
    if (isinstance(src, dt.Numeric) and isinstance(dst, dt.String)) or (
        isinstance(src, dt.String) and isinstance(dst, dt.Numeric)
    ):
        return "numbers and strings do not convert implicitly; cast explicitly in the plan"
    if isinstance(src, dt.String):
        return "strings are not parsed implicitly; cast or parse explicitly in the plan"
    if src.is_nested or dst.is_nested:
        return "the shapes differ"
    return "Spark has no safe conversion between these types; cast explicitly in the plan"


# --- schema evolution: the guard on fields that read NULL --------------------------------------------------------

NEAR_NAME_LIMITS = ((2, 0), (5, 1))
"""``(longest name, largest edit distance)`` pairs for ``near_name_limit``; longer names allow 2 edits."""


def near_name_limit(name: str) -> int:
    """The largest edit distance at which a column counts as a misspelling of field ``name``.

    Names of up to 2 characters: none (only a column equal to it ignoring
    case); 3 to 5 characters: 1 edit; 6 or more: 2 edits.

    >>> [near_name_limit(n) for n in ("id", "day", "price", "chanel")]
    [0, 1, 1, 2]
    """
    for longest, limit in NEAR_NAME_LIMITS:
        if len(name) <= longest:
            return limit
    return 2


def edit_distance(a: str, b: str) -> int:
    """The Damerau-Levenshtein distance of ``a`` and ``b`` (optimal string alignment).

    The fewest insertions, deletions, substitutions and swaps of two adjacent
    characters that turn ``a`` into ``b`` (no substring edited twice).

    >>> edit_distance("chanel", "channel"), edit_distance("adress", "address"), edit_distance("cahnnel", "channel")
    (1, 1, 1)
    >>> edit_distance("qty", "quantity")
    5
    """
    before: list[int] | None = None
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            cost = 0 if x == y else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if before is not None and j > 1 and x == b[j - 2] and a[i - 2] == y:
                best = min(best, before[j - 2] + 1)
            current.append(best)
        before, previous = previous, current
    return previous[-1]


def check_near_names(
    lacking: Sequence[dt.Field], columns: Sequence[str], target: Schema, absent: Collection[str], label: str
) -> None:
    """``MissingColumnError`` if a field about to read NULL is a near miss of a column no field reads.

    ``lacking`` are the target's fields that the data (``columns``) lacks and
    that the evolution rule would read as NULL (Optional with the default
    None). A column that no other field of ``target`` reads (equal ignoring
    case) and whose name is within ``near_name_limit`` edits of such a field's name,
    ignoring case, makes the read an error naming both: the field is likely
    misspelt, and would read NULL in every row while the column is dropped.
    ``absent`` names the fields the data lacks on purpose: no check for them.

    >>> from pydantable_spark.schema import Schema
    >>> target = Schema.of(dt.Field("id", dt.Int64(), False), dt.Field("chanel", dt.String(), True))
    >>> check_near_names([target["chanel"]], ["id", "channel"], target, (), "read_parquet('x')")
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.MissingColumnError: read_parquet('x'): chanel: missing from the data, which has ...
    >>> check_near_names([target["chanel"]], ["id", "channel"], target, ["chanel"], "read_parquet('x')")
    """
    missing = {field.name for field in lacking}
    read = {name.lower() for name in target.names if name not in missing}
    unread = [c for c in columns if c.lower() not in read]
    found = []
    for field in lacking:
        if field.name in absent:
            continue
        limit = near_name_limit(field.name)
        near = [c for c in unread if edit_distance(field.name.lower(), c.lower()) <= limit]
        if near:
            closest = min(near, key=lambda c: edit_distance(field.name.lower(), c.lower()))
            found.append(
                f"{field.name}: missing from the data, which has column {closest!r} that no field reads; "
                f"did you mean {closest!r}? A field with the default None reads NULL where the data lacks it, so "
                f"{field.name!r} would be NULL in every row and {closest!r} dropped. Rename the field {closest!r} "
                f"(or give it Field(alias={closest!r})), or pass absent=[{field.name!r}] if the data lacks it on "
                "purpose"
            )
    if found:
        listing = found[0] if len(found) == 1 else f"{len(found)} fields:" + "".join(f"\n  - {t}" for t in found)
        msg = f"{label}: {listing}"
        raise MissingColumnError(msg)
