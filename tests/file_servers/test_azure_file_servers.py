"""File servers on the Azure engine: exact requests (``mock_azure``), the whole lifecycle against FakeAzure,
and the generated cloud-init and setup script checked by the tools that run them."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("azure.storage.fileshare")
pytest.importorskip("azure.mgmt.compute")
pytest.importorskip("azure.mgmt.network")
pytest.importorskip("responses")
pytest.importorskip("cryptography")

from fs_helpers import PASSWORD, SSH_KEY, file_server_params, nfs_volumes  # noqa: E402

from batchai_sdk import models as m  # noqa: E402
from batchai_sdk.testing.pytest_plugin import fake_azure, mock_azure  # noqa: E402,F401

FAST = {"retry_wait": 0, "heartbeat_interval": 0.5, "poll_interval": 0.05, "client_poll_interval": 0.05}
RECORD = ".batchai/workspaces/default/fileServers/nfs1/fileserver.json"


def _puts(mock: Any, kind: str) -> list[tuple[str, dict[str, Any]]]:
    return [(urlsplit(c.request.url).path, json.loads(c.request.body)) for c in mock.calls
            if c.request.method == "PUT" and f"/{kind}/" in c.request.url]


def _custom_data(body: dict[str, Any]) -> str:
    return base64.b64decode(body["properties"]["virtualMachineProfile"]["osProfile"]["customData"]).decode()


@pytest.fixture
def created(mock_azure: Any) -> tuple[Any, Any, Any]:  # noqa: F811
    from batchai_sdk import FileServerClient

    backend = mock_azure.azure_backend(**FAST)
    fs = FileServerClient(backend).begin_create("nfs1", file_server_params(disks=3, size=128)).result()
    return mock_azure, backend, fs


def test_scale_set_put_carries_vm_size_disks_and_user(created: tuple[Any, Any, Any]) -> None:
    mock, _backend, fs = created
    [(path, body)] = _puts(mock, "virtualMachineScaleSets")
    assert path.rsplit("/", 1)[-1].startswith("bai-fs-nfs1-")
    assert body["sku"] == {"name": "Standard_D14", "tier": "Standard", "capacity": 1}
    assert body["tags"] == {"batchai-workspace": "default", "batchai-file-server": "nfs1",
                            "batchai-managed-by": "batchai-sdk"}
    vm = body["properties"]["virtualMachineProfile"]
    assert vm["storageProfile"]["dataDisks"] == [
        {"lun": lun, "createOption": "Empty", "diskSizeGB": 128, "caching": "ReadOnly",
         "managedDisk": {"storageAccountType": "Premium_LRS"}} for lun in range(3)]
    assert vm["osProfile"]["adminUsername"] == "fsadmin" and vm["osProfile"]["adminPassword"] == PASSWORD
    assert vm["osProfile"]["linuxConfiguration"]["ssh"]["publicKeys"][0]["keyData"] == SSH_KEY
    ipconfig = vm["networkProfile"]["networkInterfaceConfigurations"][0]["properties"]["ipConfigurations"][0]
    assert ipconfig["properties"]["subnet"]["id"].endswith(path.rsplit("/", 1)[-1] + "-vnet/subnets/nodes")
    assert "extensionProfile" not in vm  # cloud-init alone sets the server up
    assert fs.provisioning_state == "succeeded"
    assert fs.mount_settings.mount_point == "/mnt/data"
    assert fs.mount_settings.file_server_internal_ip == "127.0.0.1"
    assert fs.subnet.id == ipconfig["properties"]["subnet"]["id"]


def test_cloud_config_builds_raid_and_exports_to_the_subnet_without_secrets(created: tuple[Any, Any, Any]) -> None:
    mock, _backend, _fs = created
    [(_path, body)] = _puts(mock, "virtualMachineScaleSets")
    custom = _custom_data(body)
    assert custom.startswith("#cloud-config\n")
    config = json.loads(custom.split("\n", 1)[1])
    assert {"mdadm", "nfs-kernel-server"} <= set(config["packages"])
    assert config["runcmd"] == [["bash", "/opt/batchai/fileserver-setup.sh", "3", "/mnt/data", "10.0.0.0/20"]]
    assert "mdadm --create" in custom and "exportfs -ra" in custom
    for secret in (PASSWORD, mock.account_key):
        assert secret not in custom


def test_the_record_has_the_mount_settings_and_no_password(created: tuple[Any, Any, Any]) -> None:
    mock, _backend, _fs = created
    record = (mock.share_root("batchai-control") / RECORD).read_text()
    assert PASSWORD not in record
    rec = json.loads(record)
    assert rec["mountSettings"]["fileServerInternalIP"] == "127.0.0.1"
    assert rec["mountSettings"]["mountPoint"] == "/mnt/data"


def test_own_subnet_is_used_and_no_network_is_made(mock_azure: Any) -> None:  # noqa: F811
    from batchai_sdk import FileServerClient

    backend = mock_azure.azure_backend(**FAST)
    subnet = ("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/net/providers/"
              "Microsoft.Network/virtualNetworks/mine/subnets/default")
    FileServerClient(backend).begin_create("nfs1", file_server_params(disks=1, subnet=subnet)).result()
    [(_path, body)] = _puts(mock_azure, "virtualMachineScaleSets")
    assert not [c for c in mock_azure.calls if c.request.method == "PUT" and "Microsoft.Network" in c.request.url]
    ipconfig = body["properties"]["virtualMachineProfile"]["networkProfile"]["networkInterfaceConfigurations"][0]
    assert ipconfig["properties"]["ipConfigurations"][0]["properties"]["subnet"]["id"] == subnet
    runcmd = json.loads(_custom_data(body).split("\n", 1)[1])["runcmd"][0]
    # The subnet is not readable here: the export is limited to the private address ranges.
    assert runcmd[2:] == ["1", "/mnt/data", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]


def test_lifecycle_and_a_cluster_that_mounts_it(fake_azure: Any) -> None:  # noqa: F811
    from batchai_sdk import ClusterClient, FileServerClient, ResourceNotFoundError

    backend = fake_azure.azure_backend(**FAST)
    try:
        servers = FileServerClient(backend)
        fs = servers.begin_create("nfs1", file_server_params()).result()
        assert fs.provisioning_state == "succeeded"
        assert fs.mount_settings.file_server_internal_ip == "127.0.0.1"
        assert [s.name for s in servers.list()] == ["nfs1"]
        assert servers.get("nfs1").subnet.id == fs.subnet.id

        clusters = ClusterClient(backend)
        clusters.begin_create("c1", m.ClusterCreateParameters(
            vm_size="STANDARD_D2", scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=1)),
            user_account_settings=m.UserAccountSettings(admin_user_name="u", admin_user_ssh_public_key=SSH_KEY),
            node_setup=m.NodeSetup(mount_volumes=nfs_volumes(fs.id)))).result()
        vmss = backend.compute.virtual_machine_scale_sets
        cluster_set = next(s for s in vmss.list(backend.resource_group) if s.tags.get("batchai-cluster") == "c1")
        nic = cluster_set.virtual_machine_profile.network_profile.network_interface_configurations[0]
        # Cluster and file server share the subnet (the cluster made no network of its own).
        assert nic.ip_configurations[0].subnet.id == fs.subnet.id
        clusters.begin_delete("c1").result()

        fs_set = next(s for s in vmss.list(backend.resource_group) if s.tags.get("batchai-file-server") == "nfs1")
        servers.begin_delete("nfs1").result()
        with pytest.raises(ResourceNotFoundError):
            vmss.get(backend.resource_group, fs_set.name)
        with pytest.raises(ResourceNotFoundError):
            servers.get("nfs1")
    finally:
        backend.close()


def test_node_script_mounts_the_export(mock_azure: Any) -> None:  # noqa: F811
    from batchai_sdk import ClusterClient, FileServerClient

    backend = mock_azure.azure_backend(**FAST)
    fs = FileServerClient(backend).begin_create("nfs1", file_server_params()).result()
    ClusterClient(backend).begin_create("c1", m.ClusterCreateParameters(
        vm_size="STANDARD_D2", scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=1)),
        user_account_settings=m.UserAccountSettings(admin_user_name="u", admin_user_ssh_public_key=SSH_KEY),
        node_setup=m.NodeSetup(mount_volumes=nfs_volumes(fs.id, source="shared")))).result()
    [body] = [b for p, b in _puts(mock_azure, "virtualMachineScaleSets") if "/bai-c1-" in p]
    [ext] = body["properties"]["virtualMachineProfile"]["extensionProfile"]["extensions"]
    script = base64.b64decode(ext["properties"]["protectedSettings"]["script"]).decode()
    assert "mount_nfs 127.0.0.1:/mnt/data/shared nfs rw" in script


def test_cloud_config_passes_the_cloud_init_schema(tmp_path: Path) -> None:
    from batchai_sdk.engines.azure import file_servers as fs

    path = tmp_path / "user-data"
    path.write_text(fs.cloud_config(4, ["10.0.0.0/20"]))
    if shutil.which("cloud-init") is None:
        pytest.skip("cloud-init is not installed (apt-get install cloud-init)")
    result = subprocess.run(["cloud-init", "schema", "--config-file", str(path)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_setup_script_is_valid_bash_and_shellcheck_clean(tmp_path: Path) -> None:
    from batchai_sdk.engines.azure import file_servers as fs

    path = tmp_path / "fileserver-setup.sh"
    path.write_text(fs.SETUP_SCRIPT)
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run(["shellcheck", "-s", "bash", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
