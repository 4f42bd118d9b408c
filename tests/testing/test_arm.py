"""The unmodified azure-mgmt-compute client against the fake's ARM side."""

from __future__ import annotations

import base64
import time
from typing import Any

import pytest
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError, ResourceExistsError
from azure.mgmt.compute import ComputeManagementClient

from batchai_sdk.testing import FakeAzure, NodeInfo


def compute(fake: Any, **kw: Any) -> ComputeManagementClient:
    extra = {"connection_verify": fake.ca_bundle} if fake.ca_bundle else {}
    return ComputeManagementClient(
        kw.pop("credential", fake.credential), fake.subscription_id, base_url=fake.arm_url, polling_interval=0,
        retry_backoff_factor=0, **extra, **kw,
    )


def vmss_body(capacity: int = 2, **profile: Any) -> dict[str, Any]:
    return {
        "location": "eastus",
        "sku": {"name": "Standard_NC6s_v3", "capacity": capacity},
        "tags": {"cluster": "c1"},
        "properties": {
            "virtualMachineProfile": {
                "osProfile": {"computerNamePrefix": "node", "adminUsername": "u", "adminPassword": "secret!",
                              "customData": base64.b64encode(b"#cloud-config\n").decode()},
                "extensionProfile": {"extensions": [{"name": "boot", "properties": {
                    "publisher": "Microsoft.Azure.Extensions", "type": "CustomScript", "typeHandlerVersion": "2.1",
                    "settings": {"a": 1}, "protectedSettings": {"key": "hidden"}}}]},
                **profile,
            }
        },
    }


class Node:
    def __init__(self, info: NodeInfo) -> None:
        self.info, self.stopped = info, False

    def stop(self) -> None:
        self.stopped = True


@pytest.mark.parametrize("style", ["async", "location", "body", "sync"])
def test_vmss_create_every_lro_variant_launches_nodes(style: str) -> None:
    nodes: list[Node] = []
    with FakeAzure(node_launcher=lambda info: nodes.append(Node(info)) or nodes[-1]) as fake:
        fake.set_lro_style(style)
        client = compute(fake)
        result = client.virtual_machine_scale_sets.begin_create_or_update(fake.resource_group, "vm1", vmss_body()).result()
        assert result.provisioning_state == "Succeeded"
        first = fake.requests[0]
        assert first.operation == "arm.vmss.put" and first.status == (200 if style == "sync" else 201)
        assert sorted(n.info.instance_id for n in nodes) == ["0", "1"]
        info = nodes[0].info
        assert info.custom_data == b"#cloud-config\n" and info.private_ip == "127.0.0.1"
        assert info.extensions[0]["protectedSettings"] == {"key": "hidden"} and info.tags == {"cluster": "c1"}
        got = client.virtual_machine_scale_sets.get(fake.resource_group, "vm1").as_dict()
        assert "hidden" not in str(got) and "secret!" not in str(got)


def test_patch_capacity_scale_in_stops_nodes_and_delete() -> None:
    nodes: dict[str, Node] = {}

    def launch(info: NodeInfo) -> Node:
        nodes[info.instance_id] = Node(info)
        return nodes[info.instance_id]

    with FakeAzure(node_launcher=launch) as fake:
        client = compute(fake)
        ops = client.virtual_machine_scale_sets
        ops.begin_create_or_update(fake.resource_group, "vm1", vmss_body(3)).result()
        ops.begin_update(fake.resource_group, "vm1", {"sku": {"capacity": 1}}).result()
        vms = list(client.virtual_machine_scale_set_vms.list(fake.resource_group, "vm1"))
        assert [vm.instance_id for vm in vms] == ["0"]
        assert nodes["1"].stopped and nodes["2"].stopped and not nodes["0"].stopped
        view = client.virtual_machine_scale_set_vms.get_instance_view(fake.resource_group, "vm1", "0")
        assert [s.code for s in view.statuses] == ["ProvisioningState/succeeded", "PowerState/running"]
        ops.begin_delete_instances(fake.resource_group, "vm1", {"instanceIds": ["0"]}).result()
        assert nodes["0"].stopped
        ops.begin_delete(fake.resource_group, "vm1").result()
        assert [s.name for s in ops.list(fake.resource_group)] == []


def test_run_command_returns_output_from_both_lro_headers() -> None:
    with FakeAzure() as fake:
        client = compute(fake)
        client.virtual_machine_scale_sets.begin_create_or_update(fake.resource_group, "vm1", vmss_body(1)).result()
        result = client.virtual_machine_scale_set_vms.begin_run_command(
            fake.resource_group, "vm1", "0", {"commandId": "RunShellScript", "script": ["echo hello; echo oops >&2"]}
        ).result()
        message = result.value[0].message
        assert "[stdout]\nhello\n" in message and "[stderr]\noops\n" in message


@pytest.mark.parametrize("code,expected", [("SkuNotAvailable", ResourceExistsError), ("AllocationFailed", HttpResponseError)])
def test_provisioning_failures(code: str, expected: type[Exception]) -> None:
    with FakeAzure() as fake:
        fake.fail_provisioning("vm1", code)
        with pytest.raises(expected) as info:
            compute(fake).virtual_machine_scale_sets.begin_create_or_update(fake.resource_group, "vm1", vmss_body()).result()
        assert info.value.error is not None and info.value.error.code == code


def test_spot_eviction_deletes_instance_and_stops_node() -> None:
    nodes: list[Node] = []
    with FakeAzure(node_launcher=lambda info: nodes.append(Node(info)) or nodes[-1]) as fake:
        client = compute(fake)
        body = vmss_body(2, priority="Spot", evictionPolicy="Delete")
        client.virtual_machine_scale_sets.begin_create_or_update(fake.resource_group, "vm1", body).result()
        fake.evict("vm1", 1)
        assert [n.stopped for n in nodes] == [False, True]
        assert [vm.instance_id for vm in client.virtual_machine_scale_set_vms.list(fake.resource_group, "vm1")] == ["0"]


def test_throttling_429_is_honoured_then_succeeds() -> None:
    with FakeAzure() as fake:
        client = compute(fake)
        client.virtual_machine_scale_sets.begin_create_or_update(fake.resource_group, "vm1", vmss_body(1)).result()
        fake.fail_next("arm.vmss.get", status=429, retry_after=1, count=1)
        started = time.monotonic()
        assert client.virtual_machine_scale_sets.get(fake.resource_group, "vm1").name == "vm1"
        assert time.monotonic() - started >= 0.9
        assert [r.status for r in fake.requests if r.operation == "arm.vmss.get"][-2:] == [429, 200]


def test_wrong_token_is_rejected() -> None:
    from azure.core.credentials import AccessToken

    class Wrong:
        def get_token(self, *scopes: str, **kw: Any) -> AccessToken:
            return AccessToken("nope", int(time.time()) + 600)

    with FakeAzure() as fake:
        with pytest.raises(ClientAuthenticationError):
            compute(fake, credential=Wrong()).virtual_machine_scale_sets.get(fake.resource_group, "vm1")


def test_network_and_storage_keys(fake_azure: FakeAzure) -> None:
    from azure.mgmt.network import NetworkManagementClient
    from azure.mgmt.network.models import AddressSpace, Subnet, VirtualNetwork

    net = NetworkManagementClient(fake_azure.credential, fake_azure.subscription_id, base_url=fake_azure.arm_url,
                                  polling_interval=0, connection_verify=fake_azure.ca_bundle)
    vnet = net.virtual_networks.begin_create_or_update(fake_azure.resource_group, "vnet", VirtualNetwork(
        location="eastus", address_space=AddressSpace(address_prefixes=["10.0.0.0/16"]),
        subnets=[Subnet(name="default", address_prefix="10.0.0.0/24")])).result()
    assert vnet.provisioning_state == "Succeeded"
    assert net.subnets.get(fake_azure.resource_group, "vnet", "default").address_prefix == "10.0.0.0/24"
    from azure.core.rest import HttpRequest

    keys_url = (f"{fake_azure.arm_url}/subscriptions/{fake_azure.subscription_id}/resourceGroups/"
                f"{fake_azure.resource_group}/providers/Microsoft.Storage/storageAccounts/{fake_azure.account_name}"
                "/listKeys?api-version=2023-05-01")
    reply = net._client.send_request(HttpRequest("POST", keys_url))
    assert reply.json()["keys"][0]["value"] == fake_azure.account_key
