"""No user value is SQL: hostile literals, names and parameters, under session settings that rewrite SQL text.

The façade lowers expressions to Spark SQL text. Spark's parser substitutes
``${...}`` (``spark.sql.variable.substitute``), reads backslashes in string
literals differently (``spark.sql.parser.escapedStringLiterals``) and treats a
quoted name as a regular expression in a ``SELECT``
(``spark.sql.parser.quotedRegexColumnNames``). Every test here runs under each
of those settings and asserts exact results: the value that went in comes back,
the row that should match matches, and nothing else does.

Each new function parameter joins ``STRING_PARAMETERS``, ``INT_PARAMETERS`` or ``POSITION_PARAMETERS``
(a higher-order function: string literals inside its lambda's body, in ``STRING_PARAMETERS``);
each new name-like parameter (a join hint, a storage level) joins ``NAME_PARAMETERS``.
"""

from __future__ import annotations

import datetime
import json
import re
import warnings
from typing import TYPE_CHECKING, Any

import pytest
from pyspark.sql import types as st

from pydantable_spark import DataFrame, DataFrameModel, F, Window, cs, left, right
from pydantable_spark.errors import (
    ArgumentError,
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    NullCheckError,
    UnknownColumnError,
    UnsupportedTypeError,
    WriteError,
)
from pydantable_spark.expr.binding import call
from pydantable_spark.expr.catalog import ENTRIES, REQUIRED, Function, Param
from pydantable_spark.expr.catalog.spec import sample_of
from pydantable_spark.expr.core import Literal

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark


def _stable_id(value: object) -> str:
    """A test id that is the same in every process (pytest-xdist's workers must collect the same ids)."""
    return type(value).__name__ if type(value) is object else repr(value)


HOSTILE = [
    "${env:HOME}",
    "${system:java.version}",
    "${spark.app.name}",
    "${spark.sql.pydantable.hostile}",
    "${hiveconf:x}",
    "${x}",
    "$${x}",
    "${",
    "a$",
    "'",
    "''",
    '"',
    "\\",
    "\\'",
    "\\\\",
    "\\n",
    "' OR 1=1 --",
    "' OR TRUE OR '",
    "x' || (SELECT current_user()) || '",
    "`",
    "a`b",
    "a.b",
    "(a)?+.+",
    "*",
    "%",
    "_",
    "-- comment",
    "/* comment */",
    ";",
    "X'00'",
    "CAST(1 AS INT)",
    "\x00",
    "\n",
    "\r\n",
    "\t",
    "😀",
    "ünïcödé",
    "NULL",
    " ",
    "",
]
"""Strings that SQL text could misread: substitutions, quotes, escapes, comments, regexes, control characters."""

CONFS: dict[str, dict[str, str]] = {
    "defaults": {},
    "substitution-off": {"spark.sql.variable.substitute": "false"},
    "escaped-literals": {"spark.sql.parser.escapedStringLiterals": "true"},
    "regex-names": {"spark.sql.parser.quotedRegexColumnNames": "true"},
    "reserved-keywords": {"spark.sql.ansi.enforceReservedKeywords": "true"},
    "hostile-conf": {"spark.sql.pydantable.hostile": "' OR TRUE OR '"},
}


@pytest.fixture(params=list(CONFS))
def conf(spark: SparkSession, request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test once per session setting; the previous values are put back afterwards."""
    settings = CONFS[request.param]
    before = {key: spark.conf.get(key, None) for key in settings}
    with warnings.catch_warnings():  # a Connect client passes on the server's "deprecated setting" warning
        warnings.simplefilter("ignore")
        for key, value in settings.items():
            spark.conf.set(key, value)
    try:
        yield request.param
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for key, value in before.items():
                if value is None:
                    spark.conf.unset(key)
                else:
                    spark.conf.set(key, value)


class Text(DataFrameModel):
    i: int
    s: str


def _texts() -> DataFrame[Text]:
    return Text.from_rows([{"i": i, "s": s} for i, s in enumerate(HOSTILE)])


def test_literals_and_comparisons_are_exact(conf: str) -> None:
    frame = _texts()
    literals = {f"lit{j}": F.lit(value) for j, value in enumerate(HOSTILE)}
    equal = {f"eq{j}": Text.s == value for j, value in enumerate(HOSTILE)}
    got = frame.select(Text.i, **literals, **equal).sort(Text.i).to_dict()
    for j, value in enumerate(HOSTILE):
        assert got[f"lit{j}"] == [value] * len(HOSTILE), (conf, value)
        assert got[f"eq{j}"] == [i == j for i in range(len(HOSTILE))], (conf, value)
    matched = frame.filter(Text.s.is_in(["' OR TRUE OR '", "${x}"])).sort(Text.i).to_dict()["s"]
    assert matched == ["${x}", "' OR TRUE OR '"]


def test_filters_match_exactly_one_row(conf: str) -> None:
    frame = _texts()
    for i, value in enumerate(HOSTILE):
        assert frame.filter(Text.s == value).to_dict()["i"] == [i], (conf, value)


def _java_quote(text: str) -> str:
    """``text`` as a Java regex matching itself (``\\Q...\\E``)."""
    return "\\Q" + text.replace("\\E", "\\E\\\\E\\Q") + "\\E"


SKIP = object()
"""An expected value that Python cannot predict (the position is not compared)."""

STRING_PARAMETERS: dict[str, tuple[Callable[[Any, str], Any], Callable[[str, str], Any]]] = {
    # name: (the façade expression of column s and parameter p, the same computed in Python)
    "str.contains": (lambda s, p: s.str.contains(p), lambda s, p: p in s),
    "str.starts_with": (lambda s, p: s.str.starts_with(p), lambda s, p: s.startswith(p)),
    "str.ends_with": (lambda s, p: s.str.ends_with(p), lambda s, p: s.endswith(p)),
    "str.replace(literal)": (
        lambda s, p: s.str.replace(p, p + "|", literal=True),
        lambda s, p: s if p == "" else s.replace(p, p + "|"),  # Spark's replace() leaves s alone for ""
    ),
    "str.replace(regex)": (
        lambda s, p: s.str.replace(_java_quote(p), "<>"),
        # an empty regex also matches between the two UTF-16 halves of an emoji in Java: not comparable
        lambda s, p: s.replace(p, "<>") if p else SKIP,
    ),
    "str.split": (lambda s, p: s.str.split(p), lambda s, p: s.split(p) if p else SKIP),
    "str.extract": (lambda s, p: s.str.extract("(" + _java_quote(p) + ")", 1), lambda s, p: p if p in s else None),
    "str.strip(chars)": (lambda s, p: s.str.strip(p), lambda s, p: s.strip(p)),
    "str.pad_start(fill)": (
        lambda s, p: s.str.pad_start(3, p) if len(p) == 1 else F.lit(None, dtype=str),
        lambda s, p: s.rjust(3, p) if len(p) == 1 else None,
    ),
    "str.like": (
        lambda s, p: s.str.like(p) if "\\" not in p else F.lit(None, dtype=bool),
        lambda s, p: (s == p) if not ({"%", "_", "\\"} & set(p)) else SKIP,
    ),
    "str.matches": (
        lambda s, p: s.str.matches(_java_quote(p)) if p else F.lit(None, dtype=bool),
        lambda s, p: (p in s) if p else None,  # an empty pattern is refused
    ),
    "isin": (lambda s, p: s.isin(p, "x"), lambda s, p: s in (p, "x")),
    "list.contains_any": (lambda s, p: F.array(s).list.contains_any([p, "x"]), lambda s, p: s in (p, "x")),
    "list.contains_all": (
        lambda s, p: F.array(s, F.lit("x")).list.contains_all([p, "x"]),
        lambda s, p: p in (s, "x"),
    ),
    "map.map_has_any_key": (
        lambda s, p: F.create_map(s, F.lit(1)).map.map_has_any_key([p]),
        lambda s, p: s == p,
    ),
    "concat": (lambda s, p: F.concat(s, F.lit(p)), lambda s, p: s + p),
    "list.join": (lambda s, p: s.str.split(",").list.join(p), lambda s, p: p.join(s.split(","))),
    "array_contains": (lambda s, p: F.array_contains(F.array(s), p), lambda s, p: s == p),
    "array_position": (
        lambda s, p: F.array_position(F.array(s, F.lit("x")), p),
        lambda s, p: 1 if s == p else (2 if p == "x" else 0),
    ),
    "array_remove": (lambda s, p: F.array_remove(F.array(s), p), lambda s, p: [] if s == p else [s]),
    "array_append": (lambda s, p: F.array_append(F.array(s), p), lambda s, p: [s, p]),
    "array_insert": (lambda s, p: F.array_insert(F.array(s), 1, p), lambda s, p: [p, s]),
    "element_at(key)": (lambda s, p: F.element_at(F.create_map(s, F.lit(1)), p), lambda s, p: 1 if s == p else None),
    "map_contains_key": (lambda s, p: F.map_contains_key(F.create_map(s, F.lit(1)), p), lambda s, p: s == p),
    "named_struct(name)": (
        lambda s, p: F.named_struct(F.lit(p), s).struct.field(p) if p and "${" not in p else F.lit(None, dtype=str),
        lambda s, p: s if p and "${" not in p else None,  # '${' is refused in field names, SQL must spell them
    ),
    "str_to_map(pairDelim)": (
        lambda s, p: F.str_to_map(
            F.lit(f"k1\x01v1{p or ';'}k2\x01v2"), F.lit(_java_quote(p or ";")), F.lit("\x01")
        ).map.get("k2"),
        lambda s, p: "v2",  # the pair delimiter (a regex, quoted) split the text where it stands
    ),
    "to_json(options)": (
        lambda s, p: F.to_json(F.create_map(F.lit(p), s), {p: p}),  # an option name Spark does not know is ignored
        lambda s, p: json.dumps({p: s}, separators=(",", ":"), ensure_ascii=False),
    ),
    "schema_of_json(json)": (
        lambda s, p: F.schema_of_json(json.dumps({"k": p}), {p: p}),
        lambda s, p: "STRUCT<k: STRING>",
    ),
    # VARIANT paths: the key is the hostile text, quoted as Spark's path grammar allows
    "variant_get(path)": (
        lambda s, p: (
            F.variant_get(F.parse_json(F.to_json(F.create_map(F.lit(p), s))), _key_path(p), "string")
            if p
            else F.lit(None, dtype=str)
        ),
        lambda s, p: s if p else None,  # an empty key has no path
    ),
    "variant_set(path)": (
        lambda s, p: (
            F.variant_get(F.variant_set(F.parse_json(F.lit("{}")), _key_path(p), s), _key_path(p), "string")
            if p
            else F.lit(None, dtype=str)
        ),
        lambda s, p: s if p else None,
    ),
    # string literals inside lambda bodies (and a lambda returning the Python string itself)
    "transform(body literal)": (
        lambda s, p: F.transform(F.array(s), lambda x: F.concat(x, F.lit(p))).list.get(0),
        lambda s, p: s + p,
    ),
    "transform(body is the value)": (lambda s, p: F.transform(F.array(s), lambda x: p).list.get(0), lambda s, p: p),
    "transform(indexed, nested)": (
        lambda s, p: (
            F.transform(F.array(s), lambda x, i: F.transform(F.array(F.lit(p)), lambda y: F.concat(y, x, i.cast(str))))
            .list.get(0)
            .list.get(0)
        ),
        lambda s, p: p + s + "0",
    ),
    "filter(comparison)": (
        lambda s, p: F.size(F.filter(F.array(s, F.lit("x")), lambda x: x == p)),
        lambda s, p: [s, "x"].count(p),
    ),
    "exists(comparison)": (lambda s, p: F.exists(F.array(s), lambda x: x == p), lambda s, p: s == p),
    "forall(comparison)": (lambda s, p: F.forall(F.array(s), lambda x: x != p), lambda s, p: s != p),
    "aggregate(initial, merge, finish)": (
        lambda s, p: F.aggregate(
            F.array(s), F.lit(p), lambda acc, x: F.concat(acc, x, F.lit(p)), lambda acc: F.concat(acc, F.lit("|"))
        ),
        lambda s, p: p + s + p + "|",
    ),
    "zip_with(body literal)": (
        lambda s, p: F.zip_with(F.array(s), F.array(F.lit(p)), lambda x, y: F.concat(y, x, F.lit(p))).list.get(0),
        lambda s, p: p + s + p,
    ),
    "map_filter(comparison)": (
        lambda s, p: F.size(F.map_filter(F.create_map(s, F.lit(1)), lambda k, v: k == p)),
        lambda s, p: int(s == p),
    ),
    "map_zip_with(body literal)": (
        lambda s, p: F.map_zip_with(
            F.create_map(s, F.lit(p)), F.create_map(s, F.lit(1)), lambda k, a, b: F.concat(k, a, F.lit(p))
        ).map.get(s),
        lambda s, p: s + p + p,
    ),
    "transform_keys(body literal)": (
        lambda s, p: F.transform_keys(F.create_map(s, F.lit(1)), lambda k, v: F.concat(F.lit(p), k)).map.keys(),
        lambda s, p: [p + s],
    ),
    "transform_values(body literal)": (
        lambda s, p: F.transform_values(F.create_map(s, F.lit(1)), lambda k, v: F.concat(k, F.lit(p))).map.get(s),
        lambda s, p: s + p,
    ),
}


def _key_path(key: str) -> str:
    """The VARIANT path of the object key ``key`` (``$['key']``, or ``$["key"]`` when it holds a quote)."""
    return f"$['{key}']" if "'" not in key else f'$["{key}"]'


_COLUMNS = 120
"""The calls of one ``select`` of ``test_every_string_parameter_is_a_value``: its 1,680 calls in one took Spark 12 s
to analyse, optimize and compile, in selects of 105 to 420 about 7 s."""


def test_every_string_parameter_is_a_value(conf: str) -> None:
    frame = _texts()
    exprs = {}
    expected: dict[str, tuple[str, str, list[Any]]] = {}
    for n, (name, (facade, python)) in enumerate(STRING_PARAMETERS.items()):
        for j, value in enumerate(HOSTILE):
            exprs[f"f{n}_{j}"] = facade(Text.s, value)
            expected[f"f{n}_{j}"] = (name, value, [python(s, value) for s in HOSTILE])
    names = list(exprs)
    got: dict[str, list[Any]] = {}
    for start in range(0, len(names), _COLUMNS):
        batch = {name: exprs[name] for name in names[start : start + _COLUMNS]}
        got |= frame.select(Text.i, **batch).sort(Text.i).to_dict()
    for key, (name, value, values) in expected.items():
        compared = [(g, e) for g, e in zip(got[key], values, strict=True) if e is not SKIP]
        assert [g for g, _ in compared] == [e for _, e in compared], (conf, name, value)


def test_date_formats_with_hostile_literal_text(conf: str) -> None:
    class When(DataFrameModel):
        d: datetime.date

    frame = When.from_rows([{"d": datetime.date(2024, 5, 6)}])
    texts = [t for t in HOSTILE if "%" not in t]
    got = frame.select(**{f"t{i}": When.d.dt.strftime("%Y" + t) for i, t in enumerate(texts)}).to_dict()
    assert [got[f"t{i}"][0] for i in range(len(texts))] == ["2024" + t for t in texts]


def test_datetime_patterns_with_hostile_quoted_text(conf: str) -> None:
    class When(DataFrameModel):
        d: datetime.date

    frame = When.from_rows([{"d": datetime.date(2024, 5, 6)}])
    texts = [t for t in HOSTILE if t]
    patterns = ["yyyy'" + t.replace("'", "''") + "'" for t in texts]  # quoted: literal text, '' a quote
    formatted = {f"f{i}": F.date_format(When.d, p) for i, p in enumerate(patterns)}
    unparsed = "x' || (SELECT current_user()) || '"  # Spark's parser fails on this literal (PySpark's too)
    parsed = {
        f"p{i}": F.unix_timestamp(F.lit("2024" + t), p)
        for i, (t, p) in enumerate(zip(texts, patterns, strict=True))
        if t != unparsed
    }
    got = frame.select(**formatted, **parsed).to_dict()
    assert [got[f"f{i}"][0] for i in range(len(texts))] == ["2024" + t for t in texts]
    assert len(parsed) == len(texts) - 1
    assert {got[name][0] for name in parsed} == {1704067200}  # 2024-01-01 00:00 UTC, every one


INT_PARAMETERS: dict[str, Callable[[Any], Any]] = {
    "F.lag(offset)": lambda v: F.lag("s", v),
    "F.lead(offset)": lambda v: F.lead("s", v),
    "F.ntile(n)": lambda v: F.ntile(v),
    "F.nth_value(n)": lambda v: F.nth_value("s", v),
    "str.slice(offset)": lambda v: F.col("s").str.slice(v),
    "str.slice(length)": lambda v: F.col("s").str.slice(0, v),
    "str.extract(group)": lambda v: F.col("s").str.extract("(a)", v),
    "str.pad_start(width)": lambda v: F.col("s").str.pad_start(v),
    "str.pad_end(width)": lambda v: F.col("s").str.pad_end(v),
    "Window.rows_between(start)": lambda v: Window.order_by("s").rows_between(v, 0),
    "Window.range_between(end)": lambda v: Window.order_by("s").range_between(0, v),
    "limit(n)": lambda v: _texts().limit(v),
    "offset(n)": lambda v: _texts().offset(v),
    "F.shuffle(seed)": lambda v: F.shuffle("s", v),
    "list.slice(offset)": lambda v: F.col("s").list.slice(v),
    "list.slice(length)": lambda v: F.col("s").list.slice(0, v),
    "coalesce(n)": lambda v: _texts().coalesce(v),
    "sample(seed)": lambda v: _texts().sample(0.5, seed=v),
}

OPTIONAL_INTS = ("str.slice(length)", "list.slice(length)", "F.shuffle(seed)", "sample(seed)")
"""Integer parameters where None means "not given" (to the end, a random seed)."""

NOT_INTS = ["1", "1 + (SELECT 1)", "1) FROM parquet.`/etc`--", 1.0, True, None, b"1", [1]]


@pytest.mark.parametrize("name", list(INT_PARAMETERS))
@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
def test_integer_parameters_refuse_everything_but_int(name: str, value: object) -> None:
    if value is None and name in (*OPTIONAL_INTS, "Window.rows_between(start)", "Window.range_between(end)"):
        INT_PARAMETERS[name](value)  # None means "to the end" / "unbounded" here
        return
    with pytest.raises(ArgumentTypeError, match=r"must be int"):
        INT_PARAMETERS[name](value)


POSITION_PARAMETERS: dict[str, Callable[[Any], Any]] = {
    "F.slice(start)": lambda v: F.slice("l", v, 1),
    "F.slice(length)": lambda v: F.slice("l", 1, v),
    "F.array_insert(pos)": lambda v: F.array_insert("l", v, "x"),
    "F.array_repeat(count)": lambda v: F.array_repeat("s", v),
    "F.get(index)": lambda v: F.get("l", v),
}
"""Integer parameters that, as in PySpark, also take a column (so a ``str`` names one)."""


@pytest.mark.parametrize("name", list(POSITION_PARAMETERS))
@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
def test_position_parameters_take_ints_or_column_names(name: str, value: object) -> None:
    frame = Text.from_rows([{"i": 1, "s": "a"}]).with_columns(l=F.array(F.lit("x")))
    if isinstance(value, str):  # a column name, never SQL: binding finds no such column
        with pytest.raises(UnknownColumnError):
            frame.select(x=POSITION_PARAMETERS[name](value))
        return
    with pytest.raises(TypeError):  # an ArgumentTypeError, or a ColumnTypeError for a literal of another type
        frame.select(x=POSITION_PARAMETERS[name](value))


@pytest.mark.parametrize(
    "call",
    [
        lambda v: F.col("s").str.contains(v),
        lambda v: F.col("s").str.replace(v, "x"),
        lambda v: F.col("s").str.split(v),
        lambda v: F.col("s").str.strip(v),
        lambda v: F.col("s").str.like(v),
        lambda v: F.col("s").str.extract(v),
        lambda v: F.col("d").dt.strftime(v),
        lambda v: F.col("d").dt.truncate(v),
        lambda v: F.date_format("d", v),
        lambda v: F.timestamp_add(v, 1, "d"),
        lambda v: F.date_part(v, "d"),
        lambda v: F.from_utc_timestamp("d", v),
        lambda v: F.col("l").list.join(v),
        lambda v: F.col("st").struct.field(v),
        lambda v: F.col(v),
        lambda v: F.col("s").alias(v),
    ],
)
@pytest.mark.parametrize("value", [1, 1.5, b"x", ["x"], object()], ids=_stable_id)
def test_string_parameters_refuse_non_strings(call: Callable[[Any], Any], value: object) -> None:
    try:
        built = call(value)
    except TypeError:  # ArgumentTypeError, or ColumnTypeError for a literal of another type
        return
    assert isinstance(value, bytes), f"{value!r} was taken"  # bytes are a value of the binary forms: bind it
    with pytest.raises(ColumnTypeError):
        _texts().select(x=built)


NAMES = [n for n in HOSTILE if n not in ("", "''")] + ["__pydantable_r0", "__pydantable_order", "__pydantable_x41"]


def _named_frame(spark: SparkSession) -> DataFrame[Any]:
    """A frame with one bigint column per hostile name (values 1, 2, 3 times the column's position)."""
    names = list(dict.fromkeys(NAMES))
    lowered: set[str] = set()
    unique = []
    for name in names:  # Spark (and the façade) refuse names equal when case is ignored
        if name.lower() not in lowered:
            lowered.add(name.lower())
            unique.append(name)
    schema = st.StructType([st.StructField(n, st.LongType(), False) for n in unique])
    rows = [tuple((k + 1) * r for k in range(len(unique))) for r in (1, 2, 3)]
    return DataFrame.from_spark(spark.createDataFrame(rows, schema))


def test_hostile_column_names_are_names(spark: SparkSession, conf: str) -> None:
    frame = _named_frame(spark)
    names = frame.columns
    out = (
        frame.with_columns(**{n: F.col(n) * 10 for n in names})
        .filter(*[F.col(n) > 0 for n in names])
        .sort(names[0], descending=True)
    )
    got = out.to_dict()
    assert list(got) == names
    for k, n in enumerate(names):
        assert got[n] == [30 * (k + 1), 20 * (k + 1), 10 * (k + 1)], (conf, n)
    assert [row.model_dump(by_alias=True)[names[3]] for row in out.collect()] == [120, 80, 40]
    assert out.count() == 3


def test_hostile_names_through_relational_operations(spark: SparkSession, conf: str) -> None:
    frame = _named_frame(spark)
    names = frame.columns
    first, second = names[0], names[1]
    grouped = frame.group_by(first).agg(**{second: F.sum(second)}).sort(first).to_dict()
    assert grouped == {first: [1, 2, 3], second: [2, 4, 6]}
    joined = frame.select(first, second).join(frame.select(first, names[2]), on=first).sort(first).to_dict()
    assert joined == {first: [1, 2, 3], second: [2, 4, 6], names[2]: [3, 6, 9]}
    renamed = frame.select(first).rename({first: names[-1] + "!"}).to_dict()
    assert renamed == {names[-1] + "!": [1, 2, 3]}
    assert frame.unique(subset=[second]).count() == 3
    windowed = frame.select(first, r=F.row_number().over(Window.order_by(first, descending=True)))
    assert windowed.sort(first).to_dict() == {first: [1, 2, 3], "r": [3, 2, 1]}
    melted = frame.select(first, second).melt(id_vars=first, value_vars=[second]).sort(first).to_dict()
    assert melted[first] == [1, 2, 3]
    assert set(melted["variable"]) == {second}


def test_hostile_prefixes_suffixes_and_replacements_are_names(spark: SparkSession, conf: str) -> None:
    """The renaming helpers' strings become column names, never SQL: one column per hostile text."""
    texts = [t for t in HOSTILE if t]
    frame = _texts().select(**{f"c{j}": Text.i + j for j in range(len(texts))})
    prefixed = frame
    for j, text in enumerate(texts):
        prefixed = prefixed.rename_prefix(text, selector=f"c{j}")
    suffixed = prefixed.rename_suffix("`", selector=cs.numeric())
    replaced = suffixed.rename_replace("c0`", texts[-1] + "|")
    expected = [texts[0] + texts[-1] + "|", *(f"{text}c{j}`" for j, text in enumerate(texts) if j)]
    assert replaced.columns == expected
    got = replaced.sort(replaced.columns[0]).to_dict()
    assert list(got) == expected, conf
    assert [got[name][:2] for name in expected] == [[j, j + 1] for j in range(len(texts))], conf
    assert replaced.select_last(expected[0]).columns == [*expected[1:], expected[0]]
    assert replaced.move(expected[0], after=expected[3]).select(expected[0]).count() == len(HOSTILE)


def test_internal_names_do_not_collide_with_user_columns(spark: SparkSession) -> None:
    schema = st.StructType(
        [st.StructField(n, st.LongType(), False) for n in ("__pydantable_r0", "__pydantable_order", "k")]
    )
    left = DataFrame.from_spark(spark.createDataFrame([(1, 10, 1), (2, 20, 2)], schema))
    right = left.select("k", v=F.col("__pydantable_r0") * 100)
    joined = left.join(right, on="k", maintain_order="left").to_dict()
    assert joined == {"__pydantable_r0": [1, 2], "__pydantable_order": [10, 20], "k": [1, 2], "v": [100, 200]}
    ids = left.select("__pydantable_r0").with_columns(__pydantable_id=F.lit(7)).unique(keep="first").to_dict()
    assert ids == {"__pydantable_r0": [1, 2], "__pydantable_id": [7, 7]}


def test_struct_field_names_with_substitution_are_refused() -> None:
    from pydantable_spark import dtypes as dt

    with pytest.raises(UnsupportedTypeError, match=r"struct field '\$\{x\}' contains '\$\{'"):
        dt.Struct((dt.Field("${x}", dt.Int64(), False),))


def test_hostile_struct_field_names_are_read_exactly(spark: SparkSession, conf: str) -> None:
    names = [n for n in NAMES if "${" not in n][:12]
    inner = st.StructType([st.StructField(n, st.LongType(), False) for n in dict.fromkeys(names)])
    schema = st.StructType([st.StructField("st", inner, False)])
    frame = DataFrame.from_spark(spark.createDataFrame([(tuple(range(len(inner.fields))),)], schema))
    got = frame.select(**{f"f{k}": F.col("st").struct.field(f.name) for k, f in enumerate(inner.fields)}).to_dict()
    assert [got[f"f{k}"][0] for k in range(len(inner.fields))] == list(range(len(inner.fields)))


def test_null_check_names_any_column(spark: SparkSession, conf: str) -> None:
    class Quote(DataFrameModel):
        it: int

    for name in ["it's", "${x}", "a\\'b", "\n"]:
        sdf = spark.createDataFrame([(1,), (None,)], st.StructType([st.StructField(name, st.LongType(), True)]))
        frame = DataFrame.from_spark(sdf).rename({name: "it"}).as_model(Quote, null_check=True)
        with pytest.raises(NullCheckError) as caught:
            frame.collect()
        assert "'it'" in str(caught.value)
        direct = DataFrame.from_spark(sdf).filter(F.col(name).is_null() | F.col(name).is_not_null())
        assert direct.count() == 2


def test_table_names_with_substitution_are_refused() -> None:
    with pytest.raises(ValueError, match="variable substitution"):
        Text.read_table("${env:HOME}")
    with pytest.raises(ValueError, match="variable substitution"):
        _texts().save_as_table("db.${x}")
    with pytest.raises(ValueError, match="variable substitution"):
        _texts().save_as_table("t", constraints="quarantine", quarantine="db.${x}")


# --- every Python-valued parameter of the catalog --------------------------------------------------

WRONG_TYPES: list[object] = [1.5, "1) FROM parquet.`/etc`--", b"1", object(), [1], True]


def _value_parameters() -> Iterator[tuple[Function, int]]:
    for entry in ENTRIES:
        for index, param in enumerate(entry.signature.params):
            if param.python and not param.variadic:
                yield entry, index


def _arguments(entry: Function, index: int, value: object) -> list[object]:
    """``value`` for parameter ``index``, a column or a sample for every other one up to the last required."""
    count = max([index + 1] + [i + 1 for i, p in enumerate(entry.signature.params) if p.default is REQUIRED])

    def other(param: Param) -> object:
        return F.col("c") if param.accepts is not None else sample_of(param)

    return [value if i == index else other(p) for i, p in enumerate(entry.signature.params[:count])]


def _refused_by_its_check(entry: Function, index: int, text: str) -> bool:
    try:
        call(entry, _arguments(entry, index, text))
    except (ColumnTypeError, ArgumentError) as error:
        return entry.signature.params[index].name in str(error)
    return False


@pytest.mark.parametrize(("entry", "index"), list(_value_parameters()), ids=lambda x: getattr(x, "name", x))
def test_every_catalog_value_parameter_takes_only_its_types_and_binds_strings_as_values(
    entry: Function, index: int
) -> None:
    param = entry.signature.params[index]
    names = param.accepts is not None and param.names  # a str is a column name there, as in PySpark
    for value in WRONG_TYPES:
        taken = isinstance(value, param.python) and not (isinstance(value, bool) and bool not in param.python)
        weak = param.accepts is not None and isinstance(
            value, (int, float, str, bytes)
        )  # a literal, type-checked later
        if taken or weak or (names and isinstance(value, str)):
            continue
        with pytest.raises(ArgumentTypeError, match=param.name):
            call(entry, _arguments(entry, index, value))
    if str in param.python and not names:
        for text in HOSTILE:
            if _refused_by_its_check(entry, index, text):
                continue
            built = call(entry, _arguments(entry, index, text))
            node = built.args[index]
            assert isinstance(node, Literal), (entry.name, param.name, text)
            assert node.value == text


def _escaped(text: str) -> str:
    """A pattern matching ``text`` literally: a backslash before each regex metacharacter (the translated subset)."""
    return "".join("\\" + c if c in ".^$*+?()[]{}|\\-/" else c for c in text)


def test_constraint_values_are_values(spark: SparkSession, conf: str) -> None:
    """Literal members, patterns and hostile column names reach Spark as values, under every setting."""
    from typing import Literal as L

    from pydantic import Field, create_model

    from pydantable_spark.constraints import java_pattern

    members = tuple(HOSTILE[:-1])  # the last one ("") stays outside the Literal and the pattern
    pattern = "^(?:" + "|".join(_escaped(m) for m in members) + ")$"
    assert java_pattern(pattern)[0] is not None
    model = create_model(
        "Hostile",
        __base__=DataFrameModel,
        i=(int, ...),
        s=(L[members], ...),  # type: ignore[valid-type]
        t=(str, Field(pattern=pattern, alias="it's ${x}")),
        n=(int, Field(ge=0, alias="${spark.app.name}`")),
    )
    last = len(HOSTILE) - 1
    rows = [(i, value, value, -1 if i == 3 else 0) for i, value in enumerate(HOSTILE)]
    frame = model.from_spark(spark.createDataFrame(rows, schema=model.spark_schema()))
    report = frame.validate(key="i", examples=len(HOSTILE))
    flagged = {v.constraint.location: sorted(e["i"] for e in v.examples) for v in report.errors}
    assert report.rows == len(HOSTILE)
    # a location backquotes a name that is not an identifier (docs/constraints.md, "Locations")
    assert flagged == {"s": [last], "`it's ${x}`": [last], "`${spark.app.name}```": [3]}, conf


def test_dataset_checks_over_hostile_names_and_literals_are_exact(conf: str) -> None:
    """Row, aggregate, key and reference checks over hostile column names and string literals, under every setting.

    The referenced frame's key column has a hostile name, and it has a column named as the reference's own
    internal key column (``__pydantable_rk0``), holding the keys that would hide violations if they were joined on.
    """
    from collections.abc import Sequence

    from pydantic import Field, create_model

    from pydantable_spark import Check

    text, ref, key = "it's ${x}`", "`a.b`", "k`e.y'\"${spark.app.name}"
    referenced = create_model(
        "HostileKey", __base__=DataFrameModel, key=(int, Field(alias=key)), decoy=(int, Field(alias="__pydantable_rk0"))
    )

    def checks(cls: Any) -> Sequence[Check]:
        return (
            Check.row(F.col(text) != "' OR TRUE OR '", name="not_or_true", action="drop"),
            Check.agg(F.sum(F.when(F.col(text) == "${x}", 1).otherwise(0)) == 1, name="one_substitution"),
            Check.agg(F.sum(F.when(F.col(text) == "\\'", 1).otherwise(0)) == 0, name="no_escape", action="warn"),
            Check.unique(ref, name="ref_unique", action="warn"),
            Check.references(ref, referenced.key, name="refers", action="drop"),
        )

    model = create_model(
        "HostileChecked",
        __base__=DataFrameModel,
        i=(int, ...),
        t=(str, Field(alias=text)),
        r=(int | None, Field(alias=ref)),
    )
    model = type("HostileChecked", (model,), {"checks": classmethod(checks), "__module__": __name__})
    rows = [{"i": i, text: value, ref: None if i % 5 == 4 else i % 4} for i, value in enumerate(HOSTILE)]
    keys = referenced.from_rows([{key: k, "__pydantable_rk0": 3} for k in (0, 1, 2)])
    report = model.from_rows(rows).validate(key="i", examples=3, references={referenced: keys})
    found = {r.check.name: r for r in report.checks}
    or_true = HOSTILE.index("' OR TRUE OR '")
    assert (found["not_or_true"].count, found["not_or_true"].examples) == (
        1, ({"i": or_true, text: "' OR TRUE OR '"},),
    ), conf  # fmt: skip
    assert found["one_substitution"].count == 0, conf
    assert [list(e.values()) for e in found["no_escape"].examples] == [[1]], conf  # one row is exactly "\\'"
    missing = [row["i"] for row in rows if row[ref] == 3]
    assert (found["refers"].count, found["refers"].examples) == (len(missing), ({ref: 3, "rows": len(missing)},)), conf
    assert found["ref_unique"].count == sum(1 for row in rows if row[ref] is not None), conf
    kept = sorted(report.frame.to_dict()["i"])
    assert kept == [row["i"] for row in rows if row["i"] != or_true and row[ref] != 3], conf


def test_a_write_drops_and_quarantines_by_checks_over_hostile_names_and_literals(conf: str, tmp_path: Path) -> None:
    """A write's drop checks (a row check on a hostile literal, a reference over hostile names) flag the right rows.

    The referenced frame has a column named as the flag join's internal key column (``__pydantable_rk0``) and one
    named as a drop flag (``__pydantable_drop0``), holding values that would hide or invent violations if they
    were joined on or read as the flag.
    """
    from collections.abc import Sequence

    import pyarrow.parquet as pq
    from pydantic import Field, create_model

    from pydantable_spark import Check

    text, ref, key = "it's ${x}`", "`a.b`", "k`e.y'\"${spark.app.name}"
    referenced = create_model(
        "HostileWriteKey",
        __base__=DataFrameModel,
        key=(int, Field(alias=key)),
        decoy=(int, Field(alias="__pydantable_rk0")),
    )

    def checks(cls: Any) -> Sequence[Check]:
        return (
            Check.row(F.col(text) != "' OR TRUE OR '", name="not_or_true", action="drop"),
            Check.unique(ref, name="ref_unique", action="warn"),
            Check.references(ref, referenced.key, name="refers", action="drop"),
        )

    model = create_model(
        "HostileWritten",
        __base__=DataFrameModel,
        i=(int, ...),
        t=(str, Field(alias=text)),
        r=(int | None, Field(alias=ref)),
        flag=(bool, Field(alias="__pydantable_drop0")),
    )
    model = type("HostileWritten", (model,), {"checks": classmethod(checks), "__module__": __name__})
    rows = [
        {"i": i, text: value, ref: None if i % 5 == 4 else i % 4, "__pydantable_drop0": True}
        for i, value in enumerate(HOSTILE)
    ]
    keys = referenced.from_rows([{key: k, "__pydantable_rk0": 3} for k in (0, 1, 2)])
    good, bad = tmp_path / "good", tmp_path / "bad"
    report = model.from_rows(rows).write_parquet(
        good, constraints="quarantine", quarantine=bad, references={referenced: keys}
    )
    or_true = HOSTILE.index("' OR TRUE OR '")
    missing = {row["i"] for row in rows if row[ref] == 3}
    assert report is not None
    assert {r.check.name: r.count for r in report.checks} == {
        "not_or_true": 1, "ref_unique": sum(1 for row in rows if row[ref] is not None), "refers": len(missing),
    }, conf  # fmt: skip
    reasons = {r["i"]: r["violations"] for r in pq.read_table(bad).select(["i", "violations"]).to_pylist()}
    expected = {i: ["refers"] for i in missing} | {
        or_true: ["not_or_true"] + (["refers"] if or_true in missing else [])
    }
    assert reasons == expected, conf
    written = pq.read_table(good)
    assert sorted(written.column("i").to_pylist()) == sorted(set(range(len(HOSTILE))) - set(expected)), conf
    assert written.column_names == ["i", text, ref, "__pydantable_drop0"], conf


# --- join conditions and physical controls ------------------------------------------------------

NAME_PARAMETERS: dict[str, Callable[[Any], Any]] = {
    "hint(name)": lambda v: _texts().hint(v),
    "join(hint=)": lambda v: _texts().join(_texts(), on="i", hint=v),
    "persist(level)": lambda v: _texts().persist(v),
}
"""Parameters that take one of a fixed set of names; whatever else comes is refused, never passed to Spark."""


@pytest.mark.parametrize("name", list(NAME_PARAMETERS))
def test_name_parameters_refuse_every_other_string(name: str) -> None:
    for value in HOSTILE:
        with pytest.raises(ArgumentValueError, match="is not a"):
            NAME_PARAMETERS[name](value)
    for value in [1, 1.5, b"broadcast", ["broadcast"], object()]:
        with pytest.raises(ArgumentTypeError, match="must be a str"):
            NAME_PARAMETERS[name](value)


@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
def test_repartition_takes_an_int_or_columns(value: object) -> None:
    if isinstance(value, str):  # a column name, never SQL
        with pytest.raises(UnknownColumnError):
            _texts().repartition(value)
        return
    with pytest.raises(ArgumentTypeError, match=r"repartition\(\): n must be int"):
        _texts().repartition(value)  # type: ignore[arg-type]


NOT_FRACTIONS = ["0.5", "0.5) --", b"0.5", [0.5], None, True, object()]


@pytest.mark.parametrize("value", NOT_FRACTIONS, ids=_stable_id)
def test_sample_fractions_refuse_everything_but_numbers(value: object) -> None:
    with pytest.raises(ArgumentTypeError, match=r"sample\(\): fraction must be float or int"):
        _texts().sample(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1e-300, 1 + 1e-15, 10**400])
def test_sample_fractions_out_of_range_are_refused(value: object) -> None:
    with pytest.raises((ArgumentValueError, OverflowError)):
        _texts().sample(value)  # type: ignore[arg-type]


def test_join_conditions_with_hostile_literals_are_exact(conf: str) -> None:
    frame = _texts()
    other = _texts().select(j=Text.i, t=Text.s)
    pairs = frame.join(other, on=(Text.s == F.col("t")) & (F.col("t") != "' OR TRUE OR '"), how="inner")
    got = pairs.sort("i").to_dict()
    expected = [i for i, s in enumerate(HOSTILE) if s != "' OR TRUE OR '"]
    assert got["i"] == expected, conf
    assert got["j"] == expected, conf
    for i, value in enumerate(HOSTILE):
        matched = frame.join(other, on=[left.col("s") == value, right.col("t") == value], how="semi")
        assert matched.to_dict()["i"] == [i], (conf, value)


def test_join_conditions_over_hostile_column_names(spark: SparkSession, conf: str) -> None:
    frame = _named_frame(spark)
    names = frame.columns
    first, second = names[0], names[1]
    other = frame.select(first, second)
    joined = frame.select(first).join(other, on=left.col(first) < right.col(second), how="left")
    got = joined.sort(first, f"{first}_right").to_dict()
    # first holds 1, 2, 3; second holds 2, 4, 6: each first value is below the second values greater than it
    assert got[first] == [1, 1, 1, 2, 2, 3, 3], conf
    assert got[second] == [2, 4, 6, 4, 6, 4, 6], conf
    anti = frame.select(first).join(other, on=left.col(first) > right.col(second), how="anti")
    assert sorted(anti.to_dict()[first]) == [1, 2], conf
    spread = frame.repartition(3, first, F.col(second)).sample(1.0, seed=1).coalesce(1).hint("broadcast")
    assert sorted(spread.to_dict()[first]) == [1, 2, 3], conf


# --- MERGE into Delta Lake: conditions, assignments, names (the lakehouse tier) --------------------


@pytest.mark.lakehouse
def test_merge_conditions_and_assignments_with_hostile_literals_are_exact(tmp_path: Any, conf: str) -> None:
    from pydantable_spark.merge import MergeMetrics, insert, source, target, update

    where = str(tmp_path / "d")
    n = len(HOSTILE)
    _texts().write_delta(where)
    incoming = Text.from_rows([{"i": i + k * 100, "s": s} for k in (0, 1) for i, s in enumerate(HOSTILE)])
    metrics = incoming.merge_into(
        path=where,
        on="i",
        when_matched=[  # each target row's text becomes the next hostile string, found by a hostile literal
            update(s=HOSTILE[(j + 1) % n], condition=target.col("s") == value) for j, value in enumerate(HOSTILE)
        ],
        when_not_matched=insert(i=source.col("i"), s=F.concat(source.col("s"), F.lit("' OR 1=1 --"))),
    )
    assert metrics == MergeMetrics(inserted=n, updated=n, deleted=0), conf
    got = {row.i: row.s for row in Text.read_delta(where).collect()}
    assert got == {
        **{i: HOSTILE[(i + 1) % n] for i in range(n)},
        **{i + 100: value + "' OR 1=1 --" for i, value in enumerate(HOSTILE)},
    }, conf


DELTA_NAMES = [n for n in NAMES if "${" not in n and not set(n) & set(" ,;{}()\n\t=")]
"""The hostile names a Delta table (without column mapping) takes: no ``${`` (refused), none of `` ,;{}()\\n\\t=``."""


@pytest.mark.lakehouse
def test_merge_into_hostile_column_names(spark: SparkSession, tmp_path: Any, conf: str) -> None:
    from pydantable_spark.merge import MergeMetrics, insert_all, update_all

    names = list(dict.fromkeys(n for n in DELTA_NAMES if n.lower() != "k"))
    if conf == "reserved-keywords":
        # Delta's MERGE re-parses the source's schema as DDL text itself (from_json in MergeIntoCommand's
        # materialized source), where a column named NULL fails under enforceReservedKeywords: Delta's limit
        names = [n for n in names if n.upper() != "NULL"]
    unique = [n for i, n in enumerate(names) if n.lower() not in {m.lower() for m in names[:i]}]
    schema = st.StructType(
        [st.StructField("k", st.LongType(), False)] + [st.StructField(n, st.LongType(), False) for n in unique]
    )
    old = DataFrame.from_spark(spark.createDataFrame([(1, *[j for j in range(len(unique))])], schema))
    where = str(tmp_path / "d")
    old.write_delta(where)
    new = DataFrame.from_spark(
        spark.createDataFrame([(k, *[10 * k + j for j in range(len(unique))]) for k in (1, 2)], schema)
    )
    metrics = new.merge_into(path=where, on="k", when_matched=update_all(), when_not_matched=insert_all())
    assert metrics == MergeMetrics(inserted=1, updated=1, deleted=0), conf
    back = DataFrame.from_spark(spark.read.format("delta").load(where)).sort("k").to_dict()
    assert back == {"k": [1, 2], **{n: [10 + j, 20 + j] for j, n in enumerate(unique)}}, conf


@pytest.mark.lakehouse
def test_table_constraints_with_hostile_names_members_and_patterns_are_exact(tmp_path: Any, conf: str) -> None:
    """``table_constraints=True``: Delta CHECKs over hostile column names, ``Literal`` members and a pattern."""
    from typing import Literal as L

    from pydantic import Field, create_model

    from pydantable_spark.errors import SparkJobError

    members = tuple(HOSTILE[:-1])  # the last one ("") stays outside the Literal and the pattern
    pattern = "^(?:" + "|".join(_escaped(m) for m in members) + ")$"
    odd = [n for n in DELTA_NAMES if n.lower() not in ("i", "s")][:2]
    model = create_model(
        "HostileTable",
        __base__=DataFrameModel,
        i=(int, ...),
        s=(L[members], ...),  # type: ignore[valid-type]
        t=(str, Field(pattern=pattern, alias=odd[0])),
        n=(int, Field(ge=0, alias=odd[1])),
    )
    rows = [{"i": i, "s": v, odd[0]: v, odd[1]: i} for i, v in enumerate(members)]
    where = str(tmp_path / "d")
    if conf == "regex-names":  # Delta would read the quoted names as regular expressions: refused, nothing made
        with pytest.raises(WriteError, match="quotedRegexColumnNames=true makes Spark read the quoted column"):
            model.from_rows(rows).write_delta(where, table_constraints=True)
        assert not (tmp_path / "d").exists()
        return
    model.from_rows(rows).write_delta(where, table_constraints=True)  # every valid row passes Delta's CHECKs
    assert model.read_delta(where).count() == len(members), conf
    last = {"i": 99, "s": members[0], odd[0]: HOSTILE[-1], odd[1]: 0}  # the pattern refuses ""
    for bad in (last, {**last, odd[0]: members[0], odd[1]: -1}):
        frame = model.from_rows([bad], trusted=True)  # no Pydantic validation: the values reach the write
        with pytest.raises(SparkJobError, match="CHECK constraint|DELTA_VIOLATE_CONSTRAINT"):
            frame.write_delta(where, mode="append", constraints="skip")  # only the table's own CHECK refuses it
    assert model.read_delta(where).count() == len(members), conf


def test_merge_target_names_with_substitution_are_refused() -> None:
    from pydantable_spark.merge import update_all

    with pytest.raises(ValueError, match="variable substitution"):
        _texts().merge_into("db.${x}", on="i", when_matched=update_all())
    with pytest.raises(ValueError, match="variable substitution"):
        _texts().merge_into(path="/tmp/${env:HOME}", on="i", when_matched=update_all())


def test_from_json_field_names_options_and_texts_are_values(spark: SparkSession, conf: str) -> None:
    """A model's field names reach from_json inside its schema text, options as string literals: all exact."""
    from pydantable_spark import dtypes as dt

    names = list(dict.fromkeys(n for n in NAMES if "${" not in n))[:12]
    schema = dt.Struct(tuple(dt.Field(n, dt.String(), True) for n in names))
    record = json.dumps({n: f"v{k}:{n}" for k, n in enumerate(names)})
    texts = Text.from_rows([{"i": 0, "s": record}, *({"i": k + 1, "s": h} for k, h in enumerate(HOSTILE))])
    hostile_options = {"dateFormat": HOSTILE[1], "allowComments": True, "timestampFormat": "' OR TRUE OR '"}
    parsed = texts.select("i", j=F.from_json(Text.s, schema, hostile_options)).sort("i").to_spark().collect()
    assert [parsed[0]["j"][n] for n in names] == [f"v{k}:{n}" for k, n in enumerate(names)]
    assert all(row["j"] is None or all(v is None for v in row["j"]) for row in parsed[1:] if row["i"] > 0)
    with pytest.raises(ArgumentTypeError, match=r"options\[.*\] must be a str, bool, int or float"):
        F.from_json(Text.s, schema, {"mode": object()})


def test_from_csv_and_from_xml_field_names_options_and_texts_are_values(spark: SparkSession, conf: str) -> None:
    """As from_json: field names inside the schema text, options as string literals, texts as data."""
    from pydantable_spark import dtypes as dt

    names = [n for n in dict.fromkeys(NAMES) if "${" not in n and n.isprintable() and n.strip() == n][:6]
    schema = dt.Struct(tuple(dt.Field(n, dt.String(), True) for n in names))
    line = ",".join(f"v{k}" for k in range(len(names)))
    texts = Text.from_rows([{"i": 0, "s": line}, *({"i": k + 1, "s": h} for k, h in enumerate(HOSTILE))])
    options = {"sep": ",", "nullValue": HOSTILE[1], "dateFormat": "' OR TRUE OR '"}
    parsed = texts.select("i", c=F.from_csv(Text.s, schema, options)).sort("i").to_spark().collect()
    assert [parsed[0]["c"][n] for n in names] == [f"v{k}" for k in range(len(names))]
    record = "<row><a>x</a></row>"
    xml = Text.from_rows([{"i": 0, "s": record}, *({"i": k + 1, "s": h} for k, h in enumerate(HOSTILE))])
    xml_options = {"rowTag": "row", "nullValue": HOSTILE[0], "attributePrefix": "' OR TRUE OR '"}
    one = dt.Struct((dt.Field("a", dt.String(), True),))
    got = xml.select("i", x=F.from_xml(Text.s, one, xml_options)).sort("i").to_spark().collect()
    assert got[0]["x"]["a"] == "x"
    with pytest.raises(ArgumentTypeError, match=r"options\[.*\] must be a str, bool, int or float"):
        F.from_xml(Text.s, one, {"rowTag": object()})


# --- Kafka topic names and servers (reader options, never SQL) -------------------------------------------------


def _kafka_options(frame: DataFrame[Any]) -> dict[str, str]:
    source = frame.plan
    while source.inputs():
        source = source.inputs()[0]
    return dict(source.data.options)  # type: ignore[attr-defined]


def test_kafka_topics_and_servers_are_kafka_names_or_refused() -> None:
    """A hostile string is refused as a server or topic, unless Kafka takes it as a name (then it passes exactly)."""

    class Event(DataFrameModel):
        id: int

    passed = []
    for value in HOSTILE:
        with pytest.raises(ArgumentValueError, match="'host:port'"):
            Event.read_stream_kafka(value, topic="t")
        with pytest.raises(ArgumentValueError, match="'host:port'"):
            Event.read_stream_kafka(f"broker:9092,{value}", topic="t")
        calls = {
            "topic": lambda v: Event.read_stream_kafka("broker:9092", topic=v),
            "topics": lambda v: Event.read_stream_kafka("broker:9092", topics=["t", v]),
            "starting_offsets": lambda v: Event.read_stream_kafka(
                "broker:9092", topic="t", starting_offsets={v: {0: -2}}
            ),
        }
        legal = re.fullmatch(r"[A-Za-z0-9._-]{1,249}", value) is not None  # Kafka's rule for topic names
        for name, make in calls.items():
            if not legal:
                with pytest.raises(ArgumentValueError, match="1 to 249 letters, digits"):
                    make(value)
                continue
            options = _kafka_options(make(value))
            shown = options["startingOffsets"] if name == "starting_offsets" else options["subscribe"]
            assert shown == {"topic": value, "topics": f"t,{value}"}.get(name, json.dumps({value: {"0": -2}}))
            passed.append(value)
    assert sorted(set(passed)) == ["NULL", "_", "a.b"]  # Kafka's legal names among them: passed exactly


def test_the_kafka_sinks_topic_servers_and_key_are_names_or_refused() -> None:
    """``write_stream_kafka``: a hostile topic or server is refused unless Kafka takes it; a key is a column name."""
    from pydantable_spark.streaming.kafka import kafka_sink

    class Event(DataFrameModel):
        id: int

    schema = Event.from_rows([]).schema
    for value in HOSTILE:
        with pytest.raises(ArgumentValueError, match="'host:port'"):
            kafka_sink(schema, value, topic="t", key=None, options={})
        if re.fullmatch(r"[A-Za-z0-9._-]{1,249}", value) is None:
            with pytest.raises(ArgumentValueError, match="1 to 249 letters, digits"):
                kafka_sink(schema, "broker:9092", topic=value, key=None, options={})
        else:
            options, _ = kafka_sink(schema, "broker:9092", topic=value, key=None, options={})
            assert options["topic"] == value  # a writer option (text), passed exactly
        with pytest.raises(UnknownColumnError):
            kafka_sink(schema, "broker:9092", topic="t", key=value, options={})


def test_kafka_records_over_hostile_column_names_are_exact(spark: SparkSession, conf: str) -> None:
    """The value's JSON keys are the columns' names and the key the key column's value, whatever the names."""
    from pydantable_spark._spark.streaming import kafka_records
    from pydantable_spark.streaming.kafka import kafka_sink

    frame = _named_frame(spark)
    names = frame.columns
    _, records = kafka_sink(frame.schema, "broker:9092", topic="t", key=names[2], options={})
    got = kafka_records(frame.to_spark(), records).orderBy("key").collect()
    assert [json.loads(row.value) for row in got] == [{n: (k + 1) * r for k, n in enumerate(names)} for r in (1, 2, 3)]
    assert [row.key for row in got] == [str(3 * r) for r in (1, 2, 3)], conf
