"""Architecture rules that a test can hold: one door to Spark, immutable records."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import pydantable_spark

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


PACKAGE = Path(pydantable_spark.__file__).parent


def _pyspark_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import of pyspark in ``tree``: at the top, in a function, under ``TYPE_CHECKING``."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "pyspark" for a in node.names):
            found.append(node)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pyspark":
            found.append(node)
    return found


def _runtime_pyspark_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text())
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded |= {id(child) for child in ast.walk(node)}
    return [node.lineno for node in _pyspark_imports(tree) if id(node) not in guarded]


def test_only_the_spark_package_imports_pyspark_at_run_time() -> None:
    offenders = {}
    for path in PACKAGE.rglob("*.py"):
        if "_spark" in path.relative_to(PACKAGE).parts:
            continue
        lines = _runtime_pyspark_imports(path)
        if lines:
            offenders[str(path.relative_to(PACKAGE))] = lines
    assert offenders == {}


def test_building_plans_does_not_even_import_pyspark() -> None:
    code = (
        "import sys\n"
        "from pydantable_spark import DataFrameModel, F\n"
        "class U(DataFrameModel):\n"
        "    id: int\n"
        "    age: int | None\n"
        "df = U.from_rows([{'id': 1, 'age': None}]).filter(U.age > 1).with_columns(x=F.col('id') * 2)\n"
        "print(df.schema)\n"
        "assert not any(m.split('.')[0] == 'pyspark' for m in sys.modules), 'pyspark was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "x: int (bigint)" in done.stdout


def test_loading_the_mypy_plugin_imports_neither_pyarrow_nor_pyspark() -> None:
    """pyarrow comes with the first data read in or out (``ingest``, ``materialize``), not with the package.

    The plugin builds plans on frames with no data, as here.
    """
    code = (
        "import sys\n"
        "import pydantable_spark.mypy\n"
        "from pydantable_spark import DataFrame, DataFrameModel, F\n"
        "from pydantable_spark.constructors import schema_of_model\n"
        "from pydantable_spark.plan.nodes import Source\n"
        "class U(DataFrameModel):\n"
        "    id: int\n"
        "frame = DataFrame(Source(None, schema_of_model(U)), U)\n"
        "print(frame.with_columns(x=F.col('id') + 1).group_by('x').agg(n=F.count()).schema)\n"
        "assert 'pyarrow' not in sys.modules, 'pyarrow was imported before any data'\n"
        "assert not any(m.split('.')[0] == 'pyspark' for m in sys.modules), 'pyspark was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_steps_layer_never_imports_pyspark_not_even_lazily() -> None:
    """Plans → steps and the passes are pure Python (STYLE §15): no pyspark import of any kind there."""
    layer = PACKAGE / "steps"
    offenders = {
        str(path.relative_to(PACKAGE)): [node.lineno for node in _pyspark_imports(ast.parse(path.read_text()))]
        for path in sorted(layer.rglob("*.py"))
    }
    assert len(offenders) >= 7
    assert {path: lines for path, lines in offenders.items() if lines} == {}


def test_explaining_a_plan_does_not_import_pyspark() -> None:
    code = (
        "import sys\n"
        "from pydantable_spark import DataFrameModel, F\n"
        "class U(DataFrameModel):\n"
        "    id: int\n"
        "    tags: list[str]\n"
        "rows = U.from_rows([{'id': 1, 'tags': ['a']}])\n"
        "df = rows.join(rows.explode('tags').group_by('id').agg(n=F.count()), on='id').filter(U.id > 0)\n"
        "print(df.explain())\n"
        "assert not any(m.split('.')[0] == 'pyspark' for m in sys.modules), 'pyspark was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "spark calls (last first):\n  to struct<id:bigint,tags:array<string>,n:bigint>" in done.stdout
    assert "join inner on" in done.stdout


def test_records_are_frozen_slotted_dataclasses() -> None:
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="pydantable_spark."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if dataclasses.is_dataclass(value) and isinstance(value, type) and value.__module__ == module.__name__:
                assert value.__dataclass_params__.frozen, value  # type: ignore[attr-defined]
                assert "__slots__" in value.__dict__, value


MIXINS = {"constructors": "Constructors", "results": "Results", "writers": "Writers", "streaming.frames": "Streams"}
"""``DataFrame``'s mixins by module: ``frame.py`` keeps the relational methods (STYLE §13)."""


def test_the_frame_is_its_relational_methods_over_mixins() -> None:
    from pydantable_spark._mypy.frames import FRAME_MIXINS
    from pydantable_spark.frame import DataFrame

    bases = [f"{base.__module__}.{base.__qualname__}" for base in DataFrame.__bases__]
    assert bases == [f"pydantable_spark.{module}.{name}" for module, name in MIXINS.items()]
    assert set(bases) == FRAME_MIXINS  # the plugin names their methods DataFrame's in messages
    for base in DataFrame.__bases__:
        methods = {name for name, value in vars(base).items() if callable(value) or isinstance(value, classmethod)}
        assert methods, base
        assert not methods & set(vars(DataFrame)), base  # defined once, where they belong
        assert vars(base)["__slots__"] == (), base  # so that frames keep no __dict__
    assert not hasattr(DataFrame(None, None), "__dict__")


def _annotation_of_first_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    arguments = function.args.posonlyargs + function.args.args
    return ast.unparse(arguments[0].annotation) if arguments and arguments[0].annotation else ""


def test_mixins_type_self_as_themselves() -> None:
    """A mixin types ``self``/``cls`` as itself, never as ``DataFrame`` (mypy refuses that self type)."""
    for module in MIXINS:
        tree = ast.parse((PACKAGE / f"{module.replace('.', '/')}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert "DataFrame" not in _annotation_of_first_parameter(node), (module, node.name)


def test_a_jvm_free_test_that_asks_for_a_session_fails() -> None:
    # the tier is kept honest: the root conftest refuses every way to a session in a test marked jvm_free
    from pydantable_spark._spark.session import resolve_session

    with pytest.raises(AssertionError, match="is marked jvm_free but asked for a SparkSession"):
        resolve_session(None)
