"""Dev-time generators, kept out of the runtime package: the catalog's stubs and the functions page.

``python -m tools.catalog_stubs`` writes ``functions.pyi`` and ``expr/namespaces.pyi`` from the
function catalog; ``python -m tools.functions_page`` writes ``docs/functions.md``. The tests check
that both are up to date.
"""
