"""pytest plugin (entry point ``batchai_sdk``): the ``fake_azure`` and ``mock_azure`` fixtures.

Imported at every pytest start, so it imports nothing heavy at module level.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from batchai_sdk.testing import FakeAzure, MockAzure


@pytest.fixture
def fake_azure() -> Iterator[FakeAzure]:
    """A running FakeAzure (HTTPS on 127.0.0.1); stopped and cleaned up after the test."""
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        yield fake


@pytest.fixture
def mock_azure() -> Iterator[MockAzure]:
    """The FakeAzure state machine behind ``responses`` (no sockets)."""
    from batchai_sdk.testing import mock_azure as make

    with make() as fake:
        yield fake
