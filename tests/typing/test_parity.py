"""Static and runtime rules agree: what mypy reveals equals what the runtime derives.

Each expression and pipeline below is evaluated at run time (its derived type or
schema) and revealed by mypy with the plugin; both must name the same Python
types, column names and nullability.
"""

from __future__ import annotations

import re
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest
from mypy import api
from mypy_seed import seeded

from pydantable_spark.annotations import python_name

pytestmark = [pytest.mark.jvm_free, pytest.mark.typecheck]
"""JVM-free tests that run mypy or pyright (`pytest -m "not spark and not typecheck"` leaves them out)."""


MODEL = """\
from __future__ import annotations

import datetime
import decimal
import enum

from pydantic import Field

from pydantable_spark import DataFrameModel, F, Window, cs, left, right
from pydantable_spark import dtypes as dt


class Addr(DataFrameModel):
    city: str
    zip: int | None


class P(DataFrameModel):
    tags: list[str]
    mp: dict[str, float]
    addr: Addr | None
    i: int
    n: int | None
    f: float
    fn: float | None
    d: decimal.Decimal
    s: str
    sn: str | None
    b: bool
    bn: bool | None
    day: datetime.date
    dayn: datetime.date | None
    ts: datetime.datetime
    td: datetime.timedelta


class Q(DataFrameModel):
    i: int
    s: str
    extra: float | None


class Color(str, enum.Enum):
    RED = "red"


class R(DataFrameModel):
    i: int
    code: str | None = Field(default=None, alias="codeNo")
    color: Color
    colors: list[Color]
    sizes: tuple[int, ...]
    stops: list[Addr]
    notes: dict[str, Color | None]


df = P.from_rows([])
dq = Q.from_rows([])
dr = R.from_rows([])
"""

EXPRESSIONS = [
    "P.i + 1", "P.n + 1", "P.i + P.f", "P.n * P.fn", "P.i - 2.5", "P.d + 1", "P.d * P.f", "P.d / P.i",
    "P.i / 2", "P.f / P.f", "P.i // 2", "P.n // P.i", "P.i % 2", "P.f % 2", "-P.n", "-P.d", "1 + P.i",
    "2.5 * P.n", "P.i > 1", "P.n > 1", "P.s == 'x'", "P.sn != 'x'", "P.day < P.day", "P.ts >= P.ts",
    "P.i == P.f", "(P.i > 1) & P.b", "(P.n > 1) & P.b", "P.b | P.bn", "~P.b", "~P.bn", "P.b & True",
    "P.n.is_null()", "P.n.is_not_null()", "P.n.is_in([1, 2])", "P.i.is_in([1])", "P.s.is_in(['a'])",
    "P.i.between(1, 2)", "P.fn.between(0, 1.5)", "P.n.fill_null(0)", "P.fn.fill_null(P.f)",
    "P.sn.fill_null('')", "P.i.cast(str)", "P.s.cast(int)", "P.f.cast(int)", "P.i.cast(float)",
    "P.day.cast(str)", "P.ts.cast(datetime.date)", "P.s.cast(datetime.date)", "P.b.cast(int)",
    "P.i.cast(dt.Int32)", "P.d.cast(float)", "P.n.alias('m')", "P.s.str.upper()", "P.sn.str.lower()",
    "P.sn.str.length()", "P.s.str.strip()", "P.s.str.slice(1, 2)", "P.sn.str.contains('a')",
    "P.s.str.starts_with(P.sn)", "P.s.str.ends_with('z')", "P.day.dt.year()", "P.dayn.dt.month()",
    "P.ts.dt.day()", "F.lit(1)", "F.lit(2.5)", "F.lit('a')", "F.lit(True)", "F.lit(None, dtype=int)",
    "F.coalesce(P.n, 0)", "F.coalesce(P.n, P.fn)", "F.coalesce(P.n, P.f)", "F.concat(P.s, P.sn)",
    "F.upper(P.s)", "F.lower(P.sn)", "F.length(P.s)", "F.year(P.dayn)", "F.date_add(P.day, 1)",
    "F.date_add(P.ts, P.n)", "F.datediff(P.day, P.dayn)", "F.when(P.b, 1).otherwise(0)",
    "F.when(P.b, P.n).otherwise(0)", "F.when(P.bn, 1)", "F.when(P.b, 1).when(P.i > 1, 2.5).otherwise(0)",
    "F.when(P.b, P.s).otherwise(None)", "F.when(P.b, P.day).otherwise(P.ts)",
    "P.tags.list.len()", "P.tags.list.get(-1)", "P.tags.list.contains('a')", "P.tags.list.join(',')",
    "P.tags.list.sort()", "P.tags.list.unique()", "P.mp.map.keys()", "P.mp.map.values()", "P.mp.map.get('k')",
    "P.addr.struct.field('city')", "P.addr.struct.field('zip')", "P.s.str.split('-')", "P.sn.str.extract('a')",
    "P.s.str.replace('a', 'b')", "P.sn.str.pad_start(3, '0')", "P.s.str.like('a%')", "P.day.dt.truncate('month')",
    "P.ts.dt.truncate('hour')", "P.ts.dt.strftime('%Y')", "P.ts + P.td", "P.day + P.td", "P.ts - P.ts",
    "F.sum(P.i)", "F.mean(P.d)", "F.max(P.s)", "F.collect_set(P.i)", "F.count_distinct(P.s, P.i)",
]  # fmt: skip

PIPELINES = [
    "df.select(P.i, (P.n + 1).alias('next'))",
    "df.select('s', 'n', doubled=P.i * 2, one=1)",
    "df.select(P.n + 1, P.s.str.upper(), F.coalesce(P.fn, 0.0))",
    "df.with_columns(P.n.fill_null(0), flag=P.f > 1)",
    "df.with_columns(x=P.i + 1).select('x', F.col('s'))",
    "df.drop('n', P.f)",
    "df.rename({'n': 'm', 's': 't'})",
    "df.filter(P.b).sort(P.i).select(P.day.dt.year(), F.when(P.b, P.d).otherwise(0))",
    "df.select(P.ts.cast(datetime.date), x=P.s.cast(int))",
    "df.with_columns(P.i.cast(float), d=P.d * P.i)",
    "df.join(dq, on='i')",
    "df.join(dq, on='i', how='left')",
    "df.join(dq, on=['i', 's'], how='right')",
    "df.join(dq, left_on='n', right_on='i', how='full')",
    "df.join(dq, left_on='n', right_on='i', how='inner', coalesce=True, suffix='_q')",
    "df.join(dq, on='i', how='semi')",
    "df.join(dq, how='cross')",
    "df.join(dq, on=P.i < Q.i)",
    "df.join(dq, on=['i', P.s != Q.s], how='left')",
    "df.join(dq, on=(P.f >= Q.extra) & (P.s == Q.s), how='full')",
    "df.join(dq, on=P.n > Q.i, how='right')",
    "df.join(dq, on=P.i == Q.i, how='anti')",
    "df.join(dq, on=P.n > Q.i, how='cross')",
    "df.join(dq, on=left.col('s') != right.col('s'), how='left', hint='broadcast')",
    "df.join(dq, left_on='n', right_on='i', on=P.f > Q.extra, how='full', coalesce=True)",
    "df.select('i', 's').join(dq.select('i', 's'), on=[left.col('i') < right.col('i')], how='left')",
    "df.repartition(4, 'i').coalesce(2).sample(0.5, seed=1).hint('broadcast').persist('MEMORY_ONLY')",
    "df.select('i', 's').cache().repartition(P.i)",
    "df.group_by(P.s).agg(n=F.count(), total=F.sum(P.n), top=F.max(P.f), avg=F.mean(P.d))",
    "df.group_by('sn', 'b').agg(F.first(P.fn), F.collect_list(P.i), F.count_distinct(P.s))",
    "df.group_by('sn', drop_nulls=False).agg(m=F.median(P.i), v=F.var(P.f))",
    "df.select(F.sum(P.i), F.count(), F.min(P.day))",
    "df.with_columns(r=F.rank().over(Window.order_by('i')), g=F.lag(P.s).over(Window.order_by('i')))",
    "df.select(P.addr, P.tags.list.len(), city=P.addr.struct.field('city'))",
    "df.with_columns(P.n, P.s)",
    "df.filter(P.b).rename({'s': 's'})",
    "dr.select(R.i, R.code)",
    "dr.with_columns(x=R.i)",
    "dr.drop(R.code).group_by(R.color).agg(n=F.count())",
    "dr.join(dq, on='i', how='left')",
    "dr.select(R.i, R.code, R.color, R.colors, R.sizes, R.stops, R.notes)",
    # typed from the runtime's own result where the typing rules leave columns unknown
    "df.drop_nulls()",
    "df.drop_nulls(subset=['n', 'sn'])",
    "df.fill_null(0, subset=['n'])",
    "df.explode('tags')",
    "df.with_row_count()",
    "df.unnest('addr')",
    "df.union(df)",
    "df.melt(id_vars=['i'], value_vars=['n'])",
    "df.with_columns(y=F.col('f') * 2, z=F.col('sn').str.upper())",
    "df.select(F.col('n') + 1, w=F.coalesce('fn', 'f'))",
    "df.group_by('s').agg(t=('sum', 'n'), c=('count', 'i'))",
    "df.select(cs.numeric() - cs.by_name('d'))",
    "dr.drop_nulls()",
    "dq.union(dq).with_row_count('k')",
]


def _normalize(shown: str) -> str:
    """mypy's spelling of a type, reduced to the short names ``python_name`` uses."""
    shown = re.sub(r"\b(?:builtins|decimal|datetime)\.", "", shown)
    return shown.replace("Union[", "").replace("Optional[", "")


def runtime_types() -> tuple[list[str], list[str]]:
    module = types.ModuleType("parity_corpus")
    sys.modules[module.__name__] = module  # pydantic resolves the annotations in the class's module
    namespace = module.__dict__
    exec(compile(MODEL, "parity_corpus", "exec"), namespace)
    expressions = []
    for source in EXPRESSIONS:
        typed = eval(source, namespace).typed
        expressions.append(python_name(typed.dtype, nullable=typed.nullable))
    pipelines = []
    for source in PIPELINES:
        frame = eval(source, namespace)
        if frame.model.__module__ == module.__name__:  # the schema is unchanged: the frame keeps its model
            pipelines.append(frame.model.__name__)
            continue
        pipelines.append(", ".join(f"{f.name}: {python_name(f.dtype, nullable=f.nullable)}" for f in frame.schema))
    return expressions, pipelines


def static_types(tmp_path: Path) -> tuple[list[str], list[str]]:
    lines = [MODEL]
    lines += [f"reveal_type({source})" for source in EXPRESSIONS]
    lines += [f"reveal_type(({source}).collect()[0])" for source in PIPELINES]
    module = tmp_path / "corpus.py"
    module.write_text("\n".join(lines) + "\n")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = pydantic.mypy, pydantable_spark.mypy\n")
    stdout, _, _ = api.run(
        ["--config-file", str(config), "--cache-dir", seeded(tmp_path / "cache", config), str(module)]
    )
    assert " error: " not in stdout, stdout
    revealed = re.findall(r'Revealed type is "(.*)"', stdout)
    assert len(revealed) == len(EXPRESSIONS) + len(PIPELINES), stdout
    expressions = []
    for shown in revealed[: len(EXPRESSIONS)]:
        inner = re.fullmatch(r"pydantable_spark\.(?:expr\.api\.Expr|expr\.forms\.WhenThen)\[(.*)\]", shown)
        assert inner, shown
        value = _normalize(inner[1])
        expressions.append(f"{value} | None" if "WhenThen" in shown and "None" not in value else value)
    pipelines = []
    for shown in revealed[len(EXPRESSIONS) :]:
        inner = re.fullmatch(r"corpus\.Row\[(.*)\]", shown)
        model = re.fullmatch(r"corpus\.(\w+)", shown)
        assert inner or model, shown
        pipelines.append(_normalize(inner[1]) if inner else shown.removeprefix("corpus."))
    return expressions, pipelines


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return runtime_types(), static_types(tmp_path_factory.mktemp("parity"))


@pytest.mark.parametrize("index", range(len(EXPRESSIONS)), ids=lambda i: EXPRESSIONS[i])
def test_expression_type(both: tuple[Any, Any], index: int) -> None:
    (runtime, _), (static, _) = both
    assert static[index] == runtime[index]


@pytest.mark.parametrize("index", range(len(PIPELINES)), ids=lambda i: PIPELINES[i])
def test_pipeline_row_type(both: tuple[Any, Any], index: int) -> None:
    (_, runtime), (_, static) = both
    assert static[index] == runtime[index]


def test_the_corpus_is_large_enough() -> None:
    assert len(EXPRESSIONS) + len(PIPELINES) >= 90
    assert textwrap.dedent(MODEL)  # the model itself type-checks as part of the corpus
