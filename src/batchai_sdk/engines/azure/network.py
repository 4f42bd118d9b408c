"""The network the engine creates when a cluster names no subnet: a virtual network with one subnet and a
network security group that admits SSH (Batch AI's remote login) and nothing else inbound.

azure-mgmt-network (already in the ``azure`` extra) handles the long-running operations; it is imported
only here, and only when a cluster needs a network.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from azure.core.exceptions import ResourceNotFoundError

log = logging.getLogger("batchai_sdk.azure")

ADDRESS_SPACE = "10.0.0.0/16"
SUBNET_PREFIX = "10.0.0.0/20"


@dataclass(frozen=True)
class NetworkNames:
    vnet: str
    subnet: str
    nsg: str

    @classmethod
    def for_scale_set(cls, vmss: str) -> NetworkNames:
        return cls(vnet=f"{vmss}-vnet", subnet="nodes", nsg=f"{vmss}-nsg")


def nsg_body(location: str, tags: dict[str, str]) -> dict[str, Any]:
    return {
        "location": location,
        "tags": tags,
        "properties": {
            "securityRules": [
                {
                    "name": "allow-ssh",
                    "properties": {
                        "priority": 1000, "direction": "Inbound", "access": "Allow", "protocol": "Tcp",
                        "sourceAddressPrefix": "*", "sourcePortRange": "*",
                        "destinationAddressPrefix": "*", "destinationPortRange": "22",
                    },
                }
            ]
        },
    }


def vnet_body(location: str, tags: dict[str, str], names: NetworkNames, nsg_id: str) -> dict[str, Any]:
    return {
        "location": location,
        "tags": tags,
        "properties": {
            "addressSpace": {"addressPrefixes": [ADDRESS_SPACE]},
            "subnets": [{"name": names.subnet, "properties": {"addressPrefix": SUBNET_PREFIX,
                                                              "networkSecurityGroup": {"id": nsg_id}}}],
        },
    }


def ensure_network(client: Any, resource_group: str, location: str, names: NetworkNames,
                   tags: dict[str, str]) -> tuple[str, str]:
    """Create (or update) the NSG and the virtual network; returns (subnet id, nsg id)."""
    nsg = client.network_security_groups.begin_create_or_update(
        resource_group, names.nsg, nsg_body(location, tags)).result()
    vnet = client.virtual_networks.begin_create_or_update(
        resource_group, names.vnet, vnet_body(location, tags, names, nsg.id)).result()
    subnet_id = f"{vnet.id}/subnets/{names.subnet}"
    log.info("network %s ready (subnet %s)", names.vnet, names.subnet)
    return subnet_id, str(nsg.id)


def delete_network(client: Any, resource_group: str, names: NetworkNames, *, wait: bool = True) -> None:
    """Remove what :func:`ensure_network` made; missing pieces are fine. The NSG goes after the vnet that
    references it."""
    for op, name in ((client.virtual_networks, names.vnet), (client.network_security_groups, names.nsg)):
        try:
            poller = op.begin_delete(resource_group, name)
            if wait:
                poller.result()
        except ResourceNotFoundError:
            pass
