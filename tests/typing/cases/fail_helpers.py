"""Mistakes with the interface contract's helpers that mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import Dept, User

users = User.from_rows([])
users.rename_prefix("x_", selector="nope")  # E: unknown column 'nope' in rename_prefix(selector=...)
users.rename_replace("age", "id")  # E: rename_replace(): 'age' → 'id' would give two columns one name
users.rename_suffix(1)  # E: Argument 1 to "rename_suffix" of "DataFrame" has incompatible type "int"
users.select_first("agee")  # E: did you mean 'age'?
users.move("age")  # E: move() takes before= or after=
users.move("age", after="age")  # E: move(): column 'age' cannot be moved after itself
Dept.from_rows([]).explode_all()  # E: explode_all(): the frame has no list column
Dept.from_rows([]).unnest_all()  # E: unnest_all(): the frame has no struct column
User.age.isin(User.id)  # E: isin() takes Python values, not expressions
User.name.str.matches("")  # E: pattern must not be empty
User.tags.list.contains_any([])  # E: values must hold at least one value
User.tags.list.contains_all([1])  # E: have no common element type
User.age.list.list_is_empty()  # E: list.list_is_empty(): col must be a list; got column 'User.age'
users.collect(as_lists=True).age  # E: "dict[str, list[Any]]" has no attribute "age"
