"""What a typed UDF's function is wrapped in when Spark's Python workers call it.

Spark converts whatever a Python UDF returns to the declared Spark type, and
the conversion is lax: ``"5"`` becomes 5 for a ``bigint``, ``1.7`` becomes 1,
``1`` becomes ``True``, a decimal is rounded to the column's scale, an unknown
key of a struct is dropped. Here every result must satisfy the function's
return annotation as Pydantic's strict mode reads it (an ``int`` for a
``float`` only when the float holds it exactly), hold no key its nested
models lack, and fit the Spark type exactly (``Annotated[int, Int32]``, a
decimal's digits); otherwise the job fails with ``UdfError`` naming the UDF,
the row's arguments and the value. An exception the function raises fails
the job the same way, with its type and message.

The wrapper is built on the driver and pickled to the workers; the
validators are built there on first use. The workers need pydantable-spark
(and Pydantic) installed, as they need whatever else a UDF imports.

>>> check = ResultCheck("half", ("n",), int, False)
>>> check(3, (6,))
3
>>> check("3", (6,))
Traceback (most recent call last):
...
RuntimeError: [pydantable:udf_error:...]
"""

from __future__ import annotations

import re
import reprlib
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["UDF_ERROR_MARK", "ResultCheck", "checked", "udf_error_message"]

UDF_ERROR_MARK = "pydantable:udf_error:"
"""Marks a UDF's failure in the Spark error; the readable message follows in hex, then ``]``."""

_SHOWN = reprlib.Repr()
_SHOWN.maxstring = 80
_SHOWN.maxother = 80
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = 6


_CLASS = re.compile(r"<class '([^']*)'>")
_QUALIFIED = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")
"""Module prefixes in an annotation's text (``typing.``, ``pydantable_spark.dtypes.``), left out of messages."""


def udf_error_message(text: str) -> str:
    """The marked form of ``text``, as the worker raises it (the driver's error handling decodes it)."""
    return f"[{UDF_ERROR_MARK}{text.encode('utf-8', 'replace').hex()}]"


class ResultCheck:
    """Checks one UDF's results against its return annotation; built on the driver, used in the workers."""

    def __init__(self, name: str, params: Sequence[str], annotation: Any, nullable: bool) -> None:
        self.name = name
        self.params = tuple(params)
        self.annotation = annotation
        self.nullable = nullable
        self._ready: tuple[Any, Any, Any, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"name": self.name, "params": self.params, "annotation": self.annotation, "nullable": self.nullable}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def _prepare(self) -> tuple[Any, Any, Any, Any]:
        from pydantic import TypeAdapter

        from pydantable_spark.annotations import field_of_annotation
        from pydantable_spark.ingest import unknown_keys_checker

        adapter: TypeAdapter[Any] = TypeAdapter(self.annotation)
        dtype = field_of_annotation(f"{self.name} return", self.annotation).dtype
        self._ready = (adapter, unknown_keys_checker(self.annotation, set()), dtype, _fit_of(dtype))
        return self._ready

    def __call__(self, value: Any, args: tuple[Any, ...]) -> Any:
        """``value`` as Spark should receive it; ``RuntimeError`` with a marked message if it is refused."""
        if value is None:
            if self.nullable:
                return None
            self._refuse(args, value, "the annotation is not Optional")
        from pydantic import ValidationError

        adapter, nested, dtype, fit = self._ready or self._prepare()
        if type(value) is int and isinstance(fit, _Floats) and float(value) != value:
            self._refuse(args, value, "a float cannot hold this int exactly")
        try:
            result = adapter.validate_python(value, strict=True)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            self._refuse(args, value, f"{where + ': ' if where else ''}{first['msg']} (strict)")
        if nested is not None:
            unknown = next(iter(nested(value, "")), None)
            if unknown is not None:
                self._refuse(args, value, f"unknown key {unknown.lstrip('.')!r} (its model has no such field)")
        if fit is None:
            return result
        if isinstance(fit, _Range | _Floats):
            if not fit.holds(result):
                self._refuse(args, value, f"it does not fit the column's Spark type {dtype}")
            return result
        return _arrow_fit(self, args, value, adapter, fit)

    def _refuse(self, args: tuple[Any, ...], value: Any, why: str) -> NoReturn:
        shown = ", ".join(f"{name}={_SHOWN.repr(arg)}" for name, arg in zip(self.params, args, strict=False))
        annotation = self.annotation.__name__ if isinstance(self.annotation, type) else str(self.annotation)
        annotation = _QUALIFIED.sub("", _CLASS.sub(r"\1", annotation))
        text = (
            f"UDF {self.name}({shown}) returned {_SHOWN.repr(value)}, which its return annotation "
            f"{annotation} does not allow: {why}"
        )
        raise RuntimeError(udf_error_message(text))


def _arrow_fit(check: ResultCheck, args: tuple[Any, ...], value: Any, adapter: Any, arrow: Any) -> Any:
    """A nested or decimal result dumped as Arrow takes it, and converted once to prove it fits exactly."""
    import pyarrow as pa

    from pydantable_spark.ingest import plain_value

    result = plain_value(adapter.dump_python(adapter.validate_python(value, strict=True), by_alias=True))
    try:
        pa.array([result], type=arrow)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as error:
        check._refuse(args, value, f"it does not fit the column's Spark type {arrow} ({error})")
    return result


class _Range:
    """The integers a Spark integer type holds."""

    __slots__ = ("high", "low")

    def __init__(self, bits: int) -> None:
        self.low: int = -(1 << (bits - 1))
        self.high: int = (1 << (bits - 1)) - 1

    def holds(self, value: int) -> bool:
        return self.low <= value <= self.high


class _Floats:
    """A double holds every float; a float (32 bits) only those within its range, or infinite, or NaN."""

    __slots__ = ("limit",)

    def __init__(self, limit: float) -> None:
        self.limit = limit

    def holds(self, value: float) -> bool:
        return not abs(value) > self.limit or value in (float("inf"), float("-inf"))


def _fit_of(dtype: Any) -> Any:
    """How a validated result is proven to fit ``dtype``: None (it always does), a range, or the Arrow type."""
    from pydantable_spark import dtypes as dt
    from pydantable_spark.arrow import arrow_type

    bits = {dt.Int8: 8, dt.Int16: 16, dt.Int32: 32, dt.Int64: 64}.get(type(dtype))
    if bits is not None:
        return _Range(bits)
    if isinstance(dtype, dt.Float64):
        return _Floats(float("inf"))
    if isinstance(dtype, dt.Float32):
        return _Floats(3.4028234663852886e38)
    if isinstance(dtype, dt.String | dt.Boolean | dt.Binary | dt.Date):
        return None
    return arrow_type(dtype)


def checked(fn: Callable[..., Any], check: ResultCheck) -> Callable[..., Any]:
    """``fn`` with its exceptions and results reported as ``UdfError`` (see the module docstring)."""

    def call(*args: Any) -> Any:
        try:
            value = fn(*args)
        except Exception as error:
            shown = ", ".join(f"{name}={_SHOWN.repr(arg)}" for name, arg in zip(check.params, args, strict=False))
            text = f"UDF {check.name}({shown}) raised {type(error).__name__}: {error}"
            raise RuntimeError(udf_error_message(text)) from error
        return check(value, args)

    call.__name__ = getattr(fn, "__name__", "udf")
    call.__qualname__ = getattr(fn, "__qualname__", call.__name__)
    return call
