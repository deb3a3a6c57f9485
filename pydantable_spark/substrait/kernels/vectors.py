"""Kernels of the vector functions: Spark's ``VectorFunctionImplUtils``, in its order of operations.

Spark reads each float32 element as a double and accumulates in doubles, eight
elements at a time (the sum of eight terms, left to right, added to the
running total), then the rest one by one; the result is rounded to a float32
once. Vectors of different lengths fail (``VECTOR_DIMENSION_MISMATCH``); a NULL
element makes the result NULL; a norm degree other than 1, 2 or infinity fails
(``INVALID_VECTOR_NORM_DEGREE``).

``vector_avg`` and ``vector_sum`` have no kernel: Spark accumulates them in
float32 per partition and merges the partial results (weighted averages for
``vector_avg``), so their last bits depend on how Spark partitioned the rows.

>>> cosine_similarity([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]) == float32(0.9746318461970762)
True
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING

from pydantable_spark.substrait.kernels.spec import Scalar, SparkError, rows

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["KERNELS", "REFUSED", "cosine_similarity", "float32"]

VECTOR_DIMENSION_MISMATCH = "VECTOR_DIMENSION_MISMATCH"
INVALID_VECTOR_NORM_DEGREE = "INVALID_VECTOR_NORM_DEGREE"
_FLOAT32 = struct.Struct("<f")


def float32(value: float) -> float:
    """Java's ``(float) value`` of a double: the nearest float32 (Python's ``struct`` rounds so), or ±infinity."""
    try:
        return float(_FLOAT32.unpack(_FLOAT32.pack(value))[0])
    except OverflowError:  # beyond the largest float32 by more than half a unit
        return math.copysign(math.inf, value)


def _sum_by_eights(terms: Sequence[float]) -> float:
    """Spark's accumulation: each block of eight terms summed left to right, then added; the rest one by one."""
    total = 0.0
    whole = len(terms) // 8 * 8
    for start in range(0, whole, 8):
        block = terms[start]
        for term in terms[start + 1 : start + 8]:
            block += term
        total += block
    for term in terms[whole:]:
        total += term
    return total


def _same_length(name: str, left: Sequence[float | None], right: Sequence[float | None]) -> None:
    if len(left) != len(right):
        msg = f"Vector dimension mismatch in function {name}: {len(left)} vs {len(right)}"
        raise SparkError(VECTOR_DIMENSION_MISMATCH, msg)


def cosine_similarity(left: Sequence[float | None], right: Sequence[float | None]) -> float | None:
    """``vector_cosine_similarity``: NULL for an empty vector, a NULL element or a zero norm."""
    _same_length("vector_cosine_similarity", left, right)
    if not left or None in left or None in right:
        return None
    a: Sequence[float] = left  # type: ignore[assignment]
    b: Sequence[float] = right  # type: ignore[assignment]
    dot = _sum_by_eights([x * y for x, y in zip(a, b, strict=True)])
    norms = math.sqrt(_sum_by_eights([x * x for x in a]) * _sum_by_eights([y * y for y in b]))
    return None if norms == 0.0 else float32(dot / norms)


def _inner_product(left: Sequence[float | None], right: Sequence[float | None]) -> float | None:
    _same_length("vector_inner_product", left, right)
    if None in left or None in right:
        return None
    return float32(_sum_by_eights([x * y for x, y in zip(left, right, strict=True)]))  # type: ignore[operator]


def _l2_distance(left: Sequence[float | None], right: Sequence[float | None]) -> float | None:
    _same_length("vector_l2_distance", left, right)
    if None in left or None in right:
        return None
    differences = [x - y for x, y in zip(left, right, strict=True)]  # type: ignore[operator]
    return float32(math.sqrt(_sum_by_eights([d * d for d in differences])))


def _norm(vector: Sequence[float | None], degree: float) -> float | None:
    """The Lp norm in doubles (``vectorNormAsDouble``): the degree is checked first, then NULL elements."""
    if degree not in (1.0, 2.0, math.inf):
        msg = f"Invalid degree {degree} for vector norm; expects 1.0, 2.0 or Infinity"
        raise SparkError(INVALID_VECTOR_NORM_DEGREE, msg)
    if None in vector:
        return None
    values: Sequence[float] = vector  # type: ignore[assignment]
    if degree == 1.0:
        return _sum_by_eights([abs(x) for x in values])
    if degree == 2.0:
        return math.sqrt(_sum_by_eights([x * x for x in values]))
    return max((abs(x) for x in values), default=0.0)


def _vector_norm(vector: Sequence[float | None], degree: float = 2.0) -> float | None:
    norm = _norm(vector, degree)
    return None if norm is None else float32(norm)


def _normalize(vector: Sequence[float | None], degree: float = 2.0) -> list[float] | None:
    """``vector_normalize``: each element divided by the double norm, rounded to a float32; NULL for a zero norm."""
    norm = _norm(vector, degree)
    if norm is None:
        return None
    if not vector:
        return []
    if norm == 0.0:
        return None
    return [float32(x / norm) for x in vector]  # type: ignore[operator]


def _kernel(name: str, function: Callable[..., object]) -> Scalar:
    return Scalar(name, rows(function))


KERNELS = (
    _kernel("vector_cosine_similarity", cosine_similarity),
    _kernel("vector_inner_product", _inner_product),
    _kernel("vector_l2_distance", _l2_distance),
    _kernel("vector_norm", _vector_norm),
    _kernel("vector_normalize", _normalize),
)
"""The vector functions the local engine computes as Spark does."""

_PARTITIONED = (
    "Spark accumulates float32 vectors per partition and merges the partial {0}, so its last bits depend on how "
    "the rows were partitioned"
)
REFUSED = {"vector_sum": _PARTITIONED.format("sums"), "vector_avg": _PARTITIONED.format("averages (weighted)")}
"""The vector aggregates: no single order of the rows gives Spark's answer."""
