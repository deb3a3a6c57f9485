"""A model's value constraints, as Spark can check them, and what stays checked in Python only.

``spark_constraints(Model)`` reads every field of a model, nested ones
included (struct fields, list elements, map keys and values), and sorts its
Pydantic constraints in two lists:

* ``checked``: constraints with a faithful Spark predicate, evaluated by
  ``DataFrame.validate()``, on write and (if asked) on read: numeric and
  temporal bounds (``ge``/``gt``/``le``/``lt``; a float NaN violates every
  bound, as in Pydantic), ``multiple_of`` (integers and decimals), lengths
  (``min_length``/``max_length`` of strings in characters, bytes in bytes,
  lists and maps in items), ``pattern`` (a conservative subset, see
  ``java_pattern``), ``Literal[...]`` and ``Enum`` membership, ``max_digits``
  and ``decimal_places`` of decimals, ``allow_inf_nan=False``;
* ``python_only``: what Spark cannot check faithfully, each with its reason:
  field and model validators, ``model_post_init``, ``AfterValidator`` and
  other functional validators, value transformations (``strip_whitespace``,
  ``to_lower``...), patterns outside the subset, ``multiple_of`` of floats.
  These run when rows are validated in Python (``collect()``), never in Spark.

Nothing here imports pyspark; ``pydantable_spark._spark.constraints`` lowers
the records to SQL with the same safe literals as every other expression.

```pycon
>>> from typing import Literal
>>> from pydantic import Field, field_validator
>>> from pydantable_spark import DataFrameModel
>>> class Item(DataFrameModel):
...     sku: str = Field(pattern=r"^[A-Z]{3}-[0-9]+$", max_length=12)
...     qty: int = Field(ge=0, multiple_of=5)
...     size: Literal["S", "M", "L"]
...     tags: list[str] = Field(max_length=3)
...     @field_validator("sku")
...     @classmethod
...     def no_test_sku(cls, v: str) -> str:
...         return v
>>> print(Item.spark_constraints())
column  constraint                    checked in
sku     max_length 12                Spark
sku     pattern '^[A-Z]{3}-[0-9]+$'  Spark
qty     ge 0                          Spark
qty     multiple_of 5                 Spark
size    in ('S', 'M', 'L')            Spark
tags    max_length 3                  Spark
sku     validator no_test_sku        Python only: a Python function

```
"""

from __future__ import annotations

import dataclasses
import decimal
import enum
import functools
import types
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

import annotated_types as at
import pydantic
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import column_name, field_of_annotation
from pydantable_spark.errors import ConstraintError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "Constraint",
    "ConstraintMode",
    "PythonOnly",
    "ReadConstraints",
    "SparkConstraints",
    "ValidationReport",
    "Violation",
    "java_pattern",
    "spark_constraints",
]

ConstraintMode = Literal["raise", "report", "quarantine", "skip"]
"""What a write does with the model's constraints: fail on a violation, count them, set violating rows
apart (``quarantine=`` says where), or not check."""

MODES = ("raise", "report", "quarantine", "skip")

ReadConstraints = Literal["raise", "skip"]
"""What a reader does with the model's constraints: fail the job that reads a violating row, or not check."""

Kind = Literal[
    "ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern", "in", "finite",
    "max_digits", "decimal_places",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Constraint:
    """One constraint Spark checks: a value at ``path`` below ``column`` must satisfy ``kind`` ``value``.

    ``path`` steps are struct field names, ``"[]"`` (every list element),
    ``"{key}"`` and ``"{value}"`` (every map key / value). ``dtype`` is the
    type of the constrained value. For ``pattern``, ``value`` is the Python
    pattern and ``java`` its Java translation.
    """

    column: str
    path: tuple[str, ...]
    kind: Kind
    value: Any
    dtype: dt.DType
    java: str | None = None

    @property
    def location(self) -> str:
        """``column`` with its path: ``"address.zip"``, ``"tags[]"``, ``"scores{value}"``."""
        return _location(self.column, self.path)

    @property
    def label(self) -> str:
        """The constraint as it reads in a report: ``"ge 0"``, ``"pattern '^a'"``, ``"in ('S', 'M')"``."""
        if self.kind == "in":
            return f"in ({', '.join(repr(v) for v in self.value)})"
        if self.kind == "finite":
            return "allow_inf_nan=False"
        if self.kind == "max_digits":
            return f"max_digits {self.value[0]}" + (f" (decimal_places {self.value[1]})" if self.value[1] else "")
        shown = repr(self.value) if isinstance(self.value, str) else str(self.value)
        return f"{self.kind} {shown}"


@dataclass(frozen=True, slots=True)
class PythonOnly:
    """A check Spark does not make: ``what`` at ``location``, and ``reason`` why not."""

    location: str
    what: str
    reason: str


@dataclass(frozen=True, slots=True)
class SparkConstraints:
    """The constraints of a model: those Spark checks and those left to Python (see the module docstring)."""

    model: type[BaseModel]
    checked: tuple[Constraint, ...]
    python_only: tuple[PythonOnly, ...]

    def __str__(self) -> str:
        rows = [(c.location, c.label, "Spark") for c in self.checked]
        rows += [(p.location, p.what, f"Python only: {p.reason}") for p in self.python_only]
        return _table(("column", "constraint", "checked in"), rows)


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in [header, *rows]]
    return "\n".join(lines)


# --- reading a model ------------------------------------------------------------------------------


@functools.cache
def spark_constraints(model: type[BaseModel]) -> SparkConstraints:
    """The constraints of ``model`` (cached per class); see the module docstring."""
    walker = _Walker(model.model_config.get("regex_engine", "rust-regex"))
    walker.model(model, None, ())
    return SparkConstraints(model, tuple(walker.checked), tuple(walker.python_only))


_BOUNDS: dict[type, Kind] = {at.Ge: "ge", at.Gt: "gt", at.Le: "le", at.Lt: "lt"}
_IGNORED = {"strict", "coerce_numbers_to_str", "union_mode", "fail_fast"}
"""General metadata that changes how input is parsed, not which stored values are valid."""
_TRANSFORMS = {"strip_whitespace", "to_lower", "to_upper"}


class _Walker:
    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.checked: list[Constraint] = []
        self.python_only: list[PythonOnly] = []

    def model(self, model: type[BaseModel], column: str | None, path: tuple[str, ...]) -> None:
        where = column if column is not None else None
        for name, info in model.model_fields.items():
            spark = column_name(name, info)
            col, sub = (spark, ()) if column is None else (column, (*path, spark))
            dtype = field_of_annotation(spark, info.annotation, info.metadata).dtype
            self.value(info.annotation, list(info.metadata), dtype, col, sub)
        decorators = model.__pydantic_decorators__
        for validator in decorators.field_validators.values():
            for field_name in validator.info.fields:
                known = model.model_fields.get(field_name)
                spark = column_name(field_name, known) if known is not None else field_name
                location = spark if column is None else _location(column, (*path, spark))
                self.python_only.append(
                    PythonOnly(location, f"validator {validator.cls_var_name}", "a Python function")
                )
        top = "(row)" if where is None else _location(where, path)
        for model_validator in decorators.model_validators.values():
            what = f"model validator {model_validator.cls_var_name}"
            self.python_only.append(PythonOnly(top, what, "a Python function"))
        if getattr(model, "__pydantic_post_init__", None):
            self.python_only.append(PythonOnly(top, "model_post_init", "a Python function"))

    def value(self, annotation: Any, metadata: list[Any], dtype: dt.DType, column: str, path: tuple[str, ...]) -> None:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            base, *extra = typing.get_args(annotation)
            self.value(base, [*metadata, *extra], dtype, column, path)
            return
        if origin in (Union, types.UnionType):
            (inner,) = [a for a in typing.get_args(annotation) if a is not type(None)]
            self.value(inner, metadata, dtype, column, path)
            return
        for item in _expanded(metadata):
            self.metadata(item, dtype, column, path)
        if origin is Literal:
            self.add(column, path, "in", tuple(typing.get_args(annotation)), dtype)
        elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            self.add(column, path, "in", tuple(m.value for m in annotation), dtype)
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            self.model(annotation, column, path)
        elif isinstance(dtype, dt.List):
            (inner, *_) = typing.get_args(annotation)
            self.value(inner, [], dtype.inner, column, (*path, "[]"))
        elif isinstance(dtype, dt.Map):
            key, value = typing.get_args(annotation)
            self.value(key, [], dtype.key, column, (*path, "{key}"))
            self.value(value, [], dtype.value, column, (*path, "{value}"))

    def add(
        self, column: str, path: tuple[str, ...], kind: Kind, value: Any, dtype: dt.DType, java: str | None = None
    ) -> None:
        self.checked.append(Constraint(column, path, kind, value, dtype, java))

    def skip(self, column: str, path: tuple[str, ...], what: str, reason: str) -> None:
        self.python_only.append(PythonOnly(_location(column, path), what, reason))

    def metadata(self, item: Any, dtype: dt.DType, column: str, path: tuple[str, ...]) -> None:
        if isinstance(item, dt.DType) or (isinstance(item, type) and issubclass(item, dt.DType)):
            return
        kind = _BOUNDS.get(type(item))
        if kind is not None:
            self.add(column, path, kind, getattr(item, kind), dtype)
        elif isinstance(item, at.MinLen):
            self.add(column, path, "min_length", item.min_length, dtype)
        elif isinstance(item, at.MaxLen):
            self.add(column, path, "max_length", item.max_length, dtype)
        elif isinstance(item, at.MultipleOf):
            if isinstance(dtype, dt.Floating):
                reason = "Pydantic compares floats with a tolerance Spark cannot reproduce exactly"
                self.skip(column, path, f"multiple_of {item.multiple_of}", reason)
            else:
                self.add(column, path, "multiple_of", item.multiple_of, dtype)
        elif type(item).__module__.startswith("pydantic") and _settings(item).keys() <= _GENERAL:
            self.general(_settings(item), dtype, column, path)
        else:
            self.skip(column, path, *_described(item))

    def general(self, items: dict[str, Any], dtype: dt.DType, column: str, path: tuple[str, ...]) -> None:
        for key, value in items.items():
            if value is None or key in _IGNORED:
                continue
            if key == "pattern":
                java, reason = java_pattern(str(value), self.engine)
                if java is None:
                    self.skip(column, path, f"pattern {value!r}", reason)
                else:
                    self.add(column, path, "pattern", str(value), dtype, java)
            elif key == "allow_inf_nan":
                if value is False and isinstance(dtype, dt.Floating):
                    self.add(column, path, "finite", False, dtype)
            elif key == "decimal_places":
                self.add(column, path, "decimal_places", int(value), dtype)
            elif key == "max_digits":
                places = items.get("decimal_places")
                if places is None and not (isinstance(dtype, dt.Decimal) and dtype.scale == 0):
                    reason = "without decimal_places it counts significant digits, which SQL cannot"
                    self.skip(column, path, f"max_digits {value}", reason)
                else:
                    self.add(column, path, "max_digits", (int(value), int(places or 0)), dtype)
            elif key in _TRANSFORMS:
                self.skip(column, path, f"{key}={value}", "transforms the value in Python; Spark stores it as is")
            else:
                self.skip(column, path, f"{key}={value!r}", "no Spark predicate")


_GENERAL = {"pattern", "allow_inf_nan", "max_digits", "decimal_places", "ascii_only", *_IGNORED, *_TRANSFORMS}
"""Pydantic's own metadata (``Field(pattern=...)``, ``AllowInfNan``, ``Strict``...) holds only these settings."""


def _settings(item: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(item):
        return {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}
    return dict(getattr(item, "__dict__", {}))


def _expanded(metadata: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in metadata:
        if isinstance(item, FieldInfo):
            out += _expanded(list(item.metadata))
        elif isinstance(item, at.GroupedMetadata) and not isinstance(item, at.BaseMetadata):
            out += _expanded(list(item))
        else:
            out.append(item)
    return out


def _location(column: str, path: tuple[str, ...]) -> str:
    out = column
    for step in path:
        out += step if step in ("[]", "{key}", "{value}") else f".{step}"
    return out


_FUNCTIONAL = {
    pydantic.AfterValidator: "AfterValidator",
    pydantic.BeforeValidator: "BeforeValidator",
    pydantic.PlainValidator: "PlainValidator",
    pydantic.WrapValidator: "WrapValidator",
}


def _described(item: Any) -> tuple[str, str]:
    """What an untranslated metadata item is, and why Spark does not check it (names are data, not class names)."""
    kind = _FUNCTIONAL.get(type(item))
    if kind is not None:
        function = getattr(item, "func", None)
        return f"{kind}({getattr(function, '__name__', '...')})", "a Python function"
    shown = repr(item)
    return (shown if len(shown) <= 60 else shown[:57] + "..."), "no Spark predicate"


# --- patterns -------------------------------------------------------------------------------------

_META = set(".^$*+?()[]{}|\\")
_ESCAPABLE = set(".^$*+?()[]{}|\\-/")
_PLAIN_ESCAPES = {"n": "\\n", "t": "\\t", "r": "\\r"}


def java_pattern(pattern: str, engine: str = "rust-regex") -> tuple[str | None, str]:
    r"""The Java regex (Spark's ``rlike``) that matches exactly what Pydantic's ``pattern`` matches, or why not.

    Pydantic searches (does not anchor) with the Rust ``regex`` crate by
    default (``regex_engine="python-re"``: Python's ``re``); Spark's ``rlike``
    searches with ``java.util.regex``. The dialects agree on literals,
    ``^``, groups ``(...)``/``(?:...)``, ``|``, the quantifiers
    ``* + ? {n} {n,} {n,m}`` (and their lazy ``?`` forms), character classes of
    literals and ranges, and the escapes ``\n \t \r`` and ``\`` before a
    punctuation character. They differ, so such patterns are refused (checked
    in Python only): ``\d \w \s \b`` (Unicode in Python and Rust, ASCII in
    Java), flags such as ``(?i)`` (Unicode case folding differs), look-around
    and back-references (not in Rust), named groups (``(?P<n>`` against
    ``(?<n>``), nested classes and ``&&`` (set operations in Java and Rust, a
    literal in Python), possessive quantifiers, ``{`` as a literal, and every
    other escape (``\p``, ``\Q``...). Two are translated: ``.`` (any character
    but ``\n`` in Python and Rust, also not ``\r``, ``\u0085``, ``\u2028``,
    ``\u2029`` in Java) becomes ``[^\n]``; ``$`` (end of text in Rust, end or
    before a final ``\n`` in Python) becomes ``\z`` or ``(?=\n?\z)``.

    >>> java_pattern(r"^[A-Z]{2}\.[0-9]+$")
    ('^[A-Z]{2}\\.[0-9]+\\z', '')
    >>> java_pattern(r"^\d+$")[1]
    '\\d is Unicode-aware in Python and Rust but ASCII-only in Java'
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    end = "\\z" if engine != "python-re" else "(?=\\n?\\z)"
    previous_quantifiable = False
    while i < n:
        char = pattern[i]
        if char == "\\":
            if i + 1 >= n:
                return None, "a trailing backslash"
            nxt = pattern[i + 1]
            if nxt in _ESCAPABLE:
                out.append("\\" + nxt)
            elif nxt in _PLAIN_ESCAPES:
                out.append(_PLAIN_ESCAPES[nxt])
            elif nxt in "dwsbDWSB":
                return None, f"\\{nxt} is Unicode-aware in Python and Rust but ASCII-only in Java"
            else:
                return None, f"the escape \\{nxt} differs between the dialects or is not in the checked subset"
            i += 2
            previous_quantifiable = True
        elif char == ".":
            out.append("[^\\n]")
            i += 1
            previous_quantifiable = True
        elif char == "$":
            out.append(end)
            i += 1
            previous_quantifiable = False
        elif char == "(":
            if pattern.startswith("(?:", i):
                out.append("(?:")
                i += 3
            elif pattern.startswith("(?", i):
                return None, "flags, look-around and named groups differ between the dialects"
            else:
                out.append("(")
                i += 1
            previous_quantifiable = False
        elif char == "[":
            translated, i, why = _char_class(pattern, i)
            if translated is None:
                return None, why
            out.append(translated)
            previous_quantifiable = True
        elif char in "*+?{":
            if not previous_quantifiable:
                return None, f"{char!r} without something to repeat"
            if char == "{":
                close = pattern.find("}", i)
                body = pattern[i + 1 : close] if close > 0 else ""
                low, comma, high = body.partition(",")
                if not (low.isdigit() and (not comma or not high or high.isdigit())) or not low.isascii():
                    return None, "'{' that is not a quantifier {n}, {n,} or {n,m}"
                out.append(pattern[i : close + 1])
                i = close + 1
            else:
                out.append(char)
                i += 1
            if i < n and pattern[i] == "?":
                out.append("?")
                i += 1
            elif i < n and pattern[i] == "+":
                return None, "possessive quantifiers are not in Rust's regex"
            previous_quantifiable = False
        elif char in ")|^":
            out.append(char)
            i += 1
            previous_quantifiable = char == ")"
        elif char == "}" or char == "]":
            return None, f"an unescaped {char!r}"
        else:
            out.append(char)
            i += 1
            previous_quantifiable = True
    return "".join(out), ""


def _char_class(pattern: str, start: int) -> tuple[str | None, int, str]:
    """A ``[...]`` class of literals and ranges, copied; nested classes and set operations are refused."""
    i = start + 1
    out = ["["]
    if i < len(pattern) and pattern[i] == "^":
        out.append("^")
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        return None, i, "']' first in a class means different things in the dialects"
    while i < len(pattern):
        char = pattern[i]
        if char == "]":
            return "".join(out) + "]", i + 1, ""
        if char == "[":
            return None, i, "'[' inside a class is a nested class in Java and Rust, a literal in Python"
        if pattern.startswith(("&&", "--", "~~"), i):
            return None, i, "'&&', '--' and '~~' inside a class are set operations in Java or Rust"
        if char == "\\":
            nxt = pattern[i + 1 : i + 2]
            if nxt in _ESCAPABLE or nxt == "^":
                out.append("\\" + nxt)
            elif nxt in _PLAIN_ESCAPES:
                out.append(_PLAIN_ESCAPES[nxt])
            else:
                return None, i, f"the escape \\{nxt} inside a class is not in the checked subset"
            i += 2
            continue
        out.append(char)
        i += 1
    return None, i, "an unclosed '['"


# --- reports -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Violation:
    """How often one constraint failed, with a few example rows (the key columns and the checked column)."""

    constraint: Constraint
    count: int
    examples: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """What ``DataFrame.validate()`` (or a write with ``constraints="report"``) found, in one pass over the rows.

    ``results`` has one entry per checked constraint (``count`` 0 when none
    failed); ``python_only`` lists what Spark did not check. ``str(report)`` is a
    table of the violated constraints; ``raise_for_errors()`` raises
    ``ConstraintError`` with that table.
    """

    rows: int
    results: tuple[Violation, ...]
    python_only: tuple[PythonOnly, ...]
    key: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether no constraint was violated."""
        return not self.errors

    @property
    def errors(self) -> tuple[Violation, ...]:
        """The constraints with at least one violation."""
        return tuple(v for v in self.results if v.count)

    def __str__(self) -> str:
        bad = self.errors
        head = f"{self.rows} rows, {len(bad)} of {len(self.results)} constraints violated"
        lines = [head]
        if bad:
            rows = [(v.constraint.location, v.constraint.label, str(v.count), _examples(v)) for v in bad]
            lines.append(_table(("column", "constraint", "violations", "examples"), rows))
        if self.python_only:
            shown = ", ".join(f"{p.location}: {p.what}" for p in self.python_only)
            lines.append(f"checked in Python only (on collect): {shown}")
        return "\n".join(lines)

    def raise_for_errors(self) -> ValidationReport:
        """Raise ``ConstraintError`` (message: this report) if a constraint was violated; else return the report."""
        if self.errors:
            raise ConstraintError(str(self), report=self)
        return self


def _examples(violation: Violation) -> str:
    shown = []
    for example in violation.examples:
        text = ", ".join(f"{k}={_short(v)}" for k, v in example.items())
        shown.append(text)
    return "; ".join(shown)


def _short(value: Any) -> str:
    text = repr(value.normalize() if isinstance(value, decimal.Decimal) else value)
    return text if len(text) <= 40 else text[:37] + "..."
