"""``ModelColumn[T]``: a model field's annotation that says ``Col[T]`` on the class to every checker.

pyright and Pylance read a model field on the class as the field's own type
(``User.age: int | None``), because the columns ``User.age`` returns at run time
come from the metaclass. Declaring the field as ``age: ModelColumn[int | None]``
says what the class does: to a type checker ``ModelColumn[T]`` is a descriptor
that is a ``Col[T]`` when read from the class and a ``T`` when read from an
instance, and its ``__set__`` makes the model's constructor take a ``T``, as
dataclass-like classes do with descriptor fields. At run time
``ModelColumn[T]`` is ``Annotated[T, COLUMN]``: pydantic and the whole library
read the field as a ``T`` (its Spark type, constraints, defaults), and
``COLUMN`` only records that the source asked for a column. The mypy plugin
reads it as ``T`` too.

``ModelColumn`` declares a column of a ``DataFrameModel`` only: a plain Pydantic
model read as a struct or as parsed text (``F.from_json``) refuses it when the
library reads it (its class attributes are no columns), and the mypy plugin
reports it outside a ``DataFrameModel``. ``pydantable-spark stubgen`` writes
the same descriptor (as ``_ModelColumn[T]``) into the stubs it generates for
modules whose models use plain annotations.

```pycon
>>> from pydantable_spark import DataFrameModel, ModelColumn
>>> ModelColumn[int]
typing.Annotated[int, ModelColumn]
>>> class Order(DataFrameModel):
...     id: ModelColumn[int]
...     note: ModelColumn[str | None] = ModelColumn(default=None, max_length=20)
>>> print(Order.frame_schema())
id: int (bigint)
note: str | None (string)
>>> Order.id
Col[int](id)
>>> Order(id=1).id
1

```
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Generic, TypeVar, overload

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.api import Col

__all__ = ["COLUMN", "ModelColumn", "is_column_marker"]

T = TypeVar("T")


class _ColumnMarker:
    """The ``Annotated`` metadata ``ModelColumn[T]`` adds to ``T`` at run time: nothing to validate."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ModelColumn"

    def __reduce__(self) -> str:
        return "COLUMN"  # one marker, also after pickling (the module attribute)


COLUMN: Final = _ColumnMarker()
"""The marker of a field declared ``ModelColumn[T]``: ``Annotated[T, COLUMN]``."""


def is_column_marker(item: object) -> bool:
    """Whether ``item`` is the metadata a ``ModelColumn[T]`` annotation adds."""
    return isinstance(item, _ColumnMarker)


_ONLY_TYPES = "a ModelColumn is read by type checkers only; at run time a model's field is the column or the value"


class ModelColumn(Generic[T]):
    """A model field, ``id: ModelColumn[int]``: ``Col[int]`` on the class, ``int`` on an instance.

    At run time ``ModelColumn[T]`` is ``Annotated[T, COLUMN]``. A field with a
    default is written ``day: ModelColumn[date | None] = ModelColumn(default=None)``:
    pyright checks a plain ``= None`` against the descriptor (an error), while
    ``ModelColumn(...)`` is the field's specifier, as ``pydantic.Field`` is for
    a plain annotation: it takes ``default=`` or ``default_factory=`` and every
    other option of ``pydantic.Field`` (``alias``, ``ge``, ``max_length``...),
    and at run time it *is* ``pydantic.Field(...)``. A field without a default
    may use ``pydantic.Field(ge=0)`` as well.

    ```pycon
    >>> ModelColumn(default=3, ge=0)
    FieldInfo(annotation=NoneType, required=False, default=3, metadata=[Ge(ge=0)])

    ```
    """

    __slots__ = ()

    if TYPE_CHECKING:

        @overload
        def __init__(self, *, default: T, **options: Any) -> None: ...
        @overload
        def __init__(self, *, default_factory: Callable[[], T], **options: Any) -> None: ...
        @overload
        def __init__(self, **options: Any) -> None: ...
        def __init__(self, **options: Any) -> None: ...  # type checkers' view: a default and Field's options

    else:  # the run time: ModelColumn[T] is an annotation of T, ModelColumn(...) pydantic's Field

        def __class_getitem__(cls, item: Any) -> Any:
            return Annotated[item, COLUMN]

        def __new__(cls, *args: Any, **options: Any) -> Any:
            return _field(args, options)

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> Col[T]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any]) -> T: ...
    def __get__(self, instance: object, owner: type[Any]) -> Col[T] | T:
        """The column (class access) or the value (instance access); only type checkers call it."""
        raise TypeError(_ONLY_TYPES)

    def __set__(self, instance: object, value: T) -> None:
        """What a constructor and an assignment take: a ``T``."""
        raise TypeError(_ONLY_TYPES)


def _field(args: tuple[Any, ...], options: dict[str, Any]) -> Any:
    """``pydantic.Field(**options)``, refusing what pyright would misread: a positional default, an unknown option."""
    import inspect

    import pydantic

    from pydantable_spark.errors import ArgumentTypeError

    if args:
        msg = (
            f"ModelColumn({', '.join(map(repr, args))}): give the default by name, ModelColumn(default=...) "
            "(type checkers read a field's default from the keyword only)"
        )
        raise ArgumentTypeError(msg)
    known = set(inspect.signature(pydantic.Field).parameters) - {"extra"}
    unknown = sorted(set(options) - known)
    if unknown:
        msg = (
            f"ModelColumn(...) got unknown option(s) {', '.join(unknown)}; "
            f"it takes pydantic.Field's: {', '.join(sorted(known))}"
        )
        raise ArgumentTypeError(msg)
    return pydantic.Field(**options)
