"""Vector functions over lists of float32 (``list[Annotated[float, Float32]]``).

Measured on Spark 4.3: every vector function takes ``array<float>`` only (a
list of doubles or ints is refused by the analyzer, no cast is made); every
result is nullable; vectors of different lengths fail the job
(``VECTOR_DIMENSION_MISMATCH``), a NULL element gives NULL. ``vector_avg`` and
``vector_sum`` are aggregates (element by element).
"""

from __future__ import annotations

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Built,
    Function,
    Kind,
    Param,
    always,
    column,
    entry,
    fixed,
)

__all__ = ["ENTRIES"]

_VECTOR = Accepts(
    "a list of float32",
    lambda t: isinstance(t, dt.List) and isinstance(t.inner, dt.Float32),
    examples=(dt.List(dt.Float32(), False), dt.List(dt.Float32(), True)),
)
_FLOAT32 = Accepts("a float32", lambda t: isinstance(t, dt.Float32), examples=(dt.Float32(),))
_PAIR = Built("lambda c: F.array(c, c)", (dt.Float32(),))
"""Vectors of two elements on every row (the test frame's lists differ in length from row to row)."""
_FLOAT = fixed(dt.Float32())
_VECTORS = fixed(dt.List(dt.Float32(), True))
_SUMS = fixed(dt.List(dt.Float32(), False))


def _two(name: str, summary: str) -> Function:
    return entry(
        name,
        (column("left", _VECTOR), column("right", _VECTOR)),
        _FLOAT,
        summary,
        "vector",
        nullable=always,
        samples=((_PAIR, _PAIR),),
    )


def _degree() -> Param:
    """A float32 column or literal: Spark casts nothing to it (a double is refused), nor does PySpark."""
    return column("degree", _FLOAT32, default=ABSENT)


ENTRIES: tuple[Function, ...] = (
    _two("vector_cosine_similarity", "The cosine similarity of two vectors of one length."),
    _two("vector_inner_product", "The inner (dot) product of two vectors of one length."),
    _two("vector_l2_distance", "The Euclidean distance between two vectors of one length."),
    entry(
        "vector_norm",
        (column("vector", _VECTOR), _degree()),
        _FLOAT,
        "The p-norm of the vector (``degree`` p, 2 by default).",
        "vector",
        nullable=always,
        samples=((_PAIR,), (_PAIR, dt.Float32())),
    ),
    entry(
        "vector_normalize",
        (column("vector", _VECTOR), _degree()),
        _VECTORS,
        "The vector divided by its p-norm (``degree`` p, 2 by default).",
        "vector",
        nullable=always,
        samples=((_PAIR,), (_PAIR, dt.Float32())),
    ),
    entry(
        "vector_avg",
        (column("col", _VECTOR),),
        _SUMS,
        "The element-wise average of the vectors (of one length).",
        "vector",
        kind=Kind.AGGREGATE,
        nullable=always,
        samples=((_PAIR,),),
        samples_only=True,
    ),
    entry(
        "vector_sum",
        (column("col", _VECTOR),),
        _SUMS,
        "The element-wise sum of the vectors (of one length).",
        "vector",
        kind=Kind.AGGREGATE,
        nullable=always,
        samples=((_PAIR,),),
        samples_only=True,
    ),
)
