"""Engines: where shares live and how nodes are provisioned (local processes or Azure VM Scale Sets)."""

from .base import Backend, FileEntry, Store

__all__ = ["Backend", "FileEntry", "Store"]
