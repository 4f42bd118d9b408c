"""Fixtures for the fake's own tests; the plugin's fixtures are imported so the tests also run when the
package is not installed (entry point not registered)."""

from __future__ import annotations

import pytest

pytest.importorskip("azure.storage.fileshare")
pytest.importorskip("azure.mgmt.compute")
pytest.importorskip("responses")
pytest.importorskip("cryptography")

from batchai_sdk.testing.pytest_plugin import fake_azure, mock_azure  # noqa: E402,F401
