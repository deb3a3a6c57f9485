"""The constructors of ``DataFrame[M]``: frames of rows, columns, Arrow, pandas, Spark, files and tables.

``Constructors`` is a mixin of ``pydantable_spark.frame.DataFrame``: call its
methods on ``DataFrame[User]`` (or with ``model=User``), or through the model,
``User.from_rows(...)``. Rows are validated by Pydantic and Arrow tables,
Spark DataFrames, files and tables reconciled strictly with the model when the
constructor is called; the frame's schema is the model's.

```pycon
>>> from pydantable_spark import DataFrame, DataFrameModel
>>> class Item(DataFrameModel):
...     sku: str
...     qty: int | None
>>> items = DataFrame[Item].from_columns({"sku": ["a", "b"], "qty": [1, None]})
>>> items
DataFrame[Item](sku: str, qty: int | None)
>>> print(Item.from_rows([{"sku": "c", "qty": 3}]).schema)
sku: str (string)
qty: int | None (bigint)

```
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

from pydantic import BaseModel

from pydantable_spark import storage
from pydantable_spark.annotations import declared_absent, fields_of_model, may_be_absent
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, SchemaError, UnknownColumnError, shown
from pydantable_spark.expr.core import check_param
from pydantable_spark.model import DataFrameModel
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import ArrowData, SparkData
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    import datetime
    import os
    from collections.abc import Collection, Iterable, Mapping

    import pandas as pd
    import polars as pl
    import pyarrow as pa
    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql import SparkSession

    from pydantable_spark.constraints import ReadConstraints
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.reconcile import Selection

__all__ = ["Constructors", "schema_of_model"]

M = TypeVar("M", bound=BaseModel)
M2 = TypeVar("M2", bound=BaseModel)


def schema_of_model(model: type[BaseModel]) -> Schema:
    """The frame schema of any Pydantic model class used as a frame's model (it needs a field).

    A model with no fields is fine as a base class to subclass (Pydantic's
    habit), so it is refused only here, when it would be a frame's model.
    """
    schema = model.frame_schema() if issubclass(model, DataFrameModel) else Schema(fields_of_model(model))
    if not schema.fields:
        msg = (
            f"model {model.__name__} declares no fields, so it cannot be a frame's model: a frame needs at least "
            "one column. Declare the columns as annotated fields (a field-less model is fine as a base class of "
            "models that do)"
        )
        raise SchemaError(msg)
    return schema


class Constructors(Generic[M]):
    """The ``from_*`` and ``read_*`` classmethods of ``DataFrame``; each returns a ``DataFrame``.

    ``DataFrame[User]`` at run time is a subclass whose ``_bound_model`` is
    ``User``: its constructors need no ``model=``.
    """

    __slots__ = ()
    _bound_model: ClassVar[type[BaseModel] | None] = None

    @classmethod
    def _model_for(cls, model: type[Any] | None, constructor: str) -> type[Any] | None:
        chosen = model or cls._bound_model
        if chosen is not None and not (isinstance(chosen, type) and issubclass(chosen, BaseModel)):
            msg = f"{constructor}: model must be a Pydantic model class, got {chosen!r}"
            raise ArgumentTypeError(msg)
        return chosen

    @classmethod
    def _require_model(cls, model: type[Any] | None, constructor: str) -> type[BaseModel]:
        chosen = cls._model_for(model, constructor)
        if chosen is None:
            msg = (
                f"{constructor} needs a model: DataFrame[User].{constructor}(...), "
                f"User.{constructor}(...) or model=User"
            )
            raise ArgumentTypeError(msg)
        return chosen

    @overload
    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Mapping[str, Any] | BaseModel],
        model: type[M2],
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[M2]: ...

    @overload
    @classmethod
    def from_rows(
        cls: type[Constructors[M2]],
        rows: Iterable[Mapping[str, Any] | BaseModel],
        model: None = None,
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[M2]: ...

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Mapping[str, Any] | BaseModel],
        model: type[Any] | None = None,
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[Any]:
        """A frame of rows (dicts or model instances), validated by Pydantic first.

        An invalid row raises ``RowValidationError`` naming its index and field;
        nothing reaches Spark until the frame is materialized. A key a row lacks
        is an error, unless its field is Optional with the default None
        (``age: int | None = None``): then it is NULL, as Pydantic fills it.

        ``trusted=True`` skips the model's validation (validators, constraints,
        conversions such as ``"1"`` to ``1``), several times faster, and still
        checks each row's shape and types strictly: every value of its field's
        Python type (an ``Enum`` member, a ``date`` and not a ``datetime``),
        NULL only in Optional fields, no unknown key at any depth, every field
        given but those Optional with the default None. The skipped constraints
        run when the rows are collected (unless ``collect(trusted=True)``), on
        write and in ``validate()``.
        """
        from pydantable_spark import ingest
        from pydantable_spark.frame import DataFrame

        check_param("from_rows()", "trusted", trusted, bool)
        chosen = cls._require_model(model, "from_rows")
        schema = schema_of_model(chosen)
        table = ingest.rows_to_arrow(rows, chosen, schema, trusted=trusted)
        return DataFrame(p.Source(ArrowData(table), schema, session), chosen)

    @overload
    @classmethod
    def from_columns(
        cls,
        columns: Mapping[str, Iterable[Any]],
        model: type[M2],
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[M2]: ...

    @overload
    @classmethod
    def from_columns(
        cls: type[Constructors[M2]],
        columns: Mapping[str, Iterable[Any]],
        model: None = None,
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[M2]: ...

    @classmethod
    def from_columns(
        cls,
        columns: Mapping[str, Iterable[Any]],
        model: type[Any] | None = None,
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[Any]:
        """A frame of equally long column lists, validated row by row like ``from_rows`` (``trusted`` too)."""
        chosen = cls._require_model(model, "from_columns")
        schema = schema_of_model(chosen)
        lists = {name: list(values) for name, values in columns.items()}
        unknown = [n for n in lists if n not in schema]
        if unknown:
            raise UnknownColumnError(unknown[0], schema.names, where=f"model {chosen.__name__}")
        lengths = {n: len(v) for n, v in lists.items()}
        if len(set(lengths.values())) > 1:
            shown = ", ".join(f"{n}={length}" for n, length in lengths.items())
            msg = f"from_columns needs columns of one length; got {shown}"
            raise ArgumentValueError(msg)
        names = list(lists)
        rows = [dict(zip(names, values, strict=True)) for values in zip(*lists.values(), strict=True)]
        return cls.from_rows(rows, chosen, session=session, trusted=trusted)

    @overload
    @classmethod
    def from_arrow(
        cls,
        table: pa.Table,
        model: type[M2],
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @overload
    @classmethod
    def from_arrow(
        cls: type[Constructors[M2]],
        table: pa.Table,
        model: None = None,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @classmethod
    def from_arrow(
        cls,
        table: pa.Table,
        model: type[Any] | None = None,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[Any]:
        """A frame of an Arrow table, reconciled strictly with the model in Python.

        Without a model the row model is derived from the Arrow schema. A
        column Arrow calls nullable satisfies a non-null field when it holds no
        NULL. A column the table lacks is an error, unless its field is Optional
        with the default None (the readers' rule): then it is NULL. Pydantic
        validators and constraints run at ``collect()``.
        """
        from pydantable_spark import ingest
        from pydantable_spark.frame import DataFrame

        chosen = cls._model_for(model, "from_arrow")
        if chosen is None:
            reconciled, rec = ingest.arrow_table_from(table, Schema(ingest.fields_of_arrow(table.schema)))
            return DataFrame(p.Source(ArrowData(reconciled), rec.schema, session))
        target = schema_of_model(chosen)
        reconciled, rec = ingest.arrow_table_from(
            table, target, allow_lossy=allow_lossy, null_check=null_check, absent=may_be_absent(chosen)
        )
        return DataFrame(p.Source(ArrowData(reconciled), rec.schema, session), chosen)

    @overload
    @classmethod
    def from_polars(
        cls,
        frame: pl.DataFrame,
        model: type[M2],
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @overload
    @classmethod
    def from_polars(
        cls: type[Constructors[M2]],
        frame: pl.DataFrame,
        model: None = None,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @classmethod
    def from_polars(
        cls,
        frame: pl.DataFrame,
        model: type[Any] | None = None,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[Any]:
        """A frame of a Polars DataFrame, through Arrow: the same strictness as ``from_arrow``.

        Needs the ``polars`` extra. Polars' NULL is NULL and its NaN is NaN, as in ``from_arrow``.
        """
        from pydantable_spark import ingest

        table = ingest.arrow_of_polars(frame)
        return cls.from_arrow(table, model, session=session, allow_lossy=allow_lossy, null_check=null_check)

    @overload
    @classmethod
    def from_pandas(
        cls,
        frame: pd.DataFrame,
        model: type[M2],
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @overload
    @classmethod
    def from_pandas(
        cls: type[Constructors[M2]],
        frame: pd.DataFrame,
        model: None = None,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @classmethod
    def from_pandas(
        cls,
        frame: pd.DataFrame,
        model: type[Any] | None = None,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[Any]:
        """A frame of a pandas DataFrame (through Arrow; see ``from_arrow``).

        Use pandas' nullable dtypes (``"Int64"``) for integer columns with
        NULLs: a float column with NaN does not convert to an ``int`` field.
        """
        from pydantable_spark import ingest

        table = ingest.arrow_of_pandas(frame)
        return cls.from_arrow(table, model, session=session, allow_lossy=allow_lossy, null_check=null_check)

    @overload
    @classmethod
    def from_spark(
        cls, sdf: SparkDataFrame, model: type[M2], *, allow_lossy: Selection = False, null_check: Selection = False
    ) -> DataFrame[M2]: ...

    @overload
    @classmethod
    def from_spark(
        cls: type[Constructors[M2]],
        sdf: SparkDataFrame,
        model: None = None,
        *,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M2]: ...

    @classmethod
    def from_spark(
        cls,
        sdf: SparkDataFrame,
        model: type[Any] | None = None,
        *,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[Any]:
        """A frame over an existing Spark DataFrame, reconciled strictly with the model.

        Without a model the row model is derived from Spark's schema. Names
        match ignoring case unless ``spark.sql.caseSensitive`` is on.
        ``null_check`` names nullable columns that a non-null field may take
        anyway, failing the Spark job if a NULL shows up.
        """
        from pydantable_spark._spark.session import is_case_sensitive
        from pydantable_spark.frame import DataFrame

        chosen = cls._model_for(model, "from_spark")
        streaming = bool(sdf.isStreaming)  # asked once: a plan over the frame knows it from its source
        if chosen is None:
            return DataFrame(storage.derived_spark_source(sdf, SparkData(sdf).label, streaming=streaming))
        plan = storage.spark_source(
            sdf,
            schema_of_model(chosen),
            label="from_spark",
            allow_lossy=allow_lossy,
            null_check=null_check,
            case_sensitive=is_case_sensitive(sdf.sparkSession),
            streaming=streaming,
        )
        return DataFrame(plan, chosen)

    # --- reading files and tables ------------------------------------------------------------

    @classmethod
    def _read(
        cls, fmt: storage.FileFormat, path: storage.Paths, model: type[Any] | None, session: Any,
        allow_lossy: Selection, options: Mapping[str, Any], constraints: ReadConstraints = "skip",
        absent: Collection[str] = (),
    ) -> DataFrame[Any]:  # fmt: skip
        from pydantable_spark.frame import DataFrame

        chosen = cls._require_model(model, f"read_{fmt}")
        target = schema_of_model(chosen)
        checks = storage.read_checks(chosen, constraints, f"read_{fmt}")
        plan = storage.read_files(
            fmt, path, target, session=session, allow_lossy=allow_lossy, options=options, checks=checks,
            may_lack=may_be_absent(chosen), absent=declared_absent(chosen, absent, f"read_{fmt}"),
        )  # fmt: skip
        return DataFrame(plan, chosen)

    @classmethod
    def read_parquet(
        cls: type[Constructors[M2]], path: storage.Paths, *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """Parquet files, reconciled strictly with the model (see ``pydantable_spark.storage``).

        A file column of the wrong type or a missing column raises here, naming
        it; a NULL in a column the model declares non-null raises
        ``NullCheckError`` when the frame is collected or written.
        ``options`` go to Spark's reader (``mergeSchema=True``, ...).
        ``constraints="raise"`` checks the model's value constraints
        (``Model.spark_constraints()``) in the job that reads the rows: the
        first violation raises ``ConstraintError`` at ``collect()``, ``count()``
        or a write; ``"skip"`` (the default) leaves them to ``validate()``, the
        writers and ``collect()``. A field with the default None that the files
        lack reads NULL, unless a column no field reads has a near name (a
        likely misspelling: ``MissingColumnError`` naming both); ``absent``
        names fields the data lacks on purpose, exempt from that check
        (``absent=["channel"]``). The other readers take ``constraints`` and
        ``absent`` too.
        """
        return cls._read("parquet", path, model, session, allow_lossy, options, constraints, absent)

    @classmethod
    def read_orc(
        cls: type[Constructors[M2]], path: storage.Paths, *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """ORC files, reconciled strictly with the model, like ``read_parquet``."""
        return cls._read("orc", path, model, session, allow_lossy, options, constraints, absent)

    @classmethod
    def read_csv(
        cls: type[Constructors[M2]], path: storage.Paths, *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """CSV files read with the model's schema: no inference, ``mode=FAILFAST``, RFC 4180 by default.

        With a header (the default) columns match the model by exact name
        (a name that differs only in case is an error with a did-you-mean) and
        a missing one raises here; extra columns are dropped. A value that does
        not parse as its column's type raises ``MalformedDataError`` when the
        frame runs, as does a decimal with more digits after the point than the
        model's scale unless ``allow_lossy`` names its column; an unquoted
        empty field is NULL (``NullCheckError`` in a non-null column), a quoted
        one ``""``. Other ``options`` (``sep=";"``, ``dateFormat=...``) go to
        Spark's reader; see ``pydantable_spark.storage.CSV_READ_DEFAULTS``.
        """
        return cls._read("csv", path, model, session, allow_lossy, options, constraints, absent)

    @classmethod
    def read_json(
        cls: type[Constructors[M2]], path: storage.Paths, *, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """JSON Lines files (``multiLine=True`` for documents) read with the model's schema, ``mode=FAILFAST``.

        A key absent from a record reads as NULL, so it fails at run time for a
        non-null column and is None for an Optional one; unknown keys are ignored.
        A JSON number, object or boolean where the model wants a ``str``, and
        a decimal with more digits after the point than the model's scale
        (unless ``allow_lossy`` names its column), raise ``MalformedDataError``.
        """
        return cls._read("json", path, model, session, allow_lossy, options, constraints, absent)

    @classmethod
    def read_delta(
        cls: type[Constructors[M2]], path: str | os.PathLike[str], *, version: int | None = None,
        timestamp: datetime.datetime | None = None, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M2]:  # fmt: skip
        """The Delta Lake table at ``path``, reconciled strictly with the model like ``read_parquet``.

        ``version=`` (a version number) or ``timestamp=`` (a ``datetime``; a
        naive one is in the session's time zone) read the table as it was
        then (Delta's time travel). A Delta table in the catalog is
        ``read_table(name, version=...)``. Needs Delta Lake on the session's
        classpath: see ``docs/lakehouse.md``.
        """
        travel = storage.time_travel(version, timestamp, f"read_delta({shown(path)})", names=False)
        return cls._read("delta", path, model, session, allow_lossy, {**options, **travel}, constraints, absent)

    @classmethod
    def read_table(
        cls: type[Constructors[M2]], name: str, *, version: int | str | None = None,
        timestamp: datetime.datetime | None = None, model: type[M2] | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False, constraints: ReadConstraints = "skip",
        absent: Collection[str] = (),
    ) -> DataFrame[M2]:  # fmt: skip
        """A catalog table (``spark.read.table``), reconciled strictly with the model like ``read_parquet``.

        ``version=`` or ``timestamp=`` read a Delta Lake or Iceberg table as it
        was (time travel, through Spark's ``versionAsOf``/``timestampAsOf``):
        a Delta version number, an Iceberg snapshot id or tag name; a
        ``datetime`` (naive: the session's time zone). See ``docs/lakehouse.md``.
        """
        from pydantable_spark.frame import DataFrame

        chosen: Any = cls._require_model(model, "read_table")
        travel = storage.time_travel(version, timestamp, f"read_table({shown(name)})", names=True)
        checks = storage.read_checks(chosen, constraints, "read_table")
        plan = storage.read_table(
            name, schema_of_model(chosen), session=session, allow_lossy=allow_lossy, checks=checks, options=travel,
            may_lack=may_be_absent(chosen), absent=declared_absent(chosen, absent, "read_table"),
        )  # fmt: skip
        return DataFrame(plan, chosen)
