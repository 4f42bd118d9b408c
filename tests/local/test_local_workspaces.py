"""Workspaces and experiments: created on first use or explicitly, listed, deleted with what they hold."""

from __future__ import annotations

import pytest
from local_helpers import job_params

from batchai_sdk import (
    ClusterClient,
    ExperimentClient,
    JobClient,
    ResourceExistsError,
    ResourceNotFoundError,
    WorkspaceClient,
)


def test_workspace_and_experiment_lifecycle(backend, shares) -> None:
    from local_helpers import cluster_params

    workspaces = WorkspaceClient(backend)
    ws = workspaces.create("team", location="westeurope", tags={"owner": "ml"})
    assert ws.name == "team" and ws.location == "westeurope" and ws.tags == {"owner": "ml"}
    with pytest.raises(ResourceExistsError):
        workspaces.create("team")
    experiments = ExperimentClient(backend, workspace="team")
    experiments.create("e1")
    assert [e.name for e in experiments.list()] == ["e1"]
    clusters = ClusterClient(backend, workspace="team")
    cluster = clusters.begin_create("c1", cluster_params(shares.get_share_url("afs"), 1)).result()
    jobs = JobClient(backend, workspace="team", experiment="e1")
    jobs.begin_create("long", job_params(cluster.id, "sleep 60"))
    # Clients create the workspace and experiment they use on first use.
    JobClient(backend, workspace="team", experiment="auto")
    assert "team" in [w.name for w in workspaces.list()]
    workspaces.delete("team")  # terminates the job, deletes the cluster and the experiments
    with pytest.raises(ResourceNotFoundError):
        workspaces.get("team")
    with pytest.raises(ResourceNotFoundError):
        clusters.get("c1")
    with pytest.raises(ResourceNotFoundError):
        experiments.get("e1")
