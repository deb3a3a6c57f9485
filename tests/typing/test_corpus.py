"""The corpus of broken and valid pipelines: what mypy with the plugin catches, and what it must not flag.

``corpus/broken_*.py`` hold one broken pipeline per ``case_*`` function, grouped by
family (the file); each says where its mistake is caught after ``# expect:``:

* ``mypy`` — mypy with the plugin reports an error inside the function;
* ``plan`` — the runtime raises when the plan is built (before any Spark job);
* ``spark`` — only a Spark job (or the rows it returns) shows it.

mypy must flag exactly the cases expected to be flagged (so the rates reported are
what the tests hold), nothing outside the cases, and nothing in ``corpus/valid_*.py``
(realistic modules; every ``build()`` there also runs). Each broken case is also run,
to show that it is broken: a ``plan`` case raises without a Spark job, a ``spark`` one
when Spark runs it. ``python benchmarks/typing_corpus.py`` prints the rates by family.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from mypy import api
from mypy_seed import seeded

from pydantable_spark._spark import lower as lowering

pytestmark = [pytest.mark.jvm_free, pytest.mark.typecheck]
"""JVM-free tests that run mypy or pyright (`pytest -m "not spark and not typecheck"` leaves them out)."""


CORPUS = Path(__file__).parent / "corpus"
CONFIG = """\
[mypy]
plugins = pydantic.mypy, pydantable_spark.mypy
mypy_path = {corpus}
show_error_codes = True
"""
STAGES = ("mypy", "plan", "spark")


@dataclass(frozen=True)
class Case:
    """One broken pipeline: its file and function, the lines it spans, and where it is caught."""

    family: str
    path: Path
    name: str
    first: int
    last: int
    expected: frozenset[str]

    @property
    def id(self) -> str:
        return f"{self.family}.{self.name.removeprefix('case_')}"


def cases() -> list[Case]:
    """Every ``case_*`` function of the broken corpus, with its ``# expect:`` marker."""
    found = []
    for path in sorted(CORPUS.glob("broken_*.py")):
        lines = path.read_text().splitlines()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("case_"):
                assert node.end_lineno is not None
                marks = [ln for ln in lines[node.lineno - 1 : node.end_lineno] if "# expect:" in ln]
                assert len(marks) == 1, f"{path.name}:{node.name} needs one '# expect:' marker"
                expected = frozenset(marks[0].split("# expect:", 1)[1].split())
                assert expected, f"{path.name}:{node.name}: no stage"
                assert expected <= set(STAGES), f"{path.name}:{node.name}: {expected}"
                family = path.stem.removeprefix("broken_")
                found.append(Case(family, path, node.name, node.lineno, node.end_lineno, expected))
    return found


CASES = cases()


def run_mypy(cache: Path, files: list[Path], plugins: str = "pydantic.mypy, pydantable_spark.mypy") -> list[str]:
    """mypy's report lines for ``files`` (the corpus configuration, a cache in ``cache``)."""
    config = cache / "mypy.ini"
    config.write_text(CONFIG.format(corpus=CORPUS).replace("pydantic.mypy, pydantable_spark.mypy", plugins))
    stdout, stderr, _ = api.run(
        ["--config-file", str(config), "--cache-dir", seeded(cache / "cache", config), *map(str, files)]
    )
    assert not stderr, stderr
    return stdout.splitlines()


def errors_by_line(report: list[str]) -> dict[tuple[str, int], list[str]]:
    errors: dict[tuple[str, int], list[str]] = {}
    for line in report:
        found = re.match(r"(.+?\.py):(\d+): error: (.*)$", line)
        if found:
            errors.setdefault((Path(found[1]).name, int(found[2])), []).append(found[3])
    return errors


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.py"))


def flagged(case: Case, errors: dict[tuple[str, int], list[str]]) -> bool:
    return any(name == case.path.name and case.first <= line <= case.last for name, line in errors)


def rates(errors: dict[tuple[str, int], list[str]]) -> dict[str, tuple[int, int]]:
    """Flagged by mypy / total, by family and ``"all"``."""
    table: dict[str, tuple[int, int]] = {}
    for case in CASES:
        for key in (case.family, "all"):
            hit, total = table.get(key, (0, 0))
            table[key] = (hit + flagged(case, errors), total + 1)
    return table


SHARED = pytest.mark.xdist_group("mypy-corpus")
"""The tests of ``errors`` run in one process under ``pytest -n 2 --dist loadgroup``: its mypy run over the corpus
(about 18 s) is made once, not once per process."""


@pytest.fixture(scope="module")
def errors(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], list[str]]:
    return errors_by_line(run_mypy(tmp_path_factory.mktemp("corpus"), corpus_files()))


@SHARED
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_mypy_flags_what_is_expected(errors: dict[tuple[str, int], list[str]], case: Case) -> None:
    messages = [m for (name, line), ms in errors.items() if name == case.path.name and case.first <= line for m in ms]
    assert flagged(case, errors) == ("mypy" in case.expected), messages


@SHARED
def test_no_error_outside_the_cases(errors: dict[tuple[str, int], list[str]]) -> None:
    inside = {(c.path.name, line) for c in CASES for line in range(c.first, c.last + 1)}
    assert {k: v for k, v in errors.items() if k not in inside} == {}


@SHARED
def test_valid_modules_have_no_false_positive(errors: dict[tuple[str, int], list[str]]) -> None:
    valid = {p.name for p in CORPUS.glob("valid_*.py")} | {"models.py"}
    assert len(valid) >= 6
    assert {k: v for k, v in errors.items() if k[0] in valid} == {}


@SHARED
def test_the_corpus_is_large_and_mypy_flags_at_least_ninety_percent(errors: dict[tuple[str, int], list[str]]) -> None:
    hit, total = rates(errors)["all"]
    assert total >= 120
    assert hit / total >= 0.9, rates(errors)


# --- the corpus itself is right: broken cases fail at run time, valid modules build ------------------


def corpus_module(name: str) -> ModuleType:
    if str(CORPUS) not in sys.path:
        sys.path.insert(0, str(CORPUS))
    return importlib.import_module(name)


class _SparkWouldRun(Exception):
    """Raised where the façade would hand a plan to Spark (works on classic Spark and Connect alike)."""


def _no_spark(*_: object, **__: object) -> None:
    raise _SparkWouldRun


@pytest.mark.spark
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_broken_case_fails_where_expected(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    function = getattr(corpus_module(case.path.stem), case.name)
    if "spark" not in case.expected:  # it must fail before any Spark call
        monkeypatch.setattr(lowering, "execute", _no_spark)
        monkeypatch.setattr(lowering, "arrow_ready", _no_spark)
    with pytest.raises(Exception) as raised:  # noqa: PT011 - each case raises the runtime's own error
        function()
    assert not isinstance(raised.value, _SparkWouldRun), f"{case.id} reached Spark before failing"
    assert not isinstance(raised.value, AssertionError | NameError | ImportError), raised.value


def valid_modules() -> Iterator[str]:
    for path in sorted(CORPUS.glob("valid_*.py")):
        yield path.stem


@pytest.mark.parametrize("name", list(valid_modules()))
def test_valid_module_builds(name: str) -> None:
    frames = corpus_module(name).build()
    assert frames
    assert all(frame.schema.names for frame in frames)


def test_valid_merges_pass_every_check_before_spark(monkeypatch: pytest.MonkeyPatch) -> None:
    """The valid modules' MERGEs are valid at run time too: each reaches Spark (which needs Delta, so stops there)."""
    from pydantable_spark._spark import merge as spark_merge

    monkeypatch.setattr(spark_merge, "merge", _no_spark)
    merges = [merge for name in valid_modules() for merge in getattr(corpus_module(name), "merges", list)()]
    assert len(merges) >= 5
    for merge in merges:
        with pytest.raises(_SparkWouldRun):
            merge()
