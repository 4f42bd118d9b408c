"""A Batch AI cluster as a VM Scale Set: the scale set body, names and tags."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ...images import resolve_image

#: Tags on everything the engine creates, so that deleting a cluster finds all of it.
TAG_WORKSPACE = "batchai-workspace"
TAG_CLUSTER = "batchai-cluster"
TAG_MANAGED = "batchai-managed-by"
MANAGED_BY = "batchai-sdk"


def scale_set_name(workspace: str, cluster: str) -> str:
    """``bai-<cluster>-<hash of workspace/cluster>``: unique per workspace, within ARM's 64 characters."""
    digest = hashlib.sha256(f"{workspace}/{cluster}".encode()).hexdigest()[:8]
    return f"bai-{cluster[:50]}-{digest}"


def computer_name_prefix(cluster: str) -> str:
    """Host names (and so node ids) are ``<prefix><6 base-36 digits>``; Linux host names stay under 64."""
    clean = re.sub(r"[^a-z0-9-]", "", cluster.lower()).strip("-") or "node"
    return clean[:20] + "-"


def tags_for(workspace: str, cluster: str) -> dict[str, str]:
    return {TAG_WORKSPACE: workspace, TAG_CLUSTER: cluster, TAG_MANAGED: MANAGED_BY}


def image_reference(props: dict[str, Any]) -> dict[str, Any]:
    """The ARM image reference of a cluster spec (Batch AI's default image when none is given)."""
    ref = ((props.get("virtualMachineConfiguration") or {}).get("imageReference")) or {}
    if not ref:
        ref = resolve_image("UbuntuLTS").serialize()
    if ref.get("virtualMachineImageId"):
        return {"id": ref["virtualMachineImageId"]}
    return {"publisher": ref["publisher"], "offer": ref["offer"], "sku": ref["sku"],
            "version": ref.get("version") or "latest"}


def target_capacity(scale: dict[str, Any]) -> int:
    """Nodes to start with: the manual target, or auto-scale's initial count within [min, max]."""
    if scale.get("manual"):
        return int(scale["manual"].get("targetNodeCount", 0))
    auto = scale.get("autoScale") or {}
    lo, hi = int(auto.get("minimumNodeCount", 0)), int(auto.get("maximumNodeCount", 0))
    initial = int(auto.get("initialNodeCount", 0) or 0)
    return max(lo, min(hi, initial)) if hi else max(lo, initial)


def os_profile(workspace: str, cluster: str, props: dict[str, Any], admin_password: str | None,
               custom_data_b64: str) -> dict[str, Any]:
    users = props.get("userAccountSettings") or {}
    user = users.get("adminUserName") or "batchai"
    key = users.get("adminUserSshPublicKey")
    profile: dict[str, Any] = {
        "computerNamePrefix": computer_name_prefix(cluster),
        "adminUsername": user,
        "customData": custom_data_b64,
        "linuxConfiguration": {"disablePasswordAuthentication": admin_password is None},
    }
    if key:
        profile["linuxConfiguration"]["ssh"] = {
            "publicKeys": [{"path": f"/home/{user}/.ssh/authorized_keys", "keyData": key}]}
    if admin_password is not None:
        profile["adminPassword"] = admin_password
    return profile


def network_profile(subnet_id: str, nsg_id: str | None, public_ip: bool) -> dict[str, Any]:
    ipconfig: dict[str, Any] = {"name": "ipconfig", "properties": {"primary": True, "subnet": {"id": subnet_id}}}
    if public_ip:
        # Standard public IPs are closed inbound unless an NSG opens them (ours opens 22 only).
        ipconfig["properties"]["publicIPAddressConfiguration"] = {
            "name": "pip", "sku": {"name": "Standard"}, "properties": {"idleTimeoutInMinutes": 15}}
    nic: dict[str, Any] = {"name": "nic", "properties": {"primary": True, "ipConfigurations": [ipconfig]}}
    if nsg_id:
        nic["properties"]["networkSecurityGroup"] = {"id": nsg_id}
    return {"networkInterfaceConfigurations": [nic]}


def scale_set_body(
    *,
    workspace: str,
    cluster: str,
    location: str,
    props: dict[str, Any],
    admin_password: str | None,
    custom_data_b64: str,
    extension: dict[str, Any],
    subnet_id: str,
    nsg_id: str | None,
    public_ip: bool = True,
    os_disk_type: str = "Standard_LRS",
) -> dict[str, Any]:
    """The scale set PUT body for a cluster spec (wire form, secrets included: never log it)."""
    profile: dict[str, Any] = {
        "osProfile": os_profile(workspace, cluster, props, admin_password, custom_data_b64),
        "storageProfile": {
            "imageReference": image_reference(props),
            "osDisk": {"createOption": "FromImage", "caching": "ReadWrite",
                       "managedDisk": {"storageAccountType": os_disk_type}},
        },
        "networkProfile": network_profile(subnet_id, nsg_id, public_ip),
        "extensionProfile": {"extensions": [extension]},
    }
    if str(props.get("vmPriority") or "dedicated").lower() == "lowpriority":
        # Batch AI's low-priority nodes are Spot VMs today; -1 pays up to the on-demand price.
        profile.update({"priority": "Spot", "evictionPolicy": "Delete", "billingProfile": {"maxPrice": -1}})
    return {
        "location": location,
        "tags": tags_for(workspace, cluster),
        "sku": {"name": props.get("vmSize") or "STANDARD_NC6", "tier": "Standard",
                "capacity": target_capacity(props.get("scaleSettings") or {})},
        "properties": {
            "orchestrationMode": "Uniform",
            "overprovision": False,
            "upgradePolicy": {"mode": "Manual"},
            "singlePlacementGroup": False,
            "virtualMachineProfile": profile,
        },
    }
