"""The node bootstrap: valid cloud-config without secrets, shell scripts that pass shellcheck, the agent zipapp."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

from batchai_sdk.engines.azure import bootstrap

KEY = "c3RvcmFnZS1rZXktdmFsdWU9PQ=="


def _params() -> bootstrap.NodeScriptParams:
    return bootstrap.NodeScriptParams(
        account="acct", files_host="acct.file.core.windows.net", control_share="batchai-control", workspace="ws",
        cluster="c1", agent_blob=".batchai/agent/batchai-agent-0.1.0-abc.pyz",
        agent_base={"workspace": "ws", "cluster": "c1", "mount_mode": "prepared", "local": False},
        mount_volumes={
            "azureFileShares": [{"azureFileUrl": "https://acct.file.core.windows.net/afs", "accountName": "acct",
                                 "relativeMountPath": "afs"}],
            "azureBlobFileSystems": [{"accountName": "other", "containerName": "data", "relativeMountPath": "bfs",
                                      "mountOptions": "-o ro"}],
            "fileServers": [{"fileServer": {"id": "/x/fileServers/fs1"}, "relativeMountPath": "nfs",
                             "sourceDirectory": "sub", "mountOptions": "rw"}],
            "unmanagedFileSystems": [{"mountCommand": "mount -t glusterfs 10.0.0.9:/vol", "relativeMountPath": "g"}],
        },
        nfs_sources={0: "10.0.0.4:/mnt/data"},
    )


@pytest.mark.parametrize("image", [{"publisher": "Canonical"}, {"publisher": "microsoft-dsvm"}])
def test_cloud_config_passes_the_cloud_init_schema(tmp_path: Path, image: dict[str, str]) -> None:
    text = bootstrap.cloud_config(image, "STANDARD_NC6")
    path = tmp_path / "user-data"
    path.write_text(text)
    if shutil.which("cloud-init") is None:
        yaml = pytest.importorskip("yaml")
        data = yaml.safe_load(text)
        assert set(data) <= {"package_update", "packages", "write_files", "runcmd", "drivers"}
        pytest.skip("cloud-init is not installed (apt-get install cloud-init); checked the keys only")
    result = subprocess.run(["cloud-init", "schema", "--config-file", str(path)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("docker.io" in text) == (image["publisher"] == "Canonical")


def test_custom_data_limit_names_the_size() -> None:
    with pytest.raises(ValueError, match=r"70000 bytes; Azure accepts at most 65535"):
        bootstrap.encode_custom_data("#cloud-config\n" + "x" * (70000 - 14))


def test_node_script_is_valid_bash_and_shellcheck_clean(tmp_path: Path) -> None:
    script = bootstrap.node_script(_params(), KEY)
    path = tmp_path / "node.sh"
    path.write_text(script)
    subprocess.run(["bash", "-n", str(path)], check=True)
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run(["shellcheck", "-s", "bash", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
    for helper in (bootstrap.BLOBFUSE_INSTALL, bootstrap.NVIDIA_TOOLKIT_INSTALL):
        helper_path = tmp_path / "helper.sh"
        helper_path.write_text(helper)
        result = subprocess.run(["shellcheck", str(helper_path)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stdout


def test_node_script_mounts_every_volume_kind_under_the_batch_ai_root() -> None:
    script = bootstrap.node_script(_params(), KEY)
    assert "MOUNT_ROOT=/mnt/batch/tasks/shared/LS_root/mounts" in script
    assert "mount_smb //acct.file.core.windows.net/afs afs acct" in script
    assert "mount_blob other data bfs" in script
    assert "mount_nfs 10.0.0.4:/mnt/data/sub nfs rw" in script
    assert "mount_unmanaged 'mount -t glusterfs 10.0.0.9:/vol' g" in script
    assert "vers=3.0,credentials=" in script and "actimeo=1" in script
    values = bootstrap.parse_node_script(script)
    assert values["STORAGE_KEY"] == KEY and values["CLUSTER"] == "c1"
    assert json.loads(base64.b64decode(values["AGENT_BASE_B64"]))["mount_mode"] == "prepared"


def test_agent_zipapp_is_stdlib_only_and_runs(tmp_path: Path) -> None:
    data = bootstrap.build_agent_zipapp()
    assert data == bootstrap.build_agent_zipapp()  # reproducible: its hash names it on the share
    names = zipfile.ZipFile(BytesIO(data.split(b"\n", 1)[1])).namelist()
    assert "__main__.py" in names and "batchai_sdk/agent/node.py" in names
    assert not [n for n in names if n.startswith(("batchai_sdk/clients", "batchai_sdk/engines", "batchai_sdk/models"))]
    app = tmp_path / "agent.pyz"
    app.write_bytes(data)
    # -I -S: no site-packages, so an import of anything outside the stdlib fails here.
    result = subprocess.run([sys.executable, "-I", "-S", str(app), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert "--config" in result.stdout
