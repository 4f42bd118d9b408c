"""Fixtures for the fault tests: FakeAzure with simulated nodes, and local-engine clusters.

The root conftest's ``local_root``/``backend`` fixtures stop every local process; FakeAzure stops its
simulated nodes (and their jobs' process groups) when it closes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "local"))  # local_helpers: the specs a user would write


@pytest.fixture
def faulty_fake(tmp_path: Path) -> Iterator[Any]:
    """FakeAzure whose VMSS instances boot real node agents; tests turn the faults on."""
    pytest.importorskip("azure.storage.fileshare")
    pytest.importorskip("azure.mgmt.compute")
    pytest.importorskip("azure.mgmt.network")
    pytest.importorskip("cryptography")
    from batchai_sdk.engines.azure.simulated import start_simulated_node
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        fake.on_instance_running(lambda info: start_simulated_node(info, fake, work_root=tmp_path / "nodes"))
        yield fake


@pytest.fixture
def faulty_backend(faulty_fake: Any) -> Iterator[Any]:
    """An AzureBackend on ``faulty_fake`` with zero-backoff, fault-deep retries."""
    from fault_helpers import faulty_azure_backend

    backend = faulty_azure_backend(faulty_fake)
    try:
        yield backend
    finally:
        faulty_fake.clear_faults()
        backend.close()
