"""Run-time NULL checks: SQL that passes a value through, failing the job where a NULL is not allowed.

A reconciled column with ``null_check`` may hold NULLs that its target
declares impossible, at the top or deep inside (a struct field, a list element,
a map value). ``checked_sql`` rebuilds just enough of the value that Spark's
analyzer sees the target's non-nullability, and a NULL met at run time raises
an error naming its path::

    coalesce(v, IF(raise_error('... v ...') IS NULL, <one value>, <another>))

The two different stand-in values keep Spark from folding the ``IF`` away;
``coalesce`` with a non-null argument is non-null to the analyzer. A struct
needs no stand-in, since the rebuilt ``named_struct`` is non-null itself::

    coalesce(IF(s IS NULL, raise_error('... s ...'), NULL), named_struct('a', s.a, ...))

``explain()`` shows each as one call, ``null_check(v)`` (``sql.readable_sql``).
"""

from __future__ import annotations

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.sql import literal_sql, readable, string_sql, struct_field_sql
from pydantable_spark.reconcile import checks_inside, matched_fields

__all__ = ["NULL_CHECK_MARK", "checked_sql", "null_check_message", "stand_ins"]

NULL_CHECK_MARK = "pydantable:null_check:"
"""Marks a failed NULL check in Spark's error text; the column path follows in hex (see ``null_check_message``)."""


def null_check_message(path: str) -> str:
    """The text ``raise_error`` fails with: readable, plus the path in hex so it is recovered exactly."""
    return (
        f"column {path!r} holds a NULL, but the target declares it non-null (null_check) "
        f"[{NULL_CHECK_MARK}{path.encode('utf-8', 'surrogatepass').hex()}]"
    )


def checked_sql(sql: str, source: dt.Field, target: dt.Field, path: str, depth: int = 0) -> str:
    """``sql`` (a value of ``source``'s type) with every NULL that ``target`` forbids turned into an error."""
    checked = (source.nullable and not target.nullable) or checks_inside(source.dtype, target.dtype)
    if checked and readable():
        return f"null_check({sql})"
    if not (source.nullable and not target.nullable):
        return _checked_inside(sql, source.dtype, target.dtype, path, depth)
    message = string_sql(null_check_message(path))
    if isinstance(source.dtype, dt.Struct) and isinstance(target.dtype, dt.Struct):
        # the rebuilt struct is non-null by itself: no stand-in values, whose size grows with the struct's
        # (Spark's common-subexpression pass slowed down on them with the nesting depth)
        rebuilt = _rebuilt(sql, source.dtype, target.dtype, path, depth)
        return f"coalesce(IF({sql} IS NULL, raise_error({message}), NULL), {rebuilt})"
    inner = _checked_inside(sql, source.dtype, target.dtype, path, depth)
    first, second = stand_ins(_inner_type(source.dtype, target.dtype))
    return f"coalesce({inner}, IF(raise_error({message}) IS NULL, {first}, {second}))"


def _checked_inside(sql: str, src: dt.DType, dst: dt.DType, path: str, depth: int) -> str:
    if isinstance(src, dt.Struct) and isinstance(dst, dt.Struct):
        return f"IF({sql} IS NULL, NULL, {_rebuilt(sql, src, dst, path, depth)})"
    if isinstance(src, dt.List) and isinstance(dst, dt.List) and checks_inside(src, dst):
        x = f"x{depth}"
        element = checked_sql(
            x, dt.Field(x, src.inner, src.contains_null), dt.Field(x, dst.inner, dst.contains_null),
            f"{path}[]", depth + 1,
        )  # fmt: skip
        return f"transform({sql}, {x} -> {element})"
    if isinstance(src, dt.Map) and isinstance(dst, dt.Map) and checks_inside(src, dst):
        k, v = f"k{depth}", f"v{depth}"
        value = checked_sql(
            v, dt.Field(v, src.value, src.value_contains_null), dt.Field(v, dst.value, dst.value_contains_null),
            f"{path}{{value}}", depth + 1,
        )  # fmt: skip
        return f"transform_values({sql}, ({k}, {v}) -> {value})"
    return sql


def _rebuilt(sql: str, src: dt.Struct, dst: dt.Struct, path: str, depth: int) -> str:
    """The struct ``sql`` rebuilt field by field with the target's fields, each checked (non-null to Spark)."""
    parts = []
    for wanted, found in matched_fields(src, dst):
        value = checked_sql(struct_field_sql(sql, found.name), found, wanted, f"{path}.{wanted.name}", depth)
        parts += [string_sql(wanted.name), value]
    return f"named_struct({', '.join(parts)})"


def _inner_type(src: dt.DType, dst: dt.DType) -> dt.DType:
    """The type ``_checked_inside`` produces (nullability aside: ``coalesce`` widens it).

    Structs are rebuilt with the target's fields, lists and maps where something
    inside them is checked; everything else keeps the source's type.
    """
    if isinstance(src, dt.Struct) and isinstance(dst, dt.Struct):
        fields = [dt.Field(w.name, _inner_type(f.dtype, w.dtype), False) for w, f in matched_fields(src, dst)]
        return dt.Struct(tuple(fields))
    if isinstance(src, dt.List) and isinstance(dst, dt.List) and checks_inside(src, dst):
        return dt.List(_inner_type(src.inner, dst.inner), False)
    if isinstance(src, dt.Map) and isinstance(dst, dt.Map) and checks_inside(src, dst):
        return dt.Map(src.key, _inner_type(src.value, dst.value), False)
    return src


def stand_ins(dtype: dt.DType) -> tuple[str, str]:
    """Two different non-null SQL values of ``dtype`` (nested ones built from atomic stand-ins)."""
    if isinstance(dtype, dt.Struct):
        firsts = [stand_ins(f.dtype) for f in dtype.fields]
        names = [string_sql(f.name) for f in dtype.fields]
        one = ", ".join(f"{n}, {a}" for n, (a, _) in zip(names, firsts, strict=True))
        other = ", ".join(f"{n}, {b if i == 0 else a}" for i, (n, (a, b)) in enumerate(zip(names, firsts, strict=True)))
        return f"named_struct({one})", f"named_struct({other})"
    if isinstance(dtype, dt.List):
        element, _ = stand_ins(dtype.inner)
        return f"array_repeat({element}, 0)", f"array({element})"
    if isinstance(dtype, dt.Map):
        key, _ = stand_ins(dtype.key)
        value, _ = stand_ins(dtype.value)
        return f"map_from_arrays(array_repeat({key}, 0), array_repeat({value}, 0))", f"map({key}, {value})"
    if isinstance(dtype, dt.Variant):
        return f"parse_json({string_sql('0')})", f"parse_json({string_sql('1')})"
    first, second = dt.example_values(dtype)
    return literal_sql(first, dtype), literal_sql(second, dtype)
