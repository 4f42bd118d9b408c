"""Errors raised by batchai_sdk.

Service-style failures reuse azure-core's exception types (the Azure SDK guidelines), so code written
against azure-mgmt-batchai catches the same classes. Bad input raises :class:`ValidationError`.
"""

from __future__ import annotations

from collections.abc import Iterable

from azure.core.exceptions import (
    AzureError,
    HttpResponseError,
    ResourceExistsError,
    ResourceNotFoundError,
)

__all__ = [
    "AzureError",
    "HttpResponseError",
    "ResourceExistsError",
    "ResourceNotFoundError",
    "ValidationError",
    "JobFailedError",
]


class ValidationError(ValueError):
    """A specification was refused before anything was created.

    ``errors`` lists every problem as ``(path, message)``, the path in wire form such as
    ``properties.outputDirectories[1].id``.
    """

    def __init__(self, errors: Iterable[tuple[str, str]], subject: str | None = None) -> None:
        self.errors: list[tuple[str, str]] = list(errors)
        self.subject = subject
        head = f"{subject} is invalid" if subject else "invalid specification"
        lines = [f"{path}: {message}" if path else message for path, message in self.errors]
        super().__init__(head + ":\n  " + "\n  ".join(lines) if lines else head)


class JobFailedError(HttpResponseError):
    """Raised by ``JobClient.wait(..., raise_on_failure=True)`` when a job ends failed."""
