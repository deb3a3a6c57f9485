"""Logical data types: the façade's own picture of a Spark column type.

Every type is an immutable value. Atomic types carry no parameters except
``Decimal``; nested types hold their element types and the nullability of
their elements. Nothing here imports pyspark: ``pydantable_spark._spark.types``
maps these to Spark's ``DataType`` objects and back.

The class names are also markers for narrower Spark types than a Python
annotation would give by default:

```python
class Reading(DataFrameModel):
    sensor: Annotated[int, dt.Int32]    # IntegerType instead of LongType
    value: Annotated[float, dt.Float32]  # FloatType instead of DoubleType
```

```pycon
>>> from typing import Annotated
>>> from pydantable_spark.annotations import field_of_annotation
>>> print(field_of_annotation("sensor", Annotated[int, Int32]))
sensor: int not null

```
"""

from __future__ import annotations

import datetime as _datetime
import decimal as _decimal
import re as _re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantable_spark.errors import ArgumentValueError, UnsupportedTypeError

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "VARIANT_MAX_DEPTH",
    "VARIANT_MAX_DIGITS",
    "Binary",
    "Boolean",
    "DType",
    "Date",
    "Datetime",
    "DatetimeNTZ",
    "Decimal",
    "Duration",
    "Field",
    "Float32",
    "Float64",
    "Floating",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Integral",
    "List",
    "Map",
    "Numeric",
    "String",
    "Struct",
    "Temporal",
    "Variant",
]

MAX_DECIMAL_PRECISION = 38


@dataclass(frozen=True, slots=True)
class DType:
    """Base of all logical types; ``str()`` gives Spark's SQL spelling."""

    sql_name: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.sql_name

    @property
    def is_nested(self) -> bool:
        """True for ``List``, ``Map`` and ``Struct``."""
        return False


@dataclass(frozen=True, slots=True)
class Boolean(DType):
    """Spark ``BooleanType``; Python ``bool``."""

    sql_name: ClassVar[str] = "boolean"


@dataclass(frozen=True, slots=True)
class Numeric(DType):
    """Base of the number types."""


@dataclass(frozen=True, slots=True)
class Integral(Numeric):
    """Base of the fixed-width integer types."""

    bits: ClassVar[int] = 64

    @classmethod
    def bounds(cls) -> tuple[int, int]:
        """The smallest and largest value the type holds."""
        half = 1 << (cls.bits - 1)
        return -half, half - 1

    @classmethod
    def holds(cls, value: int) -> bool:
        """Whether ``value`` fits without overflow."""
        low, high = cls.bounds()
        return low <= value <= high


@dataclass(frozen=True, slots=True)
class Int8(Integral):
    """Spark ``ByteType``."""

    sql_name: ClassVar[str] = "tinyint"
    bits: ClassVar[int] = 8


@dataclass(frozen=True, slots=True)
class Int16(Integral):
    """Spark ``ShortType``."""

    sql_name: ClassVar[str] = "smallint"
    bits: ClassVar[int] = 16


@dataclass(frozen=True, slots=True)
class Int32(Integral):
    """Spark ``IntegerType``."""

    sql_name: ClassVar[str] = "int"
    bits: ClassVar[int] = 32


@dataclass(frozen=True, slots=True)
class Int64(Integral):
    """Spark ``LongType``; the default for Python ``int``."""

    sql_name: ClassVar[str] = "bigint"
    bits: ClassVar[int] = 64


@dataclass(frozen=True, slots=True)
class Floating(Numeric):
    """Base of the binary floating point types."""


@dataclass(frozen=True, slots=True)
class Float32(Floating):
    """Spark ``FloatType``."""

    sql_name: ClassVar[str] = "float"


@dataclass(frozen=True, slots=True)
class Float64(Floating):
    """Spark ``DoubleType``; the default for Python ``float``."""

    sql_name: ClassVar[str] = "double"


@dataclass(frozen=True, slots=True)
class Decimal(Numeric):
    """Spark ``DecimalType(precision, scale)``; Python ``decimal.Decimal``."""

    precision: int = MAX_DECIMAL_PRECISION
    scale: int = 18

    def __post_init__(self) -> None:
        if not 1 <= self.precision <= MAX_DECIMAL_PRECISION:
            msg = f"decimal precision must be between 1 and 38, got {self.precision}"
            raise ArgumentValueError(msg)
        if not 0 <= self.scale <= self.precision:
            msg = f"decimal scale must be between 0 and the precision ({self.precision}), got {self.scale}"
            raise ArgumentValueError(msg)

    def __str__(self) -> str:
        return f"decimal({self.precision},{self.scale})"

    @property
    def integer_digits(self) -> int:
        """Digits left of the decimal point."""
        return self.precision - self.scale


@dataclass(frozen=True, slots=True)
class String(DType):
    """Spark ``StringType``; Python ``str``, string enums and string literals."""

    sql_name: ClassVar[str] = "string"


@dataclass(frozen=True, slots=True)
class Binary(DType):
    """Spark ``BinaryType``; Python ``bytes``."""

    sql_name: ClassVar[str] = "binary"


@dataclass(frozen=True, slots=True)
class Temporal(DType):
    """Base of dates and timestamps."""


@dataclass(frozen=True, slots=True)
class Date(Temporal):
    """Spark ``DateType``; Python ``datetime.date``."""

    sql_name: ClassVar[str] = "date"


@dataclass(frozen=True, slots=True)
class Datetime(Temporal):
    """Spark ``TimestampType``: an instant, returned as an aware UTC ``datetime``."""

    sql_name: ClassVar[str] = "timestamp"


@dataclass(frozen=True, slots=True)
class DatetimeNTZ(Temporal):
    """Spark ``TimestampNTZType``: a wall-clock time, returned as a naive ``datetime``."""

    sql_name: ClassVar[str] = "timestamp_ntz"


@dataclass(frozen=True, slots=True)
class Duration(DType):
    """Spark ``DayTimeIntervalType(DAY, SECOND)``; Python ``timedelta``."""

    sql_name: ClassVar[str] = "interval day to second"


@dataclass(frozen=True, slots=True)
class Variant(DType):
    """Spark ``VARIANT``: a semi-structured value (``F.parse_json``), in Python the parsed JSON value.

    A VARIANT column crosses between Spark and Python as its JSON text
    (``to_json``), read with ``json.loads(text, parse_float=decimal.Decimal)``:
    a ``dict``, ``list``, ``str``, ``int``, ``Decimal``, ``bool`` or ``None``
    (a value JSON has no type for, a date or NaN, as Spark's text for it).
    Values written in must fit ``VARIANT_MAX_DIGITS`` and ``VARIANT_MAX_DEPTH``.
    Spark can neither compare, sort, group nor hash VARIANT values.
    """

    sql_name: ClassVar[str] = "variant"


@dataclass(frozen=True, slots=True)
class List(DType):
    """Spark ``ArrayType(inner, containsNull)``."""

    inner: DType
    contains_null: bool

    def __str__(self) -> str:
        return f"array<{_nested(self.inner, self.contains_null)}>"

    @property
    def is_nested(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Map(DType):
    """Spark ``MapType(key, value, valueContainsNull)``; keys are never null."""

    key: DType
    value: DType
    value_contains_null: bool

    def __str__(self) -> str:
        return f"map<{self.key},{_nested(self.value, self.value_contains_null)}>"

    @property
    def is_nested(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Field:
    """A named, typed column or struct field with its nullability."""

    name: str
    dtype: DType
    nullable: bool

    def __str__(self) -> str:
        return f"{self.name}: {_nested(self.dtype, self.nullable)}"


@dataclass(frozen=True, slots=True)
class Struct(DType):
    """Spark ``StructType``; a nested Pydantic model.

    ``model`` remembers the Python class the struct came from so that
    collected values come back as instances of it; it takes no part in
    equality.
    """

    fields: tuple[Field, ...]
    model: Any = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        for f in self.fields:
            if "${" in f.name:
                msg = (
                    f"struct field {f.name!r} contains '${{': Spark SQL must spell nested field names, and its "
                    "variable substitution (spark.sql.variable.substitute) rewrites '${...}' in that text; "
                    "rename the field (top-level columns may have any name)"
                )
                raise UnsupportedTypeError(msg)

    def __str__(self) -> str:
        inner = ",".join(f"{f.name}:{_nested(f.dtype, f.nullable)}" for f in self.fields)
        return f"struct<{inner}>"

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    @property
    def is_nested(self) -> bool:
        return True

    def get(self, name: str) -> Field | None:
        """The field called ``name``, or None."""
        for f in self.fields:
            if f.name == name:
                return f
        return None


def _nested(dtype: DType, nullable: bool) -> str:
    return str(dtype) if nullable else f"{dtype} not null"


def without_nullability(dtype: DType) -> DType:
    """``dtype`` with every nested nullability flag set, for comparing shapes only."""
    if isinstance(dtype, List):
        return List(without_nullability(dtype.inner), True)
    if isinstance(dtype, Map):
        return Map(dtype.key, without_nullability(dtype.value), True)
    if isinstance(dtype, Struct):
        return Struct(tuple(Field(f.name, without_nullability(f.dtype), True) for f in dtype.fields))
    return dtype


def contains_map(dtype: DType) -> bool:
    """Whether ``dtype`` is or holds a map: Spark can neither compare nor sort nor deduplicate those."""
    if isinstance(dtype, Map):
        return True
    if isinstance(dtype, List):
        return contains_map(dtype.inner)
    if isinstance(dtype, Struct):
        return any(contains_map(f.dtype) for f in dtype.fields)
    return False


def contains_variant(dtype: DType) -> bool:
    """Whether ``dtype`` is or holds a VARIANT: Spark can neither compare, sort, group nor hash those."""
    if isinstance(dtype, Variant):
        return True
    if isinstance(dtype, List):
        return contains_variant(dtype.inner)
    if isinstance(dtype, Map):
        return contains_variant(dtype.value)
    if isinstance(dtype, Struct):
        return any(contains_variant(f.dtype) for f in dtype.fields)
    return False


def has_equality(dtype: DType) -> bool:
    """Whether Spark can compare, sort, group and hash values of ``dtype``: it holds no map and no VARIANT."""
    return not contains_map(dtype) and not contains_variant(dtype)


VARIANT_NOT_COMPARABLE = (
    "VARIANT is not comparable (Spark cannot compare, sort, group or hash VARIANT values); "
    "read a typed value out of it first with F.variant_get(v, path, type)"
)
"""The reason every refusal of a VARIANT key gives."""

VARIANT_MAX_DEPTH = 1000
"""How deep a VARIANT value may nest lists and objects: Spark's JSON parser (``parse_json``) refuses deeper text."""

VARIANT_MAX_DIGITS = 38
"""A VARIANT keeps a number exactly up to 38 digits and 38 places (a decimal); beyond, Spark makes it a double."""


TYPE_NAMES: dict[str, DType] = {
    "bigint": Int64(), "long": Int64(), "int": Int32(), "integer": Int32(),
    "smallint": Int16(), "short": Int16(), "tinyint": Int8(), "byte": Int8(),
    "double": Float64(), "float": Float32(), "real": Float32(),
    "string": String(), "boolean": Boolean(), "bool": Boolean(),
    "date": Date(), "timestamp": Datetime(), "timestamp_ntz": DatetimeNTZ(), "binary": Binary(),
}  # fmt: skip
"""Spark's names of the atomic types (``parse_type_name``; decimals are spelled ``decimal(p,s)``)."""

_DECIMAL_NAME = _re.compile(r"decimal\((\d{1,3}),\s*(\d{1,3})\)")


def parse_type_name(text: str) -> DType | None:
    """The atomic type a Spark type name spells (``"bigint"``, ``"decimal(10,2)"``), or None.

    A whitelist, not Spark's parser: only these names and decimals are read.

    >>> parse_type_name(" INT "), parse_type_name("decimal(10, 2)"), parse_type_name("int; drop")
    (Int32(), Decimal(precision=10, scale=2), None)
    """
    key = text.strip().lower()
    if key in TYPE_NAMES:
        return TYPE_NAMES[key]
    found = _DECIMAL_NAME.fullmatch(key)
    if found:
        precision, scale = int(found.group(1)), int(found.group(2))
        if 1 <= precision <= MAX_DECIMAL_PRECISION and scale <= precision:
            return Decimal(precision, scale)
    return None


_EPOCH = _datetime.datetime(1970, 1, 1)
_EXAMPLES: dict[type[DType], tuple[Any, Any]] = {
    Boolean: (False, True),
    String: ("", "x"),
    Binary: (b"", b"\x00"),
    Date: (_EPOCH.date(), _datetime.date(1970, 1, 2)),
    Datetime: (_EPOCH.replace(tzinfo=_datetime.timezone.utc), _EPOCH.replace(second=1, tzinfo=_datetime.timezone.utc)),
    DatetimeNTZ: (_EPOCH, _EPOCH.replace(second=1)),
    Duration: (_datetime.timedelta(0), _datetime.timedelta(seconds=1)),
}


def example_values(dtype: DType) -> tuple[Any, Any]:
    """Two different values of an atomic type (stand-ins where Spark needs a typed constant)."""
    if isinstance(dtype, Decimal):
        return _decimal.Decimal(0), _decimal.Decimal(1).scaleb(-dtype.scale)
    if isinstance(dtype, Integral):
        return 0, 1
    if isinstance(dtype, Floating):
        return 0.0, 1.0
    if type(dtype) in _EXAMPLES:
        return _EXAMPLES[type(dtype)]
    msg = f"{dtype} has no example values (it is nested)"
    raise TypeError(msg)
