"""The logic of the mypy plugin; ``pydantable_spark.mypy`` only routes mypy's hooks here."""
