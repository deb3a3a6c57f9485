"""The files under ``cases/`` are input for mypy, not tests (some fail on purpose)."""

collect_ignore = ["cases"]
