"""Fixtures for the Azure engine: FakeAzure with simulated nodes, and a fast-settings AzureBackend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("azure.storage.fileshare")
pytest.importorskip("azure.mgmt.compute")
pytest.importorskip("azure.mgmt.network")
pytest.importorskip("responses")
pytest.importorskip("cryptography")

from engine_helpers import FAST  # noqa: E402

from batchai_sdk.testing.pytest_plugin import fake_azure, mock_azure  # noqa: E402,F401


@pytest.fixture
def sim_fake(tmp_path: Path) -> Iterator[Any]:
    """FakeAzure whose VMSS instances boot real node agents (simulated nodes)."""
    from batchai_sdk.engines.azure.simulated import start_simulated_node
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        fake.on_instance_running(lambda info: start_simulated_node(info, fake, work_root=tmp_path / "nodes"))
        yield fake


@pytest.fixture
def azure_backend(sim_fake: Any) -> Iterator[Any]:
    backend = sim_fake.azure_backend(**FAST)
    try:
        yield backend
    finally:
        backend.close()
