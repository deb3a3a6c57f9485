"""XPath over XML text: ``xpath`` (every match) and ``xpath_<type>`` (the first match as that type).

Measured on Spark 4.3: the path must be a constant (Spark's analyzer refuses a
column); every result is nullable; text that is not XML fails the job (the
parser's "Content is not allowed in prolog"), it is never NULL.

``to_xml`` writes a struct as an XML record (``<ROW>`` unless ``rowTag`` says
otherwise), typed nullable whatever the input; ``schema_of_xml`` needs a
constant text, not NULL. ``F.from_xml`` is a special form.
"""

from __future__ import annotations

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.csv_text import STRUCT
from pydantable_spark.expr.catalog.json_text import not_null_text
from pydantable_spark.expr.catalog.spec import (
    Built,
    Function,
    Param,
    always,
    column,
    either,
    entry,
    fixed,
    never,
    options,
)

__all__ = ["ENTRIES"]

_XML = Built('lambda c: F.format_string("<a><b>%d</b><b>2</b><c>x</c></a>", c)', (dt.Int64(),))
"""XML text on every row: the test frame's strings are no XML (the job fails on both sides)."""

_PATH = Param("path", None, (str,), names=False, sample="a/b", column_in_pyspark=True)
"""A constant path (Spark refuses a column), written as a Python str; PySpark takes it as ``lit(path)``."""

_TYPES: dict[str, tuple[dt.DType, str]] = {
    "xpath_boolean": (dt.Boolean(), "Whether the path matches"),
    "xpath_double": (dt.Float64(), "The first match as a double (NaN if it is no number)"),
    "xpath_number": (dt.Float64(), "The first match as a double (NaN if it is no number)"),
    "xpath_float": (dt.Float32(), "The first match as a float (NaN if it is no number)"),
    "xpath_int": (dt.Int32(), "The first match as an int (0 if it is no number)"),
    "xpath_long": (dt.Int64(), "The first match as a bigint (0 if it is no number)"),
    "xpath_short": (dt.Int16(), "The first match as a smallint (0 if it is no number)"),
    "xpath_string": (dt.String(), "The text of the first match"),
}


def _entry(name: str, returns: dt.DType, summary: str) -> Function:
    return entry(
        name,
        (column("xml", accepts.STRING), _PATH),
        fixed(returns),
        summary,
        "xml",
        nullable=always,
        samples=((_XML, "a/b"), (_XML, "a/c"), (_XML, "sum(a/b)"), (_XML, "a/d")),
        samples_only=True,
    )


ENTRIES: tuple[Function, ...] = (
    _entry("xpath", dt.List(dt.String(), True), "The text of every match of the XPath, as a list."),
    *(_entry(name, dtype, f"{summary} of the XPath.") for name, (dtype, summary) in _TYPES.items()),
    entry(
        "to_xml",
        (column("col", STRUCT), options(sample={"rowTag": "item"})),
        fixed(dt.String()),
        "The struct as an XML record (NULL for NULL); ``options`` are Spark's XML options (``rowTag``...).",
        "xml",
        nullable=always,
    ),
    entry(
        "schema_of_xml",
        (
            either("xml", accepts.STRING, str, foldable=True, sample="<r><a>1</a><b>x</b></r>"),
            options(sample={"attributePrefix": "_"}),
        ),
        fixed(dt.String()),
        "The schema Spark infers for a constant XML record, as DDL (``STRUCT<a: BIGINT>``); not a column.",
        "xml",
        nullable=never,
        check=not_null_text,
    ),
)
