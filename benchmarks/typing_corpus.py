"""Catch rates of the typing corpus (tests/typing/corpus), by family.

Runs mypy with the plugin over the corpus once and prints, for each family of
broken pipelines, how many mypy flags, how many are caught before any Spark job
(mypy, or the runtime when the plan is built) and how many only when Spark runs,
and the errors mypy reports in the valid modules (false positives). The expected
catch of every case is asserted by ``tests/typing/test_corpus.py``.

With ``--pyright``, basedpyright with the corpus' models stubbed instead of mypy
(the "before Spark" column still counts what the runtime catches when the plan is built);
with ``--samefile``, basedpyright with no stub on the corpus modules, each with the models
pasted in and spelled ``ModelColumn[T]`` (``tests/typing/test_samefile.py``).

Run: ``python benchmarks/typing_corpus.py [--pyright | --samefile]``.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests" / "typing"


def _corpus_module() -> Any:
    spec = importlib.util.spec_from_file_location("typing_corpus_test", TESTS / "test_corpus.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _pyright_errors() -> dict[tuple[str, int], list[str]]:
    sys.path.insert(0, str(TESTS))
    import test_pyright  # the tests' own runner of basedpyright

    if test_pyright.EXECUTABLE is None:
        sys.exit("basedpyright is not installed (pip install -e '.[dev]' installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        return test_pyright.corpus_errors(Path(tmp))  # type: ignore[no-any-return]


def _samefile_errors() -> dict[tuple[str, int], list[str]]:
    sys.path.insert(0, str(TESTS))
    import test_samefile  # the same-file ModelColumn variants of the corpus

    if test_samefile.EXECUTABLE is None:
        sys.exit("basedpyright is not installed (pip install -e '.[dev]' installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        return test_samefile.pyright_samefile_errors(Path(tmp))  # type: ignore[no-any-return]


def main() -> None:
    corpus = _corpus_module()
    arguments = sys.argv[1:]
    checker = "pyright" if "--pyright" in arguments else "samefile" if "--samefile" in arguments else "mypy"
    if checker == "pyright":
        errors = _pyright_errors()
    elif checker == "samefile":
        errors = _samefile_errors()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            report = corpus.run_mypy(Path(tmp), corpus.corpus_files())
        errors = corpus.errors_by_line(report)
    cases = corpus.CASES
    families = sorted({c.family for c in cases})
    print(f"{'family':14} {'cases':>5} {checker:>11} {'before Spark':>13} {'Spark only':>10}")
    rows = [(family, [c for c in cases if c.family == family]) for family in families] + [("all", cases)]
    for family, chosen in rows:
        total = len(chosen)
        flagged = sum(corpus.flagged(c, errors) for c in chosen)
        spark = sum("spark" in c.expected and not corpus.flagged(c, errors) for c in chosen)
        before = total - spark
        rate, early = f"({flagged / total:>4.0%})", f"({before / total:>4.0%})"
        print(f"{family:14} {total:>5} {flagged:>4} {rate} {before:>6} {early} {spark:>10}")
    valid = {p.name for p in corpus.CORPUS.glob("valid_*.py")} | {"models.py"}
    false = {k: v for k, v in errors.items() if k[0] in valid}
    lines = sum((corpus.CORPUS / name).read_text().count("\n") for name in valid)
    print(f"valid modules: {len(valid)} files, {lines} lines, {len(false)} lines with an error (false positives)")
    for (name, line), messages in sorted(false.items()):
        print(f"  {name}:{line}: {messages}")


if __name__ == "__main__":
    main()
