"""How Spark (ANSI mode, the Spark 4 default) combines and converts types.

These functions are the single source of the type rules the expression nodes
declare: numeric promotion for arithmetic, the common type of branches, and
which casts are legal and which may fail (and so make a result nullable). They
mirror Spark's analyzer; ``tests/test_typerules.py`` compares them with
what Spark itself reports for every pair of atomic types.
"""

from __future__ import annotations

from enum import Enum

from pydantable_spark import dtypes as dt

__all__ = [
    "ArithmeticOp",
    "Conversion",
    "arithmetic_result",
    "cast_forces_nullable",
    "classify_conversion",
    "decimal_for_integral",
    "decimal_for_number",
    "is_castable",
    "rounded_decimal",
    "supertype",
    "tightest",
]


class ArithmeticOp(Enum):
    """The binary arithmetic operators and their Python spelling."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    FLOORDIV = "//"
    MOD = "%"


_INTEGRAL_DECIMAL_DIGITS = {dt.Int8: 3, dt.Int16: 5, dt.Int32: 10, dt.Int64: 20}
_MIN_ADJUSTED_SCALE = 6


def decimal_for_integral(dtype: dt.Integral) -> dt.Decimal:
    """The decimal type Spark converts an integer type to before decimal arithmetic."""
    return dt.Decimal(_INTEGRAL_DECIMAL_DIGITS[type(dtype)], 0)


_FLOATING_DECIMALS = {dt.Float32: dt.Decimal(14, 7), dt.Float64: dt.Decimal(30, 15)}
_DOUBLE = dt.Float64()
"""The double of arithmetic: one shared instance (types are values), so columns computed alike compare by identity."""


def decimal_for_number(dtype: dt.Numeric) -> dt.Decimal:
    """The decimal type Spark casts a number to where a function takes decimals (``DecimalType.forType``).

    >>> from pydantable_spark import dtypes as dt
    >>> print(decimal_for_number(dt.Int32()), decimal_for_number(dt.Float64()), decimal_for_number(dt.Decimal(5, 1)))
    decimal(10,0) decimal(30,15) decimal(5,1)
    """
    if isinstance(dtype, dt.Decimal):
        return dtype
    if isinstance(dtype, dt.Integral):
        return decimal_for_integral(dtype)
    assert isinstance(dtype, dt.Floating)
    return _FLOATING_DECIMALS[type(dtype)]


def rounded_decimal(dtype: dt.Decimal, scale: int) -> dt.Decimal:
    """The type of a decimal rounded to ``scale`` places (``round``, ``bround``, ``ceil``, ``floor``).

    Spark keeps one more integral digit (``ceil(9.9)`` is 10), at least ``1 - scale``
    of them for a negative ``scale``, and never more than ``min(s, scale)`` places;
    past 38 digits it cuts the precision and keeps the scale (``RoundBase.dataType``).

    >>> from pydantable_spark import dtypes as dt
    >>> print(rounded_decimal(dt.Decimal(10, 2), 1), rounded_decimal(dt.Decimal(10, 2), 5))
    decimal(10,1) decimal(11,2)
    >>> print(rounded_decimal(dt.Decimal(3, 1), -3), rounded_decimal(dt.Decimal(38, 18), 20))
    decimal(4,0) decimal(38,18)
    """
    integral = dtype.precision - dtype.scale + 1
    if scale < 0:
        return dt.Decimal(min(max(integral, 1 - scale), dt.MAX_DECIMAL_PRECISION), 0)
    places = min(dtype.scale, scale)
    return dt.Decimal(min(integral + places, dt.MAX_DECIMAL_PRECISION), places)


def _adjusted_decimal(precision: int, scale: int) -> dt.Decimal:
    """Spark's ``DecimalType.adjustPrecisionScale`` (precision loss allowed)."""
    if precision <= dt.MAX_DECIMAL_PRECISION:
        return dt.Decimal(precision, scale)
    integer_digits = precision - scale
    scale = max(dt.MAX_DECIMAL_PRECISION - integer_digits, min(scale, _MIN_ADJUSTED_SCALE))
    return dt.Decimal(dt.MAX_DECIMAL_PRECISION, scale)


def _as_decimal(dtype: dt.DType) -> dt.Decimal | None:
    if isinstance(dtype, dt.Decimal):
        return dtype
    if isinstance(dtype, dt.Integral):
        return decimal_for_integral(dtype)
    return None


def _wider_integral(a: dt.Integral, b: dt.Integral) -> dt.Integral:
    return a if a.bits >= b.bits else b


def _decimal_arithmetic(op: ArithmeticOp, a: dt.Decimal, b: dt.Decimal) -> dt.Decimal:
    p1, s1, p2, s2 = a.precision, a.scale, b.precision, b.scale
    if op in (ArithmeticOp.ADD, ArithmeticOp.SUB):
        scale = max(s1, s2)
        return _adjusted_decimal(max(p1 - s1, p2 - s2) + scale + 1, scale)
    if op is ArithmeticOp.MUL:
        return _adjusted_decimal(p1 + p2 + 1, s1 + s2)
    if op is ArithmeticOp.DIV:
        scale = max(_MIN_ADJUSTED_SCALE, s1 + p2 + 1)
        return _adjusted_decimal(p1 - s1 + s2 + scale, scale)
    scale = max(s1, s2)  # MOD
    return _adjusted_decimal(min(p1 - s1, p2 - s2) + scale, scale)


def arithmetic_hint(op: ArithmeticOp, left: dt.DType, right: dt.DType) -> str:
    """What to write instead, for an arithmetic ``arithmetic_result`` refuses (``""`` if nothing to say)."""
    if op is ArithmeticOp.FLOORDIV:
        return " (// needs integer operands)"
    if op is ArithmeticOp.SUB and isinstance(left, dt.Date) and isinstance(right, dt.Date):
        return (
            " (date - date is an interval of days in Spark, a type with no Python counterpart here; "
            "F.datediff(end, start) gives the days as an int)"
        )
    return ""


def arithmetic_result(op: ArithmeticOp, left: dt.DType, right: dt.DType) -> dt.DType | None:
    """The result type of ``left <op> right``, or None when Spark has no such operation.

    ``//`` is defined for integers only (Spark's ``div``, always ``bigint``).

    >>> from pydantable_spark import dtypes as dt
    >>> print(arithmetic_result(ArithmeticOp.ADD, dt.Int32(), dt.Int64()))
    bigint
    >>> print(arithmetic_result(ArithmeticOp.DIV, dt.Decimal(10, 2), dt.Int32()))
    decimal(21,13)
    """
    if not (isinstance(left, dt.Numeric) and isinstance(right, dt.Numeric)):
        return _temporal_arithmetic(op, left, right)
    if op is ArithmeticOp.FLOORDIV:
        both_integral = isinstance(left, dt.Integral) and isinstance(right, dt.Integral)
        return dt.Int64() if both_integral else None
    if isinstance(left, dt.Floating) or isinstance(right, dt.Floating):
        both_single = isinstance(left, dt.Float32) and isinstance(right, dt.Float32)
        return dt.Float32() if both_single and op is not ArithmeticOp.DIV else _DOUBLE
    left_dec, right_dec = _as_decimal(left), _as_decimal(right)
    if isinstance(left, dt.Decimal) or isinstance(right, dt.Decimal):
        assert left_dec is not None
        assert right_dec is not None
        return _decimal_arithmetic(op, left_dec, right_dec)
    if op is ArithmeticOp.DIV:
        return _DOUBLE
    assert isinstance(left, dt.Integral)
    assert isinstance(right, dt.Integral)
    return _wider_integral(left, right)


_INSTANTS = (dt.Datetime, dt.DatetimeNTZ)


def _temporal_arithmetic(op: ArithmeticOp, left: dt.DType, right: dt.DType) -> dt.DType | None:
    """Timestamps shifted by durations, durations between timestamps, sums of durations.

    A date shifted by a (day-to-second) duration becomes a timestamp, as in Spark.
    """
    if op not in (ArithmeticOp.ADD, ArithmeticOp.SUB):
        return None
    if isinstance(right, dt.Duration) and isinstance(left, (*_INSTANTS, dt.Duration)):
        return left
    if isinstance(right, dt.Duration) and isinstance(left, dt.Date):
        return dt.Datetime()
    if op is ArithmeticOp.ADD and isinstance(left, dt.Duration) and isinstance(right, _INSTANTS):
        return right
    if op is ArithmeticOp.ADD and isinstance(left, dt.Duration) and isinstance(right, dt.Date):
        return dt.Datetime()
    if op is ArithmeticOp.SUB and isinstance(left, _INSTANTS) and type(left) is type(right):
        return dt.Duration()
    return None


def supertype(a: dt.DType, b: dt.DType) -> dt.DType | None:
    """The type both ``a`` and ``b`` convert to in ``coalesce`` or ``when`` branches.

    Returns None when there is no such type (for example ``string`` and ``bigint``).
    Nested types must have the same shape; their element nullability is merged.

    >>> from pydantable_spark import dtypes as dt
    >>> print(supertype(dt.Int32(), dt.Float32()))
    double
    >>> print(supertype(dt.Decimal(38, 12), dt.Decimal(34, 13)))
    decimal(38,12)
    """
    if a == b:
        return a
    if isinstance(a, dt.Integral) and isinstance(b, dt.Integral):
        return _wider_integral(a, b)
    if isinstance(a, dt.Numeric) and isinstance(b, dt.Numeric):
        if isinstance(a, dt.Floating) or isinstance(b, dt.Floating):
            return dt.Float64()
        da, db = _as_decimal(a), _as_decimal(b)
        assert da is not None
        assert db is not None
        # Spark 4 (precision loss allowed, the default): past 38 digits integral digits are kept, the scale is cut
        scale = max(da.scale, db.scale)
        return _adjusted_decimal(max(da.integer_digits, db.integer_digits) + scale, scale)
    temporal_order = (dt.Date, dt.DatetimeNTZ, dt.Datetime)
    if isinstance(a, temporal_order) and isinstance(b, temporal_order):
        return max(a, b, key=lambda t: temporal_order.index(type(t)))
    return _nested_supertype(a, b)


def _nested_supertype(a: dt.DType, b: dt.DType) -> dt.DType | None:
    if isinstance(a, dt.List) and isinstance(b, dt.List):
        inner = supertype(a.inner, b.inner)
        if inner is None or inner != a.inner or inner != b.inner:
            return None
        return dt.List(inner, a.contains_null or b.contains_null)
    if isinstance(a, dt.Map) and isinstance(b, dt.Map):
        value = supertype(a.value, b.value)
        if a.key != b.key or value is None or value != a.value or value != b.value:
            return None
        return dt.Map(a.key, value, a.value_contains_null or b.value_contains_null)
    if isinstance(a, dt.Struct) and isinstance(b, dt.Struct):
        if [f.name for f in a.fields] != [f.name for f in b.fields]:
            return None
        merged = []
        for fa, fb in zip(a.fields, b.fields, strict=True):
            inner = supertype(fa.dtype, fb.dtype)
            if inner is None or inner != fa.dtype or inner != fb.dtype:
                return None
            merged.append(dt.Field(fa.name, inner, fa.nullable or fb.nullable))
        return dt.Struct(tuple(merged), a.model)
    return None


def tightest(a: dt.DType, b: dt.DType) -> dt.DType | None:
    """The type ``a`` and ``b`` meet in where Spark asks for the *tightest* common type.

    Spark's list functions that compare or add elements (``array_union``,
    ``array_append``, ``array_remove``, ``map_contains_key``...) convert their
    inputs only where nothing is lost in the digits kept: integers widen, an
    integer meets a float in that float type (``int`` and ``float`` give
    ``float``), an integer meets a decimal only if the decimal has room for
    every value of it, and two different decimals, or a decimal and a float, do
    not meet at all (``supertype`` would give a wider decimal or a double).
    Nested types meet element by element; element nullability is merged.

    >>> from pydantable_spark import dtypes as dt
    >>> print(tightest(dt.Int32(), dt.Float32()), tightest(dt.Int8(), dt.Decimal(10, 2)))
    float decimal(10,2)
    >>> print(tightest(dt.Int32(), dt.Decimal(10, 2)), tightest(dt.Decimal(10, 2), dt.Decimal(38, 18)))
    None None
    """
    if a == b:
        return a
    if isinstance(a, dt.Integral) and isinstance(b, dt.Integral):
        return _wider_integral(a, b)
    if isinstance(a, dt.Floating) and isinstance(b, dt.Floating):
        return dt.Float64()
    if isinstance(a, dt.Numeric) and isinstance(b, dt.Numeric):
        if isinstance(a, dt.Floating) or isinstance(b, dt.Floating):
            float_type, other = (a, b) if isinstance(a, dt.Floating) else (b, a)
            return float_type if isinstance(other, dt.Integral) else None
        integral, decimal = (a, b) if isinstance(a, dt.Integral) else (b, a)
        if isinstance(integral, dt.Integral) and isinstance(decimal, dt.Decimal):
            fits = decimal.integer_digits >= decimal_for_integral(integral).precision
            return decimal if fits else None
        return None
    temporal_order = (dt.Date, dt.DatetimeNTZ, dt.Datetime)
    if isinstance(a, temporal_order) and isinstance(b, temporal_order):
        return max(a, b, key=lambda t: temporal_order.index(type(t)))
    return _nested_tightest(a, b)


def _nested_tightest(a: dt.DType, b: dt.DType) -> dt.DType | None:
    if isinstance(a, dt.List) and isinstance(b, dt.List):
        inner = tightest(a.inner, b.inner)
        return None if inner is None else dt.List(inner, a.contains_null or b.contains_null)
    if isinstance(a, dt.Map) and isinstance(b, dt.Map):
        key, value = tightest(a.key, b.key), tightest(a.value, b.value)
        if key is None or value is None:
            return None
        return dt.Map(key, value, a.value_contains_null or b.value_contains_null)
    if isinstance(a, dt.Struct) and isinstance(b, dt.Struct):
        if [f.name for f in a.fields] != [f.name for f in b.fields]:
            return None
        merged = []
        for fa, fb in zip(a.fields, b.fields, strict=True):
            inner = tightest(fa.dtype, fb.dtype)
            if inner is None:
                return None
            merged.append(dt.Field(fa.name, inner, fa.nullable or fb.nullable))
        return dt.Struct(tuple(merged), a.model)
    return None


# --- explicit casts (``expr.cast(...)``) -------------------------------------------------

_NUMERIC = (dt.Numeric,)
_TIMESTAMPS = (dt.Datetime, dt.DatetimeNTZ)


def is_castable(src: dt.DType, dst: dt.DType) -> bool:
    """Whether Spark (ANSI) accepts ``CAST(src AS dst)`` at analysis time.

    >>> from pydantable_spark import dtypes as dt
    >>> is_castable(dt.String(), dt.Int64()), is_castable(dt.Date(), dt.Int64())
    (True, False)
    """
    if src == dst:
        return True
    if isinstance(src, dt.List) and isinstance(dst, dt.List):
        return is_castable(src.inner, dst.inner) and (dst.contains_null or not src.contains_null)
    if src.is_nested or dst.is_nested:
        return False
    if isinstance(dst, dt.String) or isinstance(src, dt.String):
        return True
    return _atomic_castable(src, dst)


def _atomic_castable(src: dt.DType, dst: dt.DType) -> bool:
    if isinstance(src, dt.Numeric):
        if isinstance(dst, dt.Numeric | dt.Boolean | dt.Datetime):
            return True
        return isinstance(dst, dt.Duration) and not isinstance(src, dt.Floating)
    if isinstance(src, dt.Boolean):
        return isinstance(dst, dt.Numeric)
    if isinstance(src, dt.Date):
        return isinstance(dst, _TIMESTAMPS)
    if isinstance(src, dt.Datetime):
        return isinstance(dst, dt.Numeric | dt.Date | dt.DatetimeNTZ)
    if isinstance(src, dt.DatetimeNTZ):
        return isinstance(dst, dt.Date | dt.Datetime)
    if isinstance(src, dt.Duration):
        return isinstance(dst, dt.Integral | dt.Decimal)
    return False


def _decimal_holds(src: dt.DType, dst: dt.Decimal) -> bool:
    if isinstance(src, dt.Boolean):
        return dst.integer_digits >= 1
    if isinstance(src, dt.Integral):
        return dst.integer_digits >= decimal_for_integral(src).precision
    if isinstance(src, dt.Decimal):
        return dst.integer_digits > src.integer_digits or (
            dst.integer_digits >= src.integer_digits and dst.scale >= src.scale
        )
    return False


def cast_forces_nullable(src: dt.DType, dst: dt.DType) -> bool:
    """Whether Spark marks ``CAST(x AS dst)`` nullable even when ``x`` is not.

    Spark forces nullability where a cast can fail to produce a value: parsing
    strings, fractional to integer, into a decimal too small, and a few
    temporal conversions.
    """
    if src == dst or isinstance(dst, dt.String):
        return False
    if isinstance(src, dt.String):
        return not isinstance(dst, dt.Binary)
    if isinstance(dst, dt.Decimal):
        return not _decimal_holds(src, dst)
    if isinstance(dst, dt.Integral):
        if isinstance(src, dt.Floating | dt.Decimal):
            return True
        return isinstance(src, dt.Datetime) and not isinstance(dst, dt.Int64)
    if isinstance(dst, dt.Datetime):
        return isinstance(src, dt.Floating)
    if isinstance(src, dt.Date) and isinstance(dst, dt.DatetimeNTZ):
        return True
    return isinstance(src, dt.DatetimeNTZ) and isinstance(dst, dt.Date)


# --- reconciliation (collect / as_model / from_spark) -----------------------------------


class Conversion(Enum):
    """How a source type converts to a target type under strict reconciliation."""

    IDENTICAL = "identical"
    WIDENING = "widening"  # never fails, never loses information
    NARROWING = "narrowing"  # fails at run time on overflow, never silently
    LOSSY = "lossy"  # Spark would silently round, truncate or reinterpret
    INCOMPATIBLE = "incompatible"


def classify_conversion(src: dt.DType, dst: dt.DType) -> Conversion:
    """Classify an atomic conversion by the strict rules of reconciliation (docs/reconciliation.md).

    >>> from pydantable_spark import dtypes as dt
    >>> classify_conversion(dt.Int32(), dt.Int64()).value
    'widening'
    >>> classify_conversion(dt.Int64(), dt.String()).value
    'incompatible'
    """
    if src == dst:
        return Conversion.IDENTICAL
    if isinstance(src, dt.Numeric) and isinstance(dst, dt.Numeric):
        return _numeric_conversion(src, dst)
    if isinstance(src, dt.Date) and isinstance(dst, _TIMESTAMPS):
        return Conversion.WIDENING
    if isinstance(src, _TIMESTAMPS) and isinstance(dst, dt.Date | dt.Datetime | dt.DatetimeNTZ):
        return Conversion.LOSSY
    return Conversion.INCOMPATIBLE


def _numeric_conversion(src: dt.Numeric, dst: dt.Numeric) -> Conversion:
    if isinstance(src, dt.Integral):
        if isinstance(dst, dt.Integral):
            return Conversion.WIDENING if dst.bits >= src.bits else Conversion.NARROWING
        if isinstance(dst, dt.Floating):
            return Conversion.WIDENING
        assert isinstance(dst, dt.Decimal)
        fits = _decimal_holds(src, dst)
        return Conversion.WIDENING if fits else Conversion.NARROWING
    if isinstance(src, dt.Floating):
        if isinstance(src, dt.Float32) and isinstance(dst, dt.Float64):
            return Conversion.WIDENING
        return Conversion.LOSSY
    assert isinstance(src, dt.Decimal)
    if not isinstance(dst, dt.Decimal) or dst.scale < src.scale:
        return Conversion.LOSSY
    if dst.integer_digits >= src.integer_digits:
        return Conversion.WIDENING
    return Conversion.NARROWING
