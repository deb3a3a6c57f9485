"""PySpark's names and what to write here: one table behind the hints and the migration guide.

A PySpark user types PySpark's names: ``df.withColumn``, ``df.where``,
``F.col("day").desc()``, ``F.expr``. Where this library spells a name otherwise
or does not offer it, the tables below say what to write instead (``write``, a
spelling whose ``df.``/``col.``/``grouped.``/``F.``/``cs.`` names are real, as a
test checks) or why not (``note``):

* ``FRAME``: methods of ``pyspark.sql.DataFrame``, answered on ``DataFrame``;
* ``GROUPED``: methods of ``GroupedData``, answered on ``GroupBy``;
* ``COLUMN``: methods of ``pyspark.sql.Column``, answered on ``Expr``;
* ``pyspark.sql.functions``: a camelCase spelling of a catalog function
  (``F.sumDistinct``) is answered with the snake_case one, a name of the
  catalog's ``NOT_OFFERED`` with its reason (``function_answer``).

Reading such a name raises ``PySparkNameError`` (an ``AttributeError``) with the
answer. The frame, grouped frame and expression classes get one class attribute
per name of their table (``install``), which raises when read, rather than a
``__getattr__``: a ``__getattr__`` makes every attribute read of the class slower
(CPython stops specializing them; measured 2-3x on a method call), and these are
the classes every pipeline reads the most. ``python -m tools.migration_table``
writes the tables into docs/migration.md.

>>> from pydantable_spark import DataFrameModel
>>> class Order(DataFrameModel):
...     day: str
>>> Order.from_rows([]).withColumn
Traceback (most recent call last):
...
pydantable_spark.errors.PySparkNameError: DataFrame has no attribute 'withColumn' (PySpark's name):
write df.with_columns(name=expr). One call adds or replaces several columns; keywords name them.
>>> Order.day.desc()
Traceback (most recent call last):
...
pydantable_spark.errors.PySparkNameError: Col has no attribute 'desc' (PySpark's name): write df.sort(col, ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from pydantable_spark.errors import PySparkNameError, suggest

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "COLUMN",
    "FRAME",
    "GROUPED",
    "Answer",
    "function_answer",
    "function_error",
    "install",
    "message",
    "visible",
]


@dataclass(frozen=True, slots=True)
class Answer:
    """What to write here for a PySpark name (``write``), or, when ``write`` is empty, why it is not offered."""

    write: str
    note: str

    @property
    def offered(self) -> bool:
        """Whether the library has the operation (under another spelling)."""
        return bool(self.write)


def use(write: str, note: str = "") -> Answer:
    """The name is offered here, spelled ``write`` (``note``: what differs, one sentence)."""
    return Answer(write, note)


def not_offered(why: str) -> Answer:
    """The name is not offered here, for the reason ``why`` (one sentence, with what to do instead)."""
    return Answer("", why)


_ORDER = "Sort order is an argument of sort (descending=, nulls_last=), not a column method."
_SORT = use("df.sort(col, descending=True, nulls_last=True)", _ORDER + " PySpark's desc() puts NULLs last.")
_ASC = use("df.sort(col)", _ORDER)
_SPARK = "The typed frame does not hold it: ask the Spark DataFrame the plan lowers to."
_VIEW = use(
    "df.to_spark().createOrReplaceTempView(name)",
    "SQL over a view is outside the typed API: hand Spark the lowered DataFrame.",
)
_STREAMING = not_offered(
    "Not typed here yet (docs/streaming.md lists what streams offer): use df.to_spark() and PySpark's API."
)
_SQL_TEXT = "It parses SQL text, and no user value reaches Spark as SQL here: write it with F and operators."
_GROUPING_SETS = not_offered(
    "Grouping sets, cubes and rollups are not offered: group_by each set of keys and union the results."
)
_PANDAS_UDF = not_offered(
    "Its output types are a schema string the façade cannot check: F.udf types a Python function column by column."
)
_BITWISE = not_offered(
    "& and | are boolean (Kleene) operators here; bitwise AND/OR/XOR of integers are not offered yet."
)

FRAME: dict[str, Answer] = {
    # --- columns and rows ---
    "withColumn": use("df.with_columns(name=expr)", "One call adds or replaces several columns; keywords name them."),
    "withColumns": use("df.with_columns(**{name: expr})", "The same call as one column: keywords name them."),
    "withColumnRenamed": use("df.rename({old: new})", "One mapping renames several columns."),
    "withColumnsRenamed": use("df.rename({old: new})", "One mapping renames several columns."),
    "toDF": use("df.rename({old: new})", "Columns are renamed by name, not by position."),
    "where": use("df.filter(predicate)", "filter keeps the rows whose predicate is true, as where does."),
    "selectExpr": not_offered(_SQL_TEXT),
    "orderBy": use("df.sort(*columns, descending=True)", "descending= and nulls_last= take one flag or one per key."),
    "sortWithinPartitions": not_offered("Ordering inside partitions is not offered: df.sort(...) orders the result."),
    "distinct": use("df.unique()"),
    "dropDuplicates": use("df.unique(subset=[...])", "keep= says which row of each group of duplicates stays."),
    "drop_duplicates": use("df.unique(subset=[...])", "keep= says which row of each group of duplicates stays."),
    "dropDuplicatesWithinWatermark": use(
        "df.drop_duplicates_within_watermark(*keys)", "A stream with a watermark; on a batch frame unique(subset=keys)."
    ),
    "dropna": use("df.drop_nulls(subset=[...])", "NaN is a value, not NULL: drop_nulls keeps it (PySpark's drops it)."),
    "fillna": use("df.fill_null(value, subset=[...])", "NaN is a value, not NULL: fill_null leaves it."),
    "na": use("df.drop_nulls()", "Also df.fill_null(value); NaN is a value, not NULL, in both."),
    "replace": use(
        "df.with_columns(name=F.when(col == old, new).otherwise(col))",
        "A replacement is an expression per column, typed like the column.",
    ),
    "transform": not_offered("Call the function on the frame: f(df) types as the function's annotations say."),
    # --- grouping and aggregates ---
    "groupBy": use(
        "df.group_by(*keys).agg(...)",
        "Rows whose key is NULL are left out unless drop_nulls=False (PySpark keeps them as a group).",
    ),
    "groupby": use(
        "df.group_by(*keys).agg(...)",
        "Rows whose key is NULL are left out unless drop_nulls=False (PySpark keeps them as a group).",
    ),
    "agg": use("df.select(F.sum(col), F.count())", "A select of aggregates is one row over the whole frame."),
    "cube": _GROUPING_SETS,
    "rollup": _GROUPING_SETS,
    "groupingSets": _GROUPING_SETS,
    "crosstab": not_offered("Its columns come from the data: group_by(a, b).count(), then pivot(..., pivot_values=)."),
    "approxQuantile": use("df.select(F.percentile_approx(col, [0.25, 0.5]))"),
    "corr": use("df.select(F.corr(a, b))"),
    "cov": use("df.select(F.covar_samp(a, b))"),
    "stat": use("df.select(F.corr(a, b))", "Statistics are aggregate functions of F (corr, covar_samp, ...)."),
    "freqItems": not_offered("Its result's shape depends on the data: df.value_counts(col) counts values exactly."),
    "summary": use("df.describe()", "describe() returns text, one line per column, from one Spark job."),
    "sampleBy": not_offered("Stratified sampling is not offered: df.sample(fraction, seed=) samples every row alike."),
    "randomSplit": not_offered("Splits are not offered: df.sample(fraction, seed=) draws one part."),
    # --- joins and set operations ---
    "crossJoin": use('df.join(other, how="cross")'),
    "alias": not_offered(
        "Frames need no alias: a join condition names columns by model (User.id == Dept.id) or by side (left.col)."
    ),
    "lateralJoin": not_offered("Lateral joins are not offered: explode, or join on a condition."),
    "nearestByJoin": not_offered("Nearest-neighbour joins are not offered: join on a condition."),
    "unionAll": use("df.union(other)", "By position, as unionAll; df.union_by_name(other) matches names."),
    "unionByName": use("df.union_by_name(other, allow_missing_columns=False)"),
    "exceptAll": use("df.except_all(other)"),
    "intersectAll": use("df.intersect_all(other)"),
    "zip": not_offered("Frames are not zipped by position: join them on a key."),
    "zipWithIndex": use("df.with_row_count()", "The index is read once, so filters cannot move it."),
    "exists": not_offered("Subqueries are not offered: a semi join keeps the rows that have a match."),
    "scalar": not_offered("Subqueries are not offered: join the one-row aggregate instead."),
    "asTable": not_offered("Table arguments of table functions are not offered."),
    # --- results ---
    "toPandas": use("df.to_pandas()"),
    "toArrow": use("df.to_arrow()"),
    "toLocalIterator": use("df.stream(batch_size)", "Yields validated rows a batch at a time."),
    "foreach": use("df.stream(batch_size)", "Iterate over the batches in Python."),
    "foreachPartition": use("df.stream(batch_size)", "Iterate over the batches in Python."),
    "take": use("df.head(n).collect()"),
    "first": use("df.head(1).collect()"),
    "tail": not_offered("Spark rows have no order unless sorted: df.sort(..., descending=True).head(n).collect()."),
    "isEmpty": use("df.empty"),
    "toJSON": use("df.select(F.to_json(F.struct(*columns)))"),
    "printSchema": use("print(df.schema)", "The derived schema: names, Python and Spark types, nullability."),
    "to": use("df.as_model(Model)", "Reconciled strictly; allow_lossy= and null_check= opt in by name."),
    "mapInPandas": _PANDAS_UDF,
    "mapInArrow": _PANDAS_UDF,
    # --- writing ---
    "write": use("df.write_parquet(path)", "Also write_csv, write_json, write_orc, write_delta, save_as_table."),
    "writeTo": use("df.save_as_table(name)"),
    "mergeInto": use("df.merge_into(table, on=..., when_matched=..., when_not_matched=...)"),
    "writeStream": use(
        "df.write_stream_parquet(path, checkpoint=...)",
        "Also write_stream_json, write_stream_csv, write_stream_delta, write_stream_table, write_stream_kafka, "
        "write_stream_memory, foreach_batch; the output mode is checked before start.",
    ),
    "withWatermark": use("df.with_watermark(Model.ts, '10 minutes')", "A timestamp column; the delay a duration."),
    # --- physical controls ---
    "localCheckpoint": use("df.local_checkpoint()"),
    "repartitionByRange": not_offered("Range partitioning is not offered: df.repartition(n, *columns) hashes."),
    "repartitionById": not_offered("Partitioning by id is not offered: df.repartition(n, *columns) hashes."),
    "observe": not_offered("Observed metrics are not offered: df.select of aggregates computes them."),
    "withMetadata": not_offered("Column metadata is Spark's: the schema carries names, types and nullability."),
    "metadataColumn": not_offered("Hidden metadata columns are Spark's: read them with df.to_spark()."),
    "transpose": not_offered("Its columns come from the data: pivot(..., pivot_values=) gives them typed."),
    "colRegex": use("df.select(cs.matches(pattern))", "A selector that matches no column is an error."),
    # --- the Spark DataFrame's own properties ---
    "createTempView": _VIEW,
    "createOrReplaceTempView": _VIEW,
    "createGlobalTempView": _VIEW,
    "createOrReplaceGlobalTempView": _VIEW,
    "registerTempTable": _VIEW,
    "rdd": use("df.to_spark().rdd", _SPARK),
    "sparkSession": use("df.to_spark().sparkSession", _SPARK),
    "storageLevel": use("df.to_spark().storageLevel", _SPARK),
    "isStreaming": use("df.is_streaming"),
    "isLocal": use("df.to_spark().isLocal()", _SPARK),
    "inputFiles": use("df.to_spark().inputFiles()", _SPARK),
    "executionInfo": use("df.to_spark().executionInfo", _SPARK),
    "sameSemantics": use("df.to_spark().sameSemantics(other.to_spark())", _SPARK),
    "semanticHash": use("df.to_spark().semanticHash()", _SPARK),
    "pandas_api": use("df.to_spark().pandas_api()", _SPARK),
    "plot": use("df.to_pandas().plot", "Plot the collected rows."),
}
"""``pyspark.sql.DataFrame``'s names that ``DataFrame`` spells otherwise or does not offer."""

GROUPED: dict[str, Answer] = {
    "sum": use("grouped.agg(F.sum(col))", "Aggregates are F functions inside agg; keywords name them."),
    "avg": use("grouped.agg(F.avg(col))", "Aggregates are F functions inside agg; keywords name them."),
    "mean": use("grouped.agg(F.mean(col))", "Aggregates are F functions inside agg; keywords name them."),
    "max": use("grouped.agg(F.max(col))", "Aggregates are F functions inside agg; keywords name them."),
    "min": use("grouped.agg(F.min(col))", "Aggregates are F functions inside agg; keywords name them."),
    "pivot": use("df.pivot(index, columns, values, pivot_values=[...])", "pivot is a frame method here."),
    "apply": _PANDAS_UDF,
    "applyInPandas": _PANDAS_UDF,
    "applyInArrow": _PANDAS_UDF,
    "applyInPandasWithState": _STREAMING,
    "cogroup": not_offered("Cogrouping is not offered: join the grouped results."),
    "transformWithState": _STREAMING,
    "transformWithStateInPandas": _STREAMING,
}
"""``GroupedData``'s names that ``GroupBy`` spells otherwise or does not offer."""

COLUMN: dict[str, Answer] = {
    "desc": _SORT,
    "desc_nulls_last": _SORT,
    "desc_nulls_first": use("df.sort(col, descending=True)", _ORDER),
    "asc": _ASC,
    "asc_nulls_first": _ASC,
    "asc_nulls_last": use("df.sort(col, nulls_last=True)", _ORDER),
    "isNull": use("col.is_null()"),
    "isNotNull": use("col.is_not_null()"),
    "isNaN": use("F.isnan(col)", "NaN is a value, not NULL: is_null() is false for it."),
    "eqNullSafe": use("col.eq_null_safe(other)"),
    "astype": use("col.cast(type)", "Only casts Spark makes without silent loss; the error lists the legal ones."),
    "try_cast": not_offered("The façade casts strictly: col.cast() refuses a cast Spark would make silently lossy."),
    "contains": use("col.str.contains(text)"),
    "startswith": use("col.str.starts_with(prefix)"),
    "endswith": use("col.str.ends_with(suffix)"),
    "like": use("col.str.like(pattern)"),
    "ilike": use("F.ilike(col, pattern)"),
    "rlike": use("col.str.matches(pattern)", "Java's regular expressions, as rlike."),
    "substr": use("F.substring(col, pos, len)", "1-based, as PySpark's; col.str.slice(offset, length) is 0-based."),
    "getItem": use("col.list.get(index)", "A map's value: col.map.get(key)."),
    "getField": use("col.struct.field(name)"),
    "withField": use("col.struct.with_fields(name=value)", "Several fields at once; an existing one keeps its place."),
    "dropFields": not_offered("Structs are rebuilt, not patched: F.struct(...) with the fields you keep."),
    "when": use("F.when(condition, value).when(...)", "A chain starts at F.when; .when() continues it."),
    "otherwise": use("F.when(condition, value).otherwise(other)", "otherwise() ends a chain begun by F.when."),
    "transform": use("F.transform(col, lambda x: ...)", "The lambda's parameter is a typed element expression."),
    "bitwiseAND": _BITWISE,
    "bitwiseOR": _BITWISE,
    "bitwiseXOR": _BITWISE,
    "outer": not_offered("Lateral joins are not offered: explode, or join on a condition."),
}
"""``pyspark.sql.Column``'s names that ``Expr`` spells otherwise or does not offer."""


def message(owner: str, name: str, answer: Answer) -> str:
    """The ``PySparkNameError`` text: the name, then what to write or why it is not offered."""
    head = f"{owner} has no attribute {name!r} (PySpark's name)"
    if answer.offered:
        return f"{head}: write {answer.write}." + (f" {answer.note}" if answer.note else "")
    return f"{head}, and it is not offered: {answer.note}"


class _PySparkName:
    """A class attribute standing for a PySpark name: reading it raises ``PySparkNameError`` with the answer."""

    __slots__ = ("answer", "name")

    def __init__(self, name: str, answer: Answer) -> None:
        self.name = name
        self.answer = answer

    def __get__(self, instance: object, owner: type | None = None) -> NoReturn:
        cls = owner if owner is not None else type(instance)
        raise PySparkNameError(message(cls.__name__, self.name, self.answer))


def install(cls: type, table: Mapping[str, Answer]) -> None:
    """Give ``cls`` one raising attribute per name of ``table``; a name ``cls`` has already is a mistake here."""
    for name, answer in table.items():
        if hasattr(cls, name):
            msg = f"{cls.__name__} has {name!r} itself; remove it from the PySpark names' table"
            raise AssertionError(msg)
        setattr(cls, name, _PySparkName(name, answer))


def visible(names: Iterable[str]) -> list[str]:
    """``names`` without the PySpark names every table answers (what ``dir()`` of those classes lists)."""
    return [n for n in names if n not in _ANSWERED]


_ANSWERED = frozenset({*FRAME, *GROUPED, *COLUMN})

# --- pyspark.sql.functions ---------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def function_answer(name: str) -> Answer | None:
    """What ``F`` answers for a PySpark function name it does not have (None: not a name PySpark spells so).

    A camelCase spelling of a catalog function (``sumDistinct``, ``shiftLeft``)
    is answered with the snake_case one; a name of the catalog's
    ``NOT_OFFERED`` with its reason.

    >>> function_answer("approxCountDistinct")
    Answer(write='F.approx_count_distinct', note="PySpark's camelCase spellings are snake_case here.")
    >>> function_answer("expr").note
    'It parses SQL text, and no user value reaches Spark as SQL here: write it with F and operators.'
    """
    from pydantable_spark.expr.catalog import CATALOG
    from pydantable_spark.expr.catalog.unoffered import NOT_OFFERED

    for spelling in (_CAMEL.sub("_", name).lower(), name.lower()):
        entry = CATALOG.get(spelling) if spelling != name else None
        if entry is not None and entry.signature.in_f:
            return use(f"F.{spelling}", "PySpark's camelCase spellings are snake_case here.")
    reason = NOT_OFFERED.get(name)
    return None if reason is None else not_offered(reason)


def function_error(name: str, offered: Iterable[str]) -> AttributeError:
    """The error ``F.<name>`` raises: the answer for a PySpark name, else a plain ``AttributeError`` with a hint."""
    answer = None if name.startswith("__") else function_answer(name)
    if answer is not None:
        return PySparkNameError(message("F", name, answer))
    msg = f"module 'pydantable_spark.functions' has no attribute {name!r}{suggest(name, offered)}"
    return AttributeError(msg)
