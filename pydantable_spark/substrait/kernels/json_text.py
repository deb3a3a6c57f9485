"""Kernels of the catalog's json text functions (see ``spec`` for what a kernel is)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantable_spark.substrait.kernels.spec import Kernel

__all__ = ["KERNELS"]

KERNELS: tuple[Kernel, ...] = ()
