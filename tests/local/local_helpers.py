"""Building blocks for local-engine tests: specs a user would write."""

from __future__ import annotations

from typing import Any

from batchai_sdk import models as m


def cluster_params(share_url: str | None = None, nodes: int = 1, *, auto: tuple[int, int] | None = None,
                   setup: str | None = None) -> m.ClusterCreateParameters:
    mounts = None
    if share_url:
        mounts = m.MountVolumes(azure_file_shares=[m.AzureFileShareReference(
            account_name="batchailocal", azure_file_url=share_url, relative_mount_path="afs",
            credentials=m.AzureStorageCredentialsInfo(account_key="not-checked-locally"))])
    scale = (m.ScaleSettings(auto_scale=m.AutoScaleSettings(minimum_node_count=auto[0], maximum_node_count=auto[1]))
             if auto else m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=nodes)))
    task = None
    if setup:
        task = m.SetupTask(command_line=setup, std_out_err_path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs")
    return m.ClusterCreateParameters(
        vm_size="STANDARD_D2", scale_settings=scale,
        user_account_settings=m.UserAccountSettings(admin_user_name="tester", admin_user_password="Secret-Pw-123"),
        node_setup=m.NodeSetup(mount_volumes=mounts, setup_task=task),
    )


def job_params(cluster_id: str, command: str, *, nodes: int = 1, prep: str | None = None, **extra: Any) -> m.JobCreateParameters:
    return m.JobCreateParameters(
        cluster=m.ResourceId(id=cluster_id), node_count=nodes,
        std_out_err_path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs",
        custom_toolkit_settings=m.CustomToolkitSettings(command_line=command),
        job_preparation=m.JobPreparation(command_line=prep) if prep else None,
        **extra,
    )
