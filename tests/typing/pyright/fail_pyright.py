"""Mistakes pyright and Pylance report without the plugin: each line marked ``# E: <rule>`` gets that error."""

from __future__ import annotations

from models import User

users = User.from_rows([])
User.nmae  # E: reportAttributeAccessIssue
users.filter(User.name)  # E: reportArgumentType
users.filter(User.name.str.length())  # E: reportArgumentType
User.id.str.upper()  # E: reportAttributeAccessIssue
User.name.dt.year()  # E: reportAttributeAccessIssue
users.collect()[0].nope  # E: reportAttributeAccessIssue
User(id=1)  # E: reportCallIssue
