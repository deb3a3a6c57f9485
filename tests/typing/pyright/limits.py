"""Mistakes pyright and Pylance do not report (mypy with the plugin reports each line marked ``# mypy:``).

Valid for pyright: ``tests/typing/test_pyright.py`` asserts that basedpyright reports nothing here,
and that mypy with the plugin reports every marked line. The typing guide lists them.
"""

from __future__ import annotations

from models import Dept, Out, User

from pydantable_spark import F

users = User.from_rows([])
_ = User.name + 1  # mypy: Unsupported operand types for +
_ = User.joined > 1  # mypy: Unsupported operand types for >
users.select(F.col("nmae"))  # mypy: unknown column 'nmae'
users.select(User.id).with_columns(x=User.age)  # mypy: unknown column 'User.age'
users.select(Dept.budget)  # mypy: unknown column 'Dept.budget'
users.select(User.id, User.age).as_model(Out)  # mypy: as_model(Out)
users.sort("nope")  # mypy: unknown column 'nope'
users.filter(F.sum(User.id) > 1)  # mypy: aggregate
