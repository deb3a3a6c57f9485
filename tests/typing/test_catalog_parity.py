"""Every catalog entry: the mypy plugin reveals the type the runtime derives, for the same call.

The calls are generated from the catalog (its ``samples`` and a call with every
argument a non-null column, then with every one nullable), written over a model
with one column per type a Python annotation can state; all go into one module
that mypy checks once, each as ``reveal_type(...)``. The runtime evaluates the
same source. Calls the runtime refuses are left out (the plugin reports those
as errors, as ``cases/fail_*.py`` check); so are arguments no Python annotation
states (``int`` is a bigint: an ``int32`` column has no field here).
"""

from __future__ import annotations

import datetime
import decimal
import itertools
import re
import sys
import types
from typing import TYPE_CHECKING

import pytest
from mypy import api
from mypy_seed import seeded
from test_parity import _normalize

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.errors import PydantableSparkError
from pydantable_spark.expr.catalog import ENTRIES, REQUIRED, Function, Param
from pydantable_spark.expr.catalog.spec import Built, LambdaSample, Lit, sample_of

if TYPE_CHECKING:
    from pathlib import Path

_ANNOTATIONS: dict[type[dt.DType], str] = {
    dt.Boolean: "bool",
    dt.Int64: "int",
    dt.Float64: "float",
    dt.String: "str",
    dt.Binary: "bytes",
    dt.Date: "datetime.date",
    dt.Datetime: "datetime.datetime",
    dt.Duration: "datetime.timedelta",
    dt.Variant: "Variant",
}
pytestmark = [pytest.mark.jvm_free, pytest.mark.typecheck, pytest.mark.xdist_group("mypy-catalog-parity")]
"""JVM-free tests that run mypy or pyright (`pytest -m "not spark and not typecheck"` leaves them out), in one process
under ``pytest -n 2 --dist loadgroup``: the mypy run of ``revealed`` (about 20 s) is made once, not once per process."""


_FALLBACKS = (
    dt.Int64(), dt.Float64(), dt.String(), dt.Date(), dt.Datetime(), dt.Boolean(), dt.Binary(), dt.Decimal(),
    dt.Duration(), dt.List(dt.Int64(), False), dt.List(dt.String(), True), dt.Map(dt.String(), dt.Int64(), True),
)  # fmt: skip
"""Types tried, in order, for a parameter none of whose examples an annotation states."""


_STRUCT = dt.Struct((dt.Field("a", dt.String(), False), dt.Field("b", dt.Int64(), True)), model="S")
_NESTED = (_STRUCT, dt.List(_STRUCT, False))
"""A nested model ``S`` and a list of it (``struct.field``, ``map_from_entries``)."""


def annotation(dtype: dt.DType) -> str | None:
    """The Python annotation of a non-null field of ``dtype`` (None where none states it exactly)."""
    if type(dtype) in _ANNOTATIONS:
        return _ANNOTATIONS[type(dtype)]
    if dtype == dt.Decimal():
        return "decimal.Decimal"
    if isinstance(dtype, dt.Struct):
        return "S" if dtype.fields == _STRUCT.fields else None
    if isinstance(dtype, dt.List):
        inner = annotation(dtype.inner)
        return None if inner is None else f"list[{inner}{' | None' if dtype.contains_null else ''}]"
    if isinstance(dtype, dt.Map) and isinstance(dtype.key, dt.String):
        inner = annotation(dtype.value)
        return None if inner is None else f"dict[str, {inner}{' | None' if dtype.value_contains_null else ''}]"
    return None


class Corpus:
    """A model with a field per stateable type (non-null and nullable), and calls of every entry over it."""

    def __init__(self) -> None:
        stated = [*_FALLBACKS, *_NESTED]
        stated += [e for entry in ENTRIES for p in entry.signature.params if p.accepts for e in p.accepts.examples]
        stated += [i[0] if isinstance(i, tuple) else i for entry in ENTRIES for s in entry.fixtures.samples for i in s]
        self.fields: dict[tuple[str, bool], str] = {}
        for dtype in stated:
            written = annotation(dtype) if isinstance(dtype, dt.DType) else None
            for nullable in (False, True):
                if written is not None and (written, nullable) not in self.fields:
                    self.fields[(written, nullable)] = f"c{len(self.fields)}"
        self.source = self._model()
        self.module = types.ModuleType("catalog_corpus")
        sys.modules[self.module.__name__] = self.module  # pydantic resolves the annotations in the class's module
        exec(compile(self.source, self.module.__name__, "exec"), self.module.__dict__)
        self.calls: list[tuple[str, str, str]] = []  # (entry name, source, the runtime's type)

    def column(self, dtype: dt.DType, nullable: bool) -> str | None:
        written = annotation(dtype)
        return None if written is None else f"M.{self.fields[(written, nullable)]}"

    def _model(self) -> str:
        lines = [
            "from __future__ import annotations\n",
            "import datetime",
            "import decimal\n",
            "from pydantable_spark import DataFrameModel, F, Variant\n\n",
            "class S(DataFrameModel):",
            "    a: str",
            "    b: int | None\n\n",
            "class M(DataFrameModel):",
        ]
        lines += [f"    {name}: {typ}{' | None' if nullable else ''}" for (typ, nullable), name in self.fields.items()]
        return "\n".join(lines) + "\n"

    def runtime_type(self, source: str) -> str | None:
        """The runtime's type of the call, None where the runtime refuses it."""
        try:
            typed = eval(source, self.module.__dict__).typed
        except (PydantableSparkError, TypeError):
            return None
        return None if typed is None else python_name(typed.dtype, nullable=typed.nullable)

    def add(self, entry: Function, arguments: list[str]) -> bool:
        """Add the call if the runtime takes it."""
        if entry.signature.in_f:
            source = f"F.{entry.name}({', '.join(arguments)})"
        else:
            source = f"{arguments[0]}.{entry.signature.methods[0]}({', '.join(arguments[1:])})"
        typed = self.runtime_type(source)
        if typed is not None:
            self.calls.append((entry.name, source, typed))
        return typed is not None


def _value(value: object) -> str:
    """A Python value as source (``decimal`` and ``datetime`` are imported by the corpus)."""
    if isinstance(value, decimal.Decimal):
        return f"decimal.Decimal({str(value)!r})"
    if isinstance(value, datetime.date):
        return f"datetime.{value!r}"
    return repr(value)


def _sample_source(corpus: Corpus, item: object) -> str | None:
    if isinstance(item, dt.DType):
        return corpus.column(item, False)
    if isinstance(item, tuple) and item and isinstance(item[0], dt.DType):
        return corpus.column(item[0], item[1])
    if isinstance(item, Lit):
        return f"F.lit({_value(item.value)})"
    if isinstance(item, LambdaSample):
        return item.source  # a lambda over F: the plugin types its parameters, then its body
    if isinstance(item, Built):
        return None  # made by other calls, which the corpus calls on their own
    return _value(item)


def _options(corpus: Corpus, param: Param, nullable: bool) -> list[str]:
    """What to pass for ``param``: columns of each stateable type it admits, or its Python sample."""
    if param.takes is not None:
        assert isinstance(param.sample, LambdaSample)
        return [param.sample.source]
    if param.accepts is None or param.foldable or param.column_in_pyspark:
        return [_value(sample_of(param))] if param.python else []
    found = []
    for dtype in (*param.accepts.examples, *_FALLBACKS, *_NESTED):
        column = corpus.column(dtype, nullable) if param.accepts.admits(dtype) else None
        if column is not None and column not in found:
            found.append(column)
    return found


def _add_calls(corpus: Corpus, entry: Function) -> None:
    """Its samples, then a call with every required argument a column (non-null, then nullable).

    The first combination of admitted column types the runtime takes is used
    (``element_at`` of a list takes an integer position, of a map a key).
    """
    for sample in entry.fixtures.samples:
        parts = [_sample_source(corpus, item) for item in sample]
        if all(p is not None for p in parts):
            corpus.add(entry, [p for p in parts if p is not None])
    params = [p for p in entry.signature.params if p.default is REQUIRED or p.variadic]
    for nullable in (False, True):
        options = [_options(corpus, p, nullable) for p in params]
        if params and params[-1].variadic:  # two of a variadic one, of the other nullability (two names)
            options.append(_options(corpus, params[-1], not nullable))
        for arguments in itertools.islice(itertools.product(*options), 200):
            if corpus.add(entry, list(arguments)):
                break


def corpus() -> Corpus:
    generated = Corpus()
    for entry in ENTRIES:
        _add_calls(generated, entry)
    return generated


def _static(generated: Corpus, tmp_path: Path) -> list[str]:
    """What mypy reveals for each call (one mypy run over one module)."""
    lines = [generated.source, *[f"reveal_type({source})" for _, source, _ in generated.calls]]
    module = tmp_path / "catalog_corpus.py"
    module.write_text("\n".join(lines) + "\n")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = pydantic.mypy, pydantable_spark.mypy\n")
    stdout, _, _ = api.run(
        ["--config-file", str(config), "--cache-dir", seeded(tmp_path / "cache", config), str(module)]
    )
    errors = [line for line in stdout.splitlines() if " error: " in line]
    assert errors == [], "\n".join(errors[:20])
    revealed = re.findall(r'Revealed type is "(.*)"', stdout)
    assert len(revealed) == len(generated.calls), stdout[-2000:]
    found = []
    for shown in revealed:
        inner = re.fullmatch(r"pydantable_spark\.expr\.api\.Expr\[(.*)\]", shown)
        found.append(_normalize(inner[1]).replace("catalog_corpus.", "") if inner else shown)
    return found


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Corpus, list[str]]:
    generated = corpus()
    return generated, _static(generated, tmp_path_factory.mktemp("catalog_parity"))


_FLOAT32_ONLY = "it takes float32 only, and the plugin reads Annotated[float, Float32] as a double"
_UNSTATED = {
    "kll_sketch_agg_float": _FLOAT32_ONLY,
    **dict.fromkeys(
        (
            "vector_avg",
            "vector_cosine_similarity",
            "vector_inner_product",
            "vector_l2_distance",
            "vector_norm",
            "vector_normalize",
            "vector_sum",
        ),
        f"{_FLOAT32_ONLY} (lists of float32 here)",
    ),
    "window_time": "it takes a struct<start, end> group key made by a time bucket; the corpus model has no struct",
}
"""Entries no call of the corpus can state, and why (the runtime checks them in tests/expr/test_catalog.py)."""


def test_every_entry_is_called(revealed: tuple[Corpus, list[str]]) -> None:
    generated, _ = revealed
    missing = sorted({e.name for e in ENTRIES} - {name for name, _, _ in generated.calls})
    assert missing == sorted(_UNSTATED)


def _as_mypy_states(runtime: str) -> str:
    """The runtime's type as mypy states it: a VARIANT is ``Any`` (``Variant = Annotated[Any, dtypes.Variant]``)."""
    return re.sub(r"\bVariant\b", "Any", runtime)


_ROW = re.compile(r"Row\[(?:[^\[\]]|\[[^\[\]]*\])*\]")
"""A synthesized row class of a struct of no model (``Row[a: int, b: list[str]]``), innermost first."""


def _rows_as_structs(shown: str) -> str:
    """mypy's type with each synthesized row class of a struct of no model as ``struct``, as the runtime shows it."""
    while (replaced := _ROW.sub("struct", shown)) != shown:
        shown = replaced
    return shown


def test_mypy_reveals_the_runtime_type_of_every_entry(revealed: tuple[Corpus, list[str]]) -> None:
    generated, static = revealed
    differences = [
        f"{source}: runtime {runtime}, mypy {shown}"
        for (_, source, runtime), shown in zip(generated.calls, static, strict=True)
        if _rows_as_structs(shown) != _as_mypy_states(runtime)
    ]
    assert differences == [], "\n".join(differences)


def test_the_corpus_has_nullable_and_non_null_results(revealed: tuple[Corpus, list[str]]) -> None:
    generated, _ = revealed
    results = [runtime for _, _, runtime in generated.calls]
    assert sum(r.endswith("| None") for r in results) >= len(ENTRIES) // 2
    assert sum(not r.endswith("| None") for r in results) >= len(ENTRIES) // 2
