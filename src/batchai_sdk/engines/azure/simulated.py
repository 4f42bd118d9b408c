"""Simulated VMSS nodes for FakeAzure: run the real node agent for each instance the fake starts.

What the engine sent is what the node gets: the launcher decodes the CustomScript's protected script,
takes the agent configuration and the agent zipapp path from it, and runs that zipapp from the control
share with ``python3 agent.pyz --config ...``. Differences from a VM, all forced by one machine playing
many: the control share "mount" is the fake's backing directory, cluster volumes are symlinks into the
fake's share directories (``mount_mode="symlink"``), every node is 127.0.0.1 (``local=True``).

Use: ``fake.on_instance_running(lambda info: start_simulated_node(info, fake, work_root=tmp))``.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from ...control import layout
from . import bootstrap

log = logging.getLogger("batchai_sdk.azure")


def _protected_script(info: Any) -> str:
    for ext in info.extensions:
        if ext.get("type") == "CustomScript" and ext.get("protectedSettings"):
            return base64.b64decode(ext["protectedSettings"]["script"]).decode()
    raise ValueError(f"instance {info.vmss_name}/{info.instance_id} has no CustomScript with protected settings")


class SimulatedNode:
    """One instance's agent process; ``stop()`` is the VM going away (everything on it dies at once)."""

    def __init__(self, proc: subprocess.Popen[bytes], control_dir: Path, workspace: str, cluster: str,
                 node: str, node_dir: Path) -> None:
        self.proc = proc
        self.control_dir = control_dir
        self.workspace = workspace
        self.cluster = cluster
        self.node = node
        self.node_dir = node_dir
        self._lock = threading.Lock()

    def _record_path(self) -> Path:
        return self.control_dir / layout.node_record(self.workspace, self.cluster, self.node)

    def _kill(self) -> None:
        with self._lock:
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                rec = json.loads(self._record_path().read_text("utf-8"))
            except (OSError, ValueError):
                rec = {}
            for pgid in rec.get("pgids") or []:
                try:
                    os.killpg(int(pgid), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            self.proc.wait()

    def stop(self) -> None:
        self._kill()

    def evicted(self) -> None:
        """Spot eviction notice (Azure's Scheduled Events ``Preempt``): the node dies, its record says why,
        so the reaper requeues its job."""
        self._kill()
        path = self._record_path()
        try:
            rec = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return
        rec["evicted"] = True
        rec["time"] = 0
        tmp = path.with_name("." + path.name + ".evict")
        tmp.write_text(json.dumps(rec), encoding="utf-8")
        os.replace(tmp, path)


def start_simulated_node(info: Any, fake: Any, *, work_root: Path, python: str | None = None) -> SimulatedNode:
    """Boot the node agent for a fake VMSS instance (``info`` is a ``batchai_sdk.testing.NodeInfo``)."""
    if info.custom_data is None or not info.custom_data.startswith(b"#cloud-config"):
        raise ValueError("the scale set has no cloud-config custom data")
    values = bootstrap.parse_node_script(_protected_script(info))
    base = json.loads(base64.b64decode(values["AGENT_BASE_B64"]))
    control_dir = fake.share_root(values["CONTROL_SHARE"])
    node = info.computer_name
    node_dir = Path(work_root) / info.vmss_name / node
    node_dir.mkdir(parents=True, exist_ok=True)
    boot_log = control_dir / bootstrap.bootstrap_log_path(base["workspace"], base["cluster"], node)
    boot_log.parent.mkdir(parents=True, exist_ok=True)

    def phase(text: str) -> None:
        from datetime import datetime, timezone

        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        with open(boot_log, "a", encoding="utf-8") as f:
            f.write(f"{stamp} {node} {text}\n")

    phase("bootstrap started (simulated)")
    phase(f"control share mounted at {control_dir}")
    agent = node_dir / "batchai-agent.pyz"
    shutil.copyfile(control_dir / values["AGENT_BLOB"], agent)
    phase("installing the node agent")
    cfg = dict(base)
    cfg.update(
        control_dir=str(control_dir),
        node_id=node,
        node_dir=str(node_dir),
        address=info.private_ip,
        gpus=None,
        mount_mode="symlink",
        shares_root=str(control_dir.parent),
        path_prepend=[str(Path(python or sys.executable).parent)],
        local=True,
        strict_containers=False,
    )
    conf = node_dir / "agent.json"
    conf.write_text(json.dumps(cfg, indent=1), encoding="utf-8")
    phase("writing the agent configuration")
    out = open(node_dir / "agent.log", "ab")
    try:
        proc = subprocess.Popen([python or sys.executable, str(agent), "--config", str(conf)],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=str(node_dir),
                                start_new_session=True)
    finally:
        out.close()
    phase("node agent started")
    log.info("simulated node %s (instance %s/%s): pid %d", node, info.vmss_name, info.instance_id, proc.pid)
    return SimulatedNode(proc, control_dir, base["workspace"], base["cluster"], node, node_dir)
