"""``Call``: the one node for every catalog function, typed by its entry's rules.

``call(function, arguments)`` turns what a user passed (expressions, column
names, Python values) into a ``Call``, checking every Python value by type and
by the entry's own ``check`` when the call is made; ``Call`` then derives its
type from the entry (``call_types`` gives what Spark receives for each
argument). Special forms (columns, literals, casts, operators, ``when``,
``coalesce``, ``over``) keep their own nodes in ``core``, ``operators`` and
``conditional``.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> from pydantable_spark.expr.catalog import CATALOG
>>> class User(DataFrameModel):
...     name: str | None
>>> node = call(CATALOG["upper"], [User.name])
>>> node.typed
Typed(dtype=String(), nullable=True)

```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog.spec import ABSENT, REQUIRED, Args, Function, Kind, Param
from pydantable_spark.expr.core import Column, Literal, Node, Typed, describe, literal_of
from pydantable_spark.typerules import Conversion, classify_conversion, supertype

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["Call", "call", "call_types", "param_of"]


def param_of(function: Function, index: int) -> Param:
    """The parameter argument ``index`` belongs to (a variadic last parameter takes the rest)."""
    params = function.params
    if index < len(params):
        return params[index]
    assert params
    assert params[-1].variadic
    return params[-1]


@dataclass(frozen=True, slots=True)
class Call(Node):
    """``function(args...)``; the entry declares the type, nullability and SQL."""

    function: Function
    args: tuple[Node, ...]
    method: str | None = None
    """The namespace method it was written as (``"str.upper"``), for messages."""

    def prepare(self) -> None:
        function = self.function
        if function.common:
            indexes = _common_indexes(function, len(self.args))
            object.__setattr__(self, "args", _adopt_weak(self.args, indexes))
        if function.weak:
            indexes = [i for i in function.weak if i < len(self.args)]
            object.__setattr__(self, "args", _adopt_weak(self.args, indexes))
        if any(p.like is not None for p in function.params):
            object.__setattr__(self, "args", _adopt_like(function, self.args))
        if function.adopt is not None:
            object.__setattr__(self, "args", function.adopt(self.args))

    def derive(self) -> Typed:
        function = self.function
        types = call_types(function, self.args, self.method)
        args = Args(self.args, types, self.method or function.call_name)
        if function.check is not None:
            function.check(args)
        return Typed(function.returns(args), function.nullable(args))

    @property
    def deterministic(self) -> bool:  # type: ignore[override]
        return self.function.deterministic

    @property
    def is_aggregate(self) -> bool:
        return self.function.kind is Kind.AGGREGATE

    @property
    def is_window_function(self) -> bool:
        return self.function.kind is Kind.WINDOW

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.function.name

    @property
    def output_name(self) -> str:
        if self.function.output is not None:
            return self.function.output(self.args)
        for child in self.args:
            if not child.is_constant:
                return child.output_name
        return self.function.name

    @property
    def is_constant(self) -> bool:
        if self.function.kind is not Kind.SCALAR or not self.function.deterministic:
            return False
        return all(child.is_constant for child in self.args)


def call_types(function: Function, args: Sequence[Node], method: str | None = None) -> tuple[Typed, ...]:
    """The type Spark receives for each (typed) argument; refuses an argument the entry does not admit."""
    name = method or function.call_name
    types: list[Typed] = []
    for index, arg in enumerate(args):
        param = param_of(function, index)
        typed = arg.type
        if param.accepts is not None and not param.accepts.admits(typed.dtype):
            msg = f"{name}(): {param.name} must be {param.accepts.label}; got {describe(arg)}"
            raise ColumnTypeError(msg)
        if param.foldable and not arg.is_constant:
            msg = f"{name}(): {param.name} must be a constant (a Python value or F.lit(...)); got {describe(arg)}"
            raise ColumnTypeError(msg)
        dtype = typed.dtype if param.accepts is None else param.accepts.spark_type(typed.dtype)
        types.append(Typed(dtype, typed.nullable))
    for index, arg in enumerate(args):
        param = param_of(function, index)
        if param.like is not None and param.like < len(types):
            target = types[param.like].dtype
            source = arg.adopt(target).type.dtype if isinstance(arg, Literal) else types[index].dtype
            if classify_conversion(source, target) not in (Conversion.IDENTICAL, Conversion.WIDENING):
                msg = (
                    f"{name}(): {param.name} {describe(arg)} does not convert to {target} "
                    f"(the type of {param_of(function, param.like).name}) without loss; cast it"
                )
                raise ColumnTypeError(msg)
            types[index] = Typed(target, types[index].nullable)
    indexes = _common_indexes(function, len(types))
    if indexes:
        result = types[indexes[0]].dtype
        for i in indexes[1:]:
            merged = supertype(result, types[i].dtype)
            if merged is None:
                msg = f"{name}(): no common type for {describe(args[indexes[0]])} and {describe(args[i])}"
                raise ColumnTypeError(msg)
            result = merged
        for i in indexes:
            types[i] = Typed(result, types[i].nullable)
    return tuple(types)


def _common_indexes(function: Function, count: int) -> list[int]:
    """The arguments meeting in one type: ``function.common``, and the variadic rest after them."""
    if not function.common:
        return []
    indexes = [i for i in function.common if i < count]
    if function.params[-1].variadic:
        indexes += list(range(max(function.common) + 1, count))
    return indexes


def _adopt_weak(args: tuple[Node, ...], indexes: Sequence[int]) -> tuple[Node, ...]:
    """Weak literals among arguments ``indexes`` adopt the type the strong ones among them meet in."""
    strong = [args[i] for i in indexes if args[i].typed is not None and not _weak(args[i])]
    if not strong:
        return args
    target = strong[0].type.dtype
    for node in strong[1:]:
        merged = supertype(target, node.type.dtype)
        if merged is None:
            return args  # derive reports it
        target = merged
    adopted = list(args)
    for i in indexes:
        node = args[i]
        if isinstance(node, Literal):
            adopted[i] = node.adopt(target)
    return tuple(adopted)


def _adopt_like(function: Function, args: tuple[Node, ...]) -> tuple[Node, ...]:
    """Weak literals of a ``like`` parameter take the type of the argument they follow, where known."""
    adopted = list(args)
    for index, arg in enumerate(args):
        like = param_of(function, index).like
        if like is not None and like < len(args) and isinstance(arg, Literal) and args[like].typed is not None:
            adopted[index] = arg.adopt(args[like].type.dtype)
    return tuple(adopted)


def _weak(node: Node) -> bool:
    return isinstance(node, Literal) and node.weak


# --- from what the user passed ----------------------------------------------------------------------


def _python_kinds(param: Param) -> str:
    names = [k.__name__ for k in param.python]
    return " or ".join(names) if names else "no Python value"


def _argument(function: Function, param: Param, value: object, *, names: bool, name: str) -> Node:
    """One argument's node, from an expression, a column name or a Python value (checked).

    ``names`` False makes a ``str`` a value even where PySpark reads a column
    name: namespace methods take values (``x.str.contains("a")``).
    """
    from pydantable_spark.expr.api import Expr

    what = f"{name}()"
    if isinstance(value, Expr):
        if param.python_only:
            msg = f"{what}: {param.name} takes a Python value ({_python_kinds(param)}), not an expression"
            raise ColumnTypeError(msg)
        return value.node
    if isinstance(value, str) and param.names and names and not param.python_only:
        return Column(value)
    if param.python and isinstance(value, param.python) and not (isinstance(value, bool) and bool not in param.python):
        problem = param.check(value) if param.check is not None else None
        if problem is not None:
            msg = f"{what}: {param.name} {problem}, got {value!r}"
            raise ColumnTypeError(msg)
        # a value beside expressions takes its type from them (a weak literal) unless the entry fixes it
        return literal_of(value, param.literal, weak=param.literal is None and not param.python_only)
    if not param.python_only and value is not None and not (isinstance(value, str) and names):
        try:
            literal = literal_of(value, weak=True)
        except ColumnTypeError:
            pass
        else:
            if param.accepts is not None and not param.accepts.admits(literal.dtype):
                msg = f"{what}: {param.name} must be {param.accepts.label}; got {describe(literal)}"
                raise ColumnTypeError(msg)
            return literal
    if param.python_only:
        msg = f"{what}: {param.name} must be {_python_kinds(param)}, got {value!r} ({type(value).__name__})"
        raise ColumnTypeError(msg)
    accepted = ["an expression"]
    if param.names:
        accepted.append("a column name")
    if param.python:
        accepted.append(_python_kinds(param))
    msg = f"{what}: {param.name} takes {', '.join(accepted) or 'nothing'}; got {value!r} ({type(value).__name__})"
    raise ColumnTypeError(msg)


def call(
    function: Function,
    positional: Sequence[object],
    named: Mapping[str, object] | None = None,
    *,
    names: bool = True,
    method: str | None = None,
) -> Call:
    """The ``Call`` of ``function`` on what a user passed, in PySpark's parameter order (or by name).

    With ``names`` False (namespace methods) a ``str`` argument is a value, never a column name.
    """
    named = dict(named or {})
    name = method or function.call_name
    if function.unpacks and len(positional) == 1 and isinstance(positional[0], list | tuple):
        positional = list(positional[0])  # F.array([a, b]), as PySpark takes it
    values: list[object] = []
    params = function.params
    rest = list(positional)
    for index, param in enumerate(params):
        if param.variadic:
            values.extend(rest[index:])
            rest = rest[:index]
            break
        if index < len(rest):
            if param.name in named:
                msg = f"{name}() got {param.name} twice"
                raise TypeError(msg)
            values.append(rest[index])
        elif param.name in named:
            values.append(named.pop(param.name))
        elif param.default is REQUIRED:
            msg = f"{name}() is missing its argument {param.name!r}"
            raise TypeError(msg)
        else:
            values.append(param.default)
    if len(rest) > len(params) and not (params and params[-1].variadic):
        msg = f"{name}() takes {len(params)} argument(s), got {len(rest)}"
        raise TypeError(msg)
    unknown = set(named) - {p.name for p in params}
    if unknown:
        msg = f"{name}() got unexpected argument(s) {sorted(unknown)}; it takes {[p.name for p in params]}"
        raise TypeError(msg)
    nodes: list[Node] = []
    absent = False
    for index, value in enumerate(values):
        param = param_of(function, index)
        if value is ABSENT or (value is None and param.default is ABSENT):
            absent = True
            continue
        if absent:
            msg = f"{name}(): {param.name} needs the arguments before it"
            raise TypeError(msg)
        if value is None and param.none is not None:
            nodes.append(param.none())  # what None stands for (the current time, the session time zone)
            continue
        nodes.append(_argument(function, param, value, names=names, name=name))
    if params and params[-1].variadic and params[-1].default is REQUIRED and len(values) < len(params):
        msg = f"{name}() needs at least one {params[-1].name}"
        raise ColumnTypeError(msg)
    return Call(function, tuple(nodes), method)
