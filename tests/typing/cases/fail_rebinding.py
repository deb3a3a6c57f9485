"""After a rebinding, the variable's columns are the derived frame's (expected messages after "# E:")."""

from __future__ import annotations

from models import Out, User

from pydantable_spark import DataFrame, F

lines = User.from_rows([])
lines = lines.select(User.id, User.name)
lines.collect()[0].age  # E: "Row[id: int, name: str]" has no attribute "age"
lines.select("age")  # E: select(): unknown column 'age' in the frame; existing columns: id, name
lines = lines.with_columns(margin=F.lit(1.0))
lines.drop("margn")  # E: unknown column 'margn' in drop(); existing columns: id, name, margin; did you mean 'margin'?
lines.nonexistent()  # E: has no attribute "nonexistent"
rows: list[User] = lines.collect()  # E: Incompatible types in assignment (expression has type "list[Row[id: int


def take(frame: DataFrame[Out]) -> None: ...


take(lines)  # E: Argument 1 to "take" has incompatible type "DataFrame[Row[id: int, name: str, margin: float]]"

# Rebound in one branch only: after the branch the variable has its first value's type
maybe = User.from_rows([])
if len(rows) > 1:
    maybe = maybe.with_columns(extra=F.lit(1))
maybe.collect()[0].extra  # E: "User" has no attribute "extra"

# Not covered: a frame rebound through a GroupBy held in a variable (write frame.group_by(...).agg(...))
grouping = lines.group_by("name")
lines = grouping.agg(n=F.count())  # E: Incompatible types in assignment
# ``as_model`` gives exactly DataFrame[Out], for a stage boundary: bind it to a new name
lines = lines.select(User.id, next=F.lit(1)).as_model(Out)  # E: incompatible type "type[Out]"
