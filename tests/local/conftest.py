from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402
from local_helpers import cluster_params  # noqa: E402


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

    def make(name: str = "c1", nodes: int = 1, **kw):  # type: ignore[no-untyped-def]
        wait = kw.pop("wait", True)
        policy = kw.pop("node_failure_policy", "fail")
        cluster = clusters.begin_create(name, cluster_params(shares.get_share_url("afs"), nodes, **kw),
                                        node_failure_policy=policy).result()
        if wait and nodes:
            clusters.wait_for_nodes(name, nodes, timeout=60)
        return cluster

    return make


@pytest.fixture
def jobs(backend):  # type: ignore[no-untyped-def]
    from batchai_sdk import JobClient

    return JobClient(backend, experiment="exp")
