"""``DataFrameModel``: a Pydantic model whose class is a table schema.

An instance is one validated row. The class is the schema: ``User.age`` is a
typed column, ``User.frame_schema()`` the façade schema and
``User.spark_schema()`` Spark's ``StructType``::

    ```pycon
    >>> class User(DataFrameModel):
    ...     id: int
    ...     name: str
    ...     age: int | None = None
    >>> User.age
    Col[int | None](age)
    >>> print(User.frame_schema())
    id: int (bigint)
    name: str (string)
    age: int | None (bigint)
    >>> User(id=1, name="Ada")
    User(id=1, name='Ada', age=None)

    ```

Row models for frames whose schema no declared model describes are built by
``row_model`` from the schema.
"""

from __future__ import annotations

import datetime
import decimal
import keyword
import re
import threading
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

import pydantic
from pydantic import BaseModel, ConfigDict, create_model
from pydantic._internal._model_construction import ModelMetaclass, NoInitField
from typing_extensions import dataclass_transform

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import fields_of_model
from pydantable_spark.descriptors import ModelColumn
from pydantable_spark.errors import ArgumentTypeError
from pydantable_spark.expr.api import Col
from pydantable_spark.expr.core import Column, Typed
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    import os
    from collections.abc import Collection, Iterable, Mapping, Sequence

    import pandas as pd
    import polars as pl
    import pyarrow as pa
    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StructType

    from pydantable_spark.checks.declare import Check
    from pydantable_spark.constraints import ReadConstraints, SparkConstraints
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.reconcile import Selection
    from pydantable_spark.storage import Paths
    from pydantable_spark.timeseries import Duration

__all__ = ["DataFrameModel", "attribute_name", "is_derived_row", "is_source_identifier", "row_model"]

M = TypeVar("M", bound="DataFrameModel")


@dataclass_transform(
    kw_only_default=True, field_specifiers=(pydantic.Field, pydantic.PrivateAttr, NoInitField, ModelColumn)
)
class _ModelMeta(ModelMetaclass):
    """Pydantic's metaclass, plus class attribute access to fields as columns.

    Declared a dataclass transform as pydantic's own metaclass is (pyright only
    reads the decorator on the metaclass itself): pyright checks a model's
    constructor, and reads ``ModelColumn(default=...)`` as a field's specifier.

    Pydantic keeps fields out of the class namespace, so ``__getattr__`` only
    runs for names the class does not otherwise have.
    """

    if not TYPE_CHECKING:  # hidden from type checkers: the mypy plugin types ``User.age`` instead

        def __getattr__(cls, name: str) -> Any:
            columns = cls.__dict__.get("__pydantable_columns__")
            if columns is None and not name.startswith("_") and cls.__dict__.get("__pydantic_complete__"):
                columns = _compile(cls)
            if columns is not None and name in columns:
                return columns[name]
            if columns is None and name in cls.__dict__.get("__pydantic_fields__", {}):
                msg = (
                    f"{cls.__name__}.{name}: {cls.__name__} is not fully defined yet (a forward reference is "
                    f"unresolved); define the models it uses, then call {cls.__name__}.model_rebuild()"
                )
                raise AttributeError(msg)
            return super().__getattr__(name)


def _compile(cls: Any) -> dict[str, Col[Any]]:
    """Derive and cache the schema and the column objects of a complete model class."""
    schema = Schema(fields_of_model(cls))
    columns: dict[str, Col[Any]] = {}
    for attribute, f in zip(cls.model_fields, schema.fields, strict=True):
        columns[attribute] = Col(Column(f.name, Typed(f.dtype, f.nullable), cls.__name__))
    type.__setattr__(cls, "__pydantable_schema__", schema)
    type.__setattr__(cls, "__pydantable_columns__", columns)
    return columns


CHECKS = "checks"
"""The classmethod that declares a model's dataset-level checks (a field of that name is a column instead)."""


def _resolve_checks(cls: Any) -> None:
    """Call the model's ``checks`` classmethod (its own or inherited) once and keep its checks, resolved."""
    from pydantable_spark.checks.declare import model_owners, resolve_checks

    checks: tuple[Any, ...] = ()
    if CHECKS not in cls.__dict__.get("__pydantic_fields__", {}):
        for base in cls.__mro__:
            if CHECKS in base.__dict__:
                if not isinstance(base.__dict__[CHECKS], classmethod):
                    msg = (
                        f"{cls.__name__}.checks must be a classmethod returning the model's checks: "
                        "@classmethod def checks(cls) -> Sequence[Check]: return (Check.unique(cls.id, name=...), ...)"
                    )
                    raise ArgumentTypeError(msg)
                schema = cls.__dict__["__pydantable_schema__"]
                checks = resolve_checks(getattr(cls, CHECKS)(), schema, cls.__name__, model_owners(cls))
                break
    type.__setattr__(cls, "__pydantable_checks__", checks)


def _frames() -> type[DataFrame[Any]]:
    """The frame class, whose constructors the model's classmethods call with ``model=cls``.

    (Imported when called: ``pydantable_spark.frame`` imports this module.)
    """
    from pydantable_spark.frame import DataFrame

    return DataFrame


class DataFrameModel(BaseModel, metaclass=_ModelMeta):
    """Base class of table models: declare columns as annotated fields.

    Field annotations map to Spark types by the type mapping (docs/types.md); an annotation with no
    mapping fails when the class is defined, naming the field. A field's
    alias, if it has one, is its column name. Unknown keys in a row are an
    error (``extra="forbid"``), not silently dropped; a model may override that.
    """

    model_config = ConfigDict(protected_namespaces=(), extra="forbid")

    __pydantable_schema__: ClassVar[Schema]
    __pydantable_columns__: ClassVar[dict[str, Col[Any]]]
    __pydantable_checks__: ClassVar[tuple[Any, ...]]  # of Check

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if cls.__dict__.get("__pydantic_complete__"):
            _compile(cls)
            _resolve_checks(cls)

    @classmethod
    def frame_schema(cls) -> Schema:
        """The façade schema of this model (names, types, nullability)."""
        if "__pydantable_schema__" not in cls.__dict__:
            cls.model_rebuild(raise_errors=True)
            _compile(cls)
        return cls.__dict__["__pydantable_schema__"]  # type: ignore[no-any-return]

    @classmethod
    def dataset_checks(cls) -> tuple[Check, ...]:
        """The model's dataset-level checks (what its ``checks`` classmethod returns), resolved against its columns.

        Refused when the class is defined if one is not a valid check of its
        kind (see ``pydantable_spark.checks``); ``validate()`` runs them.
        """
        if "__pydantable_checks__" not in cls.__dict__:
            cls.frame_schema()
            _resolve_checks(cls)
        return cls.__dict__["__pydantable_checks__"]  # type: ignore[no-any-return]

    @classmethod
    def spark_schema(cls) -> StructType:
        """Spark's ``StructType`` for this model (nullability included)."""
        from pydantable_spark._spark.types import struct_of

        return struct_of(cls.frame_schema())

    @classmethod
    def spark_constraints(cls) -> SparkConstraints:
        """The model's value constraints: those Spark checks, and those checked in Python only (with why).

        Spark evaluates the ``checked`` ones in ``DataFrame.validate()``, on
        write and on read (``constraints=``); the ``python_only`` ones run when
        rows are validated in Python (``collect()``). See ``docs/constraints.md``.
        """
        from pydantable_spark.constraints import spark_constraints

        cls.frame_schema()
        return spark_constraints(cls)

    @classmethod
    def from_rows(
        cls: type[M],
        rows: Iterable[Mapping[str, Any] | BaseModel],
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[M]:
        """A frame of ``rows`` (dicts or instances), validated before Spark sees them (see ``DataFrame.from_rows``).

        ``trusted=True`` checks shape and types strictly but runs no validators or constraints.
        """
        return _frames().from_rows(rows, model=cls, session=session, trusted=trusted)

    @classmethod
    def from_columns(
        cls: type[M],
        columns: Mapping[str, Iterable[Any]],
        *,
        session: SparkSession | None = None,
        trusted: bool = False,
    ) -> DataFrame[M]:
        """A frame of column lists (all of one length), validated row by row (``trusted`` as ``from_rows``)."""
        return _frames().from_columns(columns, model=cls, session=session, trusted=trusted)

    @classmethod
    def from_arrow(
        cls: type[M],
        table: pa.Table,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M]:
        """A frame of an Arrow table, reconciled strictly with this model (see ``DataFrame.from_arrow``)."""
        return _frames().from_arrow(table, cls, session=session, allow_lossy=allow_lossy, null_check=null_check)

    @classmethod
    def from_polars(
        cls: type[M],
        frame: pl.DataFrame,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M]:
        """A frame of a Polars DataFrame, reconciled strictly with this model (see ``DataFrame.from_polars``)."""
        return _frames().from_polars(frame, cls, session=session, allow_lossy=allow_lossy, null_check=null_check)

    @classmethod
    def from_pandas(
        cls: type[M],
        frame: pd.DataFrame,
        *,
        session: SparkSession | None = None,
        allow_lossy: Selection = False,
        null_check: Selection = False,
    ) -> DataFrame[M]:
        """A frame of a pandas DataFrame, reconciled strictly with this model (see ``DataFrame.from_pandas``)."""
        return _frames().from_pandas(frame, cls, session=session, allow_lossy=allow_lossy, null_check=null_check)

    @classmethod
    def from_spark(
        cls: type[M], sdf: SparkDataFrame, *, allow_lossy: Selection = False, null_check: Selection = False
    ) -> DataFrame[M]:
        """A frame over a Spark DataFrame, reconciled strictly with this model (see ``DataFrame.from_spark``)."""
        return _frames().from_spark(sdf, cls, allow_lossy=allow_lossy, null_check=null_check)

    @classmethod
    def read_parquet(
        cls: type[M], path: Paths, *, session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """Parquet files as a frame of this model (see ``DataFrame.read_parquet``)."""
        return _frames().read_parquet(
            path, model=cls, session=session, allow_lossy=allow_lossy, constraints=constraints, absent=absent, **options
        )

    @classmethod
    def read_orc(
        cls: type[M], path: Paths, *, session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """ORC files as a frame of this model (see ``DataFrame.read_orc``)."""
        return _frames().read_orc(
            path, model=cls, session=session, allow_lossy=allow_lossy, constraints=constraints, absent=absent, **options
        )

    @classmethod
    def read_csv(
        cls: type[M], path: Paths, *, session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """CSV files as a frame of this model (see ``DataFrame.read_csv``)."""
        return _frames().read_csv(
            path, model=cls, session=session, allow_lossy=allow_lossy, constraints=constraints, absent=absent, **options
        )

    @classmethod
    def read_json(
        cls: type[M], path: Paths, *, session: SparkSession | None = None, allow_lossy: Selection = False,
        constraints: ReadConstraints = "skip", absent: Collection[str] = (), **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """JSON files as a frame of this model (see ``DataFrame.read_json``)."""
        return _frames().read_json(
            path, model=cls, session=session, allow_lossy=allow_lossy, constraints=constraints, absent=absent, **options
        )

    @classmethod
    def read_delta(
        cls: type[M], path: str | os.PathLike[str], *, version: int | None = None,
        timestamp: datetime.datetime | None = None, session: SparkSession | None = None,
        allow_lossy: Selection = False, constraints: ReadConstraints = "skip", absent: Collection[str] = (),
        **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """A Delta Lake table at ``path`` as a frame of this model, as it is or was (see ``DataFrame.read_delta``)."""
        return _frames().read_delta(
            path, version=version, timestamp=timestamp, model=cls, session=session, allow_lossy=allow_lossy,
            constraints=constraints, absent=absent, **options,
        )  # fmt: skip

    @classmethod
    def read_table(
        cls: type[M], name: str, *, version: int | str | None = None, timestamp: datetime.datetime | None = None,
        session: SparkSession | None = None, allow_lossy: Selection = False, constraints: ReadConstraints = "skip",
        absent: Collection[str] = (),
    ) -> DataFrame[M]:  # fmt: skip
        """A catalog table as a frame of this model, as it is or was (see ``DataFrame.read_table``)."""
        return _frames().read_table(
            name, version=version, timestamp=timestamp, model=cls, session=session, allow_lossy=allow_lossy,
            constraints=constraints, absent=absent,
        )  # fmt: skip

    @classmethod
    def read_stream_parquet(
        cls: type[M], path: str | os.PathLike[str], *, session: SparkSession | None = None,
        allow_lossy: Selection = False, max_files_per_trigger: int | None = None, latest_first: bool = False,
        max_file_age: Duration | None = None, **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """A stream of the Parquet files in ``path`` as a frame of this model (``DataFrame.read_stream_parquet``)."""
        return _frames().read_stream_parquet(
            path, model=cls, session=session, allow_lossy=allow_lossy, max_files_per_trigger=max_files_per_trigger,
            latest_first=latest_first, max_file_age=max_file_age, **options,
        )  # fmt: skip

    @classmethod
    def read_stream_json(
        cls: type[M], path: str | os.PathLike[str], *, session: SparkSession | None = None,
        allow_lossy: Selection = False, max_files_per_trigger: int | None = None, latest_first: bool = False,
        max_file_age: Duration | None = None, **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """A stream of the files landing in ``path`` as a frame of this model (see ``DataFrame.read_stream_json``)."""
        return _frames().read_stream_json(
            path, model=cls, session=session, allow_lossy=allow_lossy, max_files_per_trigger=max_files_per_trigger,
            latest_first=latest_first, max_file_age=max_file_age, **options,
        )  # fmt: skip

    @classmethod
    def read_stream_csv(
        cls: type[M], path: str | os.PathLike[str], *, session: SparkSession | None = None,
        allow_lossy: Selection = False, max_files_per_trigger: int | None = None, latest_first: bool = False,
        max_file_age: Duration | None = None, **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """A stream of the files landing in ``path`` as a frame of this model (see ``DataFrame.read_stream_csv``)."""
        return _frames().read_stream_csv(
            path, model=cls, session=session, allow_lossy=allow_lossy, max_files_per_trigger=max_files_per_trigger,
            latest_first=latest_first, max_file_age=max_file_age, **options,
        )  # fmt: skip

    @classmethod
    def read_stream_kafka(
        cls: type[M], bootstrap_servers: str | Sequence[str], *, topic: str | None = None,
        topics: Sequence[str] | None = None, pattern: str | None = None, format: Literal["json"] = "json",
        starting_offsets: str | Mapping[str, Mapping[int, int]] = "latest", max_offsets_per_trigger: int | None = None,
        fail_on_data_loss: bool = True, session: SparkSession | None = None, **options: Any,
    ) -> DataFrame[M]:  # fmt: skip
        """A Kafka topic's records, their JSON values parsed by this model (see ``DataFrame.read_stream_kafka``)."""
        return _frames().read_stream_kafka(
            bootstrap_servers, topic=topic, topics=topics, pattern=pattern, model=cls, format=format,
            starting_offsets=starting_offsets, max_offsets_per_trigger=max_offsets_per_trigger,
            fail_on_data_loss=fail_on_data_loss, session=session, **options,
        )  # fmt: skip

    @classmethod
    def read_stream_rate(
        cls: type[M], rows_per_second: int = 1, *, num_partitions: int | None = None,
        session: SparkSession | None = None,
    ) -> DataFrame[M]:  # fmt: skip
        """Spark's rate source typed by this model (``timestamp``, ``value``; see ``DataFrame.read_stream_rate``)."""
        return _frames().read_stream_rate(rows_per_second, model=cls, num_partitions=num_partitions, session=session)


# --- row models derived from a schema ---------------------------------------------------


class _DerivedRow(DataFrameModel):
    """Base of derived row models: fields are also accepted under their attribute names."""

    model_config = ConfigDict(populate_by_name=True, protected_namespaces=())


def is_derived_row(model: type[BaseModel]) -> bool:
    """Whether ``model`` is a row model derived from a schema (``row_model``), not one a user declared."""
    return issubclass(model, _DerivedRow)


_cache: dict[tuple[Schema, tuple[Any, ...], str], type[DataFrameModel]] = {}
_cache_lock = threading.RLock()


def row_model(schema: Schema, name: str = "Row") -> type[DataFrameModel]:
    """A ``DataFrameModel`` class whose schema is exactly ``schema``.

    Column names that are not Python identifiers become aliases of sanitized
    attribute names (``"unit price"`` → ``unit_price``). Models are cached by
    schema.

    ```pycon
    >>> s = Schema.of(dt.Field("id", dt.Int64(), False), dt.Field("unit price", dt.Float64(), True))
    >>> Row = row_model(s)
    >>> Row.model_validate({"id": 1, "unit price": 2.5})
    Row(id=1, unit_price=2.5)
    >>> Row.frame_schema() == s
    True

    ```
    """
    key = (schema, _nested_models(schema.fields), name)
    with _cache_lock:
        found = _cache.get(key)
        if found is None:
            found = _build_row_model(schema.fields, name)
            _cache[key] = found
    return found


def _nested_models(fields: Iterable[dt.Field]) -> tuple[Any, ...]:
    out: list[Any] = []
    for f in fields:
        dtype = f.dtype
        while isinstance(dtype, dt.List | dt.Map):
            dtype = dtype.inner if isinstance(dtype, dt.List) else dtype.value
        if isinstance(dtype, dt.Struct):
            out.append((dtype.model, _nested_models(dtype.fields)))
    return tuple(out)


def _build_row_model(fields: tuple[dt.Field, ...], name: str) -> type[DataFrameModel]:
    definitions: dict[str, Any] = {}
    used: set[str] = set()
    for f in fields:
        attribute = attribute_name(f.name, used)
        used.add(attribute)
        annotation = annotation_for(f.dtype, f.nullable, f.name)
        default = None if f.nullable else ...
        info = pydantic.Field(default, alias=f.name) if attribute != f.name else pydantic.Field(default)
        definitions[attribute] = (annotation, info)
    model: type[DataFrameModel] = create_model(name, __base__=_DerivedRow, __module__=__name__, **definitions)
    return model


_RESERVED = (
    set(dir(BaseModel))
    | {"frame_schema", "spark_schema", "from_rows", "from_columns", "dataset_checks"}
    | {
        "from_arrow",
        "from_pandas",
        "from_spark",
    }
)


def attribute_name(column: str, used: Collection[str], reserved: Collection[str] = ()) -> str:
    """The Python attribute for a column name (a derived row model's field; the mypy plugin's too).

    A column name is its own attribute when Python source spells it as it is
    (``is_source_identifier``) and it is neither reserved nor used. Otherwise
    the name folded by NFKC (``ｆｕｌｌ`` → ``full``, ``a²`` → ``a2``), each
    character an identifier cannot hold made ``_``, leading ``_`` dropped,
    ``c_`` put before what cannot start a name, a keyword or a reserved name,
    and ``_2``, ``_3``... added until it is free. The result is always
    ``is_source_identifier``, so it reads back the same from source.

    ``reserved``: more names to keep clear of (generated source avoids every ``DataFrameModel`` method).

    >>> [attribute_name(c, set()) for c in ("unit price", "ﬁle", "a²", "²b", "class", "_id", "é")]
    ['unit_price', 'file', 'a2', 'c_2b', 'c_class', 'id', 'é']
    """
    if is_source_identifier(column) and column not in used and column not in _RESERVED and column not in reserved:
        return column
    name = "".join(c if f"_{c}".isidentifier() else "_" for c in unicodedata.normalize("NFKC", column))
    name = name.lstrip("_")
    if name and not is_source_identifier(f"c_{name}"):  # replacing characters left a name NFKC would change
        name = re.sub(r"[^0-9A-Za-z_]", "_", name).lstrip("_")
    name = name or "column"
    if not is_source_identifier(name) or name in _RESERVED or name in reserved:
        name = f"c_{name}"
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{name}_{n}"
    return candidate


def is_source_identifier(name: str) -> bool:
    """Whether ``name`` is an attribute Python source spells as it is.

    An identifier (``str.isidentifier``), not a keyword, not private to
    pydantic (a leading ``_``), and unchanged by NFKC: Python folds the
    identifiers of source code by NFKC, so ``ﬁle`` written in a class body
    defines ``file``.

    >>> [is_source_identifier(n) for n in ("user_name", "é", "ﬁle", "a²", "class", "_x")]
    [True, True, False, False, False, False]
    """
    return (
        name.isidentifier()
        and not keyword.iskeyword(name)
        and not name.startswith("_")
        and unicodedata.normalize("NFKC", name) == name
    )


_ATOMIC_ANNOTATIONS: dict[type[dt.DType], Any] = {
    dt.Boolean: bool,
    dt.Int64: int,
    dt.Float64: float,
    dt.String: str,
    dt.Binary: bytes,
    dt.Date: datetime.date,
    dt.Datetime: datetime.datetime,
    dt.DatetimeNTZ: pydantic.NaiveDatetime,
    dt.Duration: datetime.timedelta,
    dt.Variant: Annotated[Any, dt.Variant],  # annotations.Variant
}


def annotation_for(dtype: dt.DType, nullable: bool, name: str = "value") -> Any:
    """The Python annotation whose mapping (docs/types.md) is ``dtype``."""
    base: Any
    if type(dtype) in _ATOMIC_ANNOTATIONS:
        base = _ATOMIC_ANNOTATIONS[type(dtype)]
    elif isinstance(dtype, dt.Integral):
        base = Annotated[int, dtype]
    elif isinstance(dtype, dt.Float32):
        base = Annotated[float, dtype]
    elif isinstance(dtype, dt.Decimal):
        base = Annotated[decimal.Decimal, dtype]
    elif isinstance(dtype, dt.List):
        base = list.__class_getitem__(annotation_for(dtype.inner, dtype.contains_null, name))
    elif isinstance(dtype, dt.Map):
        key = annotation_for(dtype.key, False, name)
        base = dict.__class_getitem__((key, annotation_for(dtype.value, dtype.value_contains_null, name)))
    elif isinstance(dtype, dt.Struct):
        base = dtype.model if dtype.model is not None else row_model(Schema(dtype.fields), _class_name(name))
    else:  # pragma: no cover - every DType is handled above
        msg = f"no annotation for {dtype}"
        raise TypeError(msg)
    return base | None if nullable else base


def _class_name(column: str) -> str:
    parts = re.split(r"\W+|_", column)
    return "".join(p[:1].upper() + p[1:] for p in parts if p) or "Struct"
