"""The embedded local engine."""

from .backend import LocalBackend

__all__ = ["LocalBackend"]
