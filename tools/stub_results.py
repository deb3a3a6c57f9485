"""The result type a generated stub declares for a catalog entry, found by running the entry's own rules.

Type checkers without the mypy plugin read ``functions.pyi`` and
``expr/namespaces.pyi``. Their signatures cannot be overloaded (see
``expr.operands``), so a stub states one result type, and only where the rule
is simple: the entry is called, as the runtime calls it, on placeholder columns
of every type its parameters admit (``Accepts.examples``), not null and then
nullable one at a time. When every call gives the same Python type ``R``:

* never NULL: ``Expr[R]`` (``F.count``, ``str.length`` of a non-null column);
* NULL exactly when the receiver of a namespace method is (its other
  parameters take Python values only): ``Expr[R | N_co]``, where the namespace's
  ``N_co`` is ``None`` for a nullable receiver and ``Never`` otherwise
  (``User.name.str.upper()`` is ``Expr[str]``);
* otherwise ``Expr[R | None]``, which holds whatever the arguments.

Anything else (the result type follows the argument types, ``F.max``) is
``Expr[Any]``.

```pycon
>>> from pydantable_spark.expr.catalog import CATALOG, METHODS
>>> result_annotation(CATALOG["count"]), result_annotation(CATALOG["upper"]), result_annotation(CATALOG["max"])
('Expr[int]', 'Expr[str | None]', 'Expr[Any]')
>>> result_annotation(METHODS["str.upper"], method="str.upper")
'Expr[str | N_co]'

```
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError, UnknownColumnError
from pydantable_spark.expr.catalog.spec import REQUIRED, sample_of

if TYPE_CHECKING:
    from pydantable_spark.expr.catalog.spec import Function, Param
    from pydantable_spark.expr.core import Typed

__all__ = ["result_annotation", "stub_type"]

_PYTHON: dict[type[dt.DType], str] = {
    dt.Boolean: "bool",
    dt.Int8: "int",
    dt.Int16: "int",
    dt.Int32: "int",
    dt.Int64: "int",
    dt.Float32: "float",
    dt.Float64: "float",
    dt.Decimal: "decimal.Decimal",
    dt.String: "str",
    dt.Binary: "bytes",
    dt.Date: "datetime.date",
    dt.Datetime: "datetime.datetime",
    dt.DatetimeNTZ: "datetime.datetime",
    dt.Duration: "datetime.timedelta",
}

_MAX_CALLS = 64
"""Combinations of argument types tried per entry (in a fixed order)."""


def stub_type(dtype: dt.DType) -> str | None:
    """The Python type of values of ``dtype`` as stub text, or None for a struct (its model is not known here)."""
    if isinstance(dtype, dt.List):
        inner = stub_type(dtype.inner)
        return None if inner is None else f"list[{inner}{' | None' if dtype.contains_null else ''}]"
    if isinstance(dtype, dt.Map):
        key, value = stub_type(dtype.key), stub_type(dtype.value)
        if key is None or value is None:
            return None
        return f"dict[{key}, {value}{' | None' if dtype.value_contains_null else ''}]"
    return _PYTHON.get(type(dtype))


def _varied(dtype: dt.DType) -> tuple[dt.DType, ...]:
    """``dtype`` and, for a nested type, the same shape over other inner types.

    An entry gives one or two nested examples; a rule that passes an inner type
    through (``map.values``, ``struct.field``) shows only when the inner types vary.
    """
    others = (dt.String(), dt.Float64())
    if isinstance(dtype, dt.List):
        return (dtype, *(dt.List(t, dtype.contains_null) for t in others))
    if isinstance(dtype, dt.Map):
        return (dtype, *(dt.Map(dtype.key, t, dtype.value_contains_null) for t in others))
    if isinstance(dtype, dt.Struct):
        return (dtype, *(dt.Struct(tuple(dt.Field(f.name, t, f.nullable) for f in dtype.fields)) for t in others))
    return (dtype,)


def _examples(param: Param) -> tuple[dt.DType, ...]:
    """The column types a probe passes for ``param``."""
    examples = param.accepts.examples if param.accepts is not None else ()
    return tuple(dict.fromkeys(varied for example in examples for varied in _varied(example)))


def _called(function: Function, *, every: bool) -> list[Param]:
    """The parameters a probe passes: the required ones (``every``: all), one argument for a variadic one."""
    called = []
    for param in function.signature.params:
        if param.default is not REQUIRED and not param.variadic and not every:
            break
        called.append(param)
    return called


def _probe(
    function: Function, method: str | None, params: list[Param], types: tuple[dt.DType, ...], nullable: int | None
) -> Typed | None:
    """The result with ``params`` passed, columns of ``types`` (argument ``nullable`` nullable); None if refused."""
    from pydantable_spark.expr.api import Expr
    from pydantable_spark.expr.binding import call
    from pydantable_spark.expr.core import Column
    from pydantable_spark.expr.core import Typed as TypedValue

    columns = iter(types)
    args: list[object] = []
    for param in params:
        if param.python_only:
            args.append(sample_of(param))
            continue
        index = len(args)
        node = Column(f"c{index}", TypedValue(next(columns), nullable=index == nullable))
        args.append(Expr(node))
    try:
        return call(function, args, names=method is None, method=method).typed
    except (ColumnTypeError, UnknownColumnError, TypeError, ValueError, KeyError):
        return None


def result_annotation(function: Function, *, method: str | None = None) -> str:
    """The stub's result type for ``function`` (a namespace method when ``method`` names it)."""
    found: list[tuple[list[Param], tuple[dt.DType, ...], Typed]] = []
    for every in (False, True):
        params = _called(function, every=every)
        choices = [_examples(p) for p in params if not p.python_only]
        for types in itertools.islice(itertools.product(*choices), _MAX_CALLS):
            result = _probe(function, method, params, types, None)
            if result is not None:
                found.append((params, types, result))
    names = {stub_type(result.dtype) for _, _, result in found}
    if not found or len(names) != 1 or None in names:
        return "Expr[Any]"
    (python,) = names
    if any(result.nullable for _, _, result in found):
        return f"Expr[{python} | None]"
    nullable_when = set()
    for params, types, _ in found:
        for position, param in enumerate(params):
            if param.python_only:
                continue
            probed = _probe(function, method, params, types, position)
            if probed is None or probed.nullable:
                nullable_when.add(position)
    if not nullable_when:
        return f"Expr[{python}]"
    if method is not None and nullable_when == {0} and all(p.python_only for p in function.signature.params[1:]):
        return f"Expr[{python} | N_co]"
    return f"Expr[{python} | None]"
