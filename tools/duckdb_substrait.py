"""Run a portable Substrait plan on DuckDB, a second consumer (a dev tool of the tests).

DuckDB reads Substrait through its ``substrait`` extension, which PyPI's ``duckdb-extension-substrait``
ships as a file in its wheel (for the one DuckDB release of the same version): it is loaded from there,
never downloaded (loading it takes most of a second, so a connection is reused). The plan's named tables
(``source_0``...) become DuckDB tables made from their Arrow tables, replacing those of the plan run before.

    >>> from pydantable_spark import DataFrameModel
    >>> from pydantable_spark.substrait.relations import export
    >>> class Pair(DataFrameModel):
    ...     a: int
    ...     b: int
    >>> pairs = Pair.from_rows([{"a": 1, "b": 2}, {"a": 3, "b": 4}])
    >>> run(export(pairs.filter(Pair.a > 1)._plan)).to_pylist()
    [{'a': 3, 'b': 4}]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import duckdb_extension_substrait

if TYPE_CHECKING:
    import pyarrow as pa

    from pydantable_spark.substrait.relations import Exported

__all__ = ["EXTENSION", "Consumer", "connect", "run"]

EXTENSION = (
    Path(duckdb_extension_substrait.__file__).parent
    / "extensions"
    / f"v{duckdb.__version__}"
    / "substrait.duckdb_extension"
)
"""The substrait extension of the installed DuckDB, as the wheel ships it."""


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with the substrait extension loaded from the wheel."""
    if not EXTENSION.is_file():
        msg = (
            f"no substrait extension for DuckDB {duckdb.__version__} at {EXTENSION}: install the same version of "
            "duckdb and duckdb-extension-substrait (pip install -e '.[dev]')"
        )
        raise FileNotFoundError(msg)
    connection = duckdb.connect()
    connection.load_extension(str(EXTENSION))
    return connection


_TABLE = re.compile(r"source_[0-9]+")
"""The names the export gives the tables a plan reads."""


class Consumer:
    """One DuckDB connection that runs plan after plan (loading the extension once).

    A plan's tables replace those of the plan run before. DuckDB invalidates its database on an
    internal error (``Unsupported join type`` is one), so after one the next plan runs on a new connection.
    """

    def __init__(self) -> None:
        self.connection: duckdb.DuckDBPyConnection | None = None

    def run(self, exported: Exported) -> pa.Table:
        """The rows of an exported plan as DuckDB computes them; DuckDB's refusal raises ``duckdb.Error``."""
        if self.connection is None:
            self.connection = connect()
        try:
            for name, table in exported.tables.items():
                if not _TABLE.fullmatch(name):
                    msg = f"not a table name of the export: {name!r}"
                    raise ValueError(msg)
                self.connection.execute(f"DROP TABLE IF EXISTS {name}")  # a name checked above, never a user's value
                self.connection.from_arrow(table).create(name)
            return self.connection.from_substrait(proto=exported.plan.SerializeToString()).arrow()
        except (duckdb.FatalException, duckdb.InternalException):
            self.close()
            raise

    def close(self) -> None:
        """Close the connection (a later ``run`` opens another)."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def run(exported: Exported) -> pa.Table:
    """The rows of an exported plan as DuckDB computes them, on a connection of its own."""
    consumer = Consumer()
    try:
        return consumer.run(exported)
    finally:
        consumer.close()
