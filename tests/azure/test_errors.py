"""ARM failures become clear exceptions and failed clusters that say what to do."""

from __future__ import annotations

from typing import Any

import pytest
from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError
from engine_helpers import FAST

from batchai_sdk import models
from batchai_sdk.engines.azure import AllocationFailedError, QuotaExceededError, SkuNotAvailableError
from batchai_sdk.engines.azure.errors import map_arm_error


def _params() -> models.ClusterCreateParameters:
    return models.ClusterCreateParameters(
        vm_size="STANDARD_ND96ASR_V4",
        scale_settings=models.ScaleSettings(manual=models.ManualScaleSettings(target_node_count=4)),
        user_account_settings=models.UserAccountSettings(admin_user_name="me", admin_user_ssh_public_key="ssh-rsa AAAA k"),
    )


@pytest.mark.parametrize(("code", "cls", "fix"), [
    ("SkuNotAvailable", SkuNotAvailableError, "az vm list-skus"),
    ("QuotaExceeded", QuotaExceededError, "quota increase"),
    ("OperationNotAllowed", QuotaExceededError, "quota increase"),
])
def test_synchronous_refusals_raise_and_mark_the_cluster_failed(mock_azure: Any, code: str, cls: type, fix: str) -> None:
    from batchai_sdk import ClusterClient

    backend = mock_azure.azure_backend(**FAST)
    mock_azure.fail_provisioning(None, code)
    clusters = ClusterClient(backend)
    with pytest.raises(cls) as info:
        clusters.begin_create("big", _params())
    assert isinstance(info.value, HttpResponseError)
    assert f"({code})" in str(info.value) and fix in str(info.value)
    cluster = clusters.get("big")
    assert cluster.provisioning_state == "failed"
    assert cluster.errors[0].code == code


def test_allocation_failure_ends_the_poller_with_a_failed_cluster(mock_azure: Any) -> None:
    from batchai_sdk import ClusterClient

    backend = mock_azure.azure_backend(**FAST)
    mock_azure.fail_provisioning(None, "AllocationFailed")
    cluster = ClusterClient(backend).begin_create("big", _params()).result()
    assert cluster.provisioning_state == "failed"
    assert cluster.errors[0].code == "AllocationFailed"
    assert "retry later" in cluster.errors[0].message


def test_missing_resource_group_is_not_found_with_the_fix(mock_azure: Any) -> None:
    from batchai_sdk import ClusterClient

    backend = mock_azure.azure_backend(resource_group="nope", **FAST)
    with pytest.raises(ResourceNotFoundError) as info:
        ClusterClient(backend).begin_create("c", _params())
    assert "ResourceGroupNotFound" in str(info.value) and "az group create" in str(info.value)


def test_conflicts_map_to_resource_exists() -> None:
    exc = HttpResponseError(message="busy")
    exc.status_code = 409
    mapped = map_arm_error(exc, "updating scale set x")
    assert isinstance(mapped, ResourceExistsError) and "updating scale set x failed" in str(mapped)
    assert not isinstance(map_arm_error(exc, "x"), AllocationFailedError)
