"""Fixtures for multi-node jobs on the local engine: the tests/local fixtures plus scripts on the share."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "local"))
sys.path.insert(0, str(Path(__file__).parent))

from local_helpers import cluster_params  # noqa: E402

SCRIPTS = Path(__file__).parent / "scripts"


@pytest.fixture
def shares(backend):  # type: ignore[no-untyped-def]
    from batchai_sdk import FileShareClient

    client = FileShareClient(backend)
    client.create_share("afs")
    return client


@pytest.fixture
def make_cluster(backend, shares):  # type: ignore[no-untyped-def]
    """Create a cluster that mounts share 'afs' at $AZ_BATCHAI_MOUNT_ROOT/afs and wait for its nodes."""
    from batchai_sdk import ClusterClient

    clusters = ClusterClient(backend)

    def make(name: str = "c1", nodes: int = 2, **kw):  # type: ignore[no-untyped-def]
        cluster = clusters.begin_create(name, cluster_params(shares.get_share_url("afs"), nodes, **kw)).result()
        clusters.wait_for_nodes(name, nodes, timeout=60)
        return cluster

    return make


@pytest.fixture
def jobs(backend):  # type: ignore[no-untyped-def]
    from batchai_sdk import JobClient

    return JobClient(backend, experiment="exp")


@pytest.fixture
def script_on_share(backend, shares) -> Callable[[str], str]:  # type: ignore[no-untyped-def]
    """Copy ``tests/multinode/scripts/<name>`` to the share; returns its path as a job spec names it."""

    def put(name: str) -> str:
        target = backend.share_dir("afs") / "scripts" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SCRIPTS / name, target)
        return f"$AZ_BATCHAI_MOUNT_ROOT/afs/scripts/{name}"

    return put
