"""Spark's physical controls as plan nodes: caching, checkpoints, partitioning, sampling, join hints.

None of them changes the schema; each lowers to the Spark call of its name
(``pydantable_spark.steps.translate``). ``Persist`` and ``Checkpoint`` keep
the Spark DataFrame they made, one per session (``Held``), so that every
action on the frame reads the same cached or checkpointed data instead of
computing its input again.

Filters written above these nodes stay above them in the steps; Spark's
optimizer then moves them where it may: below a repartition, a coalesce or a
hint (they do not change which rows there are), never below a sample, and
onto the cached or checkpointed data, never into what made it.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.core import Node, describe, render
from pydantable_spark.plan.nodes import Plan, check_row_expression

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.schema import Schema

__all__ = [
    "JOIN_HINTS",
    "STORAGE_LEVELS",
    "Checkpoint",
    "Coalesce",
    "Held",
    "Hint",
    "JoinHint",
    "Persist",
    "Repartition",
    "Sample",
    "StorageLevelName",
    "join_hint",
    "storage_level",
]

JoinHint = Literal["broadcast", "merge", "shuffle_hash", "shuffle_replicate_nl"]
StorageLevelName = Literal[
    "DISK_ONLY", "DISK_ONLY_2", "DISK_ONLY_3", "MEMORY_ONLY", "MEMORY_ONLY_2",
    "MEMORY_AND_DISK", "MEMORY_AND_DISK_2", "MEMORY_AND_DISK_DESER", "OFF_HEAP",
]  # fmt: skip
JOIN_HINTS: dict[str, str] = {
    "broadcast": "broadcast", "broadcastjoin": "broadcast", "mapjoin": "broadcast",
    "merge": "merge", "shuffle_merge": "merge", "mergejoin": "merge",
    "shuffle_hash": "shuffle_hash",
    "shuffle_replicate_nl": "shuffle_replicate_nl",
}  # fmt: skip
"""Spark's join strategy hints (names are case-insensitive, as in Spark) → the name the façade passes on."""

STORAGE_LEVELS: dict[str, tuple[bool, bool, bool, bool, int]] = {
    "DISK_ONLY": (True, False, False, False, 1),
    "DISK_ONLY_2": (True, False, False, False, 2),
    "DISK_ONLY_3": (True, False, False, False, 3),
    "MEMORY_ONLY": (False, True, False, False, 1),
    "MEMORY_ONLY_2": (False, True, False, False, 2),
    "MEMORY_AND_DISK": (True, True, False, False, 1),
    "MEMORY_AND_DISK_2": (True, True, False, False, 2),
    "MEMORY_AND_DISK_DESER": (True, True, False, True, 1),
    "OFF_HEAP": (True, True, True, False, 1),
}
"""PySpark's ``StorageLevel`` constants by name: (use disk, use memory, use off-heap, deserialized, replication)."""


def join_hint(name: object, what: str) -> str:
    """The Spark join hint ``name`` stands for (``"BROADCAST"`` → ``"broadcast"``); anything else is refused."""
    known = (
        "'broadcast', 'merge', 'shuffle_hash', 'shuffle_replicate_nl' "
        "(or Spark's aliases broadcastjoin, mapjoin, shuffle_merge, mergejoin)"
    )
    if not isinstance(name, str):
        msg = f"{what}: the hint must be a str, got {shown(name)} ({type(name).__name__}); use one of {known}"
        raise ArgumentTypeError(msg)
    found = JOIN_HINTS.get(name.lower())
    if found is None:
        msg = f"{what}: {shown(name)} is not a Spark join hint; use one of {known}"
        raise ArgumentValueError(msg)
    return found


def storage_level(level: object, what: str) -> str:
    """The name of a storage level given by name (``"MEMORY_ONLY"``) or as a PySpark ``StorageLevel``."""
    if isinstance(level, str):
        if level.upper() in STORAGE_LEVELS:
            return level.upper()
        msg = (
            f"{what}: {shown(level)} is not a storage level; use a name of pyspark's StorageLevel "
            f"({', '.join(STORAGE_LEVELS)}) or one of its constants"
        )
        raise ArgumentValueError(msg)
    flags = _storage_flags(level)
    if flags is None:
        msg = (
            f"{what}: the level must be a str or a pyspark StorageLevel, got {shown(level)} "
            f"({type(level).__name__}); use a name such as 'MEMORY_ONLY' or a StorageLevel constant"
        )
        raise ArgumentTypeError(msg)
    found = next((name for name, known in STORAGE_LEVELS.items() if known == flags), None)
    if found is None:
        msg = (
            f"{what}: {shown(level)} is not one of pyspark's StorageLevel constants "
            f"({', '.join(STORAGE_LEVELS)}); Spark Connect and this façade take those only"
        )
        raise ArgumentValueError(msg)
    return found


def _storage_flags(level: object) -> tuple[object, ...] | None:
    """A PySpark ``StorageLevel``'s flags, read by attribute (this layer does not import pyspark)."""
    names = ("useDisk", "useMemory", "useOffHeap", "deserialized", "replication")
    if not all(hasattr(level, n) for n in names):
        return None
    return tuple(getattr(level, n) for n in names)


class Held:
    """The Spark DataFrames a ``Persist`` or ``Checkpoint`` node made, one per session, kept across actions.

    ``get_or_make`` returns the one of a session, making it at most once
    (under a lock: two actions at once make one); ``release`` hands all of
    them back for unpersisting and forgets them.
    """

    __slots__ = ("_frames", "_lock")

    def __init__(self) -> None:
        self._frames: dict[int, tuple[Any, Any]] = {}
        self._lock = threading.Lock()

    def get_or_make(self, session: Any, make: Callable[[], Any]) -> Any:
        """The frame kept for ``session``, or the one ``make()`` returns (then kept)."""
        with self._lock:
            found = self._frames.get(id(session))
            if found is not None and found[0] is session:
                return found[1]
            made = make()
            self._frames[id(session)] = (session, made)
            return made

    def frames(self) -> list[Any]:
        """The frames kept now, one per session."""
        with self._lock:
            return [frame for _, frame in self._frames.values()]

    def release(self) -> list[Any]:
        """The frames kept now, forgotten: the next action makes them again."""
        with self._lock:
            frames = [frame for _, frame in self._frames.values()]
            self._frames.clear()
            return frames


@dataclass(frozen=True, slots=True, eq=False)
class Persist(Plan):
    """The input, cached by Spark at ``level`` when an action first runs it; later actions read the cache."""

    input: Plan
    level: str = "MEMORY_AND_DISK_DESER"
    held: Held = field(default_factory=Held, repr=False)

    def derive(self) -> Schema:
        if self.level not in STORAGE_LEVELS:
            storage_level(self.level, "persist()")
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Persist [{self.level}]"


@dataclass(frozen=True, slots=True, eq=False)
class Checkpoint(Plan):
    """The input computed once and kept (``checkpoint``: in the checkpoint directory; ``local``: on the executors).

    ``eager``: computed when the frame is made (``DataFrame.checkpoint()``
    runs a job); otherwise by the first action.
    """

    input: Plan
    local: bool
    eager: bool = True
    held: Held = field(default_factory=Held, repr=False)

    def derive(self) -> Schema:
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        kind = "LocalCheckpoint" if self.local else "Checkpoint"
        return f"{kind} [{'eager' if self.eager else 'lazy'}]"


@dataclass(frozen=True, slots=True)
class Repartition(Plan):
    """The rows in ``n`` partitions (Spark's default number when None), by hash of ``keys`` or round robin."""

    input: Plan
    n: int | None
    keys: tuple[Node, ...] = ()

    def derive(self) -> Schema:
        if self.n is not None and self.n < 1:
            msg = f"repartition() needs n >= 1, got {self.n}"
            raise ArgumentValueError(msg)
        if self.n is None and not self.keys:
            msg = "repartition() needs a number of partitions, columns, or both"
            raise ArgumentTypeError(msg)
        for key in self.keys:
            _check_key(key, "repartition()")
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        parts = ([] if self.n is None else [str(self.n)]) + [render(k) for k in self.keys]
        return f"Repartition [{', '.join(parts)}]"


def _check_key(key: Node, what: str) -> None:
    check_row_expression(key, what, windows=False)
    if dt.contains_map(key.type.dtype):
        msg = f"{what} cannot partition by {describe(key)}: maps cannot be hashed"
        raise ColumnTypeError(msg)
    if dt.contains_variant(key.type.dtype):
        msg = f"{what} cannot partition by {describe(key)}: {dt.VARIANT_NOT_COMPARABLE}"
        raise ColumnTypeError(msg)
    if any(not n.deterministic for n in key.walk()):
        msg = f"{what} cannot partition by {render(key)}: it gives another value each time it runs"
        raise ColumnTypeError(msg)


@dataclass(frozen=True, slots=True)
class Coalesce(Plan):
    """The rows in at most ``n`` partitions, merged without a shuffle."""

    input: Plan
    n: int

    def derive(self) -> Schema:
        if self.n < 1:
            msg = f"coalesce() needs n >= 1, got {self.n}"
            raise ArgumentValueError(msg)
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Coalesce [{self.n}]"


@dataclass(frozen=True, slots=True)
class Sample(Plan):
    """A random sample: each row kept with probability ``fraction`` (or drawn Poisson(fraction) times with replacement).

    ``seed`` is fixed when the frame is made, so every action on it sees the same sample.
    """

    input: Plan
    fraction: float
    seed: int
    with_replacement: bool = False

    def derive(self) -> Schema:
        if not (math.isfinite(self.fraction) and self.fraction >= 0 and (self.with_replacement or self.fraction <= 1)):
            bound = "0 <= fraction" if self.with_replacement else "0 <= fraction <= 1 (without replacement)"
            msg = f"sample() needs {bound}, got fraction={self.fraction}"
            raise ArgumentValueError(msg)
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        replacement = ", with replacement" if self.with_replacement else ""
        return f"Sample [{self.fraction}, seed={self.seed}{replacement}]"

    def call(self) -> str:
        return f"sample({self.fraction!r}, seed={self.seed!r})"


@dataclass(frozen=True, slots=True)
class Hint(Plan):
    """A Spark join strategy hint on the input (``JOIN_HINTS``); a join reading it takes the hint."""

    input: Plan
    name: str

    def derive(self) -> Schema:
        if self.name not in JOIN_HINTS.values():
            join_hint(self.name, "hint()")
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Hint [{self.name}]"
