"""Typing claims, checked by running mypy with the plugin on files that must pass or must fail.

``cases/pass_*.py`` must type-check without any error (``assert_type`` states each
claim); in ``cases/fail_*.py`` every line ending in ``# E: <text>`` must get an
error containing ``<text>``, and no other line may get one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from mypy import api
from mypy_seed import seeded

pytestmark = [pytest.mark.jvm_free, pytest.mark.typecheck]
"""JVM-free tests that run mypy or pyright (`pytest -m "not spark and not typecheck"` leaves them out)."""


CASES = Path(__file__).parent / "cases"
CONFIG = """\
[mypy]
plugins = pydantic.mypy, pydantable_spark.mypy
mypy_path = {cases}
show_error_codes = True
show_column_numbers = False
warn_unused_ignores = True
"""


def mypy_output(tmp_path: Path, files: list[Path], config: str = CONFIG, *flags: str) -> tuple[str, str]:
    """mypy's report and log for ``files`` under ``config``, with the cache in ``tmp_path``."""
    path = tmp_path / "mypy.ini"
    path.write_text(config.format(cases=CASES))
    stdout, stderr, _ = api.run(
        ["--config-file", str(path), "--cache-dir", seeded(tmp_path / "cache", path), *flags, *map(str, files)]
    )
    return stdout, stderr


def run_mypy(tmp_path: Path, files: list[Path], config: str = CONFIG) -> dict[tuple[str, int], list[str]]:
    stdout, stderr = mypy_output(tmp_path, files, config)
    assert not stderr, stderr
    errors: dict[tuple[str, int], list[str]] = {}
    for line in stdout.splitlines():
        found = re.match(r"(.+?\.py):(\d+): error: (.*)$", line)
        if found:
            errors.setdefault((Path(found[1]).name, int(found[2])), []).append(found[3])
    return errors


SHARED = pytest.mark.xdist_group("mypy-cases")
"""The tests of ``results`` run in one process under ``pytest -n 2 --dist loadgroup``: its mypy run over the cases
(about 19 s) is made once, not once per process."""


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], list[str]]:
    return run_mypy(tmp_path_factory.mktemp("mypy"), sorted(CASES.glob("*.py")))


def expectations() -> Iterator[tuple[str, int, str]]:
    for path in sorted(CASES.glob("fail_*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if "  # E: " in line:
                yield path.name, number, line.split("  # E: ", 1)[1]


def pass_files() -> list[str]:
    return [p.name for p in sorted(CASES.glob("pass_*.py"))] + ["models.py"]


@SHARED
@pytest.mark.parametrize("name", pass_files())
def test_file_type_checks_cleanly(results: dict[tuple[str, int], list[str]], name: str) -> None:
    problems = {key: value for key, value in results.items() if key[0] == name}
    assert problems == {}


@SHARED
@pytest.mark.parametrize(("name", "line", "expected"), list(expectations()), ids=lambda v: str(v)[:40])
def test_expected_error(results: dict[tuple[str, int], list[str]], name: str, line: int, expected: str) -> None:
    messages = results.get((name, line), [])
    assert any(expected in message for message in messages), messages


@SHARED
def test_no_unexpected_errors(results: dict[tuple[str, int], list[str]]) -> None:
    expected = {(name, line) for name, line, _ in expectations()}
    unexpected = {key: value for key, value in results.items() if key[0].startswith("fail_") and key not in expected}
    assert unexpected == {}


def test_there_are_at_least_sixty_claims() -> None:
    claims = len(list(expectations()))
    for path in CASES.glob("pass_*.py"):
        claims += path.read_text().count("assert_type(")
    assert claims >= 60


@pytest.mark.parametrize(
    "config",
    [
        CONFIG.replace("pydantic.mypy, ", ""),  # pydantic's own plugin is optional
        CONFIG + "allow_redefinition = True\n",  # mypy's flexible redefinition works as well
    ],
    ids=["without-pydantic-plugin", "allow-redefinition"],
)
def test_other_configurations(tmp_path: Path, config: str) -> None:
    files = [CASES / "pass_rebinding.py", CASES / "pass_fidelity.py", CASES / "models.py"]
    assert run_mypy(tmp_path, files, config) == {}


def test_models_read_from_the_cache_keep_their_column_order(tmp_path: Path) -> None:
    """A run that reads the models from mypy's cache derives the same row types as a cold run."""
    module = tmp_path / "uses_models.py"
    source = (
        "from models import Shipment, User\n"
        "reveal_type(User.from_rows([]).with_columns(x=User.id).collect()[0])\n"
        "reveal_type(Shipment.from_rows([]).drop('id').collect()[0])\n"
        "reveal_type(User.from_rows([]).select(User.address).collect()[0].address)\n"
    )
    module.write_text(source)
    cold, _ = mypy_output(tmp_path, [module])
    module.write_text(source + "# changed: this module is checked again, the models come from the cache\n")
    warm, log = mypy_output(tmp_path, [module], CONFIG, "--verbose")
    assert "Metadata fresh for models" in log
    revealed = re.findall(r'Revealed type is "(.*)"', cold)
    assert re.findall(r'Revealed type is "(.*)"', warm) == revealed
    assert revealed[0].startswith("uses_models.Row[id: int, name: str, age: int | None, score: float, joined: date")
    assert revealed[1].startswith("uses_models.Row[trackingNo: str | None, status: str, kind: Literal")


def test_a_call_mypy_refuses_for_its_arity_gets_only_mypy_s_message(tmp_path: Path) -> None:
    """The plugin's hooks do not type a call missing an argument (they used to crash on it, and said so)."""
    module = tmp_path / "short_calls.py"
    module.write_text(
        "from models import User\n"
        "from pydantable_spark import F\n"
        "User.id.between(1)\n"
        "F.when(User.active)\n"
        "F.when(User.active, 1).when(User.id > 1)\n"
        "F.when(User.active, 1).otherwise()\n"
    )
    report, _ = mypy_output(tmp_path, [module])
    assert 'Missing positional argument "upper" in call to "between"' in report
    assert report.count('Missing positional argument "value" in call to "when"') == 2
    assert 'Missing positional argument "value" in call to "otherwise"' in report
    assert "could not type" not in report


def test_a_group_by_over_a_nullable_key_without_drop_nulls_gets_a_note(tmp_path: Path) -> None:
    """A note, not an error, naming the keys whose NULL rows are left out; writing drop_nulls= (either way) says it."""
    module = tmp_path / "null_keys.py"
    module.write_text(
        "from models import User\n"
        "from pydantable_spark import F\n"
        "users = User.from_rows([])\n"
        "users.group_by('joined', 'age').agg(n=F.count())\n"
        "users.group_by(User.age, User.seen).agg(n=F.count())\n"
        "users.group_by('age', drop_nulls=True).agg(n=F.count())\n"
        "users.group_by('age', drop_nulls=False).agg(n=F.count())\n"
        "users.group_by('id', 'joined').agg(n=F.count())\n"
        "users.with_columns(a=User.age).group_by('a').count()\n"
    )
    report, _ = mypy_output(tmp_path, [module])
    notes = dict(re.findall(r"null_keys\.py:(\d+): note: (.*)", report))
    assert set(notes) == {"4", "5", "9"}, report
    assert notes["4"].startswith('group_by(): rows whose "age" is NULL are left out (drop_nulls=True, the default')
    assert 'rows whose "age" or "seen" is NULL' in notes["5"]
    assert "write drop_nulls=False to keep them as groups, or drop_nulls=True to say so" in notes["5"]
    assert 'rows whose "a" is NULL' in notes["9"]
    assert "error" not in report, report


def test_the_tpch_queries_type_check_strictly_without_a_false_positive(tmp_path: Path) -> None:
    """The 22 TPC-H queries (``benchmarks/tpch``: joins on conditions, semi/anti joins, Decimal arithmetic)."""
    root = Path(__file__).parents[2]
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = pydantic.mypy, pydantable_spark.mypy\nstrict = True\n")
    args = ["--config-file", str(config), "--cache-dir", seeded(tmp_path / "cache", config), "-p", "benchmarks.tpch"]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)  # benchmarks/ is a namespace package of the repository
        stdout, stderr, status = api.run(args)
    assert (status, stderr) == (0, ""), stdout
    assert "Success: no issues found in 7 source files" in stdout


def test_a_module_checked_again_in_one_process_keeps_only_its_new_tree(tmp_path: Path) -> None:
    """As under the daemon: what the plugin remembers of a module is for the tree checked last, one per module."""
    from pydantable_spark._mypy import ir

    module = tmp_path / "again.py"
    source = "from models import User\nname = {name!r}\nUser.from_rows([]).select(name)\n"
    module.write_text(source.format(name="age"))
    first, _ = mypy_output(tmp_path, [module])
    assert "error" not in first, first
    held = ir._MODULES["again"].tree
    module.write_text(source.format(name="agee"))
    second, _ = mypy_output(tmp_path, [module])
    assert "again.py:3: error: select(): unknown column 'agee'" in second, second
    assert ir._MODULES["again"].tree is not held
    assert sum(name == "again" for name in ir._MODULES) == 1


def test_the_replayed_frame_methods_are_read_from_the_frame_class() -> None:
    """Every plan-building method is replayed; those acting on Spark when called, the pivots and as_model are not."""
    from pydantable_spark._mypy.replay import frame_methods

    replayed = frame_methods()
    assert {"select", "join", "group_by", "pivot_longer", "unnest_all", "repartition", "cache"} <= replayed
    assert not {"checkpoint", "local_checkpoint", "unpersist", "as_model", "pivot", "collect", "to_arrow"} & replayed


def test_the_daemon_sees_a_changed_model_through_the_plugin_s_memos(tmp_path: Path) -> None:
    """Under ``dmypy`` the plugin stays loaded and a changed class keeps its ``TypeInfo`` object.

    What the plugin reads once per class (a model's columns, ``_mypy.models.model_columns``)
    must be read again when the class changes: a renamed field is unknown to the
    next check, and its new name is known.
    """
    models = tmp_path / "daemon_models.py"
    uses = tmp_path / "daemon_uses.py"
    model = "from pydantable_spark import DataFrameModel\n\n\nclass M(DataFrameModel):\n    {field}: int\n"
    models.write_text(model.format(field="a"))
    uses.write_text(
        "from daemon_models import M\n\nframe = M.from_rows([])\nframe.select('a')\nframe.with_columns(b=M.a + 1)\n"
    )
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = pydantic.mypy, pydantable_spark.mypy\n")
    status = ["--status-file", str(tmp_path / "dmypy.json")]
    check = [*status, "run", "--", "--config-file", str(config), "--cache-dir", str(tmp_path / "cache")]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        try:
            first, _, _ = api.run_dmypy([*check, str(models), str(uses)])
            models.write_text(model.format(field="b"))
            second, _, _ = api.run_dmypy([*check, str(models), str(uses)])
        finally:
            api.run_dmypy([*status, "stop"])
    assert "Success: no issues found in 2 source files" in first, first
    assert "daemon_uses.py:4: error: select(): unknown column 'a'" in second, second
    assert 'daemon_uses.py:5: error: "type[M]" has no attribute "a"' in second, second
