"""A model's value constraints, as Spark can check them, and what stays checked in Python only.

``spark_constraints(Model)`` reads every field of a model, nested ones
included (struct fields, list elements, map keys and values), and sorts its
Pydantic constraints in two lists:

* ``checked``: constraints with a faithful Spark predicate, evaluated by
  ``DataFrame.validate()``, on write and (if asked) on read: numeric and
  temporal bounds (``ge``/``gt``/``le``/``lt``, compared as Pydantic compares
  them, see ``bound_verdict``; a float NaN violates every bound, as in
  Pydantic), ``multiple_of`` (integers and decimals), lengths
  (``min_length``/``max_length`` of strings in characters, after
  ``strip_whitespace`` as in Pydantic, bytes in bytes, lists and maps in
  items, sets in distinct items), ``pattern`` (a conservative subset, see
  ``java_pattern``), ``Literal[...]``, ``Enum`` and ``Flag`` membership,
  ``max_digits`` and ``decimal_places`` of decimals, ``allow_inf_nan=False``,
  and ``model_config``'s ``str_min_length``/``str_max_length``/``allow_inf_nan``;
* ``python_only``: what Spark cannot check faithfully, each with its reason:
  field and model validators, ``model_post_init``, ``AfterValidator`` and
  other functional validators, value transformations (``strip_whitespace``,
  ``to_lower``...), patterns outside the subset, ``multiple_of`` of floats,
  and every check Spark would decide differently from Pydantic on some value
  (a bound on a lowered string, the length of a set of floats, an enum with
  its own ``_missing_``, a constraint Pydantic checks on what a validator
  function returns...). These run when rows are validated in Python
  (``collect()``), never in Spark.

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
import datetime
import decimal
import enum
import functools
import math
import operator
import types
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

import annotated_types as at
import pydantic
from pydantic import AfterValidator, BaseModel
from pydantic.fields import FieldInfo

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import column_name, field_of_annotation
from pydantable_spark.descriptors import is_column_marker
from pydantable_spark.errors import CheckError, ConstraintError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pydantable_spark.checks.declare import Check

__all__ = [
    "CheckResult",
    "Constraint",
    "ConstraintMode",
    "PythonOnly",
    "SparkConstraints",
    "ValidationReport",
    "Violation",
]

ConstraintMode = Literal["raise", "report", "quarantine", "skip"]
"""What a write does with the model's constraints: fail on a violation, count them, set violating rows
apart (``quarantine=`` says where), or not check."""

MODES = ("raise", "report", "quarantine", "skip")

ReadConstraints = Literal["raise", "skip"]
"""What a reader does with the model's constraints: fail the job that reads a violating row, or not check."""

Kind = Literal[
    "ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern", "in", "finite",
    "max_digits", "decimal_places", "flags",
]  # fmt: skip

Before = Literal["strip_whitespace", "distinct"]
"""What Pydantic does to a value before checking it, which Spark does too: strip a string, drop a set's duplicates."""

WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
"""What Pydantic's ``strip_whitespace`` strips: Unicode's White_Space characters (Rust's ``str::trim``).

Not Python's ``str.strip()``, which also strips ``\x1c``-``\x1f``.
"""


@dataclass(frozen=True, slots=True)
class Constraint:
    """One constraint Spark checks: a value at ``path`` below ``column`` must satisfy ``kind`` ``value``.

    ``path`` steps are struct field names, ``"[]"`` (every list element),
    ``"{key}"`` and ``"{value}"`` (every map key / value). ``dtype`` is the
    type of the constrained value. For ``pattern``, ``value`` is the Python
    pattern and ``java`` its Java translation; for ``flags``, the OR of the
    ``Flag``'s members. ``before`` is what Pydantic does to the value before
    this check (Spark does the same): ``"strip_whitespace"`` (lengths and
    pattern of a stripped string), ``"distinct"`` (the length of a set, its
    duplicates dropped).
    """

    column: str
    path: tuple[str, ...]
    kind: Kind
    value: Any
    dtype: dt.DType
    java: str | None = None
    before: Before | None = None

    @property
    def location(self) -> str:
        """``column`` with its path: ``"address.zip"``, ``"tags[]"``, ``"scores{value}"``.

        A name that is not an identifier is in backquotes (a backquote in it
        doubled): ``"`a.b`"`` is the column named ``a.b``, ``"a.b"`` the field
        ``b`` of the struct column ``a``.
        """
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
        if self.kind == "flags":
            return "flags " + "|".join(str(1 << i) for i in range(self.value.bit_length()) if self.value >> i & 1)
        shown = repr(self.value) if isinstance(self.value, str) else str(self.value)
        after = {"strip_whitespace": " (after strip_whitespace)", "distinct": " (distinct items)", None: ""}
        return f"{self.kind} {shown}{after[self.before]}"


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
_TRANSFORMS = ("strip_whitespace", "to_lower", "to_upper")
_TRANSFORMED = "transforms the value in Python; Spark stores it as is"


@dataclass(frozen=True, slots=True)
class _Site:
    """Where the walker is: a column, the path below it, the value's type and the ``model_config`` in force."""

    column: str
    path: tuple[str, ...]
    dtype: dt.DType
    config: Mapping[str, Any]
    before: Before | None = None
    """What Pydantic does to the value before its length and pattern checks."""
    unsized: str = ""
    """Why Spark cannot count the value's length as Pydantic does ("" when it can)."""
    uncompared: str = ""
    """Why Spark cannot compare the value with a bound as Pydantic does ("" when it can)."""
    reshaped: str = ""
    """Why Pydantic checks something else than the stored value: what a Python function made of it ("" when not)."""

    def below(self, step: str, dtype: dt.DType) -> _Site:
        return _Site(self.column, (*self.path, step), dtype, self.config, reshaped=self.reshaped)


class _Walker:
    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.checked: list[Constraint] = []
        self.python_only: list[PythonOnly] = []

    def model(self, model: type[BaseModel], column: str | None, path: tuple[str, ...], reshaped: str = "") -> None:
        # a model's str_* and allow_inf_nan settings apply to its own fields (lists and maps included), not to
        # the fields of the models nested in it, which have their own model_config
        config = model.model_config
        decorators = model.__pydantic_decorators__
        for row_validator in decorators.model_validators.values():
            if not reshaped and row_validator.info.mode in ("before", "wrap"):
                reshaped = f"Pydantic checks the row model validator {row_validator.cls_var_name} returns"
        for name, info in model.model_fields.items():
            spark = column_name(name, info)
            col, sub = (spark, ()) if column is None else (column, (*path, spark))
            dtype = field_of_annotation(spark, info.annotation, info.metadata).dtype
            changed = reshaped
            for field_validator in decorators.field_validators.values():
                fields = field_validator.info.fields
                if not changed and field_validator.info.mode != "after" and (name in fields or "*" in fields):
                    changed = f"Pydantic checks what validator {field_validator.cls_var_name} returns"
            self.value(info.annotation, list(info.metadata), _Site(col, sub, dtype, config, reshaped=changed))
        for validator in decorators.field_validators.values():
            for field_name in validator.info.fields:
                known = model.model_fields.get(field_name)
                spark = column_name(field_name, known) if known is not None else field_name
                location = _location(spark, ()) if column is None else _location(column, (*path, spark))
                self.python_only.append(
                    PythonOnly(location, f"validator {validator.cls_var_name}", "a Python function")
                )
        top = "(row)" if column is None else _location(column, path)
        for model_validator in decorators.model_validators.values():
            what = f"model validator {model_validator.cls_var_name}"
            self.python_only.append(PythonOnly(top, what, "a Python function"))
        if getattr(model, "__pydantic_post_init__", None):
            self.python_only.append(PythonOnly(top, "model_post_init", "a Python function"))

    def value(self, annotation: Any, metadata: list[Any], site: _Site) -> None:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            base, *extra = typing.get_args(annotation)
            self.value(base, [*extra, *metadata], site)  # the inner annotation's metadata applies first
            return
        if origin in (Union, types.UnionType):
            (inner,) = [a for a in typing.get_args(annotation) if a is not type(None)]
            self.value(inner, metadata, site)
            return
        items = _expanded(metadata)
        if annotation is str:
            items, site = self.string(items, site)
        elif annotation is float:
            items = self.floating(items, site)
        elif origin in (set, frozenset):
            (item,) = typing.get_args(annotation)
            site = dataclasses.replace(site, before="distinct", unsized=_set_items_differ(item, site.config))
        # a BeforeValidator (Wrap-, Plain-) changes what every check sees, the values below included; an
        # AfterValidator what the checks written after it see
        first = next((item for item in items if type(item) in _FUNCTIONAL and type(item) is not AfterValidator), None)
        if first is not None and not site.reshaped:
            site = dataclasses.replace(site, reshaped=f"Pydantic checks what {_described(first)[0]} returns")
        checking = site
        for item in items:
            self.metadata(item, checking)
            if type(item) is AfterValidator and not checking.reshaped:
                checking = dataclasses.replace(site, reshaped=f"Pydantic checks what {_described(item)[0]} returns")
        if origin is Literal:
            self.add(site, "in", tuple(typing.get_args(annotation)))
        elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            self.enumeration(annotation, site)
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            self.model(annotation, site.column, site.path, site.reshaped)
        elif isinstance(site.dtype, dt.List):
            (inner, *_) = typing.get_args(annotation)
            self.value(inner, [], site.below("[]", site.dtype.inner))
        elif isinstance(site.dtype, dt.Map):
            key, value = typing.get_args(annotation)
            self.value(key, [], site.below("{key}", site.dtype.key))
            self.value(value, [], site.below("{value}", site.dtype.value))

    def string(self, items: list[Any], site: _Site) -> tuple[list[Any], _Site]:
        """A str value's metadata with ``model_config``'s ``str_*`` defaults where the field sets none.

        Pydantic checks a str's lengths and pattern after ``strip_whitespace``
        and before ``to_lower``/``to_upper``, whichever order they are written
        in; a field's own setting overrides the model's. A bound (``ge="b"``)
        is compared with the value after both, and Spark's ``lower``/``upper``
        follow the JVM's Unicode tables, not Rust's (``"\ua7dd"`` lowers to
        ``"\u0277"`` in Pydantic, stays in Spark on Java 17).
        """
        own = _string_settings(items)
        config = site.config
        added: list[Any] = []
        if "min_length" not in own and config.get("str_min_length") is not None:
            added.append(at.MinLen(int(config["str_min_length"])))
        if "max_length" not in own and config.get("str_max_length") is not None:
            added.append(at.MaxLen(int(config["str_max_length"])))
        for key in _TRANSFORMS:
            if key not in own and config.get(f"str_{key}"):
                self.skip(site, f"str_{key}=True (model_config)", _TRANSFORMED)
        strip, lower, upper = (own.get(key, config.get(f"str_{key}")) for key in _TRANSFORMS)
        cased = "Pydantic compares the value after to_lower/to_upper, whose Unicode tables differ from Spark's"
        return [*added, *items], dataclasses.replace(
            site, before="strip_whitespace" if strip else None, uncompared=cased if lower or upper else ""
        )

    def floating(self, items: list[Any], site: _Site) -> list[Any]:
        """A float value's metadata with ``model_config``'s ``allow_inf_nan`` where the field sets none."""
        if site.config.get("allow_inf_nan") is False and not any(
            _is_general(item) and _settings(item).get("allow_inf_nan") is not None for item in items
        ):
            return [pydantic.AllowInfNan(False), *items]
        return items

    def enumeration(self, annotation: type[enum.Enum], site: _Site) -> None:
        values = tuple(m.value for m in annotation)
        default = enum.Flag if issubclass(annotation, enum.Flag) else enum.Enum
        if _function_of(annotation._missing_) is not _function_of(default._missing_):
            reason = "the enum's _missing_ accepts other values in Python"
            self.skip(site, f"in ({', '.join(repr(v) for v in values)})", reason)
        elif not issubclass(annotation, enum.Flag):
            self.add(site, "in", values)
        else:
            self.flags(annotation, site)

    def flags(self, annotation: type[enum.Flag], site: _Site) -> None:
        """A ``Flag``: every combination of its members; what Python does with other values is its boundary's."""
        mask = functools.reduce(operator.or_, (m.value for m in annotation.__members__.values()), 0)
        boundary = getattr(getattr(annotation, "_boundary_", None), "name", None)  # enum.FlagBoundary (3.11+)
        what = f"flags of {annotation.__name__}"
        if boundary is None:
            self.skip(site, what, "Flag membership before Python 3.11 is not translated")
        elif boundary == "KEEP":
            return  # every integer is a valid value (IntFlag's default): nothing to check
        elif boundary != "STRICT":
            self.skip(site, what, f"boundary {boundary}: Python changes a value outside the flags")
        elif not isinstance(mask, int) or mask < 0 or mask.bit_length() > _FLAG_BITS:
            self.skip(site, what, f"flags beyond {_FLAG_BITS} bits do not fit a Spark bigint")
        else:
            self.add(site, "flags", mask)

    def add(self, site: _Site, kind: Kind, value: Any, java: str | None = None) -> None:
        before = site.before if kind in _PREPARED.get(site.before, ()) else None
        constraint = Constraint(site.column, site.path, kind, value, site.dtype, java, before)
        if site.reshaped:
            self.skip(site, constraint.label, site.reshaped)
        else:
            self.checked.append(constraint)

    def skip(self, site: _Site, what: str, reason: str) -> None:
        self.python_only.append(PythonOnly(_location(site.column, site.path), what, reason))

    def metadata(self, item: Any, site: _Site) -> None:
        if isinstance(item, dt.DType) or (isinstance(item, type) and issubclass(item, dt.DType)):
            return
        kind = _BOUNDS.get(type(item))
        if kind is not None:
            bound = getattr(item, kind)
            reason = site.uncompared or _untranslated_bound(bound, site.dtype)
            if reason:
                self.skip(site, f"{kind} {bound}", reason)
            else:
                self.add(site, kind, bound)
        elif isinstance(item, at.MinLen | at.MaxLen):
            kind, size = (
                ("min_length", item.min_length) if isinstance(item, at.MinLen) else ("max_length", item.max_length)
            )
            if site.unsized:
                self.skip(site, f"{kind} {size}", site.unsized)
            else:
                self.add(site, kind, size)
        elif isinstance(item, at.MultipleOf):
            reason = _untranslated_multiple(item.multiple_of, site.dtype)
            if reason:
                self.skip(site, f"multiple_of {item.multiple_of}", reason)
            else:
                self.add(site, "multiple_of", item.multiple_of)
        elif _is_general(item):
            self.general(_settings(item), site)
        else:
            self.skip(site, *_described(item))

    def general(self, items: dict[str, Any], site: _Site) -> None:
        for key, value in items.items():
            if value is None or key in _IGNORED:
                continue
            if key == "pattern":
                java, reason = java_pattern(str(value), self.engine)
                if java is None:
                    self.skip(site, f"pattern {value!r}", reason)
                else:
                    self.add(site, "pattern", str(value), java)
            elif key == "allow_inf_nan":
                if value is False and isinstance(site.dtype, dt.Floating):
                    self.add(site, "finite", False)
            elif key == "decimal_places":
                self.add(site, "decimal_places", int(value))
            elif key == "max_digits":
                places = items.get("decimal_places")
                if places is None and not (isinstance(site.dtype, dt.Decimal) and site.dtype.scale == 0):
                    reason = "without decimal_places it counts significant digits, which SQL cannot"
                    self.skip(site, f"max_digits {value}", reason)
                else:
                    self.add(site, "max_digits", (int(value), int(places or 0)))
            elif key in _TRANSFORMS:
                if value:
                    self.skip(site, f"{key}={value}", _TRANSFORMED)
            else:
                self.skip(site, f"{key}={value!r}", "no Spark predicate")


_GENERAL = {"pattern", "allow_inf_nan", "max_digits", "decimal_places", "ascii_only", *_IGNORED, *_TRANSFORMS}
"""Pydantic's own metadata (``Field(pattern=...)``, ``AllowInfNan``, ``Strict``...) holds only these settings."""

_PREPARED: dict[Before | None, tuple[Kind, ...]] = {
    "strip_whitespace": ("min_length", "max_length", "pattern", "ge", "gt", "le", "lt"),
    "distinct": ("min_length", "max_length"),
}
"""The checks Pydantic makes on the prepared value (stripped string, deduplicated set), not the stored one."""

_FLAG_BITS = 62
"""The widest ``Flag`` checked in Spark: its values and their complement stay inside a bigint."""


def _is_general(item: Any) -> bool:
    return type(item).__module__.startswith("pydantic") and _settings(item).keys() <= _GENERAL


def _settings(item: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(item):
        return {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}
    return dict(getattr(item, "__dict__", {}))


def _string_settings(items: list[Any]) -> dict[str, Any]:
    """The length limits and transformations a str value's own metadata sets."""
    own: dict[str, Any] = {}
    for item in items:
        if isinstance(item, at.MinLen):
            own["min_length"] = item.min_length
        elif isinstance(item, at.MaxLen):
            own["max_length"] = item.max_length
        elif _is_general(item):
            own |= {k: v for k, v in _settings(item).items() if k in _TRANSFORMS and v is not None}
    return own


def _function_of(method: Any) -> Any:
    return getattr(method, "__func__", method)


_DISTINCT_ITEMS = (int, str, bytes, bool, decimal.Decimal, datetime.date, datetime.datetime, datetime.timedelta)
"""Set items that Spark's ``array_distinct`` tells apart exactly as Python's set does (timestamps are UTC instants)."""


def _set_items_differ(item: Any, config: Mapping[str, Any]) -> str:
    """Why Spark may count a set of ``item`` differently from Python's set ("" when it counts the same)."""
    metadata: list[Any] = []
    while True:
        origin = typing.get_origin(item)
        if origin is Annotated:
            item, *extra = typing.get_args(item)
            metadata += _expanded(extra)
        elif origin in (Union, types.UnionType):
            (item,) = [a for a in typing.get_args(item) if a is not type(None)]
        else:
            break
    if any(type(m) in _FUNCTIONAL for m in metadata):
        return "its items pass through a Python function before duplicates are dropped"
    if item is float:
        return "Python's set keeps every NaN (NaN != NaN); Spark's array_distinct keeps one"
    transformed = {k: config.get(f"str_{k}") for k in _TRANSFORMS} | _string_settings(metadata)
    if item is str and any(transformed.get(k) for k in _TRANSFORMS):
        return "its items are transformed (strip_whitespace, to_lower, to_upper) before duplicates are dropped"
    if isinstance(item, type) and issubclass(item, enum.Flag):
        return "a Flag takes several values for one member (-1 is every flag)"
    if isinstance(item, type) and issubclass(item, enum.Enum):
        missing = _function_of(item._missing_) is not _function_of(enum.Enum._missing_)
        return "the enum's _missing_ may take several values for one member" if missing else ""
    if typing.get_origin(item) is Literal or item in _DISTINCT_ITEMS:
        return ""
    return "Spark and Python may tell its items apart differently"


def _expanded(metadata: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in metadata:
        if is_column_marker(item):  # ModelColumn[T]: a T, constrained as declared
            continue
        if isinstance(item, FieldInfo):
            out += _expanded(list(item.metadata))
        elif isinstance(item, at.GroupedMetadata) and not isinstance(item, at.BaseMetadata):
            out += _expanded(list(item))
        else:
            out.append(item)
    return out


def _name(name: str) -> str:
    """A column or struct field name as a location shows it: bare if an identifier, else in backquotes."""
    return name if name.isidentifier() else "`" + name.replace("`", "``") + "`"


def _location(column: str, path: tuple[str, ...]) -> str:
    out = _name(column)
    for step in path:
        out += step if step in ("[]", "{key}", "{value}") else f".{_name(step)}"
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


# --- numbers as Pydantic compares them ------------------------------------------------------------

Verdict = Literal["compare", "never", "always"]
"""How a bound treats the values of a column type: compare each value, or none / every one violates it."""


def _as_compared(value: Any, dtype: dt.DType) -> Any:
    """A bound as Pydantic compares it with values of ``dtype``.

    A float field compares with ``float(bound)``; a decimal field with
    ``Decimal(repr(bound))`` for a float bound (``ge=0.1`` is
    ``Decimal('0.1')``); an int field with the bound itself (Pydantic refuses
    a bound that is not a whole number when the class is defined).
    """
    if isinstance(dtype, dt.Floating):
        return float(value)
    if isinstance(dtype, dt.Decimal) and not isinstance(value, decimal.Decimal):
        return decimal.Decimal(repr(value) if isinstance(value, float) else value)
    return value


def _exact(value: Any, dtype: dt.Integral | dt.Decimal) -> decimal.Decimal | None:
    """A bound or step as the exact Decimal Pydantic compares with (None if it is no number, or NaN)."""
    try:
        compared = _as_compared(value, dtype)
        number = compared if isinstance(compared, decimal.Decimal) else decimal.Decimal(compared)
    except (TypeError, ValueError, ArithmeticError):
        return None
    return None if number.is_nan() else number


def _extremes(dtype: dt.Integral | dt.Decimal) -> tuple[decimal.Decimal, decimal.Decimal]:
    """The smallest and largest value of an exact number type."""
    if isinstance(dtype, dt.Decimal):
        largest = decimal.Decimal(f"{10**dtype.precision - 1}E-{dtype.scale}")
        return -largest, largest
    low, high = dtype.bounds()
    return decimal.Decimal(low), decimal.Decimal(high)


def _units(number: decimal.Decimal, dtype: dt.Integral | dt.Decimal, rounding: str) -> int:
    """``number`` in units of the type's last digit, rounded (exact however many digits or however far its exponent)."""
    scale = dtype.scale if isinstance(dtype, dt.Decimal) else 0
    wide = decimal.Context(prec=len(number.as_tuple().digits) + 50, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    return int(number.scaleb(scale, wide).to_integral_value(rounding=rounding, context=wide))


def _of_type(units: int, dtype: dt.Integral | dt.Decimal) -> int | decimal.Decimal:
    return units if isinstance(dtype, dt.Integral) else decimal.Decimal(f"{units}E-{dtype.scale}")


def _untranslated_bound(value: Any, dtype: dt.DType) -> str:
    """Why a bound on ``dtype`` has no Spark predicate ("" when it has)."""
    if isinstance(dtype, dt.Integral | dt.Decimal) and _exact(value, dtype) is None:
        if (isinstance(value, float) and math.isnan(value)) or (isinstance(value, decimal.Decimal) and value.is_nan()):
            return "a NaN bound: Pydantic cannot compare with it"
        return f"a bound of type {type(value).__name__} on a {dtype} column"
    return ""


def bound_verdict(kind: Kind, value: Any, dtype: dt.DType) -> tuple[Verdict, Any]:
    """How the bound ``kind value`` treats the values of ``dtype``, compared exactly as Pydantic compares them.

    ``("compare", t)``: a value violates it when ``not (value kind t)``,
    with ``t`` of the column's own type (for an int or decimal column, the
    bound rounded to the column's last digit the way that keeps the verdict
    of every value: ``gt 2.5`` on a ``decimal(10, 0)`` is ``gt 2``).
    ``("never", None)``: no value of the type violates it (``le 10**40`` on a
    bigint); ``("always", None)``: every value does (``ge 10**40``; a NaN
    bound on a float).

    >>> bound_verdict("le", 10**40, dt.Int64())
    ('never', None)
    >>> bound_verdict("gt", 2.0**53, dt.Int64())
    ('compare', 9007199254740992)
    >>> bound_verdict("ge", 0.1, dt.Decimal(10, 3))
    ('compare', Decimal('0.100'))
    """
    if isinstance(dtype, dt.Floating):
        bound = _as_compared(value, dtype)
        return ("always", None) if math.isnan(bound) else ("compare", bound)
    if not isinstance(dtype, dt.Integral | dt.Decimal):
        return "compare", value
    exact = _exact(value, dtype)
    if exact is None:  # spark_constraints lists such a bound as Python-only
        msg = f"no Spark predicate for the bound {value!r} on a {dtype} column"
        raise NotImplementedError(msg)
    lowest, highest = _extremes(dtype)
    lower = kind in ("ge", "gt")
    if exact > highest:  # beyond the type (an infinity too): a lower bound fails every value, an upper one none
        return ("always" if lower else "never"), None
    if exact < lowest:
        return ("never" if lower else "always"), None
    # a value v (a whole number of units) is > b exactly when v > floor(b), >= b when v >= ceil(b)
    t = _units(exact, dtype, decimal.ROUND_FLOOR if kind in ("gt", "le") else decimal.ROUND_CEILING)
    low, high = _units(lowest, dtype, decimal.ROUND_FLOOR), _units(highest, dtype, decimal.ROUND_FLOOR)
    never = {"gt": low > t, "ge": low >= t, "le": high <= t, "lt": high < t}[kind]
    always = {"gt": high <= t, "ge": high < t, "le": low > t, "lt": low >= t}[kind]
    if never or always:
        return ("never" if never else "always"), None
    return "compare", _of_type(t, dtype)


def decimal_type(value: decimal.Decimal) -> dt.Decimal | None:
    """The narrowest decimal type that holds ``value`` exactly (None beyond 38 digits, or not finite)."""
    if not value.is_finite():
        return None
    digits, exponent = value.as_tuple().digits, int(value.as_tuple().exponent)
    scale = max(-exponent, 0)
    precision = max(len(digits) + exponent, 0) + scale if digits != (0,) else scale
    return dt.Decimal(max(precision, 1), scale) if precision <= dt.MAX_DECIMAL_PRECISION else None


def _untranslated_multiple(value: Any, dtype: dt.DType) -> str:
    """Why ``multiple_of value`` on ``dtype`` has no Spark predicate ("" when it has)."""
    if isinstance(dtype, dt.Floating):
        return "Pydantic compares floats with a tolerance Spark cannot reproduce exactly"
    if not isinstance(dtype, dt.Integral | dt.Decimal):
        return ""
    step = _exact(value, dtype)
    if step is None or not step.is_finite() or step <= 0:
        return "a multiple_of that is not a positive number"
    if isinstance(dtype, dt.Decimal) and step <= _extremes(dtype)[1] and decimal_type(step) is None:
        return f"multiple_of {value} has more than {dt.MAX_DECIMAL_PRECISION} digits; Spark cannot compute with it"
    highest = _extremes(dtype)[1]
    if isinstance(dtype, dt.Decimal) and step <= highest and highest / step >= 10**dt.MAX_DECIMAL_PRECISION:
        # Spark's decimal remainder divides within 38 digits: a quotient of more digits fails the job
        return (
            f"multiple_of {value} is so small beside the column's largest value ({highest}) that Spark's decimal "
            f"remainder would need a quotient of more than {dt.MAX_DECIMAL_PRECISION} digits"
        )
    return ""


def multiple_verdict(value: Any, dtype: dt.DType) -> tuple[Literal["compare", "only"], Any]:
    """How ``multiple_of value`` treats the values of ``dtype``, as Pydantic computes it.

    ``("compare", m)``: a value violates it when ``value % m`` is not 0;
    ``("only", values)``: a step larger than the type's largest value leaves
    these multiples (0, and the step's negative if the type holds it), and
    every other value violates it.

    >>> multiple_verdict(10**40, dt.Int64())
    ('only', (0,))
    >>> multiple_verdict(2**63, dt.Int64())
    ('only', (-9223372036854775808, 0))
    """
    if not isinstance(dtype, dt.Integral | dt.Decimal):
        return "compare", value
    step = _exact(value, dtype)
    if step is None:  # spark_constraints lists such a step as Python-only
        msg = f"no Spark predicate for multiple_of {value!r} on a {dtype} column"
        raise NotImplementedError(msg)
    lowest, highest = _extremes(dtype)
    if step <= highest:
        return "compare", (int(step) if isinstance(dtype, dt.Integral) else step)
    multiples = [m for m in (step.copy_negate(), decimal.Decimal(0)) if lowest <= m]
    return "only", tuple(_of_type(_units(m, dtype, decimal.ROUND_FLOOR), dtype) for m in multiples)


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
class CheckResult:
    """How one dataset-level check did: ``count`` violating rows (0: it holds) and a few ``examples``.

    ``count`` is the rows that violate a ``row`` check, the rows whose key
    another row shares (a ``unique`` key; for a ``primary_key`` also the rows
    with a NULL in it), and 1 for a violated ``rows`` or ``agg`` check.
    ``examples`` are the key columns and the columns a row check reads (row
    checks), duplicated keys with their ``rows`` (keys), the row count
    (``rows``) or the aggregates' values (``agg``).
    """

    check: Check
    count: int
    examples: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """What ``DataFrame.validate()`` (or a write with ``constraints="report"``) found, in one pass over the rows.

    ``results`` has one entry per checked constraint (``count`` 0 when none
    failed); ``python_only`` lists what Spark did not check; ``checks`` has
    one ``CheckResult`` per dataset-level check of the model. ``frame`` (from
    ``validate()``) is the validated frame: the rows that no ``drop`` check
    takes out (a plan: nothing runs until it is used). ``str(report)`` is a
    table of the violated constraints and checks; ``raise_for_errors()``
    raises ``CheckError`` if a ``fail`` check was violated, else
    ``ConstraintError`` if a constraint was.
    """

    rows: int
    results: tuple[Violation, ...]
    python_only: tuple[PythonOnly, ...]
    key: tuple[str, ...] = ()
    checks: tuple[CheckResult, ...] = ()
    frame: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """Whether no constraint and no ``fail`` check was violated (``warn`` and ``drop`` ones do not count)."""
        return not self.errors and not self.failed_checks

    @property
    def failed_checks(self) -> tuple[CheckResult, ...]:
        """The violated checks whose action is ``fail``."""
        return tuple(r for r in self.checks if r.count and r.check.action == "fail")

    @property
    def errors(self) -> tuple[Violation, ...]:
        """The constraints with at least one violation."""
        return tuple(v for v in self.results if v.count)

    def __str__(self) -> str:
        bad = self.errors
        head = f"{self.rows} rows, {len(bad)} of {len(self.results)} constraints violated"
        lines = [head]
        if bad:
            rows = [(v.constraint.location, v.constraint.label, str(v.count), examples_text(v)) for v in bad]
            lines.append(_table(("column", "constraint", "violations", "examples"), rows))
        if self.checks:
            violated = [r for r in self.checks if r.count]
            lines.append(f"{len(violated)} of {len(self.checks)} checks violated")
            if violated:
                listed = [
                    (r.check.name, r.check.label, str(r.check.action), str(r.count), examples_text(r)) for r in violated
                ]
                lines.append(_table(("check", "checks", "action", "violations", "examples"), listed))
        if self.python_only:
            shown = ", ".join(f"{p.location}: {p.what}" for p in self.python_only)
            lines.append(f"checked in Python only (on collect): {shown}")
        return "\n".join(lines)

    def raise_for_errors(self) -> ValidationReport:
        """Raise ``CheckError`` if a ``fail`` check was violated, ``ConstraintError`` if a constraint was; else return.

        The message is this report's table.
        """
        if self.failed_checks:
            raise CheckError(str(self), report=self)
        if self.errors:
            raise ConstraintError(str(self), report=self)
        return self


def examples_text(violation: Violation | CheckResult) -> str:
    """The examples of a violation as a report shows them: ``id=2, qty=-1; id=3, qty=-5``."""
    shown = []
    for example in violation.examples:
        text = ", ".join(f"{k}={_short(v)}" for k, v in example.items())
        shown.append(text)
    return "; ".join(shown)


def _short(value: Any) -> str:
    text = repr(value.normalize() if isinstance(value, decimal.Decimal) else value)
    return text if len(text) <= 40 else text[:37] + "..."
