"""What every client holds: the engine and its control share."""

from __future__ import annotations

import logging
from typing import Any

from ..engines.base import Backend
from ._records import StoreRecords

log = logging.getLogger("batchai_sdk")


def default_backend() -> Backend:
    from ..engines.local import LocalBackend

    return LocalBackend()


class ClientBase:
    def __init__(self, backend: Backend | None) -> None:
        self._backend = backend if backend is not None else default_backend()
        self._owns_backend = backend is None

    @property
    def backend(self) -> Backend:
        return self._backend

    @property
    def _io(self) -> StoreRecords:
        return StoreRecords(self._backend.store, self._backend.control_share)

    def close(self) -> None:
        """Release the engine's connections if this client made the engine."""
        if self._owns_backend:
            self._backend.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class WorkspaceClientBase(ClientBase):
    """A client of the resources of one workspace (created on first use)."""

    def __init__(self, backend: Backend | None, workspace: str) -> None:
        super().__init__(backend)
        from ..models import validate_resource_name

        self.workspace = validate_resource_name(workspace, "workspace")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(backend={self.backend!r}, workspace={self.workspace!r})"
