"""The files under ``cases/`` and ``pyright/`` are input for mypy and basedpyright, not tests (some fail on purpose)."""

collect_ignore = ["cases", "pyright"]
