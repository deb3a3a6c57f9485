"""Spark's one-pass statistics, in Spark's order of floating-point operations.

Spark computes variances, higher moments, covariances and correlations with
streaming updates (``CentralMomentAgg.scala``, ``Covariance.scala``,
``Corr.scala``: Welford's update and its higher-order extension), not with the
two-pass formulas; a different order of operations gives a different last
digit. Each class here holds one of Spark's aggregation buffers and updates
it exactly as Spark's ``updateExpressions`` do, one value at a time in row
order (what Spark does within a partition, and over a window frame).

Their final divisions give NULL for a zero divisor (``spark_divide``): the
correlation of a constant column is NULL, not NaN.

>>> moments = Moments()
>>> for x in (1.0, 2.0, 4.0):
...     moments.update(x)
>>> moments.n, moments.avg, moments.m2
(3.0, 2.3333333333333335, 4.666666666666666)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["CoMoments", "Correlation", "Moments", "java_sqrt", "spark_divide"]


def spark_divide(a: float, b: float) -> float | None:
    """``a / b`` as these aggregates' final expressions divide doubles: NULL for a zero divisor (measured).

    >>> spark_divide(1.0, 4.0), spark_divide(1.0, -0.0)
    (0.25, None)
    """
    return None if b == 0 else a / b


def java_sqrt(x: float) -> float:
    """``Math.sqrt``: NaN for a negative number (Python's raises)."""
    return math.sqrt(x) if x >= 0 or math.isnan(x) else math.nan


class Moments:
    """``CentralMomentAgg``'s buffer: count, mean and the central moments ``m2``-``m4`` of the values seen."""

    __slots__ = ("avg", "m2", "m3", "m4", "n")

    def __init__(self, values: Iterable[float] = ()) -> None:
        self.n = self.avg = self.m2 = self.m3 = self.m4 = 0.0
        for x in values:
            self.update(x)

    def update(self, x: float) -> None:
        """Spark's ``updateExpressionsDef`` for one non-NULL value."""
        n = self.n + 1.0
        delta = x - self.avg
        delta_n = delta / n
        m2 = self.m2 + delta * (delta - delta_n)
        delta2 = delta * delta
        delta_n2 = delta_n * delta_n
        m3 = self.m3 - 3.0 * delta_n * m2 + delta * (delta2 - delta_n2)
        m4 = self.m4 - 4.0 * delta_n * m3 - 6.0 * delta_n2 * m2 + delta * (delta * delta2 - delta_n * delta_n2)
        self.n, self.avg, self.m2, self.m3, self.m4 = n, self.avg + delta_n, m2, m3, m4


class CoMoments:
    """``Covariance``'s buffer: count, both means and the co-moment ``ck`` of the pairs seen."""

    __slots__ = ("ck", "n", "x_avg", "y_avg")

    def __init__(self, pairs: Iterable[tuple[float, float]] = ()) -> None:
        self.n = self.x_avg = self.y_avg = self.ck = 0.0
        self._start()
        for x, y in pairs:
            self.update(x, y)

    def _start(self) -> None:
        """Set a subclass's further moments to 0."""

    def update(self, x: float, y: float) -> None:
        """Spark's ``Covariance.updateExpressionsDef`` for one pair without NULLs."""
        n = self.n + 1.0
        dx = x - self.x_avg
        dy = y - self.y_avg
        x_avg = self.x_avg + dx / n
        y_avg = self.y_avg + dy / n
        self.ck = self.ck + dx * (y - y_avg)
        self._more(x, y, dx, dy, x_avg, y_avg)
        self.n, self.x_avg, self.y_avg = n, x_avg, y_avg

    def _more(self, x: float, y: float, dx: float, dy: float, x_avg: float, y_avg: float) -> None:
        """A subclass's further moments, from the same deltas and new means."""


class Correlation(CoMoments):
    """``PearsonCorrelation``'s buffer: ``CoMoments`` and each side's second moment (``x_mk``, ``y_mk``).

    (Spark's ``PearsonCorrelation`` computes the means and ``ck`` with the same operations as ``Covariance``.)
    """

    __slots__ = ("x_mk", "y_mk")

    def _start(self) -> None:
        self.x_mk = self.y_mk = 0.0

    def _more(self, x: float, y: float, dx: float, dy: float, x_avg: float, y_avg: float) -> None:
        self.x_mk = self.x_mk + dx * (x - x_avg)
        self.y_mk = self.y_mk + dy * (y - y_avg)
