"""Typed Python UDFs: ``F.udf`` over an annotated function, run by Spark with Arrow.

The parameter and return annotations are the types (the same mapping as a
model's fields): the call's arguments are checked against the parameters when
the plan is built, the result has the return annotation's type, and mypy reads
it from the annotation. Spark marks a Python UDF's result nullable whatever the
function returns, so the result is ``T | None``.

>>> from pydantable_spark import F
>>> @F.udf
... def shout(text: str) -> str:
...     return text.upper() + "!"
>>> shout(F.col("name"))
Expr[?](shout(name))
"""

from __future__ import annotations

import inspect
import itertools
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from typing_extensions import ParamSpec

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import field_of_annotation
from pydantable_spark.errors import ColumnTypeError, UnsupportedTypeError
from pydantable_spark.expr.api import Expr, into_node
from pydantable_spark.expr.coercion import to_type
from pydantable_spark.expr.core import Node, Typed, describe
from pydantable_spark.typerules import Conversion, classify_conversion

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["PythonFunction", "Udf", "UdfCall", "takes", "udf"]

R = TypeVar("R")
P = ParamSpec("P", default=...)

_NUMBERS = itertools.count(1)


@dataclass(frozen=True, eq=False, slots=True)
class PythonFunction:
    """A Python function with the types its annotations give; Spark SQL calls it ``sql_name``.

    The steps whose SQL calls it carry it (``steps.ir.Step.udfs``), and the
    executor registers it with the session under that name before the call.
    """

    fn: Callable[..., Any]
    params: tuple[tuple[str, Typed], ...]
    returns: Typed
    sql_name: str
    annotation: Any = None
    """The return annotation, which every result must satisfy (``udf_results``)."""

    @property
    def name(self) -> str:
        return getattr(self.fn, "__name__", "udf")

    def worker_function(self) -> Callable[..., Any]:
        """What Spark's workers call: ``fn`` with its results checked and its exceptions named (``UdfError``)."""
        from pydantable_spark.expr.udf_results import ResultCheck, checked

        check = ResultCheck(self.name, [name for name, _ in self.params], self.annotation, self.returns.nullable)
        return checked(self.fn, check)


def _typed(where: str, annotation: Any) -> Typed:
    try:
        found = field_of_annotation(where, annotation)
    except UnsupportedTypeError as error:
        msg = f"F.udf: {error}"
        raise ColumnTypeError(msg) from None
    return Typed(found.dtype, found.nullable)


def _describe_function(fn: Callable[..., Any]) -> PythonFunction:
    name = getattr(fn, "__name__", repr(fn))
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except (NameError, TypeError) as error:
        msg = f"F.udf({name}): its annotations cannot be read ({error})"
        raise ColumnTypeError(msg) from None
    params = []
    for param in inspect.signature(fn).parameters.values():
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            msg = f"F.udf({name}): parameter {param.name!r} must be a plain positional parameter (no *args, **kwargs)"
            raise ColumnTypeError(msg)
        if param.name not in hints:
            msg = f"F.udf({name}): annotate parameter {param.name!r} with its type (for example {param.name}: int)"
            raise ColumnTypeError(msg)
        params.append((param.name, _typed(f"{name}.{param.name}", hints[param.name])))
    if "return" not in hints:
        msg = f"F.udf({name}): annotate its return type (for example -> int | None); it is the column's type"
        raise ColumnTypeError(msg)
    returns = _typed(f"{name} return", hints["return"])
    return PythonFunction(fn, tuple(params), returns, f"__pydantable_udf_{next(_NUMBERS)}", hints["return"])


class Udf(Generic[R, P]):
    """A typed UDF; calling it on expressions or column names gives an ``Expr`` of its return type, nullable.

    ``P`` keeps the function's parameters for the mypy plugin, which checks a
    call's arguments against them by the runtime's rules (``UdfCall``).
    """

    __slots__ = ("function",)

    def __init__(self, function: PythonFunction) -> None:
        self.function = function

    def __call__(self, *args: object) -> Expr[R | None]:
        nodes = tuple(into_node(a, f"{self.function.name}()", scalars=True) for a in args)
        return Expr(UdfCall(self.function, nodes))

    def __repr__(self) -> str:
        return f"F.udf({self.function.name})"


def udf(fn: Callable[P, R]) -> Udf[R, P]:
    """A typed UDF of ``fn`` (also a decorator): its annotations are the argument and result types.

    Spark runs it with Arrow (``useArrow=True``), one row at a time. NULL is
    passed only to a parameter annotated ``T | None``; a nullable argument for
    another parameter is refused when the plan is built.
    """
    return Udf(_describe_function(fn))


_FAMILIES = (dt.Integral, dt.Floating, dt.Decimal)
"""The types whose narrower members hold the same Python values as the wider ones (int, float, Decimal)."""


def takes(parameter: dt.DType, argument: dt.DType) -> bool:
    """Whether a UDF parameter of type ``parameter`` takes a column of type ``argument``.

    The same type, or a narrower one of the same Python type (an ``int32``
    column, of Python ints, for a parameter annotated ``int``, a ``bigint``):
    the function receives the values the annotation names.

    >>> takes(dt.Int64(), dt.Int32()), takes(dt.Int32(), dt.Int64()), takes(dt.Float64(), dt.Int32())
    (True, False, False)
    """
    if argument == parameter:
        return True
    same_family = any(isinstance(argument, f) and isinstance(parameter, f) for f in _FAMILIES)
    return same_family and classify_conversion(argument, parameter) is Conversion.WIDENING


@dataclass(frozen=True, slots=True)
class UdfCall(Node):
    """A call of a typed UDF."""

    function: PythonFunction
    args: tuple[Node, ...]

    def prepare(self) -> None:
        params = self.function.params
        if len(self.args) != len(params):
            names = ", ".join(n for n, _ in params)
            msg = f"{self.function.name}() takes {len(params)} argument(s) ({names}), got {len(self.args)}"
            raise ColumnTypeError(msg)
        adopted = tuple(to_type(a, typed.dtype) for a, (_, typed) in zip(self.args, params, strict=True))
        object.__setattr__(self, "args", adopted)

    def derive(self) -> Typed:
        for arg, (name, typed) in zip(self.args, self.function.params, strict=True):
            actual = arg.type
            if not takes(typed.dtype, actual.dtype):
                msg = f"{self.function.name}(): parameter {name} is {typed}; got {describe(arg)}"
                raise ColumnTypeError(msg)
            if actual.nullable and not typed.nullable:
                msg = (
                    f"{self.function.name}(): {describe(arg)} can be NULL but parameter {name} is {typed}; "
                    f"annotate it as Optional or fill the NULLs first"
                )
                raise ColumnTypeError(msg)
        return Typed(self.function.returns.dtype, nullable=True)  # Spark marks a Python UDF's result nullable

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.function.name
