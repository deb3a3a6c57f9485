"""A mypy cache of the package and its dependencies, built once per process per configuration, copied into each run's.

A cold mypy run analyses ``pydantable_spark``, pydantic and PySpark's stubs
before the few lines a typing test checks: about 20 s a run, where reading
them from a cache takes about 1 s. Each test keeps a cache directory of its
own (what one run leaves there must not reach another test), and starts it
as a copy of the seed of its configuration. A copy hides nothing: mypy checks
every cached module against its source file and the options that affect it,
and analyses again what differs.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from pathlib import Path

from mypy import api

_SEEDS: dict[str, Path] = {}
"""The seed cache of each configuration (its text without ``mypy_path``, which no cached module depends on)."""


def seeded(cache: Path, config: Path) -> str:
    """``cache`` as a ``--cache-dir`` argument: a copy of ``config``'s seed when the directory does not exist yet."""
    if not cache.exists():
        shutil.copytree(_seed(re.sub(r"(?m)^mypy_path\s*=.*\n", "", config.read_text())), cache)
    return str(cache)


def _seed(config: str) -> Path:
    seed = _SEEDS.get(config)
    if seed is None:
        root = Path(tempfile.mkdtemp(prefix="pydantable-mypy-seed-"))
        atexit.register(shutil.rmtree, root, True)
        (root / "mypy.ini").write_text(config)
        module = root / "seed_imports.py"
        module.write_text("import pydantable_spark\nimport pydantable_spark.testing\n")
        api.run(["--config-file", str(root / "mypy.ini"), "--cache-dir", str(root / "cache"), str(module)])
        seed = _SEEDS[config] = root / "cache"
    return seed
