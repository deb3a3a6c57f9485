"""The plugin's coverage registry (``_mypy.coverage``): every public name classified, every replayed one hooked.

A public name added to a surface (a frame method, a ``merge``/``testing`` function,
a catalog entry, a namespace method) fails ``test_every_public_name_is_classified``
until the registry says whether the plugin replays it or why it is run-time only.
No mypy run: the names come from introspection, the hooks from the plugin object.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from mypy.options import Options

from pydantable_spark import pyspark_names
from pydantable_spark._mypy import coverage
from pydantable_spark._mypy.coverage import PLAN, SURFACES, Replayed, RunTimeOnly, Surface
from pydantable_spark._mypy.expressions import NAMESPACE_MODULE
from pydantable_spark._mypy.replay import GROUP_BY_METHODS, PIVOTS, frame_methods
from pydantable_spark.frame import DataFrame
from pydantable_spark.mypy import PydantableSparkPlugin

pytestmark = pytest.mark.jvm_free

_ANSWERED = {  # PySpark's spellings, answered by PySparkNameError (mypy: the class has no such attribute)
    "pydantable_spark.frame.DataFrame": pyspark_names.FRAME,
    "pydantable_spark.groupby.GroupBy": pyspark_names.GROUPED,
}


def _resolve(dotted: str) -> Any:
    """The module, or the class of a module, that ``dotted`` names."""
    try:
        return importlib.import_module(dotted)
    except ImportError:
        module, _, name = dotted.rpartition(".")
        return getattr(importlib.import_module(module), name)


def _class_names(cls: type) -> set[str]:
    """A class's public methods and properties (its bases' too), but PySpark's spellings and data fields."""
    answered = _ANSWERED.get(f"{cls.__module__}.{cls.__qualname__}", {})
    names = set()
    for name in dir(cls):
        member = inspect.getattr_static(cls, name)
        if name.startswith("_") or name in answered:
            continue
        if isinstance(member, property | classmethod | staticmethod) or inspect.isfunction(member):
            names.add(name)
    return names


def _module_names(module: Any) -> set[str]:
    """A module's public functions (``__all__``), but classes and values."""
    return {n for n in module.__all__ if callable(getattr(module, n)) and not isinstance(getattr(module, n), type)}


def public_names(surface: Surface) -> set[str]:
    """The surface's public names, by introspection of the runtime."""
    if surface.title == "F (catalog functions)":
        functions, forms = (
            importlib.import_module(surface.owner),
            importlib.import_module("pydantable_spark.expr.forms"),
        )
        return set(functions.__all__) - set(forms.__all__)
    if surface.owner == NAMESPACE_MODULE:
        module = importlib.import_module(surface.owner)
        prefixes = {"StringNamespace": "str", "DateTimeNamespace": "dt", "ListNamespace": "list"}
        prefixes |= {"MapNamespace": "map", "StructNamespace": "struct"}
        return {f"{prefix}.{name}" for cls, prefix in prefixes.items() for name in _class_names(getattr(module, cls))}
    owner = _resolve(surface.owner)
    return _class_names(owner) if isinstance(owner, type) else _module_names(owner)


def unclassified(names: set[str], surface: Surface) -> tuple[list[str], list[str]]:
    """The names no entry classifies, and the entries whose name is gone."""
    return sorted(names - set(surface.entries)), sorted(set(surface.entries) - names)


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: s.title)
def test_every_public_name_is_classified(surface: Surface) -> None:
    missing, gone = unclassified(public_names(surface), surface)
    assert missing == [], f"{surface.title}: classify these in pydantable_spark/_mypy/coverage.py"
    assert gone == [], f"{surface.title}: these are no longer public; remove them from the registry"


def test_a_new_frame_method_is_unclassified() -> None:
    class Grown(DataFrame[Any]):
        def brand_new(self) -> DataFrame[Any]:
            return self

    frame = SURFACES[0]
    assert unclassified(_class_names(Grown), frame) == (["brand_new"], [])


def test_every_entry_says_how_or_why() -> None:
    for surface in SURFACES:
        for name, entry in surface.entries.items():
            if isinstance(entry, RunTimeOnly):
                assert len(entry.reason) > 20, f"{surface.title}.{name}: give the reason in a sentence"
            else:
                assert entry.by in (coverage.PLAN, coverage.CALL, coverage.CATALOG_RULES, coverage.HOOK), name


@pytest.fixture(scope="module")
def plugin() -> PydantableSparkPlugin:
    made = PydantableSparkPlugin(Options())
    made.set_modules({})
    return made


def _fullname(surface: Surface, name: str) -> str:
    """The name mypy asks the plugin's hooks about for a call of ``name`` on this surface."""
    if surface.owner == NAMESPACE_MODULE:
        prefix, _, method = name.partition(".")
        classes = {"str": "String", "dt": "DateTime", "list": "List", "map": "Map", "struct": "Struct"}
        return f"{NAMESPACE_MODULE}.{classes[prefix]}Namespace.{method}"
    owner = _resolve(surface.owner)
    if inspect.ismodule(owner) and surface.owner != "pydantable_spark.functions":
        function = getattr(owner, name)
        return f"{function.__module__}.{function.__qualname__}"  # where it is defined, as mypy names it
    return f"{surface.owner}.{name}"


def test_every_replayed_name_has_a_hook(plugin: PydantableSparkPlugin) -> None:
    hookless = []
    for surface in SURFACES:
        method = not inspect.ismodule(_resolve(surface.owner)) or surface.owner == NAMESPACE_MODULE
        for name, entry in surface.entries.items():
            if not isinstance(entry, Replayed):
                continue
            fullname = _fullname(surface, name)
            hook = plugin.get_method_hook(fullname) if method else plugin.get_function_hook(fullname)
            if hook is None:
                hookless.append(fullname)
    assert hookless == []


def test_the_frames_replayed_methods_are_those_that_only_build_a_plan() -> None:
    """The registry's PLAN names: every public method returning a frame or a ``GroupBy``, not acting on Spark."""
    builds = set()
    for name in _class_names(DataFrame):
        member = inspect.getattr_static(DataFrame, name)
        if not inspect.isfunction(member) or getattr(member, "__acts_on_spark__", False):
            continue
        returns = member.__annotations__.get("return")
        if isinstance(returns, str) and returns.startswith(("DataFrame[", "GroupBy[")):
            builds.add(name)
    assert builds - {"as_model"} == frame_methods() | PIVOTS
    assert frame_methods() | PIVOTS == coverage.replayed_names(coverage.FRAME_ENTRIES, PLAN)
    assert coverage.replayed_names(coverage.GROUP_BY_ENTRIES, PLAN) == GROUP_BY_METHODS == {"agg", "count"}


def test_the_typing_guide_lists_the_registry() -> None:
    page = (Path(__file__).parents[2] / "docs" / "typing.md").read_text()
    found = re.search(r"<!-- coverage: start -->\n```text\n(.*?)```\n<!-- coverage: end -->", page, re.S)
    assert found is not None, "docs/typing.md has no coverage section"
    assert found[1].strip() == coverage.summary().strip(), "run python -m pydantable_spark._mypy.coverage"
