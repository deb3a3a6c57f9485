"""VARIANT functions: JSON text and values into a VARIANT, typed values read out of it, edits of it.

A VARIANT (``dtypes.Variant``) holds a semi-structured value (an object,
array, string, number, boolean or JSON null) in Spark's binary encoding.
Paths are Spark's VARIANT paths: ``$`` then ``.key``, ``['key']``,
``["key"]`` or ``[index]`` steps (``$.a.b[0]``), checked when the call is
made; a type to read is named as Spark names it (``"int"``,
``"decimal(10,2)"``, ``"variant"``; see ``TARGET_TYPES``), checked against
that list, and reaches Spark in its canonical spelling (never as the text
given). Measured on Spark 4.3 (and checked by ``tests/expr/test_catalog.py``):

- ``parse_json`` keeps its input's nullability and fails the job on text that
  is not JSON; ``try_parse_json`` gives NULL instead (so is always nullable).
- ``variant_get``'s result is the type asked for, always nullable (NULL where
  the path leads nowhere); a value that does not convert fails the job, where
  ``try_variant_get`` gives NULL.
- A VARIANT cannot be compared, sorted, grouped or hashed: every such use is
  refused when the plan is built (``dtypes.VARIANT_NOT_COMPARABLE``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.spec import (
    Accepts,
    Args,
    Built,
    DTypeRule,
    EntryOptions,
    Function,
    Kind,
    Lit,
    Param,
    always,
    column,
    either,
    entry,
    fixed,
    never,
    null_if,
    value,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Unpack

__all__ = ["ENTRIES", "TARGET_TYPES", "target_type"]


def _castable(dtype: dt.DType) -> bool:
    """Whether Spark casts values of ``dtype`` to VARIANT: no interval inside, and maps with string keys only."""
    if isinstance(dtype, dt.Duration):
        return False
    if isinstance(dtype, dt.Map):
        return isinstance(dtype.key, dt.String) and _castable(dtype.value)
    if isinstance(dtype, dt.List):
        return _castable(dtype.inner)
    if isinstance(dtype, dt.Struct):
        return all(_castable(f.dtype) for f in dtype.fields)
    return True


VARIANT = Accepts("a VARIANT", lambda t: isinstance(t, dt.Variant), examples=(dt.Variant(),))
_NESTED = Accepts(
    "a struct, map (string keys) or list, without intervals",
    lambda t: isinstance(t, dt.Struct | dt.Map | dt.List) and _castable(t),
    examples=(
        dt.Struct((dt.Field("a", dt.Int64(), False), dt.Field("b", dt.String(), True))),
        dt.Map(dt.String(), dt.Int64(), True),
        dt.List(dt.String(), True),
    ),
)
_VALUE = Accepts(
    "a value a VARIANT holds (no interval; maps with string keys)",
    _castable,
    examples=(dt.Int64(), dt.String(), dt.Variant()),
)
_JSON_OBJECTS = Built("lambda c: F.to_json(c)", (_NESTED.examples[0],))
"""JSON objects on every row (the test frame's strings are no JSON)."""

TARGET_TYPES = {**dt.TYPE_NAMES, "variant": dt.Variant()}
"""The type names ``variant_get`` reads a value as (and ``decimal(p,s)``)."""

_KEY = r"(?:\.[^.\[]+|\['[^']+'\]|\[\"[^\"]+\"\]|\[\d+\])"
_PATH = re.compile(rf"\$(?:{_KEY})*")
"""Spark's VARIANT path grammar (``VariantPathParser``): ``$`` then key and index steps."""


def target_type(name: str) -> dt.DType | None:
    """The type a ``variant_get`` type name reads as, or None for a name not in ``TARGET_TYPES``.

    >>> target_type("BIGINT"), target_type("decimal(5,1)"), target_type("variant"), target_type("int'--")
    (Int64(), Decimal(precision=5, scale=1), Variant(), None)
    """
    key = name.strip().lower()
    return TARGET_TYPES[key] if key in TARGET_TYPES else dt.parse_type_name(key)


def _type_problem(name: str) -> str | None:
    if target_type(name) is not None:
        return None
    return f"must name a type: one of {', '.join(TARGET_TYPES)} or decimal(p,s)"


def _path_problem(path: str) -> str | None:
    if _PATH.fullmatch(path):
        return None
    return "must be a VARIANT path: '$' then steps .key, ['key'], [\"key\"] or [index] (e.g. '$.a.b[0]')"


def _step_problem(path: str) -> str | None:
    """A path below the root: the edits that set, insert or delete refuse ``$`` itself."""
    problem = _path_problem(path)
    if problem is None and path == "$":
        return "must name a place below the root '$' (e.g. '$.a' or '$[0]')"
    return problem


def _read_type(args: Args) -> dt.DType:
    found = target_type(args.value(2))
    assert found is not None  # the parameter's check refused other names
    return found


_V = column("v", VARIANT)
_TARGET = value("targetType", str, literal=dt.String(), check=_type_problem, sample="variant")
"""The type read; its sample reads the VARIANT itself, which keeps the stubs' result ``Expr[Any]`` (the
type follows the value); ``samples`` try other types."""
_NEW = column("value", _VALUE)
_CREATE = value("create_if_missing", bool, default=True)
_VARIANT = fixed(dt.Variant())


def _path(check: Callable[[str], str | None]) -> Param:
    """A path: a Python ``str`` (checked now), or a string column (checked by Spark as rows come)."""
    return either("path", accepts.STRING, str, literal=dt.String(), check=check, sample="$.a")


_READ_PATH = _path(_path_problem)


def _entry(name: str, *params: Param, returns: DTypeRule, summary: str, **options: Unpack[EntryOptions]) -> Function:
    return entry(name, params, returns, summary, "variant", **options)


_READS = (
    (dt.Variant(), "$.a", "int"),
    ((dt.Variant(), True), "$.b[0]", "double"),
    (dt.Variant(), "$['b'][2]", "string"),
    (dt.Variant(), "$[1].a", "boolean"),
    (dt.Variant(), "$", "decimal(5,2)"),
)
"""``variant_get`` samples: the test frame's VARIANTs read at paths, as several types."""
_EDITS = (
    (dt.Variant(), "$.c", Lit(5)),
    ((dt.Variant(), True), "$[0]", dt.String()),
    (dt.Variant(), "$.b[1]", dt.Variant()),
)

ENTRIES: tuple[Function, ...] = (
    _entry(
        "parse_json",
        column("col", accepts.STRING),
        returns=_VARIANT,
        samples=((_JSON_OBJECTS,),),
        summary="The JSON text as a VARIANT (NULL for NULL); text that is not JSON fails the job.",
    ),
    _entry(
        "try_parse_json",
        column("col", accepts.STRING),
        returns=_VARIANT,
        nullable=always,
        samples=((_JSON_OBJECTS,),),
        summary="The JSON text as a VARIANT; NULL for NULL and for text that is not JSON.",
    ),
    _entry(
        "to_variant_object",
        column("col", _NESTED),
        returns=_VARIANT,
        summary="The struct, map or list as a VARIANT object or array (structs and maps become objects).",
    ),
    _entry(
        "variant_get",
        _V,
        _READ_PATH,
        _TARGET,
        returns=_read_type,
        nullable=always,
        special=True,
        samples=_READS,
        summary=(
            "The value at ``path`` read as ``targetType`` (a type name: ``'int'``, ``'string'``, "
            "``'decimal(10,2)'``, ``'variant'``...); NULL where the path leads nowhere, and a value that does "
            "not convert fails the job."
        ),
    ),
    _entry(
        "try_variant_get",
        _V,
        _READ_PATH,
        _TARGET,
        returns=_read_type,
        nullable=always,
        special=True,
        samples=_READS,
        summary="``variant_get``, with NULL where the value does not convert to ``targetType``.",
    ),
    _entry(
        "is_variant_null",
        _V,
        returns=fixed(dt.Boolean()),
        nullable=never,
        summary="True where the VARIANT is a JSON null; false elsewhere, SQL NULL included.",
    ),
    _entry(
        "is_valid_variant",
        _V,
        returns=fixed(dt.Boolean()),
        summary="True where the VARIANT's encoding is valid (false where malformed, NULL for NULL).",
    ),
    _entry(
        "schema_of_variant",
        _V,
        returns=fixed(dt.String()),
        summary="The type of the VARIANT's value, as SQL DDL (``OBJECT<a: BIGINT>``).",
    ),
    _entry(
        "schema_of_variant_agg",
        _V,
        returns=fixed(dt.String()),
        nullable=never,
        kind=Kind.AGGREGATE,
        summary="The type that holds every VARIANT of the group, as SQL DDL (types merged).",
    ),
    _entry(
        "variant_set",
        _V,
        _path(_step_problem),
        _NEW,
        _CREATE,
        returns=_VARIANT,
        samples=_EDITS,
        summary=(
            "The VARIANT with the value at ``path`` replaced by ``value``, created where missing unless "
            "``create_if_missing`` is false; a path through a value of another kind fails the job."
        ),
    ),
    _entry(
        "try_variant_set",
        _V,
        _path(_step_problem),
        _NEW,
        _CREATE,
        returns=_VARIANT,
        nullable=always,
        samples=_EDITS,
        summary="``variant_set``, with NULL where a path goes through a value of another kind.",
    ),
    _entry(
        "variant_insert",
        _V,
        _path(_step_problem),
        _NEW,
        returns=_VARIANT,
        samples=_EDITS,
        summary=(
            "The VARIANT with ``value`` inserted at ``path``: a new key (an existing one fails the job), or "
            "before an array index."
        ),
    ),
    _entry(
        "try_variant_insert",
        _V,
        _path(_step_problem),
        _NEW,
        returns=_VARIANT,
        nullable=always,
        samples=_EDITS,
        summary="``variant_insert``, with NULL where it would fail.",
    ),
    _entry(
        "variant_array_append",
        _V,
        _path(_path_problem),
        _NEW,
        returns=_VARIANT,
        samples=_EDITS,
        summary=(
            "The VARIANT with ``value`` appended to the array at ``path`` (unchanged where the path leads "
            "nowhere; a value there that is no array fails the job)."
        ),
    ),
    _entry(
        "try_variant_array_append",
        _V,
        _path(_path_problem),
        _NEW,
        returns=_VARIANT,
        nullable=always,
        samples=_EDITS,
        summary="``variant_array_append``, with NULL where it would fail.",
    ),
    _entry(
        "variant_delete",
        _V,
        Param(
            "paths", accepts.STRING, (str,), dt.String(), names=False, variadic=True, check=_step_problem, sample="$.a"
        ),
        returns=_VARIANT,
        nullable=null_if(0),
        summary="The VARIANT without the values at ``paths``, deleted left to right (a NULL path is skipped).",
    ),
    _entry(
        "variant_strip_nulls",
        _V,
        value("include_arrays", bool, default=True),
        returns=_VARIANT,
        summary="The VARIANT without its JSON nulls (object fields, and array elements with ``include_arrays``).",
    ),
)
