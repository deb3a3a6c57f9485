"""Kernels as DataFusion functions: each call site of a kernel in a local plan is one registered function.

The export (``ExpressionWriter``) names each site ``<entry>__<n>`` and keeps
its ``Site`` (types, literal values, session); ``register`` builds the
DataFusion scalar or aggregate function for it over Arrow arrays: the values
go to Python, through the kernel row by row (or group by group), and back to
Arrow in the type the façade derived. A ``SparkError`` a kernel raises (where
Spark's ANSI mode fails) is kept in ``Failures`` so that the engine reports
Spark's error rather than DataFusion's wrapping of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pydantable_spark.arrow import arrow_type
from pydantable_spark.substrait.kernels.spec import Aggregate, Scalar, SparkError

if TYPE_CHECKING:
    from collections.abc import Callable

    from datafusion import SessionContext

    from pydantable_spark.substrait.kernels.spec import Kernel, Site

__all__ = ["Failures", "KernelSite", "register"]


@dataclass(frozen=True, slots=True)
class KernelSite:
    """A kernel at one call site of a plan, under the name the plan calls it by."""

    name: str
    kernel: Kernel
    site: Site


class Failures:
    """The first error a kernel raised while DataFusion ran the plan (DataFusion wraps it in its own)."""

    __slots__ = ("first", "others")

    def __init__(self) -> None:
        self.first: SparkError | None = None
        self.others: list[BaseException] = []

    def keep(self, error: BaseException) -> None:
        if isinstance(error, SparkError) and self.first is None:
            self.first = error
        else:
            self.others.append(error)


def register(context: SessionContext, sites: list[KernelSite], failures: Failures) -> None:
    """Register a DataFusion function for each kernel site in ``context``."""
    from datafusion import udaf, udf

    for found in sites:
        inputs = [_input_type(t.dtype) for t in found.site.args]
        result = arrow_type(found.site.result.dtype)
        if isinstance(found.kernel, Scalar):
            run = _scalar(found.kernel, found.site, result, failures)
            context.register_udf(udf(run, inputs, result, "immutable", found.name))
        else:
            made = _accumulator(found.kernel, found.site, inputs, result, failures)
            states: list[pa.DataType] = [_state_type(t) for t in inputs]
            context.register_udaf(udaf(made, inputs, result, states, "immutable", found.name))


def _input_type(dtype: Any) -> pa.DataType:
    return arrow_type(dtype)


def _state_type(dtype: pa.DataType) -> pa.DataType:
    """How a group's values of ``dtype`` pass between partial aggregates: a list of them, or packed bytes.

    Values that are lists travel as Arrow IPC bytes: DataFusion reads a state scalar through ``pa.array``,
    which fails on a list scalar holding a NULL list (measured: "object of type 'NoneType' has no len()").
    """
    return pa.binary() if pa.types.is_list(dtype) else pa.list_(dtype)


def _state(values: list[Any], dtype: pa.DataType) -> pa.Scalar[Any]:
    if not pa.types.is_list(dtype):
        return pa.scalar(values, type=pa.list_(dtype))
    batch = pa.record_batch([pa.array(values, type=dtype)], names=["values"])
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return pa.scalar(sink.getvalue().to_pybytes(), type=pa.binary())


def _values_of(state: Any, dtype: pa.DataType) -> list[Any]:
    if not pa.types.is_list(dtype):
        return list(state or ())
    if state is None:
        return []
    values: list[Any] = pa.ipc.open_stream(state).read_all().column(0).to_pylist()
    return values


def _scalar(kernel: Scalar, site: Site, result: pa.DataType, failures: Failures) -> Callable[..., pa.Array[Any]]:
    function = kernel.make(site)
    strict = kernel.strict

    def run(*arrays: pa.Array[Any]) -> pa.Array[Any]:
        columns = [a.to_pylist() for a in arrays]
        out: list[Any] = []
        try:
            for values in zip(*columns, strict=True):
                out.append(None if strict and None in values else function(*values))
            return pa.array(out, type=result)
        except BaseException as error:
            failures.keep(error)
            raise

    return run


def _accumulator(
    kernel: Aggregate, site: Site, inputs: list[pa.DataType], result: pa.DataType, failures: Failures
) -> Callable[[], Any]:
    from datafusion import Accumulator

    function = kernel.make(site)

    class Group(Accumulator):
        """One group's values, in row order, then the kernel's result over them."""

        def __init__(self) -> None:
            self.values: list[list[Any]] = [[] for _ in inputs]

        def update(self, *arrays: pa.Array[Any]) -> None:
            for held, array in zip(self.values, arrays, strict=True):
                held.extend(array.to_pylist())

        def merge(self, states: list[pa.Array[Any]]) -> None:
            for held, state, t in zip(self.values, states, inputs, strict=True):
                for part in state.to_pylist():
                    held.extend(_values_of(part, t))

        def retract_batch(self, *arrays: pa.Array[Any]) -> None:
            for held, array in zip(self.values, arrays, strict=True):
                del held[: len(array)]

        def supports_retract_batch(self) -> bool:
            return True

        def state(self) -> list[pa.Scalar[Any]]:
            return [_state(held, t) for held, t in zip(self.values, inputs, strict=True)]

        def evaluate(self) -> pa.Scalar[Any]:
            try:
                return pa.scalar(function(*self.values), type=result)
            except BaseException as error:
                failures.keep(error)
                raise

    return Group
