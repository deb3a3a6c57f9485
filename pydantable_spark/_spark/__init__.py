"""The one door to Spark: the only package that imports pyspark at run time.

Classic sessions and Spark Connect sessions go through the same code; nothing
here touches ``_jdf``, ``sparkContext`` or RDDs.
"""
