"""The quickstart: declare a table, transform it with typed columns, collect validated rows.

No SparkSession is created here: pydantable-spark starts an embedded local one
on first use (or uses the active session, or Spark Connect when SPARK_REMOTE is set).
The tables are declared in ``quickstart_models.py``.
"""

from __future__ import annotations

import datetime

from quickstart_models import Adult, User

from pydantable_spark import F


def main() -> None:
    users = User.from_rows(
        [
            {"id": 1, "name": "Ada", "age": 36, "joined": "2015-12-10"},
            {"id": 2, "name": "Bob", "age": None, "joined": "2021-03-01"},
            {"id": 3, "name": "Cy", "age": 17, "joined": "2024-06-30"},
        ]
    )
    adults = (
        users.filter(User.age >= 18)
        .with_columns(
            next_age=(User.age + 1).fill_null(0),
            member_for_days=F.datediff(F.lit(datetime.date(2025, 1, 1)), User.joined),
            name=User.name.str.upper(),
        )
        .select("id", "name", "next_age", "member_for_days")
    )
    print("derived schema:")
    print(adults.schema)
    print("\nSpark calls:")
    print(adults.explain().split("spark calls (last first):\n")[1])
    for row in adults.as_model(Adult).collect():
        print(repr(row))


if __name__ == "__main__":
    main()
