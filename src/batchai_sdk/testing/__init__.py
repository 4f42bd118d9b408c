"""Offline, wire-faithful fakes of Azure Files and Azure Compute for tests.

``FakeAzure`` serves the real Azure SDK clients over HTTPS on 127.0.0.1; ``mock_azure`` runs the same
state machine behind ``responses``. The pytest fixtures ``fake_azure`` and ``mock_azure`` come from the
``batchai_sdk`` pytest plugin. Operation names for fault injection are listed in ``OPERATIONS``.
"""

from __future__ import annotations

from ._faults import OPERATIONS, Fault
from ._http import DROP, FakeResponse
from ._nodes import NodeHandle, NodeInfo, RunCommandOutput
from ._state import FakeAzureState, RecordedRequest
from .fake import FakeAzure, MockAzure, mock_azure

__all__ = [
    "DROP",
    "OPERATIONS",
    "FakeAzure",
    "FakeAzureState",
    "FakeResponse",
    "Fault",
    "MockAzure",
    "NodeHandle",
    "NodeInfo",
    "RecordedRequest",
    "RunCommandOutput",
    "mock_azure",
]
