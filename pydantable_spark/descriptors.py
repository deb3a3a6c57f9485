"""``ModelColumn``: how a generated model stub declares a field, for checkers without the mypy plugin.

pyright and Pylance read a model field on the class as the field's own type
(``User.age: int | None``), because the columns ``User.age`` returns at run time
come from the metaclass. ``pydantable-spark stubgen`` writes a ``.pyi`` of a
models module in which each field is a ``ModelColumn[T]``: a descriptor that is
a ``Col[T]`` when read from the class and a ``T`` when read from an instance;
its ``__set__`` makes the model's constructor take a ``T``, as dataclass-like
classes do with descriptor fields. Nothing creates one at run time.

```pycon
>>> from pydantable_spark.descriptors import ModelColumn
>>> ModelColumn[int]
pydantable_spark.descriptors.ModelColumn[int]

```
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

if TYPE_CHECKING:
    from pydantable_spark.expr.api import Col

__all__ = ["ModelColumn"]

T = TypeVar("T")


class ModelColumn(Generic[T]):
    """A model field in a generated stub: ``Col[T]`` on the class, ``T`` on an instance."""

    __slots__ = ()

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> Col[T]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any]) -> T: ...
    def __get__(self, instance: object, owner: type[Any]) -> Col[T] | T:
        """The column (class access) or the value (instance access); only type checkers call it."""
        msg = "ModelColumn only appears in generated stubs; models use their own fields at run time"
        raise TypeError(msg)

    def __set__(self, instance: object, value: T) -> None:
        """What a constructor and an assignment take: a ``T``."""
        msg = "ModelColumn only appears in generated stubs; models use their own fields at run time"
        raise TypeError(msg)
