"""What a ``Source`` plan node holds: data not yet handed to Spark, or a Spark DataFrame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["ArrowData", "SparkData"]


@dataclass(frozen=True, slots=True, eq=False)
class ArrowData:
    """Validated rows as an Arrow table with the frame's exact schema.

    The Spark DataFrame made from it is created on first lowering and kept per
    session in ``created``, so a frame used twice is uploaded once.
    """

    table: pa.Table
    created: dict[int, Any] = field(default_factory=dict, repr=False)
    label: str | None = None
    """Where the rows came from when not from Python (a local read: ``read_parquet('...')``)."""

    def describe(self) -> str:
        if self.label is not None:
            return f"{self.label}, {self.table.num_rows} rows read locally"
        return f"{self.table.num_rows} rows from Python"


@dataclass(frozen=True, slots=True, eq=False)
class SparkData:
    """An existing Spark DataFrame (``from_spark``, or a reader's); ``label`` says where it came from."""

    frame: Any
    label: str = "Spark DataFrame"

    def describe(self) -> str:
        return self.label
