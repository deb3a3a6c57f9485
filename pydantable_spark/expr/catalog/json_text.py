"""JSON text functions: values to JSON text, and JSON text read by path (``F.from_json`` is a special form).

Measured on Spark 4.3 (and checked by ``tests/expr/test_catalog.py``):

- Every result is nullable whatever the input: ``to_json`` of a non-null
  struct is typed nullable, and the readers give NULL for text that is not
  JSON (``json_array_length('[1,')``) or not of the shape asked for
  (``json_object_keys`` of an array, ``json_array_length`` of an object); no
  mode makes them fail instead.
- ``json_object_keys`` types its result ``array<string>`` with nullable
  elements, though a key is never NULL.
- ``to_json`` takes a struct, a map (keys of any type become JSON names) or a
  list, any value inside (bytes as base64, intervals as their SQL text); it
  ignores an option it does not know (``{"bogus": "x"}``), and refuses an empty
  options ``map()``: an empty dict passes no options at all.
- ``schema_of_json`` needs a constant JSON text, not NULL (Spark's analyzer
  refuses a column or a NULL); text that is not JSON fails the job.
- ``json_tuple`` is a generator (one output column per field), not offered:
  ``get_json_object`` reads one path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.spec import (
    Accepts,
    Args,
    Built,
    DTypeRule,
    EntryOptions,
    Function,
    Param,
    always,
    column,
    either,
    entry,
    fixed,
    never,
    options,
    value,
)
from pydantable_spark.expr.core import describe

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES", "not_null_text"]

_NESTED = Accepts(
    "a struct, map or list",
    lambda t: isinstance(t, dt.Struct | dt.Map | dt.List),
    examples=(
        dt.Struct((dt.Field("a", dt.Int64(), False), dt.Field("b", dt.String(), True))),
        dt.Map(dt.String(), dt.Int64(), True),
        dt.List(dt.Int64(), False),
        dt.List(dt.String(), True),
    ),
)
_SAMPLE_JSON = '{"a": 1, "b": [1.5, null], "c": {"d": "x"}}'
_STRUCT, _MAP, _INTS, _STRINGS = _NESTED.examples
_JSON_OBJECTS = Built("lambda c: F.to_json(c)", (_STRUCT,))
"""JSON objects on every row: the test frame's strings are no JSON (on them every reader gives NULL)."""
_JSON_ARRAYS = Built("lambda c: F.to_json(c)", (_STRINGS,))
_JSON_MAPS = Built("lambda c: F.to_json(c)", (_MAP,))


_STRUCT_ONLY = Accepts("a struct", lambda t: isinstance(t, dt.Struct), examples=(_STRUCT,))


def _json_path(path: str) -> str | None:
    return None if path.startswith("$") else "must be a JSONPath starting at the root, '$' ('$.a', '$.b[0]')"


def _entry(name: str, *params: Param, returns: DTypeRule, summary: str, **options: Unpack[EntryOptions]) -> Function:
    options.setdefault("nullable", always)
    return entry(name, params, returns, summary, "json", **options)


def not_null_text(args: Args) -> None:
    """Spark's analyzer refuses a NULL text for ``schema_of_json`` (``_csv``, ``_xml``)."""
    if args.nullable(0):
        param = args.name.rsplit("_", 1)[-1]  # schema_of_json's json, schema_of_csv's csv...
        msg = f"{args.name}(): {param} must be a constant text, not NULL; got {describe(args.nodes[0])}"
        raise ColumnTypeError(msg)


ENTRIES: tuple[Function, ...] = (
    _entry(
        "to_json",
        column("col", _NESTED),
        options(sample={"ignoreNullFields": "false"}),
        returns=fixed(dt.String()),
        summary=(
            "The struct, map or list as JSON text (NULL for NULL); ``options`` are Spark's JSON options "
            "(``pretty``, ``ignoreNullFields``, ``timestampFormat``...)."
        ),
    ),
    _entry(
        "get_json_object",
        column("col", accepts.STRING),
        value("path", str, sample="$.c.d"),
        returns=fixed(dt.String()),
        samples=((_JSON_OBJECTS, "$.b"), (_JSON_OBJECTS, "$.a"), (_JSON_ARRAYS, "$[1]"), (_JSON_MAPS, "$.x")),
        summary="The value at a JSONPath (``$.a.b[0]``) as JSON text; NULL where none is or the text is no JSON.",
    ),
    _entry(
        "struct.struct_json_encode",
        column("col", _STRUCT_ONLY),
        returns=fixed(dt.String()),
        in_f=False,
        methods=("struct.struct_json_encode", "struct.json_encode"),
        template="to_json({0})",
        session=True,
        summary=(
            "The struct as JSON text (``to_json``): NULL fields left out, timestamps in the session time zone; "
            "NULL for a NULL struct."
        ),
    ),
    _entry(
        "struct.struct_json_path_match",
        column("col", _STRUCT_ONLY),
        value("path", str, check=_json_path, sample="$.a"),
        returns=fixed(dt.String()),
        in_f=False,
        methods=("struct.struct_json_path_match", "struct.json_path_match"),
        template="get_json_object(to_json({0}), {1})",
        session=True,
        summary=(
            "The value at a JSONPath (``$.a.b[0]``) of the struct's JSON text, as text (a string without its "
            "quotes); NULL where the path leads nowhere or the struct is NULL."
        ),
    ),
    _entry(
        "json_array_length",
        column("col", accepts.STRING),
        returns=fixed(dt.Int32()),
        samples=((_JSON_ARRAYS,), (Built("lambda c: F.to_json(c)", (_INTS,)),), (_JSON_OBJECTS,)),
        summary="The elements of the outermost JSON array; NULL for other JSON or text that is not JSON.",
    ),
    _entry(
        "json_object_keys",
        column("col", accepts.STRING),
        returns=fixed(dt.List(dt.String(), True)),
        samples=((_JSON_OBJECTS,), (_JSON_MAPS,), (_JSON_ARRAYS,)),
        summary="The keys of the outermost JSON object; NULL for other JSON or text that is not JSON.",
    ),
    _entry(
        "schema_of_json",
        either("json", accepts.STRING, str, foldable=True, sample=_SAMPLE_JSON),
        options(sample={"prefersDecimal": "true"}),
        returns=fixed(dt.String()),
        nullable=never,
        check=not_null_text,
        summary="The schema Spark infers for a constant JSON text, as DDL (``STRUCT<a: BIGINT>``); not a column.",
    ),
)
