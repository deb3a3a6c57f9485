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

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog.spec import (
    STRING,
    Accepts,
    Args,
    Built,
    Function,
    Kind,
    Param,
    always,
    column,
    fixed,
    null_if,
    value,
)

__all__ = ["ENTRIES", "TARGET_TYPES", "target_type"]

VARIANT = Accepts("a VARIANT", lambda t: isinstance(t, dt.Variant), examples=(dt.Variant(),))
_NESTED = Accepts(
    "a struct, map or list",
    lambda t: isinstance(t, dt.Struct | dt.Map | dt.List) and not dt.contains_variant(t),
    examples=(
        dt.Struct((dt.Field("a", dt.Int64(), False), dt.Field("b", dt.String(), True))),
        dt.Map(dt.String(), dt.Int64(), True),
        dt.List(dt.String(), True),
    ),
)
_VALUE = Accepts(
    "a value a VARIANT holds (a number, string, boolean, date, datetime, VARIANT, or list, map or struct of them)",
    lambda t: not isinstance(t, dt.Duration),
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


def _read_type(args: Args) -> dt.DType:
    found = target_type(args.value(2))
    assert found is not None  # the parameter's check refused other names
    return found


_V = column("v", VARIANT)
_PATH_PARAM = value("path", str, literal=dt.String(), check=_path_problem, sample="$.a")
_TARGET = value("targetType", str, literal=dt.String(), check=_type_problem, sample="int")
_NEW = column("value", _VALUE)
_VARIANT = fixed(dt.Variant())


def _entry(name: str, *params: Param, returns: object, summary: str, **extra: object) -> Function:
    return Function(name, params, returns, summary, "variant", **extra)  # type: ignore[arg-type]


def _edit(name: str, *params: Param, summary: str, fails: bool) -> Function:
    """An edit of a VARIANT at a path: NULL for a NULL VARIANT; ``try_`` forms give NULL instead of failing."""
    return _entry(
        name,
        _V,
        *params,
        returns=_VARIANT,
        nullable=always if not fails else null_if(0),
        summary=summary,
    )


ENTRIES: tuple[Function, ...] = (
    _entry(
        "parse_json",
        column("col", STRING),
        returns=_VARIANT,
        samples=((_JSON_OBJECTS,),),
        summary="The JSON text as a VARIANT (NULL for NULL); text that is not JSON fails the job.",
    ),
    _entry(
        "try_parse_json",
        column("col", STRING),
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
        _PATH_PARAM,
        _TARGET,
        returns=_read_type,
        nullable=always,
        special=True,
        summary=(
            "The value at ``path`` read as ``targetType`` (a type name: ``'int'``, ``'string'``, "
            "``'decimal(10,2)'``, ``'variant'``...); NULL where the path leads nowhere, and a value that does "
            "not convert fails the job."
        ),
    ),
    _entry(
        "try_variant_get",
        _V,
        _PATH_PARAM,
        _TARGET,
        returns=_read_type,
        nullable=always,
        special=True,
        summary="``variant_get``, with NULL where the value does not convert to ``targetType``.",
    ),
    _entry(
        "is_variant_null",
        _V,
        returns=fixed(dt.Boolean()),
        summary="True where the VARIANT is a JSON null (false for SQL NULL).",
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
        kind=Kind.AGGREGATE,
        summary="The type that holds every VARIANT of the group, as SQL DDL (types merged).",
    ),
    _edit(
        "variant_set",
        _PATH_PARAM,
        _NEW,
        value("create_if_missing", bool, default=True),
        fails=True,
        summary="The VARIANT with the value at ``path`` replaced by ``value`` (created if missing, by default).",
    ),
    _edit(
        "try_variant_set",
        _PATH_PARAM,
        _NEW,
        value("create_if_missing", bool, default=True),
        fails=False,
        summary="``variant_set``, with NULL where the path cannot be set.",
    ),
    _edit(
        "variant_insert",
        _PATH_PARAM,
        _NEW,
        fails=True,
        summary="The VARIANT with ``value`` inserted at ``path`` (a new key, or before an array index).",
    ),
    _edit(
        "try_variant_insert",
        _PATH_PARAM,
        _NEW,
        fails=False,
        summary="``variant_insert``, with NULL where the value cannot be inserted.",
    ),
    _edit(
        "variant_array_append",
        _PATH_PARAM,
        _NEW,
        fails=True,
        summary="The VARIANT with ``value`` appended to the array at ``path``.",
    ),
    _edit(
        "try_variant_array_append",
        _PATH_PARAM,
        _NEW,
        fails=False,
        summary="``variant_array_append``, with NULL where there is no array at ``path``.",
    ),
    _entry(
        "variant_delete",
        _V,
        Param("paths", None, (str,), dt.String(), names=False, variadic=True, check=_path_problem, sample="$.a"),
        returns=_VARIANT,
        summary="The VARIANT without the values at ``paths``.",
    ),
    _entry(
        "variant_strip_nulls",
        _V,
        value("include_arrays", bool, default=True),
        returns=_VARIANT,
        summary="The VARIANT without its JSON nulls (object fields, and array elements with ``include_arrays``).",
    ),
)
