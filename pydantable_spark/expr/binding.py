"""``call``: a catalog function applied to what a user passed, checked when the call is made.

Expressions, column names and Python values become the argument nodes of a
``Call`` (``expr.call``): every Python value is checked by type and by the
entry's own ``check``, and becomes a typed literal, never SQL text. This is the
one place where the user-facing ``Expr`` meets the catalog, so the expression
nodes themselves never import the user-facing API.

```pycon
>>> from pydantable_spark.expr.catalog import CATALOG
>>> call(CATALOG["upper"], ["name"]).render()
'upper(name)'

```
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.call import Call, call_types
from pydantable_spark.expr.catalog.spec import ABSENT, OPTIONS, REQUIRED, Function, Param
from pydantable_spark.expr.coercion import list_literal
from pydantable_spark.expr.core import Alias, Column, Literal, Node, describe, literal_of
from pydantable_spark.expr.lambdas import Lambda, Variable, binding, body_error, new_token, refuse_escaped
from pydantable_spark.expr.options import option_pairs

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pydantable_spark.expr.catalog.spec import Takes

__all__ = ["call"]


def _python_kinds(param: Param) -> str:
    names = [k.__name__ for k in param.python]
    return " or ".join(names) if names else "no Python value"


def _argument(function: Function, param: Param, value: object, *, names: bool, name: str) -> Node:
    """One argument's node, from an expression, a column name or a Python value (checked).

    ``names`` False makes a ``str`` a value even where PySpark reads a column
    name: namespace methods take values (``x.str.contains("a")``).
    """
    if isinstance(value, Expr):
        if param.python_only:
            msg = f"{name}(): {param.name} takes a Python value ({_python_kinds(param)}), not an expression"
            raise ArgumentTypeError(msg)
        return value.node
    what = f"{name}()"
    if isinstance(value, str) and param.names and names and not param.python_only:
        return Column(value)
    if isinstance(value, dict) and param.literal == OPTIONS:
        pairs = option_pairs(value, f"{what}: {param.name}")
        problem = param.check(dict(pairs)) if param.check is not None else None
        if problem is not None:
            msg = f"{what}: {param.name} {problem}, got {shown(value)}"
            raise ArgumentValueError(msg)
        return Literal(pairs, OPTIONS)
    if param.python and isinstance(value, param.python) and not (isinstance(value, bool) and bool not in param.python):
        problem = param.check(value) if param.check is not None else None
        if problem is not None:
            msg = f"{what}: {param.name} {problem}, got {shown(value)}"
            raise ArgumentValueError(msg)
        # a value beside expressions takes its type from them (a weak literal) unless the entry fixes it
        dtype = param.literal
        if isinstance(value, list | tuple):
            if dtype is None:  # a list of values (contains_any's): typed as they meet; the entry's adopt may narrow it
                return list_literal(value, f"{what}: {param.name}")
            dtype = dt.List(dtype, False)  # a list of values (percentages): a list literal of the entry's type
        return literal_of(value, dtype, weak=dtype is None and not param.python_only)
    if not param.python_only and value is not None and not (isinstance(value, str) and names):
        try:
            literal = literal_of(value, weak=True)
        except ColumnTypeError:
            pass
        else:
            if param.accepts is not None and not param.accepts.admits(literal.dtype):
                msg = f"{what}: {param.name} must be {param.accepts.label}; got {describe(literal)}"
                raise ArgumentTypeError(msg)
            return literal
    if param.python_only:
        msg = f"{what}: {param.name} must be {_python_kinds(param)}, got {shown(value)} ({type(value).__name__})"
        raise ArgumentTypeError(msg)
    accepted = ["an expression"]
    if param.names:
        accepted.append("a column name")
    if param.python:
        accepted.append(_python_kinds(param))
    msg = f"{what}: {param.name} takes {', '.join(accepted) or 'nothing'}; got {shown(value)} ({type(value).__name__})"
    raise ArgumentTypeError(msg)


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _lambda_argument(
    function: Function, param: Param, takes: Takes, value: object, nodes: Sequence[Node], name: str
) -> Lambda:
    """A Python function passed for ``param`` as a ``Lambda``: called once with typed variables, its result the body.

    As PySpark, the function's positional parameters (no ``*args``, ``**kwargs``
    or keyword-only ones) say which form it takes (``f(x)`` or ``f(x, i)``); it
    returns an expression, or a Python value (a literal). The arguments before
    it are checked first (``F.transform(User.id, ...)`` names ``col``, not the body);
    a body using a variable of a lambda it is not inside is refused (``escaped``).
    """
    what = f"{name}(): {param.name}"
    if all(node.typed is not None for node in nodes):
        call_types(function, nodes, name)  # refuses an argument the variables' types would come from
    if isinstance(value, Expr) or not callable(value) or isinstance(value, type):
        got = f"{shown(value)} ({type(value).__name__})"
        msg = f"{what} must be a function (a lambda) taking {takes.describe()}; got {got}"
        raise ArgumentTypeError(msg)
    try:
        parameters = list(inspect.signature(value).parameters.values())
    except (TypeError, ValueError):
        msg = f"{what}: cannot read the parameters of {shown(value)}; pass a lambda or a def taking {takes.describe()}"
        raise ArgumentTypeError(msg) from None
    if any(p.kind not in _POSITIONAL for p in parameters):
        msg = f"{what} must take positional parameters only (no *args, **kwargs or keyword-only ones), as PySpark's"
        raise ArgumentTypeError(msg)
    if len(parameters) not in takes.arities:
        msg = f"{what} takes a function of {takes.describe()}; the function given takes {len(parameters)}"
        raise ArgumentTypeError(msg)
    types = takes.types(nodes)
    variables = tuple(
        Variable(new_token(), p.name, typed, name) for p, typed in zip(parameters, types, strict=False)
    )  # named as the function names them, for messages
    try:
        with binding(variables):
            result = value(*(Expr(v) for v in variables))
    except ColumnTypeError as error:
        raise ColumnTypeError(body_error(name, param.name, variables, error)) from None
    if isinstance(result, Expr):
        body = result.node
    else:
        try:
            body = literal_of(result, weak=True)
        except ColumnTypeError as error:
            msg = (
                f"{what} returned {shown(result)} ({type(result).__name__}); it must return an expression over its "
                f"parameters (or a Python value, a literal): {error}"
            )
            raise ArgumentTypeError(msg) from None
    refuse_escaped(name, param.name, variables, body)
    return Lambda(name, param.name, variables, body)


def _values(
    function: Function,
    params: tuple[Param, ...],
    positional: Sequence[object],
    named: Mapping[str, object] | None,
    name: str,
) -> list[object]:
    """Each parameter's value as Python binds a call: by position, by name, or the default (variadic ones: the rest).

    ``params`` are the function's parameters under the names of the function called (an alias may name
    them otherwise). Raises ``TypeError`` as Python does for an argument given twice, missing, unknown or
    in excess.
    """
    count = len(positional)
    if not named and count in function.by_position:
        # the common call: the binding below gives exactly this, and none of its checks can fail
        return [*positional, *function.defaults[count:]]
    named = dict(named) if named else {}
    unknown = sorted(set(named) - {p.name for p in params if not p.variadic})
    if unknown:
        takes = ", ".join(f"*{p.name}" if p.variadic else p.name for p in params)
        msg = f"{name}() got unexpected argument(s) {', '.join(unknown)}; it takes ({takes})"
        raise ArgumentTypeError(msg)
    values: list[object] = []
    for index, param in enumerate(params):
        if param.variadic:
            values.extend(positional[index:])
            count = min(count, index)
            break
        if index < count:
            if named and param.name in named:
                msg = f"{name}() got {param.name} twice"
                raise ArgumentTypeError(msg)
            values.append(positional[index])
        elif named and param.name in named:
            values.append(named.pop(param.name))
        elif param.default is REQUIRED:
            msg = f"{name}() is missing its argument {param.name!r}"
            raise ArgumentTypeError(msg)
        else:
            values.append(param.default)
    if count > len(params) and not (params and params[-1].variadic):
        msg = f"{name}() takes {len(params)} argument(s), got {count}"
        raise ArgumentTypeError(msg)
    if named:
        msg = f"{name}() takes {', '.join(sorted(named))} as positional arguments, not by name"
        raise ArgumentTypeError(msg)
    return values


def _no_options(param: Param, value: object) -> bool:
    """An empty dict of options: none at all (Spark refuses an empty ``map()`` of options)."""
    return param.literal == OPTIONS and isinstance(value, dict) and not value


def call(
    function: Function,
    positional: Sequence[object],
    named: Mapping[str, object] | None = None,
    *,
    names: bool = True,
    method: str | None = None,
    alias: str | None = None,
) -> Node:
    """The ``Call`` of ``function`` on what a user passed, in PySpark's parameter order (or by name).

    With ``names`` False (namespace methods) a ``str`` argument is a value, never a column name.
    ``alias`` is the ``F`` name the call was written with, when not the entry's: its parameter names
    are PySpark's for that name, and messages name it. A call with no values of a function that says
    what that stands for (``Rules.empty``) is that instead.
    """
    if alias is not None and alias != function.name:
        method = method or f"F.{alias}"
        params = function.params_as(alias)
    else:
        params = function.signature.params
    name = method or function.call_name
    if function.signature.unpacks and len(positional) == 1 and isinstance(positional[0], list | tuple):
        positional = list(positional[0])  # F.array([a, b]), as PySpark takes it
    keywords: dict[str, object] = {}
    if function.signature.keywords and named:  # values named by their keywords join the variadic ones
        taken = {p.name for p in params if not p.variadic}
        keywords = {k: v for k, v in named.items() if k not in taken}
        named = {k: v for k, v in named.items() if k in taken}
    values = _values(function, params, positional, named, name)
    nodes: list[Node] = []
    absent = False
    last = len(params) - 1
    for index, value in enumerate(values):
        param = params[index] if index <= last else params[last]
        if value is ABSENT or (param.default is ABSENT and (value is None or _no_options(param, value))):
            absent = True
            continue
        if absent:
            msg = f"{name}(): {param.name} needs the arguments before it"
            raise ArgumentTypeError(msg)
        if value is None and param.none is not None:
            nodes.append(param.none())  # what None stands for (the current time, the session time zone)
            continue
        if isinstance(value, Expr) and param.accepts is not None:
            nodes.append(value.node)  # the common argument, taken as _argument takes it
        elif param.takes is not None:
            nodes.append(_lambda_argument(function, param, param.takes, value, nodes, name))
        else:
            nodes.append(_argument(function, param, value, names=names, name=name))
    for keyword, value in keywords.items():
        variadic = params[-1]
        node = value.node if isinstance(value, Expr) else _argument(function, variadic, value, names=names, name=name)
        nodes.append(Alias(node, keyword))
    if params and params[-1].variadic and params[-1].default is REQUIRED and len(values) + len(keywords) < len(params):
        msg = f"{name}() needs at least one {params[-1].name}"
        raise ArgumentTypeError(msg)
    if not nodes and function.rules.empty is not None:
        return function.rules.empty()
    return Call(function, tuple(nodes), method)
