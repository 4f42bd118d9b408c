"""Experiments: named groups of jobs in a workspace."""

from __future__ import annotations

import uuid
from typing import Any

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError
from azure.core.paging import ItemPaged

from ..control import layout
from ..control import records as r
from ..engines.base import Backend
from ._base import WorkspaceClientBase
from ._records import iso, resource_id
from .workspaces import ensure_workspace, single_page


class ExperimentClient(WorkspaceClientBase):
    """Create, get, list and delete experiments of one workspace."""

    def __init__(self, backend: Backend | None = None, workspace: str = "default") -> None:
        super().__init__(backend, workspace)

    def _model(self, rec: dict[str, Any]) -> Any:
        from ..models import Experiment

        return Experiment.deserialize({
            "id": resource_id(self.backend, "workspaces", self.workspace, "experiments", rec["name"]),
            "name": rec["name"],
            "type": "Microsoft.BatchAI/workspaces/experiments",
            "properties": {"creationTime": iso(rec.get("creationTime")), "provisioningState": "succeeded",
                           "provisioningStateTransitionTime": iso(rec.get("creationTime"))},
        })

    def create(self, name: str) -> Any:
        from ..models import validate_resource_name

        validate_resource_name(name, "experiment")
        ensure_workspace(self._io, self.workspace, self.backend.location)
        rec = {"name": name, "uuid": str(uuid.uuid4()), "creationTime": r.now()}
        if not self._io.create_json(layout.experiment_record(self.workspace, name), rec):
            raise ResourceExistsError(f"The experiment '{name}' already exists in workspace '{self.workspace}'.")
        return self._model(rec)

    def get(self, name: str) -> Any:
        rec = self._io.read_json(layout.experiment_record(self.workspace, name))
        if rec is None:
            raise ResourceNotFoundError(f"The experiment '{name}' was not found in workspace '{self.workspace}'.")
        return self._model(rec)

    def list(self) -> ItemPaged[Any]:
        names = self._io.listdir(layout.experiments_dir(self.workspace))
        recs = [self._io.read_json(layout.experiment_record(self.workspace, n)) for n in names]
        return single_page([self._model(x) for x in recs if x])

    def delete(self, name: str) -> None:
        """Delete an experiment: its running and queued jobs are terminated, then its jobs deleted."""
        from .jobs import JobClient

        self.get(name)
        jobs = JobClient(self.backend, workspace=self.workspace, experiment=name)
        for job in list(jobs.list()):
            jobs.begin_delete(job.name).result()
        self._io.remove_tree(layout.experiment_dir(self.workspace, name))
