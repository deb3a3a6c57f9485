"""MERGE mistakes mypy must report with the runtime's messages (``merge_into`` and its clauses)."""

from __future__ import annotations

import datetime

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark.merge import Delete, Update, delete, insert, insert_all, source, target, update, update_all


class Venue(DataFrameModel):
    id: int
    name: str
    city: str
    rating: int
    opened: datetime.date | None


class VenueChange(DataFrameModel):
    id: int
    name: str
    city: str | None
    rating: int
    gone: bool


class Score(DataFrameModel):
    id: int
    value: float


ch = VenueChange.from_rows([])
T = "lake.places.venues"

# the examples
ch.merge_into(  # E: update() sets column 'rating' to column 'source.name' of type str (string): cannot reconcile
    T, model=Venue, on="id", when_matched=update(rating=source.col("name"))
)
ch.merge_into(  # E: a nullable value into a non-null column
    T, model=Venue, on="id", when_matched=update(city=source.col("city"))
)
ch.merge_into(  # E: unknown column 'source.nmae' in the source frame
    T, model=Venue, on="id", when_matched=update(name=source.col("nmae"))
)
ch.merge_into(  # E: delete() condition= needs a boolean expression
    T, model=Venue, on="id", when_matched=delete(condition=source.col("rating"))
)
ch.merge_into(  # E: leaves out non-null column(s) 'name', 'city', 'rating'
    T, model=Venue, on="id", when_not_matched=insert(id=source.col("id"))
)
ch.merge_into(  # E: unknown column 'opened' in the source frame, which update_all() reads
    T, model=Venue, on="id", when_matched=update_all()
)
ch.merge_into(  # E: rand() gives another value each time it runs
    T, model=Venue, on="id", when_matched=delete(condition=F.rand() > 0.5)
)

# clause combinations, sides and values the runtime refuses
ch.merge_into(T, on="id", when_matched=[update_all(), delete()])  # E: update_all() has no condition but is not the last
ch.merge_into(T, on="id", when_not_matched_by_source=update_all())  # E: when_not_matched_by_source cannot update_all()
ch.merge_into(  # E: target.gone is a column of the target
    T, on="id", when_not_matched=insert_all(condition=target.col("gone"))
)
ch.merge_into(  # E: source.rating is a column of the source
    T, on="id", when_not_matched_by_source=update(rating=source.col("rating"))
)
ch.merge_into(T, on="id")  # E: no clause: give when_matched=, when_not_matched= and/or when_not_matched_by_source=
ch.merge_into(  # E: unknown column 'gone' in the target model Venue (on=)
    T, model=Venue, on="gone", when_matched=delete()
)
ch.merge_into(T, model=Venue, on=source.col("id") == target.col("name"), when_matched=delete())  # E: cannot compare
ch.merge_into(  # E: column 'name' is in both the source
    T, model=Venue, on="id", when_matched=update(name=F.col("name"))
)
ch.merge_into(  # E: which the target model declares non-null, to NULL
    T, model=Venue, on="id", when_matched=update(name=None)
)
ch.merge_into(  # E: sets column 'opened' (date) to '2024-01-01'
    T, model=Venue, on="id", when_matched=update(opened="2024-01-01")
)
ch.merge_into(  # E: of type float (double): cannot
    T, model=Venue, on="id", when_matched=update(rating=VenueChange.rating * 1.5)
)
ch.merge_into(  # E: of type int (bigint): cannot reconcile
    T, model=Score, on="id", when_matched=update(value=source.col("rating"))
)
ch.merge_into(T, path="/tmp/venues", on="id", when_matched=delete())  # E: or a Delta table's path= (both given)
ch.merge_into("db.${env}", on="id", when_matched=delete())  # E: table name 'db.${env}' contains '${'

# clause lists, values and tables known through variables
fixed: list[Update | Delete] = [delete(condition=source.col("gone")), update(city=source.col("city"))]
ch.merge_into(T, model=Venue, on="id", when_matched=fixed)  # E: merge_into('lake.places.venues'): when_matched update()


def upsert(frame: DataFrame[VenueChange], table: str, today: datetime.date) -> None:
    frame.merge_into(  # E: merge_into(table): when_matched update() sets
        table, on="id", when_matched=update(gone=today)
    )
