"""File servers on the local engine: a directory is the NFS volume that clusters and jobs mount."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fs_helpers import PASSWORD, file_server_params, nfs_volumes

from batchai_sdk import models as m


@pytest.fixture
def servers(backend: Any) -> Any:
    from batchai_sdk import FileServerClient

    return FileServerClient(backend)


def _record_path(backend: Any, name: str, ws: str = "default") -> Path:
    return backend.share_dir("batchai-control") / f".batchai/workspaces/{ws}/fileServers/{name}/fileserver.json"


def test_create_get_list_delete(backend: Any, servers: Any) -> None:
    from batchai_sdk import ResourceExistsError, ResourceNotFoundError

    fs = servers.begin_create("nfs1", file_server_params()).result()
    volume = backend.share_dir("fileserver-nfs1")
    assert fs.provisioning_state == "succeeded"
    assert fs.id.endswith("/providers/Microsoft.BatchAI/workspaces/default/fileServers/nfs1")
    assert fs.type == "Microsoft.BatchAI/workspaces/fileServers"
    assert fs.mount_settings.mount_point == str(volume) and volume.is_dir()
    assert fs.mount_settings.file_server_internal_ip == "127.0.0.1"
    assert (fs.data_disks.disk_count, fs.data_disks.disk_size_in_gb, fs.data_disks.caching_type) == (2, 16, "readonly")
    assert fs.ssh_configuration.user_account_settings.admin_user_name == "fsadmin"
    assert fs.ssh_configuration.user_account_settings.admin_user_password is None
    assert fs.creation_time is not None and fs.provisioning_state_transition_time is not None

    record = _record_path(backend, "nfs1").read_text()
    assert PASSWORD not in record and '"fileServerInternalIP": "127.0.0.1"' in record
    assert servers.get("nfs1").mount_settings.mount_point == str(volume)
    assert [s.name for s in servers.list()] == ["nfs1"]
    with pytest.raises(ResourceExistsError):
        servers.begin_create("nfs1", file_server_params())

    (volume / "data.bin").write_bytes(b"x")
    assert servers.begin_delete("nfs1").result() is None
    assert not volume.exists()  # the data goes with the server, as with Batch AI's VM and disks
    assert not _record_path(backend, "nfs1").exists()
    with pytest.raises(ResourceNotFoundError):
        servers.get("nfs1")
    with pytest.raises(ResourceNotFoundError):
        servers.begin_delete("nfs1")
    assert list(servers.list()) == []


def test_invalid_specs_are_refused_before_anything_exists(backend: Any, servers: Any) -> None:
    from batchai_sdk import ValidationError

    with pytest.raises(ValidationError, match="file server name"):
        servers.begin_create("bad name!", file_server_params())
    with pytest.raises(ValidationError) as err:
        servers.begin_create("nfs", m.FileServerCreateParameters(vm_size="Standard_D14"))
    text = str(err.value)
    assert "ssh_configuration" in text or "sshConfiguration" in text
    assert "data_disks" in text or "dataDisks" in text
    with pytest.raises(ValidationError, match="diskCount"):
        servers.begin_create("nfs", file_server_params(disks=0))
    with pytest.raises(TypeError):
        servers.begin_create("nfs", {"vmSize": "Standard_D14"})
    assert list(servers.list()) == []
    assert not backend.share_dir("fileserver-nfs").exists()


def test_a_name_held_in_another_workspace_is_refused(backend: Any, servers: Any) -> None:
    from batchai_sdk import FileServerClient, ResourceExistsError

    servers.begin_create("shared", file_server_params()).result()
    other = FileServerClient(backend, workspace="ws2")
    with pytest.raises(ResourceExistsError, match="another workspace"):
        other.begin_create("shared", file_server_params())
    assert list(other.list()) == []
    assert servers.get("shared").provisioning_state == "succeeded"


def test_cluster_and_job_write_to_the_file_server(backend: Any, servers: Any) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    fs = servers.begin_create("nfs1", file_server_params()).result()
    FileShareClient(backend).create_share("afs")
    afs_url = FileShareClient(backend).get_share_url("afs")
    volumes = nfs_volumes(fs.id)
    volumes.azure_file_shares = [m.AzureFileShareReference(
        account_name="batchailocal", azure_file_url=afs_url, relative_mount_path="afs",
        credentials=m.AzureStorageCredentialsInfo(account_key="not-checked-locally"))]
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", m.ClusterCreateParameters(
        vm_size="STANDARD_D2", scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=1)),
        user_account_settings=m.UserAccountSettings(admin_user_name="tester", admin_user_password="Secret-Pw-123"),
        node_setup=m.NodeSetup(mount_volumes=volumes))).result()
    clusters.wait_for_nodes("c1", 1, timeout=60)

    jobs = JobClient(backend, experiment="exp")
    job = jobs.begin_create("j1", m.JobCreateParameters(
        cluster=m.ResourceId(id=cluster.id), node_count=1, std_out_err_path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs",
        output_directories=[m.OutputDirectory(id="MODEL", path_prefix="$AZ_BATCHAI_MOUNT_ROOT/nfs")],
        custom_toolkit_settings=m.CustomToolkitSettings(
            command_line='echo hello-nfs > "$AZ_BATCHAI_MOUNT_ROOT/nfs/x.txt" && '
                         'echo model > "$AZ_BATCHAI_OUTPUT_MODEL/model.txt"'))).result()
    assert job.execution_state == "succeeded", job.execution_info

    volume = backend.share_dir("fileserver-nfs1")
    assert (volume / "x.txt").read_text() == "hello-nfs\n"
    files = {f.name: f for f in jobs.list_output_files("j1", "MODEL")}
    assert "model.txt" in files and files["model.txt"].content_length == len("model\n")
    assert list(volume.rglob("model.txt"))


def test_source_directory_mounts_a_folder_of_the_volume(backend: Any, servers: Any) -> None:
    from batchai_sdk.agent.mounts import share_of

    fs = servers.begin_create("nfs2", file_server_params(disks=1)).result()
    ref = nfs_volumes(fs.id, source="sub/dir").serialize()["fileServers"][0]
    assert backend.share_dir(share_of("fileServers", ref)) == backend.share_dir("fileserver-nfs2") / "sub" / "dir"
