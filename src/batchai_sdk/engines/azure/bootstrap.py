"""Node bootstrap: the cloud-init custom data, the node script of the CustomScript extension, the agent zipapp.

Split by secrecy. ``customData`` is stored unencrypted and readable on the VM, so it carries only what
every node of every cluster may know: packages, the systemd unit, install helpers. The node script holds
the storage key, so it travels in the extension's ``protectedSettings`` (encrypted to the VM). It waits
for cloud-init, mounts the control share over SMB, reads the cluster's other secrets (mount keys) from
``secrets.json`` there, mounts every volume under ``$AZ_BATCHAI_MOUNT_ROOT``, installs the agent zipapp
from the share, writes the agent configuration and starts ``batchai-agent@<cluster>.service``. Each step
appends a timestamped phase line to ``<cluster dir>/bootstrap/<node>.log`` on the control share.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shlex
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...control import layout

#: Where the node mounts the control share.
CONTROL_MOUNT = "/mnt/batchai/control"
#: Batch AI's node root: ``$AZ_BATCHAI_MOUNT_ROOT`` is ``<NODE_ROOT>/mounts``.
NODE_ROOT = "/mnt/batch/tasks/shared/LS_root"
AGENT_PATH = "/opt/batchai/batchai-agent.pyz"
CONFIG_DIR = "/etc/batchai"
#: ``osProfile.customData`` decodes to at most this many bytes.
CUSTOM_DATA_LIMIT = 65535

_PACKAGE = Path(__file__).resolve().parents[2]
#: What the node agent needs; all of it imports only the standard library.
_ZIPAPP_PARTS = ("__init__.py", "agent", "control", "toolkits")
_MAIN = "import sys\nfrom batchai_sdk.agent.__main__ import main\nsys.exit(main())\n"


# ---------------------------------------------------------------------- agent zipapp
def build_agent_zipapp() -> bytes:
    """The stdlib-only node agent as a zipapp (``python3 agent.pyz --config ...``); byte-identical for
    identical sources, so its hash names it."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        def add(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, date_time=(2018, 5, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)

        add("__main__.py", _MAIN.encode())
        for part in _ZIPAPP_PARTS:
            src = _PACKAGE / part
            files = [src] if src.is_file() else sorted(src.rglob("*.py"))
            for f in files:
                add("batchai_sdk/" + f.relative_to(_PACKAGE).as_posix(), f.read_bytes())
    return b"#!/usr/bin/env python3\n" + buf.getvalue()


def agent_blob_path(data: bytes) -> str:
    """Where the zipapp lives on the control share; the content hash keeps builds of one version apart."""
    from ... import __version__

    return layout.join(layout.ROOT, "agent", f"batchai-agent-{__version__}-{hashlib.sha256(data).hexdigest()[:12]}.pyz")


def bootstrap_log_path(ws: str, cluster: str, node: str) -> str:
    return layout.join(layout.cluster_dir(ws, cluster), "bootstrap", node + ".log")


# ---------------------------------------------------------------------- cloud-init
SYSTEMD_UNIT = f"""[Unit]
Description=Batch AI node agent for cluster %i
Wants=network-online.target
After=network-online.target remote-fs.target
RequiresMountsFor={CONTROL_MOUNT}

[Service]
Type=simple
Environment=PYTHONUNBUFFERED=1
ExecStart=/usr/bin/python3 {AGENT_PATH} --config {CONFIG_DIR}/%i.json
# A crash restarts the agent (it kills its predecessor's job processes and reports them lost).
# Exit 0 means it left on purpose (cluster deleted, idle auto-scale node): stay down.
Restart=always
RestartSec=5
RestartPreventExitStatus=0

[Install]
WantedBy=multi-user.target
"""

BLOBFUSE_INSTALL = """#!/bin/bash
# blobfuse2 comes from Microsoft's package repository for this Ubuntu release.
set -euo pipefail
# shellcheck source=/dev/null # the release file of the node
. /etc/os-release
curl -fsSL "https://packages.microsoft.com/config/ubuntu/${VERSION_ID}/packages-microsoft-prod.deb" -o /tmp/packages-microsoft-prod.deb
dpkg -i /tmp/packages-microsoft-prod.deb
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y blobfuse2 fuse3
"""

NVIDIA_TOOLKIT_INSTALL = """#!/bin/bash
# Docker's NVIDIA runtime (NVIDIA Container Toolkit), as in NVIDIA's install guide; skipped without a GPU.
set -euo pipefail
if ! lspci | grep -qi nvidia; then
  exit 0
fi
curl -fsSL https://nvidia.github.io/libnvidia-container/gpgkey \\
  | gpg --dearmor --yes -o /usr/share/keyrings/nvidia-container-toolkit-keyring.gpg
curl -fsSL https://nvidia.github.io/libnvidia-container/stable/deb/nvidia-container-toolkit.list \\
  | sed 's#deb https://#deb [signed-by=/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg] https://#g' \\
  > /etc/apt/sources.list.d/nvidia-container-toolkit.list
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y nvidia-container-toolkit
nvidia-ctk runtime configure --runtime=docker
systemctl restart docker
modprobe nvidia || true
"""


def is_plain_ubuntu(image: dict[str, Any]) -> bool:
    """Canonical's images lack Docker and the NVIDIA runtime that DSVM / HPC images ship with."""
    return not image.get("virtualMachineImageId") and str(image.get("publisher", "")).lower() == "canonical"


def is_gpu_size(vm_size: str) -> bool:
    return vm_size.lower().startswith("standard_n")


def cloud_config(image: dict[str, Any], vm_size: str) -> str:
    """The ``#cloud-config`` custom data. It contains no secret and nothing cluster-specific beyond the image."""
    plain = is_plain_ubuntu(image)
    packages = ["cifs-utils", "nfs-common", "python3", "ca-certificates", "curl", "gnupg", "pciutils"]
    files = [
        {"path": "/etc/systemd/system/batchai-agent@.service", "permissions": "0644", "content": SYSTEMD_UNIT},
        {"path": "/opt/batchai/install-blobfuse2.sh", "permissions": "0755", "content": BLOBFUSE_INSTALL},
    ]
    runcmd: list[Any] = [["bash", "/opt/batchai/install-blobfuse2.sh"]]
    config: dict[str, Any] = {"package_update": True}
    if plain:
        packages.append("docker.io")
        files.append({"path": "/opt/batchai/install-nvidia-toolkit.sh", "permissions": "0755",
                      "content": NVIDIA_TOOLKIT_INSTALL})
        runcmd.append(["bash", "/opt/batchai/install-nvidia-toolkit.sh"])
        if is_gpu_size(vm_size):
            # cloud-init's ubuntu_drivers module runs `ubuntu-drivers install` (Canonical-signed modules).
            config["drivers"] = {"nvidia": {"license-accepted": True}}
    runcmd.append(["systemctl", "daemon-reload"])
    config.update({"packages": packages, "write_files": files, "runcmd": runcmd})
    # JSON is valid YAML, and json.dumps quotes every string safely.
    return "#cloud-config\n" + json.dumps(config, indent=2) + "\n"


def encode_custom_data(text: str) -> str:
    """Base64 ``customData``; ValueError naming the size when it is over Azure's limit."""
    raw = text.encode("utf-8")
    if len(raw) > CUSTOM_DATA_LIMIT:
        raise ValueError(f"the cloud-init custom data is {len(raw)} bytes; Azure accepts at most {CUSTOM_DATA_LIMIT}")
    return base64.b64encode(raw).decode("ascii")


# ---------------------------------------------------------------------- node script
@dataclass
class NodeScriptParams:
    account: str
    files_host: str
    control_share: str
    workspace: str
    cluster: str
    agent_blob: str
    #: The agent configuration without the per-node fields (node_id, address, gpus).
    agent_base: dict[str, Any]
    #: The cluster's ``nodeSetup.mountVolumes`` (secrets stripped) in wire form.
    mount_volumes: dict[str, Any] = field(default_factory=dict)
    #: fileServers[i] → "ip:/export" resolved by the engine (None: unknown).
    nfs_sources: dict[int, str | None] = field(default_factory=dict)


def _q(value: object) -> str:
    return shlex.quote(str(value))


def _mount_lines(p: NodeScriptParams) -> list[str]:
    """Shell lines mounting every Batch AI volume kind under $MOUNT_ROOT."""
    vols = p.mount_volumes or {}
    prefix = "properties.nodeSetup.mountVolumes"
    out: list[str] = []
    for i, ref in enumerate(vols.get("azureFileShares") or []):
        rel = str(ref.get("relativeMountPath", "")).strip("/")
        url = str(ref.get("azureFileUrl", "")).rstrip("/")
        unc = "//" + url.split("://", 1)[-1]
        account = str(ref.get("accountName") or "")
        key_path = f"{prefix}.azureFileShares[{i}].credentials.accountKey"
        fmode, dmode = ref.get("fileMode") or "0777", ref.get("directoryMode") or "0777"
        out.append(f"mount_smb {_q(unc)} {_q(rel)} {_q(account)} {_q(key_path)} {_q(fmode)} {_q(dmode)}")
    for i, ref in enumerate(vols.get("azureBlobFileSystems") or []):
        rel = str(ref.get("relativeMountPath", "")).strip("/")
        key_path = f"{prefix}.azureBlobFileSystems[{i}].credentials.accountKey"
        out.append(f"mount_blob {_q(ref.get('accountName', ''))} {_q(ref.get('containerName', ''))} {_q(rel)} "
                   f"{_q(key_path)} {_q(ref.get('mountOptions') or '')} {i}")
    for i, ref in enumerate(vols.get("fileServers") or []):
        rel = str(ref.get("relativeMountPath", "")).strip("/")
        source = p.nfs_sources.get(i)
        sub = str(ref.get("sourceDirectory") or "").strip("/")
        if source and sub:
            source = source.rstrip("/") + "/" + sub
        out.append(f"mount_nfs {_q(source or '')} {_q(rel)} {_q(ref.get('mountOptions') or '')}")
    for ref in vols.get("unmanagedFileSystems") or []:
        rel = str(ref.get("relativeMountPath", "")).strip("/")
        out.append(f"mount_unmanaged {_q(ref.get('mountCommand', ''))} {_q(rel)}")
    return out


_FUNCTIONS = r"""
phase() {
  local line
  line="$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ) ${NODE_ID} $*"
  echo "${line}" >> "${LOCAL_LOG}"
  if mountpoint -q "${CONTROL_DIR}"; then
    # The log is best effort: a full or flaky share must not stop the boot.
    { mkdir -p "$(dirname "${CONTROL_DIR}/${BOOT_LOG}")" && echo "${line}" >> "${CONTROL_DIR}/${BOOT_LOG}"; } || true
  fi
}

fail() {
  phase "failed: $*"
  exit 1
}

# secret PATH: a value the client stored in the cluster's secrets.json (mount keys), or nothing.
secret() {
  python3 - "${SECRETS}" "$1" <<'PY'
import json, sys
try:
    values = json.load(open(sys.argv[1])).get("values", {})
except (OSError, ValueError):
    values = {}
print(values.get(sys.argv[2]) or "", end="")
PY
}

credentials_file() {
  local file="$1" user="$2" password="$3"
  install -m 0600 /dev/null "${file}"
  printf 'username=%s\npassword=%s\n' "${user}" "${password}" > "${file}"
}

mount_smb() {
  local unc="$1" rel="$2" account="$3" key_path="$4" fmode="$5" dmode="$6" key target cred
  target="${MOUNT_ROOT}/${rel}"
  key="$(secret "${key_path}")"
  if [ -z "${key}" ] && [ "${account}" = "${ACCOUNT}" ]; then
    key="${STORAGE_KEY}"
  fi
  [ -n "${key}" ] || fail "no account key for Azure file share ${unc}"
  cred="${CONFIG_DIR}/smb-$(echo "${rel}" | tr '/' '_').cred"
  credentials_file "${cred}" "${account}" "${key}"
  mkdir -p "${target}"
  mountpoint -q "${target}" || mount -t cifs "${unc}" "${target}" \
    -o "vers=3.0,credentials=${cred},serverino,dir_mode=${dmode},file_mode=${fmode},actimeo=1" \
    || fail "mounting Azure file share ${unc} at ${target}"
  phase "mounted Azure file share ${unc} at ${target}"
}

mount_blob() {
  local account="$1" container="$2" rel="$3" key_path="$4" options="$5" index="$6" key target conf cache
  target="${MOUNT_ROOT}/${rel}"
  key="$(secret "${key_path}")"
  if [ -z "${key}" ] && [ "${account}" = "${ACCOUNT}" ]; then
    key="${STORAGE_KEY}"
  fi
  [ -n "${key}" ] || fail "no account key for blob container ${container}"
  conf="${CONFIG_DIR}/blobfuse2-${index}.yaml"
  cache="/mnt/resource/blobfuse2-${index}"
  mkdir -p "${target}" "${cache}"
  install -m 0600 /dev/null "${conf}"
  cat > "${conf}" <<CONF
allow-other: true
components: [libfuse, file_cache, attr_cache, azstorage]
file_cache:
  path: ${cache}
azstorage:
  type: block
  account-name: ${account}
  account-key: ${key}
  container: ${container}
  mode: key
CONF
  # shellcheck disable=SC2086 # mountOptions are a list of words
  mountpoint -q "${target}" || blobfuse2 mount "${target}" --config-file="${conf}" ${options} \
    || fail "mounting blob container ${container} at ${target}"
  phase "mounted blob container ${account}/${container} at ${target}"
}

mount_nfs() {
  local source="$1" rel="$2" options="$3" target
  target="${MOUNT_ROOT}/${rel}"
  [ -n "${source}" ] || fail "the file server for ${rel} has no known address (create it before the cluster)"
  mkdir -p "${target}"
  # A file server created just before the cluster may still be exporting (cloud-init runs after the VM
  # reports succeeded): retry for up to five minutes before giving up.
  local tries=0
  until mountpoint -q "${target}" || mount -t nfs "${source}" "${target}" -o "${options:-defaults}"; do
    tries=$((tries + 1))
    [ "${tries}" -lt 30 ] || fail "mounting NFS ${source} at ${target}"
    phase "NFS ${source} not ready yet (try ${tries}); retrying in 10 s"
    sleep 10
  done
  phase "mounted NFS ${source} at ${target}"
}

mount_unmanaged() {
  local command="$1" rel="$2" target
  target="${MOUNT_ROOT}/${rel}"
  mkdir -p "${target}"
  # Batch AI ran the user's mount command with the mount point appended.
  mountpoint -q "${target}" || bash -c "${command} \"\$1\"" mount "${target}" \
    || fail "unmanaged mount command for ${target}"
  phase "mounted unmanaged file system at ${target}"
}
"""

_MAIN_STEPS = r"""
mkdir -p "${CONFIG_DIR}" "${CONTROL_DIR}" "${MOUNT_ROOT}" /opt/batchai
phase "bootstrap started (CustomScript extension)"
phase "waiting for cloud-init (packages, Docker, drivers)"
if ! cloud-init status --wait > /dev/null 2>&1; then
  phase "cloud-init reported errors; see /var/log/cloud-init-output.log"
fi

phase "mounting the control share"
credentials_file "${CONFIG_DIR}/control.cred" "${ACCOUNT}" "${STORAGE_KEY}"
if ! mountpoint -q "${CONTROL_DIR}"; then
  mount -t cifs "//${FILES_HOST}/${CONTROL_SHARE}" "${CONTROL_DIR}" \
    -o "vers=3.0,credentials=${CONFIG_DIR}/control.cred,serverino,dir_mode=0777,file_mode=0777,actimeo=1" \
    || fail "mounting the control share //${FILES_HOST}/${CONTROL_SHARE}"
fi
if ! grep -q " ${CONTROL_DIR} " /etc/fstab; then
  echo "//${FILES_HOST}/${CONTROL_SHARE} ${CONTROL_DIR} cifs nofail,_netdev,vers=3.0,credentials=${CONFIG_DIR}/control.cred,serverino,dir_mode=0777,file_mode=0777,actimeo=1 0 0" >> /etc/fstab
fi
phase "control share mounted at ${CONTROL_DIR}"

phase "mounting cluster volumes under ${MOUNT_ROOT}"
mount_volumes

phase "installing the node agent"
install -m 0644 "${CONTROL_DIR}/${AGENT_BLOB}" "${AGENT_PATH}" || fail "the agent ${AGENT_BLOB} is not on the control share"

phase "writing the agent configuration"
ADDRESS="$(hostname -I | awk '{print $1}')"
GPU_COUNT="$(nvidia-smi -L 2> /dev/null | grep -c '^GPU ' || true)"
python3 - "${AGENT_BASE_B64}" "${NODE_ID}" "${ADDRESS}" "${GPU_COUNT:-0}" > "${CONFIG_DIR}/${CLUSTER}.json" <<'PY' \
  || fail "writing the agent configuration"
import base64, json, sys
cfg = json.loads(base64.b64decode(sys.argv[1]))
gpus = int(sys.argv[4] or 0)
cfg.update(node_id=sys.argv[2], address=sys.argv[3] or "127.0.0.1", gpus=[str(i) for i in range(gpus)] if gpus else None)
json.dump(cfg, sys.stdout, indent=1)
PY

phase "starting the node agent (it runs the setup task, then takes jobs)"
systemctl daemon-reload
systemctl enable --now "batchai-agent@${CLUSTER}.service" || fail "starting batchai-agent@${CLUSTER}.service"
phase "node agent started"
"""


def node_script(p: NodeScriptParams, storage_key: str) -> str:
    """The bash script the CustomScript extension runs (it holds the storage key: protectedSettings only)."""
    base_b64 = base64.b64encode(json.dumps(p.agent_base, sort_keys=True).encode()).decode()
    head = [
        "#!/bin/bash",
        "# Batch AI node bootstrap, run as root by the CustomScript extension.",
        "set -uo pipefail",
        "umask 022",
        f"ACCOUNT={_q(p.account)}",
        f"STORAGE_KEY={_q(storage_key)}",
        f"FILES_HOST={_q(p.files_host)}",
        f"CONTROL_SHARE={_q(p.control_share)}",
        f"WORKSPACE={_q(p.workspace)}",
        f"CLUSTER={_q(p.cluster)}",
        f"AGENT_BLOB={_q(p.agent_blob)}",
        f"AGENT_BASE_B64='{base_b64}'",
        f"AGENT_PATH={_q(AGENT_PATH)}",
        f"CONFIG_DIR={_q(CONFIG_DIR)}",
        f"CONTROL_DIR={_q(CONTROL_MOUNT)}",
        f"MOUNT_ROOT={_q(NODE_ROOT + '/mounts')}",
        'NODE_ID="$(hostname)"',
        "LOCAL_LOG=/var/log/batchai-bootstrap.log",
        'BOOT_LOG=".batchai/workspaces/${WORKSPACE}/clusters/${CLUSTER}/bootstrap/${NODE_ID}.log"',
        'SECRETS="${CONTROL_DIR}/.batchai/workspaces/${WORKSPACE}/clusters/${CLUSTER}/secrets.json"',
    ]
    mounts = _mount_lines(p) or [":"]
    body = "mount_volumes() {\n" + "\n".join("  " + line for line in mounts) + "\n}\n"
    return "\n".join(head) + "\n" + _FUNCTIONS + "\n" + body + _MAIN_STEPS


def parse_node_script(script: str) -> dict[str, str]:
    """The variable assignments at the top of a node script (what a simulated node needs)."""
    out: dict[str, str] = {}
    for line in script.splitlines():
        if line.startswith(("#", " ")) or "=" not in line or line.startswith(("mount", "phase")):
            continue
        name, _, value = line.partition("=")
        if not name.isidentifier() or not name.isupper():
            continue
        if value.startswith('"'):
            continue  # computed on the node
        parts = shlex.split(value)
        out[name] = parts[0] if parts else ""
    return out


def custom_script_extension(script: str) -> dict[str, Any]:
    """The VMSS extension that runs ``script``; the script (with the storage key) is protected."""
    return {
        "name": "batchai-bootstrap",
        "properties": {
            "publisher": "Microsoft.Azure.Extensions",
            "type": "CustomScript",
            "typeHandlerVersion": "2.1",
            "autoUpgradeMinorVersion": True,
            "settings": {},
            "protectedSettings": {"script": base64.b64encode(script.encode()).decode("ascii")},
        },
    }
