"""Fixtures shared by the whole suite: local engines in temporary roots, and no stray processes."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from process_helpers import kill_all_under  # noqa: E402


@pytest.fixture
def local_root(tmp_path: Path) -> Iterator[Path]:
    """A private engine root; every process started under it is gone after the test."""
    root = tmp_path / "batchai"
    yield root
    from batchai_sdk import ClusterClient, LocalBackend, WorkspaceClient

    if root.exists():
        backend = LocalBackend(root)
        for ws in WorkspaceClient(backend).list():
            clusters = ClusterClient(backend, workspace=ws.name)
            for c in list(clusters.list()):
                try:
                    clusters.begin_delete(c.name).result()
                except Exception:  # teardown must go on to the kill below
                    pass
    kill_all_under(root)


@pytest.fixture
def backend(local_root: Path):  # type: ignore[no-untyped-def]
    """A local engine with fast heartbeats so that failure tests finish in seconds."""
    from batchai_sdk import LocalBackend

    return LocalBackend(local_root, heartbeat_interval=0.3, terminate_grace=2.0, auto_scale_idle_seconds=1.0)
