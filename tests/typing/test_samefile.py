"""Models declared in the module that uses them, spelled ``ModelColumn[T]``: pyright needs no stub.

The variants are generated from the typing corpus (``corpus/``), never committed: each corpus module
gets the corpus' models (``corpus/models.py``) pasted where it imported them, and every field of
every ``DataFrameModel`` (the pasted ones and the module's own) is rewritten ``x: ModelColumn[T]``,
a default ``= v`` as ``= ModelColumn(default=v)`` (``Field(...)`` with a default as
``ModelColumn(...)``; a function's own ``from models import X`` becomes ``pass``). Then:

* basedpyright reports nothing in the valid modules (with plain annotations it reports 87 errors
  there), and in the broken ones flags the cases pinned below, by family;
* mypy with the plugin reports nothing in the valid modules and flags exactly the broken cases it
  flags in the corpus as written (``test_corpus``): its figures are unchanged.
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import test_corpus as corpus
from mypy_seed import seeded
from test_pyright import EXECUTABLE, Diagnostics, run_pyright

pytestmark = [pytest.mark.jvm_free, pytest.mark.typecheck]
"""JVM-free tests that run mypy or pyright (`pytest -m "not spark and not typecheck"` leaves them out)."""

needs_pyright = pytest.mark.skipif(
    EXECUTABLE is None, reason="basedpyright is not installed (pip install -e '.[dev]' installs it)"
)

MODEL_BASES = {"DataFrameModel"}


def _model_classes(tree: ast.Module, known: set[str]) -> list[ast.ClassDef]:
    """The classes of ``tree`` that derive from ``DataFrameModel`` or from a model in ``known`` (updated)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).rpartition(".")[2] in known for b in node.bases):
            known.add(node.name)
            found.append(node)
    return found


def _field_call_has_default(call: ast.Call) -> bool:
    return bool(call.args) or any(k.arg in ("default", "default_factory") for k in call.keywords)


def with_model_columns(source: str, known: set[str] | None = None) -> str:
    """``source`` with its models' fields spelled ``ModelColumn[T]``, on the same lines as before."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(line: int, column: int) -> int:
        return offsets[line - 1] + len(lines[line - 1].encode()[:column].decode())

    edits: list[tuple[int, int, str]] = []  # (start, end, text) on the whole source

    def wrap(node: ast.expr, before: str, after: str) -> None:
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        start, end = at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset)
        edits.append((start, end, before + source[start:end] + after))

    for model in _model_classes(tree, known if known is not None else set(MODEL_BASES)):
        for statement in model.body:
            if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
                continue
            if statement.target.id.startswith("_") or "ClassVar" in ast.unparse(statement.annotation):
                continue
            wrap(statement.annotation, "ModelColumn[", "]")
            value = statement.value
            if value is None:
                continue
            if isinstance(value, ast.Call) and ast.unparse(value.func) == "Field":
                if _field_call_has_default(value):
                    assert not value.args, "corpus models give Field's default by name"
                    func = value.func
                    start, end = at(func.lineno, func.col_offset), at(func.lineno, func.col_offset + len("Field"))
                    edits.append((start, end, "ModelColumn"))
            else:
                wrap(value, "ModelColumn(default=", ")")
    for node in ast.walk(tree):  # a function's own `from models import X`: the pasted models are the module's
        if isinstance(node, ast.FunctionDef):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module == "models":
                    assert statement.end_lineno == statement.lineno
                    start = at(statement.lineno, statement.col_offset)
                    edits.append((start, at(statement.lineno, statement.end_col_offset or 0), "pass"))
    out = source
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    return out


@dataclass(frozen=True)
class SameFile:
    """A corpus module with the corpus' models pasted in: its text and how its lines map to the original's."""

    name: str
    text: str
    first: int
    """The first pasted line."""
    pasted: int
    """How many lines replace the original's lines ``first .. first + replaced - 1``."""
    replaced: int

    def original_line(self, line: int) -> int | None:
        """The original module's line of a line of this text, None for a pasted line."""
        if line < self.first:
            return line
        if line < self.first + self.pasted:
            return None
        return line - self.pasted + self.replaced


def same_file(path: Path, models: str) -> SameFile:
    """``path``'s module with ``models`` (already rewritten) in place of its ``from models import ...``."""
    source = path.read_text()
    tree = ast.parse(source)
    known = set(MODEL_BASES) | {n.name for n in _model_classes(ast.parse(models), set(MODEL_BASES))}
    rewritten = with_model_columns(source, known)
    lines = rewritten.splitlines(keepends=True)
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "models"]
    if imports:
        (node,) = imports
        assert node.end_lineno is not None
        first, replaced = node.lineno, node.end_lineno - node.lineno + 1
    else:  # a module with models of its own only: the shared ones go after `from __future__ import annotations`
        (future,) = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"]
        first, replaced = future.lineno + 1, 0
    block = ["from pydantable_spark import ModelColumn\n", *_pasted(models)]
    text = "".join([*lines[: first - 1], *block, *lines[first - 1 + replaced :]])
    return SameFile(path.name, text, first, len(block), replaced)


def _pasted(models: str) -> list[str]:
    """The models module's statements but its docstring and ``from __future__`` import, as lines."""
    tree = ast.parse(models)
    lines = models.splitlines(keepends=True)
    body = [n for n in tree.body if not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return lines[body[0].lineno - 1 :]


def samefile_corpus(directory: Path) -> dict[str, SameFile]:
    """Every corpus module (``valid_*``, ``broken_*``), written to ``directory`` with its models in the file."""
    models = with_model_columns((corpus.CORPUS / "models.py").read_text())
    out = {}
    for path in sorted(corpus.CORPUS.glob("*_*.py")):
        module = same_file(path, models)
        (directory / path.name).write_text(module.text)
        out[path.name] = module
    return out


def original_errors(errors: Diagnostics, modules: dict[str, SameFile]) -> Diagnostics:
    """Errors on the generated modules, keyed by the original module's lines (``<name>:models`` for pasted lines)."""
    out: Diagnostics = {}
    for (name, line), rules in errors.items():
        original = modules[name].original_line(line) if name in modules else line
        key = (name, original) if original is not None else (f"{name}:models", line)
        out.setdefault(key, []).extend(rules)
    return out


def pyright_samefile_errors(directory: Path) -> Diagnostics:
    """basedpyright's errors on the same-file corpus (no stub), by the original modules' lines."""
    modules = samefile_corpus(directory)
    (directory / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard"}))
    return original_errors(run_pyright(directory, sorted(directory.glob("*.py"))), modules)


def flagged_by_family(errors: Diagnostics) -> dict[str, int]:
    flagged: dict[str, int] = {}
    for case in corpus.CASES:
        for key in (case.family, "all"):
            flagged[key] = flagged.get(key, 0) + corpus.flagged(case, errors)
    return {k: v for k, v in flagged.items() if v}


def in_valid_modules(errors: Diagnostics) -> Diagnostics:
    valid = {p.name for p in corpus.CORPUS.glob("valid_*.py")}
    return {key: rules for key, rules in errors.items() if key[0].partition(":")[0] in valid}


PYRIGHT_SAMEFILE = {"arguments": 13, "expressions": 3, "stale": 1, "all": 17}
"""The broken pipelines basedpyright flags with same-file ``ModelColumn`` models, by family (the others: none).

As with the stubs (``test_pyright.PYRIGHT_ON_THE_CORPUS``) but ``anycolumn.sort_by_a_variant``, which the
stubbed run flags only because it reads that module's own ``Variant | None`` field as a value, not a column."""


def test_the_generated_modules_keep_the_original_lines() -> None:
    models = with_model_columns((corpus.CORPUS / "models.py").read_text())
    assert '    tracking: ModelColumn[str | None] = ModelColumn(default=None, alias="trackingNo")\n' in models
    assert "    id: ModelColumn[int]\n" in models
    for path in sorted(corpus.CORPUS.glob("*_*.py")):
        module = same_file(path, models)
        original, generated = path.read_text().splitlines(), module.text.splitlines()
        for number, line in enumerate(generated, 1):
            mapped = module.original_line(number)
            if mapped is not None and "ModelColumn" not in line and line.strip() != "pass":
                assert original[mapped - 1] == line, (path.name, number)


def test_the_generated_modules_run_as_the_corpus(tmp_path: Path) -> None:
    """The variants are valid Python with the same models: every valid module builds its frames."""
    samefile_corpus(tmp_path)
    sys.path.insert(0, str(tmp_path))
    names = [p.stem for p in sorted(corpus.CORPUS.glob("valid_*.py"))]
    saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    try:
        for name in names:
            module = __import__(name)
            assert module.__file__ == str(tmp_path / f"{name}.py")
            assert all(frame.schema.names for frame in module.build())
    finally:
        sys.path.remove(str(tmp_path))
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


@needs_pyright
def test_pyright_has_no_error_in_valid_modules_with_same_file_models(tmp_path: Path) -> None:
    errors = pyright_samefile_errors(tmp_path)
    assert in_valid_modules(errors) == {}
    assert flagged_by_family(errors) == PYRIGHT_SAMEFILE
    pasted = {key: rules for key, rules in errors.items() if key[0].endswith(":models")}
    assert pasted == {}


def test_mypy_flags_the_same_cases_with_same_file_models(tmp_path: Path) -> None:
    modules = samefile_corpus(tmp_path)
    config = tmp_path / "mypy.ini"
    config.write_text(corpus.CONFIG.format(corpus=tmp_path))
    from mypy import api

    stdout, stderr, _ = api.run(
        [
            "--config-file",
            str(config),
            "--cache-dir",
            seeded(tmp_path / "cache", config),
            *map(str, sorted(tmp_path.glob("*.py"))),
        ]
    )
    assert not stderr, stderr
    errors = original_errors(corpus.errors_by_line(stdout.splitlines()), modules)
    assert in_valid_modules(errors) == {}
    assert {key: rules for key, rules in errors.items() if key[0].endswith(":models")} == {}
    wrong = [case.id for case in corpus.CASES if corpus.flagged(case, errors) != ("mypy" in case.expected)]
    assert wrong == []
    inside = {(c.path.name, line) for c in corpus.CASES for line in range(c.first, c.last + 1)}
    assert {k: v for k, v in errors.items() if k not in inside} == {}


@needs_pyright
def test_pyright_reads_a_modelcolumn_model_declared_in_the_same_file(tmp_path: Path) -> None:
    """``cases/pass_modelcolumn.py`` without a stub: the ``# both`` claims hold, and only plugin-only claims fail."""
    cases = Path(__file__).parent / "cases"
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard"}))
    errors = run_pyright(tmp_path, [cases / "pass_modelcolumn.py"])
    lines = (cases / "pass_modelcolumn.py").read_text().splitlines()
    assert all(rules == ["reportAssertTypeFailure"] for rules in errors.values()), errors
    assert not [line for (_, line) in errors if lines[line - 1].endswith("# both")]
    assert sorted(line for _, line in errors) == PYRIGHT_PLUGIN_ONLY_CLAIMS


PYRIGHT_PLUGIN_ONLY_CLAIMS = [49, 57]
"""The plugin's claims of ``pass_modelcolumn.py`` pyright does not meet: a plain field (``Order.plain`` is ``int``
to pyright in its own module) and a derived row's column."""


@needs_pyright
def test_pyright_reports_constructor_and_default_mistakes(tmp_path: Path) -> None:
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard"}))
    (tmp_path / "mistakes.py").write_text(PYRIGHT_MISTAKES)
    errors = run_pyright(tmp_path, [tmp_path / "mistakes.py"])
    lines = enumerate(PYRIGHT_MISTAKES.splitlines(), 1)
    expected = {n: [line.split("  # E: ")[1]] for n, line in lines if "# E:" in line}
    assert {line: rules for (_, line), rules in errors.items()} == expected


PYRIGHT_MISTAKES = """\
from __future__ import annotations

import datetime

from pydantable_spark import DataFrameModel, ModelColumn


class Order(DataFrameModel):
    id: ModelColumn[int]
    day: ModelColumn[datetime.date | None] = ModelColumn(default=None)
    qty: ModelColumn[int] = ModelColumn(default="x")  # E: reportAssignmentType
    note: ModelColumn[str | None] = None  # E: reportAssignmentType


Order(id=1)
Order(id="x")  # E: reportArgumentType
Order()  # E: reportCallIssue
Order.id.str.upper()  # E: reportAttributeAccessIssue
Order.from_rows([]).filter(Order.day)  # E: reportArgumentType
"""
