"""Join conditions and physical controls: mistakes mypy reports, with the runtime's messages."""

from __future__ import annotations

from models import Dept, User

from pydantable_spark import DataFrame, F, left, right

users = User.from_rows([])
depts = Dept.from_rows([])

users.join(depts, on=User.age + Dept.id)  # E: join(on=...) needs boolean conditions
users.join(depts, on=F.col("nope") > 1)  # E: unknown column 'nope' in either frame of the join
users.join(depts, on=F.col("name") == "x")  # E: column 'name' is in both frames; say which one
users.join(users, on=User.id < User.id)  # E: column 'User.id' is in both frames and both frames are User frames
users.join(depts, on=User.age > Dept.id, validate="1:1")  # E: this join has no equal keys
users.join(depts, on=left.col("agee") > right.col("id"))  # E: unknown column 'left.agee' in the left frame
users.join(depts, on=["id", left.col("name") != right.col("nmae")])  # E: unknown column 'right.nmae' in the right
users.join(depts, on=left.col("name") == right.col("id"))  # E: cannot compare column 'left.name' of type str
users.join(depts, on=User.score > right.col("name"))  # E: cannot compare column 'left.score' of type float
users.join(depts, on=left.col("active") & right.col("budget"))  # E: & needs boolean operands; got column 'right.budget'
titled = depts.rename({"name": "title"})
users.join(titled, on=User.name == Dept.name)  # E: column 'Dept.name' is a column of Dept, but the left frame
users.join(depts, on=User.age > Dept.id, hint="mapjoinx")  # E: Argument "hint" to "join" of "DataFrame"
users.hint("brodcast")  # E: Argument 1 to "hint" of "DataFrame" has incompatible type
users.persist("MEMORY")  # E: Argument 1 to "persist" of "DataFrame" has incompatible type
users.repartition("nope")  # E: unknown column 'nope'
users.repartition(0)  # E: repartition() needs n >= 1, got 0
users.coalesce(0)  # E: coalesce() needs n >= 1, got 0
users.sample(1.5)  # E: sample() needs 0 <= fraction <= 1 (without replacement), got fraction=1.5
users.sample(0.5, seed="1")  # E: Argument "seed" to "sample" of "DataFrame" has incompatible type "str"


def above_a_missing_budget(people: DataFrame[User], teams: DataFrame[Dept]) -> None:
    top = teams.group_by(Dept.name).agg(top=F.max(Dept.budget))
    above = User.score > F.col("tops")
    people.join(top, on=[above], left_on=User.name, right_on=Dept.name, how="semi")  # E: unknown column 'tops'
