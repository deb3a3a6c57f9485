"""What one catalog entry says about a function, and the small rules entries are written with.

An entry (``Function``) names the function as PySpark does, lists its
parameters in PySpark's order (``Param``: which column types an argument
admits, or which Python values a parameter takes), and declares its result:
a dtype rule and a nullability rule over the arguments (``Args``), both
checked against Spark's analyzer by ``tests/expr/test_catalog.py`` for every
admissible input type, nullable and not. Everything else reads the entries:
``F``, the ``.str``/``.dt``/``.list``/``.map`` namespaces, the SQL lowering,
the mypy plugin, the plan format and the generated reference page.

```pycon
>>> from pydantable_spark.expr.catalog import CATALOG
>>> upper = CATALOG["upper"]
>>> upper.sql_name, upper.docs.category, [p.name for p in upper.signature.params]
('upper', 'string', ['col'])

```
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from typing_extensions import TypedDict, Unpack

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.expr.catalog.accepts import ANY, Accepts
from pydantable_spark.expr.core import Literal

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from pydantable_spark.expr.core import Node, Typed

__all__ = [
    "ABSENT",
    "OPTIONS",
    "REQUIRED",
    "Accepts",
    "Args",
    "Built",
    "Docs",
    "EntryOptions",
    "Fixtures",
    "Function",
    "Kind",
    "LambdaSample",
    "Lit",
    "Param",
    "Placement",
    "Rules",
    "Signature",
    "Spelling",
    "Takes",
    "entry",
]


class Kind(enum.Enum):
    """Where a function may stand: row by row, over groups, only over a window, or only as a group key."""

    SCALAR = "scalar"
    AGGREGATE = "aggregate"
    WINDOW = "window"
    GROUP_KEY = "group key"
    """A time bucket (``F.window``, ``F.session_window``): Spark gives it a meaning only as a grouping key."""


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


REQUIRED: Any = _Marker("REQUIRED")
"""A parameter's default when it has none."""

ABSENT: Any = _Marker("ABSENT")
"""A parameter's default meaning "not passed to Spark at all" (Spark's own default applies)."""


@dataclass(frozen=True, slots=True)
class Lit:
    """In an entry's ``samples``: the argument ``F.lit(value)`` (``lit(value)`` on PySpark's side)."""

    value: Any


@dataclass(frozen=True, slots=True)
class Built:
    """In an entry's ``samples``: an argument made from columns by other functions, as source text.

    ``source`` is a lambda over ``F`` (the façade's ``F`` or PySpark's
    ``pyspark.sql.functions``: the same names) taking one non-null column of each
    of ``dtypes``: JSON text made by ``F.to_json``, a sketch made by
    ``F.hll_sketch_agg`` (an aggregate: the call is then tried over a group).
    """

    source: str
    dtypes: tuple[dt.DType, ...]

    def build(self, functions: object, columns: Sequence[Any]) -> Any:
        """The argument, written over ``functions`` on ``columns`` (one per type of ``dtypes``)."""
        made = eval(self.source, {"F": functions})
        assert callable(made)
        return made(*columns)


@dataclass(frozen=True, slots=True)
class Takes:
    """What the Python function a parameter takes receives (``F.transform``'s ``f``): typed variables.

    ``variables`` name them in order (``x``, ``i``) and ``meanings`` say what each
    is; the function may take as many of them as ``arities`` lists (PySpark's
    forms: ``f(x)`` or ``f(x, i)``). ``types`` gives each variable's type from
    the call's arguments (None while the one it depends on is not typed).
    """

    variables: tuple[str, ...]
    meanings: tuple[str, ...]
    arities: tuple[int, ...]
    types: Callable[[Sequence[Node]], tuple[Typed | None, ...]]

    def describe(self) -> str:
        """The forms a function may take, for messages: ``1 or 2 parameters (x: the element, i: its index)``."""
        counts = " or ".join(str(n) for n in self.arities)
        shown = ", ".join(f"{v}: {m}" for v, m in zip(self.variables, self.meanings, strict=True))
        return f"{counts} parameter{'s' if self.arities != (1,) else ''} ({shown})"


@dataclass(frozen=True, slots=True)
class LambdaSample:
    """In an entry's parameter ``sample``: a Python function for the generated tests, as source text.

    The text is a lambda over ``F``, the functions module of either side: the
    façade's ``F`` or PySpark's ``pyspark.sql.functions`` (both have the same
    names and argument orders), so the value tests run the same function on both.
    """

    source: str

    def function(self, functions: object) -> Callable[..., Any]:
        """The function, written over ``functions`` (the façade's ``F`` or PySpark's module)."""
        made = eval(self.source, {"F": functions})
        assert callable(made)
        return made  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter, in PySpark's order.

    ``accepts`` says which column types an expression argument may have (None:
    the parameter takes Python values only). ``python`` lists the Python types
    of the values it takes; such a value becomes a literal of type ``literal``
    (inferred when None) after ``check`` (which returns what is wrong with it,
    or None). A ``str`` is a column name when ``names`` is true, as in PySpark's
    ``ColumnOrName``, and a value otherwise.
    """

    name: str
    accepts: Accepts | None = None
    python: tuple[type, ...] = ()
    literal: dt.DType | None = None
    names: bool = True
    default: Any = REQUIRED
    variadic: bool = False
    check: Callable[[Any], str | None] | None = None
    like: int | None = None
    """An argument that takes the type of parameter ``like`` (a lossless conversion, cast in SQL)."""
    sample: Any = None
    """A valid Python value, for the generated tests and the mypy plugin (default: one per Python type)."""
    foldable: bool = False
    """Spark needs a constant here (a literal or an expression of literals), not a column."""
    none: Callable[[], Node] | None = None
    """What ``None`` stands for, made when the call is (PySpark's ``unix_timestamp()`` is the current
    time's; ``convert_timezone(None, ...)`` converts from the session time zone)."""
    column_in_pyspark: bool = False
    """PySpark takes only a ``Column`` here (``lit(value)``), where the façade also takes the Python value
    (``F.date_part("year", x)``, a constant Spark requires); the tests' PySpark side wraps it in ``lit``."""
    takes: Takes | None = None
    """The parameter takes a Python function (a lambda) over typed variables: what it receives."""

    @property
    def python_only(self) -> bool:
        """Whether only Python values are taken (never a column)."""
        return self.accepts is None


@dataclass(frozen=True, slots=True)
class Args:
    """The (typed) arguments of a call, as the rules of an entry see them.

    ``types`` are the types Spark receives (after the conversions ``Accepts.to``
    and ``Param.like`` ask for).
    """

    nodes: tuple[Node, ...]
    types: tuple[Typed, ...]
    name: str = ""
    """How the call was written (``F.upper``, ``str.upper``), for messages."""

    def __len__(self) -> int:
        return len(self.nodes)

    def dtype(self, index: int) -> dt.DType:
        """The type argument ``index`` has for Spark."""
        return self.types[index].dtype

    def nullable(self, index: int) -> bool:
        """Whether argument ``index`` can be NULL."""
        return self.types[index].nullable

    def value(self, index: int) -> Any:
        """The Python value of a literal argument (None for NULL or for a column expression)."""
        node = self.nodes[index]
        return node.value if isinstance(node, Literal) else None

    def is_literal(self, index: int) -> bool:
        """Whether argument ``index`` is a literal (its value is known when the plan is built)."""
        return isinstance(self.nodes[index], Literal)


DTypeRule = Callable[[Args], dt.DType]
NullRule = Callable[[Args], bool]


def any_null(args: Args) -> bool:
    """NULL in, NULL out: the result can be NULL when any argument can."""
    return any(t.nullable for t in args.types)


@dataclass(frozen=True, slots=True)
class Signature:
    """How a function is called: its parameters and the names it is offered under."""

    params: tuple[Param, ...]
    aliases: tuple[str, ...] = ()
    alias_params: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """PySpark's parameter names of an alias where they differ from the entry's (``ucase(str)`` beside
    ``upper(col)``): ``F.ucase(str=...)`` takes them, and its messages use them."""
    methods: tuple[str, ...] = ()
    in_f: bool = True
    """Whether it is an ``F`` function (False for namespace methods with their own meaning)."""
    unpacks: bool = False
    """PySpark also takes the variadic arguments as one list or tuple (``F.array([a, b])``)."""
    keywords: bool = False
    """The variadic parameter also takes keyword arguments, each value named by its keyword (an alias):
    ``s.struct.with_fields(total=expr)`` is ``s.struct.with_fields(expr.alias("total"))``."""


@dataclass(frozen=True, slots=True)
class Rules:
    """How a call is typed: its result's type and nullability, and the rules over its arguments.

    ``check`` is a rule over several arguments at once, raising ``ColumnTypeError``.
    """

    returns: DTypeRule
    nullable: NullRule = any_null
    common: tuple[int, ...] = ()
    """Arguments that meet in one type (weak literals among them adopt it)."""
    weak: tuple[int, ...] = ()
    """Arguments among which a weak literal (a bare Python number) adopts the others' type, as next to an
    operator (``F.pmod(x, 3)`` keeps ``x``'s type); unlike ``common`` each keeps its own type otherwise."""
    check: Callable[[Args], None] | None = None
    adopt: Callable[[tuple[Node, ...]], tuple[Node, ...]] | None = None
    """The entry's own rule giving weak literals a type from the other arguments, before typing
    (``F.array_append(ints, 1)`` appends an ``int``: the bare ``1`` takes the elements' type)."""
    empty: Callable[[], Node] | None = None
    """What a call with no values at all stands for, when not a call (``F.array()``: an empty list typed
    by what it is used with, ``core.undecided_empty``)."""
    output: Callable[[Sequence[Node]], str] | None = None
    """The output column name of a call, when not its first column argument's (``struct.field`` names the field)."""


@dataclass(frozen=True, slots=True)
class Spelling:
    """How a call is written in Spark SQL.

    ``sql`` is Spark's SQL function name (the entry's name when None);
    ``template``, when given, spells the call instead, ``{0}``, ``{1}``...
    standing for the argument texts and ``{all}`` for all of them, comma
    separated.
    """

    sql: str | None = None
    template: str | None = None
    special: bool = False
    """The SQL compiler spells it by its own rule (``_spark.sql.SPECIAL_CALLS``), as the SQL depends on values."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a call may stand (row by row, over groups, over a window) and what its value depends on."""

    kind: Kind = Kind.SCALAR
    deterministic: bool = True
    session: bool = False
    """Whether its result depends on session settings (time zone, current user, ...)."""
    needs_order: bool = False
    windowable: bool = True
    window_order: bool = True
    """Whether its window may be ordered or framed (``median`` takes neither)."""


@dataclass(frozen=True, slots=True)
class Docs:
    """What the reference page and the generated docstrings say of it."""

    summary: str
    category: str
    example: str = ""
    """A doctest-style example for the generated docstring (``F.upper(F.col("name"))``)."""
    labels: dict[str, str] = field(default_factory=dict)
    """Extra words for the reference page (``{"surprise": "..."}``)."""


@dataclass(frozen=True, slots=True)
class Fixtures:
    """What the generated tests try beyond one parameter at a time."""

    samples: tuple[tuple[Any, ...], ...] = ()
    """Argument lists the generated tests try besides one parameter at a time, for calls those cannot
    make (``named_struct`` takes literal names): a ``DType`` is a non-null column of that type, a
    ``(DType, True)`` pair a nullable one, ``Lit(v)`` is ``F.lit(v)``, ``Built`` an argument made by other
    functions, anything else a Python value."""
    samples_only: bool = False
    """The generated value test compares only ``samples``: the test frame's values are no valid input of
    it (a month of -2: every row fails, on both sides); its types are checked for every combination still."""


@dataclass(frozen=True, slots=True, eq=False)
class Function:
    """One function of the catalog (see the module docstring), written with ``entry``.

    Its parts: how it is called (``signature``), typed (``rules``), spelled in
    SQL (``spelling``), where it may stand (``placement``), documented
    (``docs``) and tested (``fixtures``).
    """

    name: str
    signature: Signature
    rules: Rules
    spelling: Spelling
    placement: Placement
    docs: Docs
    fixtures: Fixtures

    call_name: str = field(init=False, repr=False)
    """How a user writes it: ``F.upper`` or the namespace method."""
    has_like: bool = field(init=False, repr=False)
    """Whether a parameter takes the type of another (``Param.like``)."""
    has_lambdas: bool = field(init=False, repr=False)
    """Whether a parameter takes a Python function (``Param.takes``): a higher-order function."""
    defaults: tuple[Any, ...] = field(init=False, repr=False)
    """Each parameter's default, in order (``REQUIRED`` where it has none)."""
    by_position: range = field(init=False, repr=False)
    """How many arguments a call may pass by position alone, the parameters after them all having
    defaults (empty when the last parameter is variadic)."""

    def __post_init__(self) -> None:
        signature = self.signature
        params = signature.params
        call_name = f"F.{self.name}" if signature.in_f else (signature.methods[0] if signature.methods else self.name)
        object.__setattr__(self, "call_name", call_name)
        object.__setattr__(self, "has_like", any(p.like is not None for p in params))
        object.__setattr__(self, "has_lambdas", any(p.takes is not None for p in params))
        defaults = tuple(p.default for p in params)
        object.__setattr__(self, "defaults", defaults)
        required = max((i + 1 for i, default in enumerate(defaults) if default is REQUIRED), default=0)
        variadic = bool(params) and params[-1].variadic
        object.__setattr__(self, "by_position", range(0) if variadic else range(required, len(defaults) + 1))

    def params_as(self, name: str) -> tuple[Param, ...]:
        """The parameters under the names PySpark's function ``name`` (the entry's or an alias) gives them."""
        names = self.signature.alias_params.get(name)
        if names is None:
            return self.signature.params
        return tuple(dataclasses.replace(p, name=n) for p, n in zip(self.signature.params, names, strict=True))

    @property
    def sql_name(self) -> str:
        """The Spark SQL function called (for messages and the reference page)."""
        return self.spelling.sql or self.name


class EntryOptions(TypedDict, total=False):
    """The optional fields of ``Function``'s parts, as an entry is written flat (see ``entry``).

    Their meanings are on the parts (``Signature``, ``Rules``...);
    ``tests/expr/test_catalog_spec.py`` checks that the keys and types are
    exactly those fields.
    """

    aliases: tuple[str, ...]
    alias_params: dict[str, tuple[str, ...]]
    methods: tuple[str, ...]
    in_f: bool
    unpacks: bool
    keywords: bool
    nullable: NullRule
    common: tuple[int, ...]
    weak: tuple[int, ...]
    check: Callable[[Args], None] | None
    adopt: Callable[[tuple[Node, ...]], tuple[Node, ...]] | None
    empty: Callable[[], Node] | None
    output: Callable[[Sequence[Node]], str] | None
    sql: str | None
    template: str | None
    special: bool
    kind: Kind
    deterministic: bool
    session: bool
    needs_order: bool
    windowable: bool
    window_order: bool
    example: str
    labels: dict[str, str]
    samples: tuple[tuple[Any, ...], ...]
    samples_only: bool


def entry(
    name: str,
    params: tuple[Param, ...],
    returns: DTypeRule,
    summary: str,
    category: str,
    **options: Unpack[EntryOptions],
) -> Function:
    """The catalog entry of function ``name``, written flat: how every entry is written (mypy checks each option).

    Each option goes to the part that has a field of its name. A category
    module's own shorthand passes its category and its defaults
    (``options.setdefault("nullable", always)``) and keeps the options typed as
    ``**options: Unpack[EntryOptions]``.
    """
    given: dict[str, Any] = dict(options)

    def pick(part: type[DataclassInstance]) -> dict[str, Any]:
        return {f.name: given.pop(f.name) for f in dataclasses.fields(part) if f.name in given}

    made = Function(
        name,
        Signature(params, **pick(Signature)),
        Rules(returns, **pick(Rules)),
        Spelling(**pick(Spelling)),
        Placement(**pick(Placement)),
        Docs(summary, category, **pick(Docs)),
        Fixtures(**pick(Fixtures)),
    )
    assert not given, f"options of no part of an entry: {sorted(given)}"
    return made


# --- types in messages ---------------------------------------------------------------------------


def kind_label(dtype: dt.DType) -> str:
    """A short name for a type in messages: ``str (string)``."""
    return f"{python_name(dtype, nullable=False)} ({dtype})"


# --- result rules ---------------------------------------------------------------------------------


def fixed(dtype: dt.DType) -> DTypeRule:
    """Always ``dtype``."""
    return lambda args: dtype


def same(index: int = 0) -> DTypeRule:
    """The type of argument ``index``."""
    return lambda args: args.dtype(index)


def element(index: int = 0) -> DTypeRule:
    """The element type of the list argument ``index``."""

    def rule(args: Args) -> dt.DType:
        dtype = args.dtype(index)
        assert isinstance(dtype, dt.List)
        return dtype.inner

    return rule


def never(args: Args) -> bool:
    """Never NULL."""
    return False


def always(args: Args) -> bool:
    """Can always be NULL (Spark marks it so whatever the inputs)."""
    return True


def null_if(*indexes: int) -> NullRule:
    """NULL when one of arguments ``indexes`` can be."""
    return lambda args: any(args.nullable(i) for i in indexes if i < len(args))


# --- parameter shorthands -------------------------------------------------------------------------


def column(
    name: str = "col",
    accepts: Accepts = ANY,
    *,
    default: Any = REQUIRED,
    variadic: bool = False,
    foldable: bool = False,
    none: Callable[[], Node] | None = None,
) -> Param:
    """A ``ColumnOrName`` parameter: an expression, or a ``str`` naming a column (or a weak Python literal)."""
    return Param(name, accepts, default=default, variadic=variadic, foldable=foldable, none=none)


def value(
    name: str,
    *python: type,
    literal: dt.DType | None = None,
    default: Any = REQUIRED,
    check: Callable[[Any], str | None] | None = None,
    sample: Any = None,
    none: Callable[[], Node] | None = None,
) -> Param:
    """A parameter that takes Python values only (``pattern: str``, ``idx: int``), as typed literals."""
    return Param(name, None, python, literal, names=False, default=default, check=check, sample=sample, none=none)


def either(
    name: str,
    accepts: Accepts,
    *python: type,
    literal: dt.DType | None = None,
    names: bool = False,
    default: Any = REQUIRED,
    check: Callable[[Any], str | None] | None = None,
    sample: Any = None,
    foldable: bool = False,
    column_in_pyspark: bool = False,
) -> Param:
    """An expression or a Python value (``Union[Column, str]``; with ``names`` a str is a column name)."""
    return Param(
        name,
        accepts,
        python,
        literal,
        names=names,
        default=default,
        check=check,
        sample=sample,
        foldable=foldable,
        column_in_pyspark=column_in_pyspark,
    )


_SAMPLES: dict[type, Any] = {str: "a", int: 1, bool: True, float: 0.5}

OPTIONS = dt.Map(dt.String(), dt.String(), False)
"""The type of an ``options`` literal: Spark's ``map(name, value, ...)`` of strings."""


def options(
    name: str = "options", *, sample: dict[str, Any], check: Callable[[Any], str | None] | None = None
) -> Param:
    """Spark's text-function options (``to_json``'s): a ``dict`` of names to plain values, as string pairs.

    Names and values are checked by type when the call is made
    (``expr.options.option_pairs``; ``check`` then sees the dict of strings); an
    empty dict is no options at all (Spark refuses an empty ``map()``).
    """
    return Param(name, None, (dict,), OPTIONS, names=False, default=ABSENT, check=check, sample=sample)


def function(name: str, takes: Takes, *, sample: str, default: Any = REQUIRED) -> Param:
    """A parameter taking a Python function over typed variables (``f``); ``sample``: one, as source over ``F``."""
    return Param(name, None, names=False, default=default, sample=LambdaSample(sample), takes=takes)


def sample_of(param: Param) -> Any:
    """A valid Python value for ``param`` (its ``sample``, else one of its first Python type).

    For a parameter taking a function: the sample function, written over the façade's ``F``.
    """
    if isinstance(param.sample, LambdaSample):
        from pydantable_spark import functions

        return param.sample.function(functions)
    if param.sample is not None:
        return param.sample
    return _SAMPLES[param.python[0]]


def at_least(low: int) -> Callable[[Any], str | None]:
    """A ``check``: the value must be ``>= low``."""
    return lambda v: None if v >= low else f"must be >= {low}"


def one_of(*choices: str) -> Callable[[Any], str | None]:
    """A ``check``: the value must be one of ``choices`` (case-insensitive)."""
    return lambda v: None if str(v).lower() in choices else f"must be one of {', '.join(choices)}"
