"""A Batch AI file server as a one-instance VM Scale Set: the scale set body and its cloud-init.

Batch AI's file server was one VM whose data disks formed a RAID 0 (mdadm), formatted ext4, mounted at
``/mnt/data`` and exported over NFS to the virtual network. A one-instance scale set gives the same VM
through the same ARM calls (and fake) as the clusters; its ``dataDisks`` are created empty and deleted
with it, so deleting the file server deletes its data.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import compute

#: Where the RAID volume is mounted and what it exports (Batch AI's ``mountSettings.mountPoint``).
MOUNT_POINT = "/mnt/data"
TAG_FILE_SERVER = "batchai-file-server"
#: NFS clients when the subnet's own prefix cannot be read: the private address ranges.
PRIVATE_RANGES = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
SETUP_PATH = "/opt/batchai/fileserver-setup.sh"

_CACHING = {"none": "None", "readonly": "ReadOnly", "readwrite": "ReadWrite"}

SETUP_SCRIPT = r"""#!/bin/bash
# Batch AI file server: RAID 0 over the data disks (or the one disk), ext4, exported over NFS.
# Usage: fileserver-setup.sh DISK_COUNT MOUNT_POINT CLIENT_CIDR...
# Idempotent: a reboot re-runs nothing that is already done (array, filesystem, fstab, exports).
set -euo pipefail

disk_count="$1"
mount_point="$2"
shift 2

log() {
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) batchai-fileserver: $*"
}

disks=()
for lun in $(seq 0 $((disk_count - 1))); do
  # Azure's udev rules name data disks by LUN; they may appear a little after boot.
  link="/dev/disk/azure/scsi1/lun${lun}"
  for _ in $(seq 1 120); do
    [ -e "${link}" ] && break
    sleep 1
  done
  [ -e "${link}" ] || { log "the data disk at LUN ${lun} did not appear"; exit 1; }
  disks+=("$(readlink -f "${link}")")
done

if [ "${disk_count}" -gt 1 ]; then
  device=/dev/md0
  if [ ! -e "${device}" ]; then
    mdadm --create "${device}" --level=0 --raid-devices="${disk_count}" --run "${disks[@]}"
    mdadm --detail --scan >> /etc/mdadm/mdadm.conf
    update-initramfs -u || log "update-initramfs failed; the array is still assembled by mdadm at boot"
  fi
else
  device="${disks[0]}"
fi

if ! blkid "${device}" > /dev/null 2>&1; then
  mkfs.ext4 -F -m 0 "${device}"
fi
uuid="$(blkid -s UUID -o value "${device}")"
mkdir -p "${mount_point}"
grep -q "UUID=${uuid}" /etc/fstab || echo "UUID=${uuid} ${mount_point} ext4 defaults,nofail 0 2" >> /etc/fstab
mountpoint -q "${mount_point}" || mount "${mount_point}"
# Jobs run as different users on different clusters: the volume is open to all, as Batch AI's was.
chmod 0777 "${mount_point}"

line="${mount_point}"
for client in "$@"; do
  line="${line} ${client}(rw,sync,no_root_squash,no_subtree_check)"
done
grep -qxF "${line}" /etc/exports || echo "${line}" >> /etc/exports
systemctl enable --now nfs-kernel-server
exportfs -ra
log "exported ${mount_point} to $*"
"""


def scale_set_name(workspace: str, name: str) -> str:
    """``bai-fs-<name>-<hash>``: distinct from every cluster's scale set, within ARM's 64 characters."""
    digest = hashlib.sha256(f"fileServers:{workspace}/{name}".encode()).hexdigest()[:8]
    return f"bai-fs-{name[:47]}-{digest}"


def tags_for(workspace: str, name: str) -> dict[str, str]:
    return {compute.TAG_WORKSPACE: workspace, TAG_FILE_SERVER: name, compute.TAG_MANAGED: compute.MANAGED_BY}


def cloud_config(disk_count: int, clients: list[str] | tuple[str, ...]) -> str:
    """The ``#cloud-config`` that builds the volume and exports it; no secret in it."""
    config: dict[str, Any] = {
        "package_update": True,
        "packages": ["mdadm", "nfs-kernel-server"],
        "write_files": [{"path": SETUP_PATH, "permissions": "0755", "content": SETUP_SCRIPT}],
        "runcmd": [["bash", SETUP_PATH, str(int(disk_count)), MOUNT_POINT, *clients]],
    }
    # JSON is valid YAML, and json.dumps quotes every string safely.
    return "#cloud-config\n" + json.dumps(config, indent=2) + "\n"


def data_disks(disks: dict[str, Any]) -> list[dict[str, Any]]:
    """The scale set ``dataDisks`` for Batch AI's ``DataDisks`` (LUN 0..count-1, created empty)."""
    caching = _CACHING.get(str(disks.get("cachingType") or "none").lower(), "None")
    return [
        {"lun": lun, "createOption": "Empty", "diskSizeGB": int(disks["diskSizeInGB"]), "caching": caching,
         "managedDisk": {"storageAccountType": str(disks["storageAccountType"])}}
        for lun in range(int(disks["diskCount"]))
    ]


def scale_set_body(
    *,
    workspace: str,
    name: str,
    location: str,
    props: dict[str, Any],
    admin_password: str | None,
    custom_data_b64: str,
    subnet_id: str,
    nsg_id: str | None,
    public_ip: bool = True,
    os_disk_type: str = "Standard_LRS",
) -> dict[str, Any]:
    """The scale set PUT body for a file server spec (wire form, password included: never log it)."""
    users = ((props.get("sshConfiguration") or {}).get("userAccountSettings")) or {}
    profile: dict[str, Any] = {
        "osProfile": compute.os_profile(workspace, name, {"userAccountSettings": users}, admin_password,
                                        custom_data_b64),
        "storageProfile": {
            "imageReference": compute.image_reference({}),
            "osDisk": {"createOption": "FromImage", "caching": "ReadWrite",
                       "managedDisk": {"storageAccountType": os_disk_type}},
            "dataDisks": data_disks(props.get("dataDisks") or {}),
        },
        "networkProfile": compute.network_profile(subnet_id, nsg_id, public_ip),
    }
    return {
        "location": location,
        "tags": tags_for(workspace, name),
        "sku": {"name": props.get("vmSize"), "tier": "Standard", "capacity": 1},
        "properties": {
            "orchestrationMode": "Uniform",
            "overprovision": False,
            "upgradePolicy": {"mode": "Manual"},
            "virtualMachineProfile": profile,
        },
    }


def subnet_of(vmss: Any) -> str | None:
    """The subnet id of a scale set model (as ``azure-mgmt-compute`` returns it)."""
    try:
        nic = vmss.virtual_machine_profile.network_profile.network_interface_configurations[0]
        return str(nic.ip_configurations[0].subnet.id)
    except (AttributeError, IndexError, TypeError):
        return None
