"""The API reference (docs/reference.md) documents every public name and no internal helper; its examples are code.

The site is built once, as CI builds it (``mkdocs build --strict``), and its inventory (``objects.inv``) lists
every object the reference renders and every path under which it is documented. The public names are the
package's: the names of ``__all__`` in the root and in the modules users import from (``PUBLIC_MODULES``); the
methods and properties of each public class; and those of every class the public API hands out, found from the
return annotations of the public methods and properties (``DataFrame.group_by`` gives a ``GroupBy``,
``Window.partition_by`` a ``WindowSpec``), read with griffe as mkdocstrings reads them. A class handed out that
is the library's own machinery is named in ``MACHINERY`` with the member that exposes it. ``F``'s catalog
functions and the namespaces' methods are documented on docs/functions.md, a table generated from the catalog.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.jvm_free, pytest.mark.xdist_group("docs-site")]
"""In one process under ``pytest -n 2 --dist loadgroup``: the site's build (``site``, about 15 s) and griffe's reading
of the package are made once, not once per process."""

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "pydantable_spark"

PUBLIC_MODULES = (
    "pydantable_spark",
    "pydantable_spark.functions",
    "pydantable_spark.selectors",
    "pydantable_spark.dtypes",
    "pydantable_spark.errors",
    "pydantable_spark.testing",
    "pydantable_spark.engines",
    "pydantable_spark.substrait",
    "pydantable_spark.modelgen",
    "pydantable_spark.merge",
    "pydantable_spark.plan_format",
    "pydantable_spark.display",
    "pydantable_spark.constraints",
)
"""The modules users import names from: the root, the modules it exports, and those the guides import from."""

MACHINERY = {
    "pydantable_spark.plan.nodes.Plan": "DataFrame.plan, the logical plan the library's tools read",
    "pydantable_spark.expr.core.Node": "Expr.node, the expression's node in the IR",
    "pydantable_spark.expr.core.Column": "Col.node, a column's node in the IR",
    "pydantable_spark.expr.over.Frame": "WindowSpec.frame, the frame rows_between/range_between set, in the IR",
    "pydantable_spark.expr.core.Typed": "Expr.typed, the node's type and nullability",
    "pydantable_spark.expr.over.Over": "WindowSpec.over, the IR node of `expr.over(window)`",
}
"""Classes a public member returns that are the library's own machinery: the member is documented, they are not."""

NAMESPACES = {
    "pydantable_spark.expr.namespaces.StringNamespace": "str",
    "pydantable_spark.expr.namespaces.DateTimeNamespace": "dt",
    "pydantable_spark.expr.namespaces.ListNamespace": "list",
    "pydantable_spark.expr.namespaces.MapNamespace": "map",
    "pydantable_spark.expr.namespaces.StructNamespace": "struct",
}
"""``Expr.str``, ``.dt``, ``.list``, ``.map``, ``.struct``: their methods are catalog entries (docs/functions.md)."""

CONTAINERS = {"pydantable_spark.expr.forms": "F's special forms (F.col, F.lit, F.when, F.udf, ...), shown together"}
"""Modules the reference renders to show a family of public names together, though users import them elsewhere."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs site, built as CI builds it (strict: a reference that does not resolve fails the build)."""
    out = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def inventory(site: Path) -> dict[str, str]:
    """Every path the site documents, with its priority: "1" the rendered object, "2" another path to it."""
    data = (site / "objects.inv").read_bytes()
    start = 0
    for _ in range(4):  # four header lines, then zlib
        start = data.index(b"\n", start) + 1
    entries = [line.split(" ") for line in zlib.decompress(data[start:]).decode().splitlines()]
    return {name: priority for name, _, priority, *_ in entries if name.startswith(PACKAGE)}


@pytest.fixture(scope="module")
def package() -> Any:
    """The package as griffe reads it (mkdocstrings' collector): static, with annotations as written."""
    import griffe

    return griffe.load(PACKAGE, search_paths=[str(ROOT)], resolve_aliases=True, resolve_external=False)


def _static(package: Any, path: str) -> Any:
    """griffe's object at ``path`` (an alias followed to its target), or None when griffe cannot see it."""
    import griffe

    try:
        found = package if path == PACKAGE else package[path.removeprefix(f"{PACKAGE}.")]
        return found.final_target if isinstance(found, griffe.Alias) else found
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _path(value: Any) -> str | None:
    """Where a class, function or module is defined (None for other values)."""
    if inspect.ismodule(value):
        return value.__name__
    if inspect.isclass(value) or inspect.isfunction(value):
        return f"{value.__module__}.{value.__qualname__}"
    return None


def _in_package(cls: type) -> bool:
    return cls.__module__.startswith(PACKAGE)


def _members(cls: type) -> dict[str, bool]:
    """The public members the package defines on ``cls`` or its bases, each with whether it must be documented.

    Methods and properties must be; data attributes (dataclass fields) and special methods (``__getitem__``)
    may be.
    """
    found: dict[str, bool] = {}
    for klass in cls.__mro__:
        if not _in_package(klass):
            continue
        for name, value in vars(klass).items():
            special = name.startswith("__") and name.endswith("__")
            if (special or not name.startswith("_")) and name not in found:
                is_method = isinstance(value, property | classmethod | staticmethod) or inspect.isfunction(value)
                found[name] = is_method and not special
    return found


def _returned_classes(package: Any, path: str) -> list[str]:
    """The package classes a callable or property at ``path`` returns, by its annotation."""
    import griffe

    found = _static(package, path)
    if found is None:
        return []
    annotation = found.returns if found.is_function else found.annotation if found.is_attribute else None
    if annotation is None or isinstance(annotation, str):
        return []
    classes = []
    for part in annotation.iterate(flat=True):
        if isinstance(part, griffe.ExprName):
            try:
                target = _static(package, part.canonical_path) if part.canonical_path.startswith(PACKAGE) else None
            except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            if target is not None and target.is_class:
                classes.append(target.path)
    return classes


def _exports(module_name: str, name: str, value: object) -> bool:
    """Whether module ``module_name`` exports ``value`` as ``name`` too."""
    module = importlib.import_module(module_name)
    return name in getattr(module, "__all__", ()) and getattr(module, name, None) is value


def public_names(package: Any) -> dict[str, tuple[set[str], bool]]:
    """Each public name, as users reach it: the paths it may be documented under, and whether it must be.

    Data attributes of classes (dataclass fields) are public but need no entry of their own.
    """
    names: dict[str, tuple[set[str], bool]] = {}
    classes: dict[str, type] = {}

    def add_class(cls: type, reached: str) -> None:
        if _in_package(cls) and _path(cls) not in classes:
            classes[_path(cls) or reached] = cls

    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            exported = f"{module_name}.{name}"
            static = _static(package, exported)
            paths = {exported, *filter(None, [_path(value), static.path if static is not None else None])}
            paths |= {f"{container}.{name}" for container in CONTAINERS if _exports(container, name, value)}
            names[exported] = (paths, True)
            if inspect.isclass(value):
                add_class(value, exported)
            elif not inspect.ismodule(value) and not inspect.isfunction(value) and _in_package(type(value)):
                add_class(type(value), exported)  # an instance users are given (left, right): its class's methods
    done: set[str] = set()
    while len(done) < len(classes):
        path = next(p for p in classes if p not in done)
        done.add(path)
        cls = classes[path]
        bases = [_path(k) for k in cls.__mro__ if _in_package(k)]
        names.setdefault(path, ({path}, True))
        for member, is_callable in _members(cls).items():
            names[f"{path}.{member}"] = ({f"{base}.{member}" for base in bases}, is_callable)
            for returned in _returned_classes(package, f"{path}.{member}"):
                if returned in classes or returned in MACHINERY or returned in NAMESPACES:
                    continue
                module_name, _, class_name = returned.rpartition(".")
                add_class(getattr(importlib.import_module(module_name), class_name), returned)
    return names


def test_the_guides_import_only_from_public_modules() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    imported = {m for page in pages for m in re.findall(r"from (pydantable_spark(?:\.\w+)*) import", page.read_text())}
    assert imported <= set(PUBLIC_MODULES), imported - set(PUBLIC_MODULES)


def test_every_public_name_is_in_the_reference(inventory: dict[str, str], package: Any) -> None:
    catalog = set(re.findall(r"\bF\.\w+", (ROOT / "docs" / "functions.md").read_text()))
    missing = []
    for reached, (paths, required) in public_names(package).items():
        if not required or paths & set(inventory):
            continue
        if reached.startswith(f"{PACKAGE}.functions.") and f"F.{reached.rpartition('.')[2]}" in catalog:
            continue  # a catalog function, on docs/functions.md
        missing.append(f"{reached} (documented as one of {sorted(paths)})")
    assert not missing, "public names missing from the API reference:\n" + "\n".join(sorted(missing))


def test_the_reference_renders_no_internal_name(inventory: dict[str, str], package: Any) -> None:
    public = {path for paths, _ in public_names(package).values() for path in paths}
    rendered = {name for name, priority in inventory.items() if priority == "1"}
    internal = sorted(rendered - public - set(PUBLIC_MODULES) - set(CONTAINERS))
    assert not internal, "the API reference renders names that are not public:\n" + "\n".join(internal)


def test_every_example_the_reference_renders_is_a_fenced_code_block(
    site: Path, inventory: dict[str, str], package: Any
) -> None:
    """A doctest outside a fence renders as nested blockquotes, its reprs as links (``href="isin(n, 1, 2)"``)."""
    unfenced = []
    for name, priority in inventory.items():
        found = _static(package, name) if priority == "1" else None
        fenced = False
        for line in (found.docstring.value if found is not None and found.docstring else "").splitlines():
            if line.strip().startswith("```"):
                fenced = not fenced
            elif line.strip().startswith(">>>") and not fenced:
                unfenced.append(f"{name} ({found.relative_filepath}, docstring at line {found.docstring.lineno})")
                break
    assert not unfenced, "doctests outside a ```pycon fence:\n" + "\n".join(sorted(unfenced))
    page = (site / "reference" / "index.html").read_text()
    assert not re.search(r"<blockquote>\s*<blockquote>", page), "a docstring renders as nested blockquotes"
    links = set(re.findall(r'href="([^"]*)"', page))
    assert not [link for link in links if not link.startswith(("#", "http", "..", "./")) and link != ".."], links
