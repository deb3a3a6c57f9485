"""pyright and Pylance without the mypy plugin: basedpyright on the examples, the docs and ``pyright/``.

* ``examples/`` and ``pyright/pass_types.py`` (whose ``assert_type`` claims are pyright's) have no error,
  under the project's ``[tool.basedpyright]`` (model stubs from ``stubs/`` on stubPath);
* ``pyright/fail_pyright.py``: each line marked ``# E: <rule>`` gets that error, no other line one;
* ``pyright/limits.py``: pyright reports nothing, and mypy with the plugin reports every marked line;
* the README's example and the typing guide's runnable examples, their models moved to a module whose
  stub ``pydantable-spark stubgen`` writes, have no error; the guide's typing cases have no error but
  the known one (their ``assert_type`` claims are the plugin's; the number pyright also meets is pinned);
* the committed ``stubs/`` are what ``stubgen`` writes today.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from mypy import api
from mypy_seed import seeded

from pydantable_spark.stubgen import main, write_stubs

pytestmark = [pytest.mark.jvm_free, pytest.mark.typecheck]
"""JVM-free tests that run mypy or pyright (`pytest -m "not spark and not typecheck"` leaves them out)."""


ROOT = Path(__file__).resolve().parents[2]
PYRIGHT_DIR = Path(__file__).parent / "pyright"
CASES = Path(__file__).parent / "cases"
EXECUTABLE = shutil.which("basedpyright")
needs_pyright = pytest.mark.skipif(
    EXECUTABLE is None, reason="basedpyright is not installed (pip install -e '.[dev]' installs it)"
)

COMMITTED_STUBS = {"quickstart_models": ROOT / "examples", "models": CASES}
"""The modules whose stubs ``stubs/`` holds, and the directory each is imported from."""

Diagnostics = dict[tuple[str, int], list[str]]


def run_pyright(cwd: Path, files: list[Path], config: Path | None = None) -> Diagnostics:
    """basedpyright's errors on ``files`` (by file name and line: their rules), with the package importable."""
    assert EXECUTABLE is not None
    command = [EXECUTABLE, "--outputjson", "--pythonpath", sys.executable]
    if config is not None:
        command += ["--project", str(config)]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [*command, *map(str, files)], cwd=cwd, capture_output=True, text=True, env=environment, timeout=300, check=False
    )
    report = json.loads(done.stdout)
    errors: Diagnostics = {}
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            key = (Path(diagnostic["file"]).name, diagnostic["range"]["start"]["line"] + 1)
            errors.setdefault(key, []).append(diagnostic.get("rule", diagnostic["message"]))
    return errors


def marked(path: Path, marker: str) -> dict[int, str]:
    """The lines of ``path`` ending in ``  # <marker> <text>``, with their text."""
    lines = path.read_text().splitlines()
    return {n: line.split(f"  # {marker} ", 1)[1] for n, line in enumerate(lines, 1) if f"  # {marker} " in line}


@pytest.fixture(scope="module")
def contract() -> Diagnostics:
    """One run over the examples and ``pyright/``, under the project's own configuration."""
    files = sorted((ROOT / "examples").glob("*.py")) + sorted(PYRIGHT_DIR.glob("*.py"))
    return run_pyright(ROOT, files)


@needs_pyright
@pytest.mark.parametrize("name", ["quickstart.py", "quickstart_models.py", "pass_types.py", "limits.py"])
def test_valid_code_has_no_error(contract: Diagnostics, name: str) -> None:
    assert {key: rules for key, rules in contract.items() if key[0] == name} == {}


@needs_pyright
def test_pyright_reports_the_mistakes_it_can_see(contract: Diagnostics) -> None:
    expected = marked(PYRIGHT_DIR / "fail_pyright.py", "E:")
    found = {line: rules for (name, line), rules in contract.items() if name == "fail_pyright.py"}
    assert {line: [rule] for line, rule in expected.items()} == {line: sorted(set(r)) for line, r in found.items()}


def test_mypy_with_the_plugin_reports_what_pyright_does_not(tmp_path: Path) -> None:
    """Each limit of ``pyright/limits.py`` is a real mistake: the plugin reports it."""
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nplugins = pydantic.mypy, pydantable_spark.mypy\nmypy_path = {CASES}\n")
    stdout, _, _ = api.run(
        ["--config-file", str(config), "--cache-dir", seeded(tmp_path / "c", config), str(PYRIGHT_DIR / "limits.py")]
    )
    for line, text in marked(PYRIGHT_DIR / "limits.py", "mypy:").items():
        assert re.search(rf"limits\.py:{line}: error: .*{re.escape(text)}", stdout), (line, text, stdout)


def _split_example(source: str) -> tuple[str, str]:
    """A docs example as two modules: its model classes (``doc_models``) and the rest, importing them."""
    import ast

    tree = ast.parse(source)
    models, rest, names = [], [], []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any("Model" in ast.unparse(b) for b in node.bases):
            models.append(ast.unparse(node))
            names.append(node.name)
        else:
            rest.append(ast.unparse(node))
    imports = [ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    model_module = "\n".join(["from __future__ import annotations", *imports, *models]) + "\n"
    code = "\n".join([f"from doc_models import {', '.join(names)}", *rest]) + "\n"
    return model_module, code


def _readme_example() -> str:
    """The README's first ``pycon`` block, as Python source."""
    import doctest

    block = re.search(r"```pycon\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block is not None
    return "\n".join(e.source for e in doctest.DocTestParser().get_examples(block[1]))


def _typing_guide_examples() -> list[str]:
    """The typing guide's ``python`` blocks that run (not the included test files)."""
    text = (ROOT / "docs" / "typing.md").read_text()
    return [body for body in re.findall(r"```python\n(.*?)```", text, re.S) if not body.startswith("--8<--")]


@needs_pyright
@pytest.mark.parametrize(
    "source",
    [_readme_example(), *_typing_guide_examples()],
    ids=["readme", *[f"typing-guide-{i}" for i in range(len(_typing_guide_examples()))]],
)
def test_docs_examples_have_no_error_with_their_models_stubbed(tmp_path: Path, source: str) -> None:
    models, code = _split_example(source)
    (tmp_path / "doc_models.py").write_text(models)
    (tmp_path / "example.py").write_text(code)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard", "stubPath": "stubs"}))
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["stubgen", "doc_models", "-o", str(tmp_path / "stubs")]) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("doc_models", None)
    assert run_pyright(tmp_path, [tmp_path / "example.py", tmp_path / "doc_models.py"]) == {}


GUIDE_CASES = ["pass_checked.py", "pass_rebinding.py", "pass_fidelity.py"]
KNOWN = {("pass_rebinding.py", 45): ["reportAttributeAccessIssue"]}
"""A derived row's new column (``users.with_columns(next=...).collect()[0].next``): pyright keeps the model."""
CLAIMS_MET = 7
"""How many of the guide cases' ``assert_type`` claims (the plugin's) pyright meets too."""


@needs_pyright
def test_the_typing_guides_cases_type_check_but_for_derived_rows(tmp_path: Path) -> None:
    config = tmp_path / "pyrightconfig.json"
    settings = {"typeCheckingMode": "standard", "stubPath": str(ROOT / "stubs"), "extraPaths": [str(CASES)]}
    config.write_text(json.dumps(settings))
    errors = run_pyright(tmp_path, [CASES / name for name in GUIDE_CASES], config)
    failed_claims = sum(rules.count("reportAssertTypeFailure") for rules in errors.values())
    claims = sum((CASES / name).read_text().count("assert_type(") for name in GUIDE_CASES)
    other = {k: [r for r in v if r != "reportAssertTypeFailure"] for k, v in errors.items()}
    assert {k: v for k, v in other.items() if v} == KNOWN
    assert claims - failed_claims == CLAIMS_MET, f"{claims - failed_claims} of {claims} claims hold: update the guide"


def test_the_committed_stubs_are_up_to_date() -> None:
    for module, directory in COMMITTED_STUBS.items():
        other = sys.modules.pop(module, None)  # another directory's module of the same name (the corpus' models)
        sys.path.insert(0, str(directory))
        try:
            stale = write_stubs([module], ROOT / "stubs", check=True)
        finally:
            sys.path.remove(str(directory))
            sys.modules.pop(module, None)
            if other is not None:
                sys.modules[module] = other
        assert stale == [], (
            f"regenerate: cd {directory.relative_to(ROOT)} && pydantable-spark stubgen {module} -o stubs"
        )


def test_mypy_does_not_read_the_stubs() -> None:
    """pyright's stubPath is not on mypy's path, so the plugin keeps typing the models' own source."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]
    assert config["basedpyright"]["stubPath"] == "stubs"
    assert "mypy_path" not in config["mypy"]
    assert "stubs" not in os.environ.get("MYPYPATH", "")


# --- stubgen on hostile model modules: the stub has no error, valid use none, each misuse its one -------------

STUBGEN_CASES: dict[str, tuple[str, str]] = {
    "sg_versioned": (
        """\
import sys

from pydantable_spark import DataFrameModel

if sys.version_info >= (3, 10):

    class Event(DataFrameModel):
        id: int
        name: str

else:

    class Event(DataFrameModel):
        id: int
        label: str
""",
        """\
from sg_versioned import Event
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Event.name, Col[str])
assert_type(Event(id=1, name="launch").name, str)
Event.label  # E: reportAttributeAccessIssue
""",
    ),
    "sg_constants": (
        """\
from pydantic import Field

from pydantable_spark import DataFrameModel

SHORT, LONG = 20, 200
LOW = HIGH = 1


class Product(DataFrameModel):
    sku: str = Field(min_length=LOW, max_length=SHORT)
    title: str = Field(max_length=LONG)
    stock: int = Field(default=HIGH, ge=LOW)
""",
        """\
from sg_constants import HIGH, LONG, LOW, SHORT, Product
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Product.sku, Col[str])
assert_type(Product.stock, Col[int])
limits: tuple[int, int, int, int] = (SHORT, LONG, LOW, HIGH)
label: str = LONG  # E: reportAssignmentType
""",
    ),
    "sg_fallbacks": (
        """\
from pydantable_spark import DataFrameModel

try:
    from typing import Literal, Self
except ImportError:  # Python 3.10
    from typing_extensions import Literal, Self

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = None


class Parcel(DataFrameModel):
    id: int
    status: Literal["open", "shipped"]

    def shipped(self) -> Self:
        return self.model_copy(update={"status": "shipped"})
""",
        """\
from typing import Literal

from sg_fallbacks import Parcel, Self, tomllib
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Parcel.status, Col[Literal["open", "shipped"]])
assert_type(Parcel(id=1, status="open").shipped(), Parcel)
settings = tomllib.loads("") if tomllib is not None else {}
Parcel.status.dt.year()  # E: reportAttributeAccessIssue
""",
    ),
    "sg_defaults": (
        """\
import datetime

from pydantic import Field

from pydantable_spark import DataFrameModel


class Task(DataFrameModel):
    id: int
    tags: list[str] = Field(default_factory=list)
    due: datetime.date = Field(default_factory=datetime.date.today)
    priority: int = Field(3, ge=0)
    note: str | None = Field(default=None, max_length=10, alias="taskNote")
    done: bool = False
""",
        """\
import datetime

from sg_defaults import Task
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Task.tags, Col[list[str]])
assert_type(Task.due, Col[datetime.date])
assert_type(Task.priority, Col[int])
assert_type(Task.note, Col[str | None])
task = Task(id=1)
assert_type(task.tags, list[str])
assert_type(task.due, datetime.date)
Task.tags.str.upper()  # E: reportAttributeAccessIssue
""",
    ),
    "sg_attributes": (
        """\
from typing import ClassVar

from pydantic import PrivateAttr, computed_field

from pydantable_spark import DataFrameModel


class Account(DataFrameModel):
    id: int
    balance: float
    currency: ClassVar[str] = "EUR"
    _rates: dict[str, float] = PrivateAttr(default_factory=dict)

    @computed_field
    @property
    def doubled(self) -> float:
        return self.balance * 2

    @computed_field
    def label(self) -> str:
        return f"{self.id}:{self.currency}"
""",
        """\
from sg_attributes import Account
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Account.balance, Col[float])
assert_type(Account.currency, str)
account = Account(id=1, balance=2.0)
assert_type(account.doubled, float)
assert_type(account.label, str)
assert_type(account._rates, dict[str, float])
Account.currency.is_null()  # E: reportAttributeAccessIssue
Account.doubled.is_null()  # E: reportAttributeAccessIssue
Account.from_rows([]).select(Account.label)  # E: reportArgumentType
""",
    ),
    "sg_json": (
        """\
from pydantic import Json

from pydantable_spark import DataFrameModel


class Webhook(DataFrameModel):
    id: int
    payload: Json[dict[str, int]]
    tags: Json[list[str]] | None = None
""",
        """\
from sg_json import Webhook
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Webhook.payload, Col[dict[str, int]])
assert_type(Webhook.tags, Col[list[str] | None])
# pydantic's Json[T] is T to a checker's constructor (as on any pydantic model): the JSON text is reported
hook = Webhook(id=1, payload='{"a": 1}')  # E: reportArgumentType
assert_type(hook.payload, dict[str, int])
Webhook.payload.str.upper()  # E: reportAttributeAccessIssue
""",
    ),
    "sg_shop": (
        "from . import models\nfrom .models import Order\n",
        """\
from sg_shop import Order
from sg_shop.models import Order as Same
from typing_extensions import assert_type

from pydantable_spark import Col

assert_type(Order.id, Col[int])
assert_type(Same.placed, Col[str])
Order.nope  # E: reportAttributeAccessIssue
""",
    ),
}
"""Model modules (``sg_shop`` a package whose ``models`` its ``__init__`` imports relatively), each with a use."""

SHOP_MODELS = (
    "from pydantable_spark import DataFrameModel\n\n\nclass Order(DataFrameModel):\n    id: int\n    placed: str\n"
)


@pytest.fixture(scope="module")
def stubgen_cases(tmp_path_factory: pytest.TempPathFactory) -> Diagnostics:
    """One basedpyright run over the stubs ``stubgen`` writes for ``STUBGEN_CASES`` and their uses."""
    root = tmp_path_factory.mktemp("stubgen-cases")
    for name, (models, use) in STUBGEN_CASES.items():
        (root / f"{name}.py").write_text(models)
        (root / f"use_{name}.py").write_text(use)
    (root / "sg_shop.py").unlink()
    (root / "sg_shop").mkdir()
    (root / "sg_shop" / "__init__.py").write_text(STUBGEN_CASES["sg_shop"][0])
    (root / "sg_shop" / "models.py").write_text(SHOP_MODELS)
    (root / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard", "stubPath": "stubs"}))
    sys.path.insert(0, str(root))
    try:
        written = write_stubs([*STUBGEN_CASES, "sg_shop.models"], root / "stubs")
    finally:
        sys.path.remove(str(root))
        for name in [*STUBGEN_CASES, "sg_shop.models"]:
            sys.modules.pop(name, None)
    uses = [root / f"use_{name}.py" for name in STUBGEN_CASES]
    return run_pyright(root, [*written, *uses])


@needs_pyright
@pytest.mark.parametrize("name", STUBGEN_CASES)
def test_stubgen_stubs_type_hostile_models_as_they_run(stubgen_cases: Diagnostics, name: str) -> None:
    use = STUBGEN_CASES[name][1]
    expected = {n: [line.split("  # E: ")[1]] for n, line in enumerate(use.splitlines(), 1) if "  # E: " in line}
    stub = "__init__.pyi" if name == "sg_shop" else f"{name}.pyi"
    assert {line: rules for (file, line), rules in stubgen_cases.items() if file == stub} == {}
    assert {line: rules for (file, line), rules in stubgen_cases.items() if file == f"use_{name}.py"} == expected


def test_the_stubgen_cases_run_as_their_stubs_type_them(tmp_path: Path) -> None:
    """What the stubs claim is what the classes do: computed fields, class and private attributes are no columns."""
    for name in ("sg_attributes", "sg_json"):
        (tmp_path / f"{name}.py").write_text(STUBGEN_CASES[name][0])
    sys.path.insert(0, str(tmp_path))
    try:
        from sg_attributes import Account  # type: ignore[import-not-found]
        from sg_json import Webhook  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("sg_attributes", "sg_json"):
            sys.modules.pop(name, None)
    assert Account.frame_schema().names == ("id", "balance")
    assert (repr(Account.balance), Account.currency) == ("Col[float](balance)", "EUR")
    assert isinstance(vars(Account)["doubled"], property)
    assert isinstance(vars(Account)["label"], property)
    account = Account(id=1, balance=2.0)
    assert (account.doubled, account.label, account._rates) == (4.0, "1:EUR", {})
    assert repr(Webhook.payload) == "Col[dict[str, int]](payload)"
    assert Webhook(id=1, payload='{"a": 1}', tags='["x"]').model_dump() == {"id": 1, "payload": {"a": 1}, "tags": ["x"]}


def corpus_errors(tmp: Path) -> Diagnostics:
    """basedpyright's errors on the typing corpus (``tests/typing/corpus``), its models stubbed by ``stubgen``."""
    corpus = Path(__file__).parent / "corpus"
    for source in sorted(corpus.glob("*.py")):
        shutil.copy(source, tmp / source.name)
    sys.path.insert(0, str(tmp))
    other = sys.modules.pop("models", None)  # another directory's module of that name (the cases' models)
    try:
        write_stubs(["models"], tmp / "stubs")
    finally:
        sys.path.remove(str(tmp))
        sys.modules.pop("models", None)
        if other is not None:
            sys.modules["models"] = other
    (tmp / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard", "stubPath": "stubs"}))
    return run_pyright(tmp, sorted(tmp.glob("*.py")))


PYRIGHT_ON_THE_CORPUS = {"anycolumn": 1, "arguments": 13, "expressions": 3, "stale": 1, "all": 18}
"""The corpus' broken pipelines basedpyright flags with the stubs, by family (the others: none), as the guide says."""


@needs_pyright
def test_pyright_on_the_typing_corpus_flags_what_the_guide_says(tmp_path: Path) -> None:
    import test_corpus as corpus

    errors = corpus_errors(tmp_path)
    flagged = {}
    for case in corpus.CASES:
        for key in (case.family, "all"):
            flagged[key] = flagged.get(key, 0) + corpus.flagged(case, errors)
    assert {k: v for k, v in flagged.items() if v} == PYRIGHT_ON_THE_CORPUS
    valid = {p.name for p in corpus.CORPUS.glob("valid_*.py")} | {"models.py"}
    false = sorted(line for (name, line), _ in errors.items() if name in valid)
    # all in valid_revenue.py, whose own model LineAmount pyright types by its fields (stubs apply to importers)
    assert {name for (name, _), _ in errors.items() if name in valid} == {"valid_revenue.py"}
    assert all("LineAmount" in (corpus.CORPUS / "valid_revenue.py").read_text().splitlines()[n - 1] for n in false)
    docs = (ROOT / "docs" / "typing.md").read_text()
    assert f"flags {PYRIGHT_ON_THE_CORPUS['all']} of the {len(corpus.CASES)}" in docs
