"""What a ``Source`` plan node holds: data not yet handed to Spark, a Spark DataFrame, or a stream to open.

Each holder says whether it is a stream (``streaming``): a plan over one is a
streaming plan (``Plan.streaming``), checked by ``plan.streaming``'s rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["ArrowData", "SparkData", "StreamSource"]


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

    streaming = False

    def describe(self) -> str:
        if self.label is not None:
            return f"{self.label}, {self.table.num_rows} rows read locally"
        return f"{self.table.num_rows} rows from Python"


@dataclass(frozen=True, slots=True, eq=False)
class SparkData:
    """An existing Spark DataFrame (``from_spark``, or a reader's); ``label`` says where it came from."""

    frame: Any
    label: str = "Spark DataFrame"
    streaming: bool = False
    """Whether the frame is a stream (``spark.readStream``): ``from_spark`` asks Spark once; a reader's frames
    are batch frames, so reading asks nothing (on Spark Connect each question is a round trip)."""

    def describe(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True, eq=False)
class StreamSource:
    """A Structured Streaming source, opened when the plan is lowered: ``spark.readStream.format(fmt)...load()``.

    ``schema`` is what the source yields, every column nullable (Spark reads
    files so); ``read`` is the schema files are read with (the model's, never
    inferred; None for the rate source, whose schema is Spark's own);
    ``options`` are Spark's reader options as text; ``strict`` the CSV/JSON
    values' strict typing (``_spark.strict_text``) and ``allow_lossy`` its
    opt-in. Nothing here talks to Spark: a streaming frame is typed without a JVM.
    """

    fmt: str
    paths: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    read: Any
    label: str
    allow_lossy: Any = False

    streaming = True

    def describe(self) -> str:
        return f"{self.label}, a stream"
