"""Workspaces and experiments: the containers of clusters and jobs."""

from __future__ import annotations

import uuid
from typing import Any

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError
from azure.core.paging import ItemPaged

from ..control import layout
from ..control import records as r
from ..engines.base import Backend
from ._base import ClientBase
from ._records import StoreRecords, iso, resource_id


def single_page(items: list[Any]) -> ItemPaged[Any]:
    """An ``ItemPaged`` over an already-fetched list (the control share is listed in one go)."""
    return ItemPaged(lambda token: items, lambda page: (None, iter(page)))


def ensure_workspace(io: StoreRecords, ws: str, location: str) -> dict[str, Any]:
    rec = io.read_json(layout.workspace_record(ws))
    if rec is None:
        io.create_json(layout.workspace_record(ws), {"name": ws, "uuid": str(uuid.uuid4()), "creationTime": r.now(),
                                                      "location": location, "tags": {}})
        rec = io.read_json(layout.workspace_record(ws))
    return rec or {}


def ensure_experiment(io: StoreRecords, ws: str, exp: str, location: str) -> dict[str, Any]:
    ensure_workspace(io, ws, location)
    rec = io.read_json(layout.experiment_record(ws, exp))
    if rec is None:
        io.create_json(layout.experiment_record(ws, exp), {"name": exp, "uuid": str(uuid.uuid4()), "creationTime": r.now()})
        rec = io.read_json(layout.experiment_record(ws, exp))
    return rec or {}


class WorkspaceClient(ClientBase):
    """Create, get, list and delete workspaces. Clients create the workspace they use on first use."""

    def __init__(self, backend: Backend | None = None) -> None:
        super().__init__(backend)

    def __repr__(self) -> str:
        return f"WorkspaceClient(backend={self.backend!r})"

    def _model(self, rec: dict[str, Any]) -> Any:
        from ..models import Workspace

        return Workspace.deserialize({
            "id": resource_id(self.backend, "workspaces", rec["name"]),
            "name": rec["name"],
            "type": "Microsoft.BatchAI/workspaces",
            "location": rec.get("location"),
            "tags": rec.get("tags") or {},
            "properties": {"creationTime": iso(rec.get("creationTime")), "provisioningState": "succeeded",
                           "provisioningStateTransitionTime": iso(rec.get("creationTime"))},
        })

    def create(self, name: str, *, location: str | None = None, tags: dict[str, str] | None = None) -> Any:
        from ..models import validate_resource_name

        validate_resource_name(name, "workspace")
        rec = {"name": name, "uuid": str(uuid.uuid4()), "creationTime": r.now(),
               "location": location or self.backend.location, "tags": dict(tags or {})}
        if not self._io.create_json(layout.workspace_record(name), rec):
            raise ResourceExistsError(f"The workspace '{name}' already exists.")
        return self._model(rec)

    def get(self, name: str) -> Any:
        rec = self._io.read_json(layout.workspace_record(name))
        if rec is None:
            raise ResourceNotFoundError(f"The workspace '{name}' was not found.")
        return self._model(rec)

    def list(self) -> ItemPaged[Any]:
        recs = [self._io.read_json(layout.workspace_record(n)) for n in self._io.listdir(layout.workspaces_dir())]
        return single_page([self._model(x) for x in recs if x])

    def delete(self, name: str) -> None:
        """Delete a workspace with its clusters and experiments (their jobs are terminated)."""
        from .clusters import ClusterClient
        from .experiments import ExperimentClient

        self.get(name)
        experiments = ExperimentClient(self.backend, workspace=name)
        for exp in list(experiments.list()):
            experiments.delete(exp.name)
        clusters = ClusterClient(self.backend, workspace=name)
        for c in list(clusters.list()):
            clusters.begin_delete(c.name).result()
        self._io.remove_tree(layout.workspace_dir(name))
