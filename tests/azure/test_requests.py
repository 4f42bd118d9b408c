"""Exact requests the Azure engine sends (through ``mock_azure``: the real SDK clients, no sockets)."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
import requests
from engine_helpers import FAST

from batchai_sdk import models

SECRET_PASSWORD = "Adm1n-Pa55word!"
SECRET_ENV = "s3cret-env-value"
SSH_KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 me@host"


def _cluster(url: str, account: str, key: str, *, priority: str = "dedicated", subnet: str | None = None,
             image: Any = None) -> models.ClusterCreateParameters:
    return models.ClusterCreateParameters(
        vm_size="STANDARD_NC6",
        vm_priority=priority,
        scale_settings=models.ScaleSettings(manual=models.ManualScaleSettings(target_node_count=2)),
        virtual_machine_configuration=models.VirtualMachineConfiguration(image_reference=image) if image else None,
        subnet=models.ResourceId(id=subnet) if subnet else None,
        user_account_settings=models.UserAccountSettings(admin_user_name="batchai", admin_user_password=SECRET_PASSWORD,
                                                         admin_user_ssh_public_key=SSH_KEY),
        node_setup=models.NodeSetup(
            setup_task=models.SetupTask(command_line="echo setup", std_out_err_path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs",
                                        secrets=[models.EnvironmentVariableWithSecretValue(name="TOKEN", value=SECRET_ENV)]),
            mount_volumes=models.MountVolumes(azure_file_shares=[models.AzureFileShareReference(
                account_name=account, azure_file_url=url, relative_mount_path="afs",
                credentials=models.AzureStorageCredentialsInfo(account_key=key))])),
    )


def _vmss_put(mock: Any) -> tuple[Any, dict[str, Any]]:
    puts = [c.request for c in mock.calls if c.request.method == "PUT" and "virtualMachineScaleSets/" in c.request.url]
    assert len(puts) == 1
    return puts[0], json.loads(puts[0].body)


@pytest.fixture
def created(mock_azure: Any) -> tuple[Any, Any, dict[str, Any]]:
    from batchai_sdk import ClusterClient, FileShareClient

    backend = mock_azure.azure_backend(**FAST)
    url = FileShareClient(backend).create_share("afs")
    ClusterClient(backend).begin_create(
        "gpu", _cluster(url, mock_azure.account_name, mock_azure.account_key, priority="lowpriority",
                        image=models.ImageReference(publisher="microsoft-dsvm", offer="ubuntu-2204",
                                                    sku="2204-gen2", version="latest"))).result()
    request, body = _vmss_put(mock_azure)
    return mock_azure, request, body


def test_vmss_put_carries_the_cluster_spec(created: tuple[Any, Any, dict[str, Any]]) -> None:
    mock, request, body = created
    path = urlsplit(request.url).path
    assert path.endswith("/resourceGroups/batchai-rg/providers/Microsoft.Compute/virtualMachineScaleSets/"
                         + path.rsplit("/", 1)[-1])
    assert path.rsplit("/", 1)[-1].startswith("bai-gpu-")
    assert request.headers["Authorization"].startswith("Bearer ")
    assert body["sku"] == {"name": "STANDARD_NC6", "tier": "Standard", "capacity": 2}
    assert body["tags"] == {"batchai-workspace": "default", "batchai-cluster": "gpu", "batchai-managed-by": "batchai-sdk"}
    props = body["properties"]
    assert props["overprovision"] is False and props["upgradePolicy"] == {"mode": "Manual"}
    vm = props["virtualMachineProfile"]
    assert vm["storageProfile"]["imageReference"] == {"publisher": "microsoft-dsvm", "offer": "ubuntu-2204",
                                                      "sku": "2204-gen2", "version": "latest"}
    assert (vm["priority"], vm["evictionPolicy"], vm["billingProfile"]) == ("Spot", "Delete", {"maxPrice": -1})
    os_profile = vm["osProfile"]
    assert os_profile["adminUsername"] == "batchai" and os_profile["adminPassword"] == SECRET_PASSWORD
    assert os_profile["linuxConfiguration"]["ssh"]["publicKeys"] == [
        {"path": "/home/batchai/.ssh/authorized_keys", "keyData": SSH_KEY}]
    assert os_profile["linuxConfiguration"]["disablePasswordAuthentication"] is False
    nic = vm["networkProfile"]["networkInterfaceConfigurations"][0]
    ipconfig = nic["properties"]["ipConfigurations"][0]["properties"]
    assert ipconfig["subnet"]["id"].endswith("/providers/Microsoft.Network/virtualNetworks/"
                                             + path.rsplit("/", 1)[-1] + "-vnet/subnets/nodes")
    assert ipconfig["publicIPAddressConfiguration"]["sku"] == {"name": "Standard"}
    assert nic["properties"]["networkSecurityGroup"]["id"].endswith("-nsg")
    [ext] = vm["extensionProfile"]["extensions"]
    assert (ext["properties"]["publisher"], ext["properties"]["type"], ext["properties"]["typeHandlerVersion"]) == (
        "Microsoft.Azure.Extensions", "CustomScript", "2.1")
    script = base64.b64decode(ext["properties"]["protectedSettings"]["script"]).decode()
    assert mock.account_key in script  # the storage key travels encrypted, to the node only
    assert "mount -t cifs" in script and "batchai-agent@" in script
    assert ext["properties"]["settings"] == {}


def test_custom_data_is_cloud_config_without_secrets(created: tuple[Any, Any, dict[str, Any]]) -> None:
    mock, _request, body = created
    custom = base64.b64decode(body["properties"]["virtualMachineProfile"]["osProfile"]["customData"]).decode()
    assert custom.startswith("#cloud-config\n")
    for secret in (mock.account_key, SECRET_PASSWORD, SECRET_ENV):
        assert secret not in custom
    assert "batchai-agent@.service" in custom and "Restart=always" in custom
    assert "docker.io" not in custom  # DSVM ships Docker; only plain Ubuntu installs it


def test_secrets_stay_out_of_the_records(created: tuple[Any, Any, dict[str, Any]]) -> None:
    mock, _request, _body = created
    record = (mock.share_root("batchai-control") / ".batchai/workspaces/default/clusters/gpu/cluster.json").read_text()
    for secret in (mock.account_key, SECRET_PASSWORD, SECRET_ENV):
        assert secret not in record
    script_bodies = [c.request.body for c in mock.calls if c.request.method == "PUT"
                     and "virtualMachineScaleSets" not in c.request.url and isinstance(c.request.body, (bytes, str))]
    assert script_bodies  # the records went through the Files REST API


def test_engine_network_is_tagged_and_opens_only_ssh(created: tuple[Any, Any, dict[str, Any]]) -> None:
    mock, _request, _body = created
    bodies = {urlsplit(c.request.url).path.split("/providers/")[-1].split("/")[1]: json.loads(c.request.body)
              for c in mock.calls if c.request.method == "PUT" and "Microsoft.Network" in c.request.url}
    nsg, vnet = bodies["networkSecurityGroups"], bodies["virtualNetworks"]
    assert nsg["tags"]["batchai-cluster"] == vnet["tags"]["batchai-cluster"] == "gpu"
    [rule] = nsg["properties"]["securityRules"]
    assert rule["properties"]["destinationPortRange"] == "22" and rule["properties"]["direction"] == "Inbound"
    assert vnet["properties"]["subnets"][0]["name"] == "nodes"


def test_own_subnet_and_custom_image(mock_azure: Any) -> None:
    from batchai_sdk import ClusterClient, FileShareClient

    backend = mock_azure.azure_backend(**FAST)
    url = FileShareClient(backend).create_share("afs")
    subnet = (f"/subscriptions/{mock_azure.subscription_id}/resourceGroups/net/providers/Microsoft.Network/"
              "virtualNetworks/v/subnets/s")
    image_id = f"/subscriptions/{mock_azure.subscription_id}/resourceGroups/img/providers/Microsoft.Compute/images/mine"
    image = models.ImageReference(publisher="Canonical", offer="ubuntu-24_04-lts", sku="server",
                                  virtual_machine_image_id=image_id)
    ClusterClient(backend).begin_create("own", _cluster(url, mock_azure.account_name, mock_azure.account_key,
                                                        subnet=subnet, image=image)).result()
    _request, body = _vmss_put(mock_azure)
    vm = body["properties"]["virtualMachineProfile"]
    assert vm["storageProfile"]["imageReference"] == {"id": image_id}
    assert "priority" not in vm and "evictionPolicy" not in vm
    assert vm["networkProfile"]["networkInterfaceConfigurations"][0]["properties"]["ipConfigurations"][0][
        "properties"]["subnet"] == {"id": subnet}
    assert not [c for c in mock_azure.calls if "Microsoft.Network" in c.request.url]


# ---------------------------------------------------------------------- Files


def test_write_atomic_uploads_a_temporary_name_then_renames_over(mock_azure: Any) -> None:
    backend = mock_azure.azure_backend(**FAST)
    start = len(mock_azure.calls)
    backend.store.write_atomic("batchai-control", "a/b.json", b'{"x": 1}')
    calls = [c.request for c in mock_azure.calls[start:]]
    creates = [c for c in calls if c.method == "PUT" and c.headers.get("x-ms-type") == "file"]
    assert creates and all("/a/.b.json.tmp-" in unquote(urlsplit(c.url).path) for c in creates)
    [rename] = [c for c in calls if "comp=rename" in c.url]
    assert unquote(urlsplit(rename.url).path).endswith("/batchai-control/a/b.json")
    assert rename.headers["x-ms-file-rename-replace-if-exists"] == "true"
    assert "/a/.b.json.tmp-" in unquote(rename.headers["x-ms-file-rename-source"])
    assert backend.store.read("batchai-control", "a/b.json") == b'{"x": 1}'
    assert [e.name for e in backend.store.list_dir("batchai-control", "a")] == ["b.json"]  # no temporary left


def test_create_exclusive_is_a_rename_without_replace(mock_azure: Any) -> None:
    backend = mock_azure.azure_backend(**FAST)
    assert backend.store.create_exclusive("batchai-control", "locks/one", b"first") is True
    start = len(mock_azure.calls)
    assert backend.store.create_exclusive("batchai-control", "locks/one", b"second") is False
    [rename] = [c.request for c in mock_azure.calls[start:] if "comp=rename" in c.request.url]
    assert rename.headers.get("x-ms-file-rename-replace-if-exists", "false") == "false"
    assert backend.store.read("batchai-control", "locks/one") == b"first"
    assert [e.name for e in backend.store.list_dir("batchai-control", "locks")] == ["one"]


def test_ranged_read_asks_for_new_bytes_only(mock_azure: Any) -> None:
    backend = mock_azure.azure_backend(**FAST)
    backend.store.write_atomic("batchai-control", "log.txt", b"0123456789")
    start = len(mock_azure.calls)
    assert backend.store.read("batchai-control", "log.txt", 4, 3) == b"456"
    assert backend.store.read("batchai-control", "log.txt", 10, 100) == b""  # 416 at the end: nothing new
    gets = [c.request for c in mock_azure.calls[start:] if c.request.method == "GET"]
    assert [g.headers["x-ms-range"] for g in gets] == ["bytes=4-6", "bytes=10-109"]


def test_upload_skips_unchanged_files_and_reports_progress(mock_azure: Any, tmp_path: Path) -> None:
    backend = mock_azure.azure_backend(**FAST)
    backend.store.create_share("data")
    local = tmp_path / "big.bin"
    local.write_bytes(b"x" * (5 * 1024 * 1024 + 7))
    seen: list[int] = []
    assert backend.store.upload_file("data", "in/big.bin", local, progress=seen.append, max_concurrency=2) is True
    assert sum(seen) == local.stat().st_size
    ranges = [c.request for c in mock_azure.calls if "comp=range" in c.request.url]
    assert len(ranges) == 2  # 4 MiB chunks
    creates = [c.request for c in mock_azure.calls if c.request.headers.get("x-ms-type") == "file"
               and "big.bin" in c.request.url]
    assert creates[-1].headers["x-ms-content-md5"]
    start = len(mock_azure.calls)
    assert backend.store.upload_file("data", "in/big.bin", local) is False
    assert [c.request.method for c in mock_azure.calls[start:]] == ["HEAD"]
    dest = tmp_path / "down" / "big.bin"
    assert backend.store.download_file("data", "in/big.bin", dest) is True
    assert dest.read_bytes() == local.read_bytes()
    assert backend.store.download_file("data", "in/big.bin", dest) is False


def test_download_url_is_a_read_only_file_sas(mock_azure: Any) -> None:
    backend = mock_azure.azure_backend(**FAST)
    backend.store.write_atomic("batchai-control", "out/model.bin", b"weights")
    url = backend.store.download_url("batchai-control", "out/model.bin", expiry=timedelta(minutes=30))
    query = parse_qs(urlsplit(url).query)
    assert query["sp"] == ["r"] and query["sr"] == ["f"] and "sig" in query
    assert requests.get(url, timeout=10).content == b"weights"


def test_storage_key_is_fetched_with_list_keys_when_not_given(mock_azure: Any) -> None:
    backend = mock_azure.azure_backend(storage_account_key=None, **FAST)
    assert backend.storage_account_key == mock_azure.account_key
    [call] = [c.request for c in mock_azure.calls if c.request.url.split("?")[0].endswith("/listKeys")]
    assert call.method == "POST" and "Microsoft.Storage/storageAccounts/fakeaccount/listKeys" in call.url
