"""Every code block of the README and the docs runs here, so a docs example cannot drift from the code.

``pycon`` blocks are doctests (their printed output is compared); ``python`` blocks are run; the
blocks of one page share one namespace, in order. A block that includes a file
(``--8<-- "path"``) shows a file that other tests run (the mypy typing cases). Blocks titled
"not run" show other libraries for comparison, and may only appear in the migration guide.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```$", re.S | re.M)
INCLUDE = re.compile(r'^--8<-- "([^"]+)"$')
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _blocks(page: Path) -> list[tuple[str, str, str, int]]:
    text = page.read_text()
    return [(m[1], m[2], m[3], text[: m.start()].count("\n") + 1) for m in FENCE.finditer(text)]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_the_page_runs(page: Path) -> None:
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    ran = 0
    for language, info, body, line in _blocks(page):
        where = f"{page.name}:{line}"
        included = INCLUDE.match(body.strip())
        if included:
            assert (ROOT / included[1]).is_file(), f"{where}: includes a missing file"
            assert included[1].startswith("tests/"), f"{where}: an included block must be a file the tests run"
            continue
        if language == "python" and "not run" in info:
            assert page.name == "migration.md", f"{where}: only the migration guide may show code that is not run"
            continue
        if language == "python":
            exec(compile(body, where, "exec", dont_inherit=True), namespace)  # as a user's module runs it
            ran += 1
        elif language == "pycon":
            test = doctest.DocTestParser().get_doctest(body, namespace, where, str(page), line)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            output: list[str] = []
            runner.run(test, out=output.append, clear_globs=False)
            assert runner.failures == 0, "".join(output)
            namespace.update(test.globs)  # DocTest works on a copy; later blocks see what this one made
            ran += 1
    code_pages = {"README.md", "typing.md", "io.md", "connect.md", "changelog.md", "reference.md", "functions.md"}
    assert ran > 0 or page.name in code_pages, f"{page.name} has no example that runs"


def test_every_page_is_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in (ROOT / "docs").glob("*.md"):
        assert f": {page.name}" in nav, f"{page.name} is missing from mkdocs.yml's nav"
