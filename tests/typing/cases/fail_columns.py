"""Column and expression mistakes mypy must report (expected messages after "# E:")."""

from __future__ import annotations

import datetime

from models import User

from pydantable_spark import F

User.agee  # E: "type[User]" has no attribute "agee"
User.name + 1  # E: Unsupported operand types for + ("Col[str]" and "int")
1 + User.name  # E: Unsupported operand types for + ("int" and "Col[str]")
User.name - User.id  # E: Unsupported operand types for - ("Col[str]" and "Col[int]")
User.score // 2  # E: Unsupported operand types for // ("Col[float]" and "int")
User.joined * 2  # E: Unsupported operand types for * ("Col[date]" and "int")
User.active + 1  # E: Unsupported operand types for + ("Col[bool]" and "int")
User.name > 1  # E: Unsupported operand types for > ("Col[str]" and "int")
User.id & User.active  # E: Unsupported operand types for & ("Col[int]" and "Col[bool]")
User.active | "x"  # E: Unsupported operand types for | ("Col[bool]" and "str")
"a" - User.price  # E: Unsupported operand types for - ("str" and "Col[Decimal]")
User.price * ("a" - User.price)  # E: Unsupported operand types for - ("str" and "Col[Decimal]")
User.price * (User.price - "a")  # E: Unsupported operand types for - ("Col[Decimal]" and "str")
-User.name  # E: unary minus needs a number; got column 'User.name'
~User.id  # E: ~ needs boolean operands; got column 'User.id'
User.id.str.upper()  # E: str.upper(): col must be a string; got column 'User.id' of type int
User.name.dt.year()  # E: dt.year(): col must be a date or datetime; got column 'User.name'
User.name.str.contains(1)  # E: str.contains(): right must be a string or bytes; got literal 1
User.joined.cast(int)  # E: cannot cast column 'User.joined' of type date (date) to int (bigint)
User.active.cast(datetime.date)  # E: cannot cast column 'User.active'
User.name.cast(list[str])  # E: cannot cast column 'User.name' of type str (string) to list[str]
User.age.is_in(["a"])  # E: is_in() value literal 'a' of type str (string) cannot be compared
User.name.between(1, 2)  # E: between() bound literal 1 of type int (bigint) cannot be compared
User.age.fill_null("x")  # E: coalesce(): no common type for column 'User.age'
F.coalesce(User.name, User.id)  # E: coalesce(): no common type
F.when(User.id, 1)  # E: when() needs a boolean condition; got column 'User.id'
F.when(User.active, 1).otherwise("x")  # E: when/otherwise: no common type
F.when(User.active, 1).when(User.active, "x")  # E: when/otherwise: no common type
F.concat(User.name, User.id)  # E: F.concat(): cols must be a string or a list; got column 'User.id'
F.date_add(User.joined, 1.5)  # E: F.date_add(): days must be an integer; got literal 1.5
F.datediff(User.joined, User.id)  # E: F.datediff(): start must be a date or datetime; got column 'User.id'
F.upper(User.id)  # E: F.upper(): col must be a string
User.address.struct.field("nope")  # E: struct.field(): unknown field "nope"; fields: city, zip
User.tags.list.contains(1)  # E: list.contains(): value literal 1 of type int (bigint) cannot be compared
User.id.list.len()  # E: list.len(): col must be a list or a map; got column 'User.id'


@F.udf
def shout(text: str) -> str:
    return text.upper()


@F.udf
def scaled(value: float | None, by: int) -> float:
    return (value or 0.0) * by


# UDF calls: the runtime's rules for the arguments (types, nullability, arity)
shout(User.id)  # E: shout(): parameter text is str (string); got column 'User.id' of type int (bigint)
scaled(User.score, User.age)  # E: scaled(): column 'User.age' of type int | None (bigint) can be NULL but parameter by
shout(User.name, User.name)  # E: shout() takes 1 argument(s) (text), got 2
scaled(User.score, 1.5)  # E: scaled(): parameter by is int (bigint); got literal 1.5
F.concat(User.name, shout(User.id))  # E: shout(): parameter text is str (string)
scaled(None, 2)  # E: a null literal needs a type: F.lit(None, dtype=...)
