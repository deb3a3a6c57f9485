"""``Call``: the one node for every catalog function, typed by its entry's rules.

``expr.binding.call(function, arguments)`` turns what a user passed
(expressions, column names, Python values) into a ``Call``, checking every
Python value when the call is made; ``Call`` then derives its type from the
entry (``call_types`` gives what Spark receives for each argument). Special
forms (columns, literals, casts, operators, ``when``, ``coalesce``, ``over``)
keep their own nodes in ``core``, ``operators`` and ``conditional``.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> from pydantable_spark.expr.catalog import CATALOG
>>> class User(DataFrameModel):
...     name: str | None
>>> node = Call(CATALOG["upper"], (User.name.node,))
>>> node.typed
Typed(dtype=String(), nullable=True)

```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog.spec import Args, Function, Kind, Param, any_null
from pydantable_spark.expr.coercion import beside, meet, meeting_type
from pydantable_spark.expr.core import Facts, Literal, Node, Typed, describe, merged_facts
from pydantable_spark.expr.lambdas import typed_lambdas
from pydantable_spark.typerules import Conversion, classify_conversion

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantable_spark import dtypes as dt

__all__ = ["Call", "call_types", "param_of"]


def param_of(function: Function, index: int) -> Param:
    """The parameter argument ``index`` belongs to (a variadic last parameter takes the rest)."""
    params = function.signature.params
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
        if function.rules.common:
            object.__setattr__(self, "args", meet(self.args, _common_indexes(function, len(self.args))))
        if function.rules.weak:
            object.__setattr__(self, "args", meet(self.args, function.rules.weak))
        if function.has_like:
            object.__setattr__(self, "args", _adopt_like(function, self.args))
        if function.has_lambdas:
            object.__setattr__(self, "args", typed_lambdas(function.signature.params, self.args))
        if function.rules.adopt is not None:
            object.__setattr__(self, "args", function.rules.adopt(self.args))

    def _gather(self, kids: tuple[Node, ...]) -> Facts:
        if self.function.placement.kind is _SCALAR:
            return merged_facts(kids)  # a scalar function is neither an aggregate nor a window function
        return Node._gather(self, kids)

    def render(self) -> str:
        return f"{self.function.name}({', '.join(arg.render() for arg in self.args)})"

    def expects(self, index: int) -> dt.DType | None:
        params = self.function.signature.params
        accepts = params[min(index, len(params) - 1)].accepts if params else None
        if accepts is None or len(accepts.examples) != 1:  # no column, or several kinds of value
            return None
        return accepts.examples[0]

    def derive(self) -> Typed:
        function = self.function
        types = call_types(function, self.args, self.method)
        args = Args(self.args, types, self.method or function.call_name)
        if function.rules.check is not None:
            function.rules.check(args)
        if function.rules.nullable is any_null:  # the usual rule, without the call
            nullable = False
            for typed in types:
                if typed.nullable:
                    nullable = True
                    break
        else:
            nullable = function.rules.nullable(args)
        return Typed(function.rules.returns(args), nullable)

    @property
    def deterministic(self) -> bool:  # type: ignore[override]
        return self.function.placement.deterministic

    @property
    def is_aggregate(self) -> bool:
        return self.function.placement.kind is _AGGREGATE

    @property
    def is_window_function(self) -> bool:
        return self.function.placement.kind is _WINDOW

    @property
    def is_group_key(self) -> bool:
        return self.function.placement.kind is _GROUP_KEY

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.function.name

    @property
    def output_name(self) -> str:
        if self.function.rules.output is not None:
            return self.function.rules.output(self.args)
        for child in self.args:
            if not child.is_constant:
                return child.output_name
        return self.function.name

    @property
    def is_constant(self) -> bool:
        if self.function.placement.kind is not Kind.SCALAR or not self.function.placement.deterministic:
            return False
        return all(child.is_constant for child in self.args)


_SCALAR = Kind.SCALAR
_AGGREGATE = Kind.AGGREGATE
_WINDOW = Kind.WINDOW
_GROUP_KEY = Kind.GROUP_KEY


def call_types(function: Function, args: Sequence[Node], method: str | None = None) -> tuple[Typed, ...]:
    """The type Spark receives for each (typed) argument; refuses an argument the entry does not admit."""
    name = method or function.call_name
    types: list[Typed] = []
    params = function.params_as(name.removeprefix("F."))  # an alias's parameters have PySpark's names for it
    last = len(params) - 1
    for index, arg in enumerate(args):
        param = params[index] if index <= last else params[last]
        typed = arg.type
        accepts = param.accepts
        if accepts is not None:
            if not accepts.test(typed.dtype):
                msg = f"{name}(): {param.name} must be {accepts.label}; got {describe(arg)}"
                raise ColumnTypeError(msg)
            if accepts.to is not None:
                typed = Typed(accepts.to(typed.dtype), typed.nullable)
        if param.foldable and not arg.is_constant:
            msg = f"{name}(): {param.name} must be a constant (a Python value or F.lit(...)); got {describe(arg)}"
            raise ColumnTypeError(msg)
        types.append(typed)
    for index, arg in enumerate(args if function.has_like else ()):
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
    indexes = _common_indexes(function, len(types)) if function.rules.common else ()
    if indexes:
        result = meeting_type([args[i] for i in indexes], f"{name}()", [types[i].dtype for i in indexes])
        for i in indexes:
            types[i] = Typed(result, types[i].nullable)
    return tuple(types)


def _common_indexes(function: Function, count: int) -> list[int]:
    """The arguments meeting in one type: ``function.common``, and the variadic rest after them."""
    if not function.rules.common:
        return []
    indexes = [i for i in function.rules.common if i < count]
    if function.signature.params[-1].variadic:
        indexes += list(range(max(function.rules.common) + 1, count))
    return indexes


def _adopt_like(function: Function, args: tuple[Node, ...]) -> tuple[Node, ...]:
    """Weak literals of a ``like`` parameter take the type of the argument they follow, where known."""
    adopted = list(args)
    for index, arg in enumerate(args):
        like = param_of(function, index).like
        if like is not None and like < len(args):
            adopted[index] = beside(arg, args[like])
    return tuple(adopted)
