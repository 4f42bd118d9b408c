"""LocalBackend: the embedded default engine (node agents as local processes, directories as shares)."""

from __future__ import annotations

import base64
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ...agent.processes import pid_alive
from ...control import layout
from ..base import Backend, NodeLogin, ProvisioningStatus
from .store import LocalStore

log = logging.getLogger("batchai_sdk.local")

#: The account name that local share URLs carry (``https://<account>.file.core.windows.net/<share>``).
LOCAL_ACCOUNT = "batchailocal"
#: A local file server's exported volume is the share ``fileserver-<name>`` (see agent.mounts.share_of).
FILE_SERVER_SHARE_PREFIX = "fileserver-"


class LocalBackend(Backend):
    """Clusters of node-agent processes on this machine, shares as directories under ``root``.

    :param root: where state lives; default ``$BATCHAI_HOME``, else ``~/.batchai``. Private to the user (0700).
    :param heartbeat_interval: seconds between node heartbeats (a lost node is noticed after three).
    :param poll_interval: how often idle nodes look at the queue, in seconds.
    :param terminate_grace: seconds between SIGTERM and SIGKILL when a job is terminated.
    :param strict_containers: refuse jobs with container settings instead of running them on the host
        when no Docker engine answers.
    """

    kind = "local"

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        heartbeat_interval: float = 1.0,
        poll_interval: float = 0.05,
        terminate_grace: float = 10.0,
        strict_containers: bool = False,
        auto_scale_idle_seconds: float = 30.0,
    ) -> None:
        base = root or os.environ.get("BATCHAI_HOME") or Path.home() / ".batchai"
        self.root = Path(base).expanduser().resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        self.store: LocalStore = LocalStore(self.root / "shares")
        self.control_share = layout.CONTROL_SHARE
        self.subscription_id = "local"
        self.resource_group = "local"
        self.location = "local"
        self.storage_account_name = LOCAL_ACCOUNT
        self.heartbeat_interval = heartbeat_interval
        self.node_poll_interval = poll_interval
        self.terminate_grace = terminate_grace
        self.strict_containers = strict_containers
        self.auto_scale_idle_seconds = auto_scale_idle_seconds
        self._key: str | None = None
        self.ensure_control_share()

    def __repr__(self) -> str:
        return f"LocalBackend(root={str(self.root)!r})"

    @property
    def storage_account_key(self) -> str:
        """A per-root key so that specs carrying credentials validate; local mounts do not check it."""
        if self._key is None:
            path = self.root / "account.json"
            try:
                self._key = json.loads(path.read_text("utf-8"))["key"]
            except (FileNotFoundError, ValueError, KeyError):
                key = base64.b64encode(secrets.token_bytes(32)).decode()
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w") as f:
                    json.dump({"account": LOCAL_ACCOUNT, "key": key}, f)
                self._key = key
        assert self._key is not None
        return self._key

    def share_url(self, share: str) -> str:
        return f"https://{self.storage_account_name}.file.core.windows.net/{share}"

    def share_dir(self, share: str) -> Path:
        """The directory that holds a share's files."""
        return self.store.share_dir(share)

    # ------------------------------------------------------------------ provisioning
    def _home(self, ws: str, cluster: str) -> Path:
        return self.root / "clusters" / ws / cluster

    def cluster_record_extras(self) -> dict[str, Any]:
        return {"local": self.local_options()}

    def local_options(self) -> dict[str, Any]:
        """Engine settings the node agents read from the cluster record."""
        return {
            "heartbeatInterval": self.heartbeat_interval,
            "pollInterval": self.node_poll_interval,
            "terminateGrace": self.terminate_grace,
            "strictContainers": self.strict_containers,
            "autoScaleIdleSeconds": self.auto_scale_idle_seconds,
            # Jobs find `python` where the user installed the SDK, as on a DSVM where it is on PATH.
            "pathPrepend": [str(Path(sys.executable).parent)],
        }

    def provision_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        home = self._home(workspace, cluster)
        home.mkdir(parents=True, exist_ok=True)
        out = open(home / "supervisor.log", "ab")
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "batchai_sdk.engines.local.supervisor", "--root", str(self.root),
                 "--workspace", workspace, "--cluster", cluster],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # survives the creating process and its terminal
                cwd=str(home),
            )
        finally:
            out.close()
        (home / "supervisor.pid").write_text(str(proc.pid), encoding="utf-8")
        log.info("cluster %s/%s: supervisor pid %d", workspace, cluster, proc.pid)

    def resize_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        # The supervisor reads the new scale settings from the record on its next tick.
        if not self._supervisor_alive(workspace, cluster):
            self.provision_cluster(workspace, cluster, record)

    def _supervisor_pid(self, workspace: str, cluster: str) -> int | None:
        try:
            return int((self._home(workspace, cluster) / "supervisor.pid").read_text("utf-8"))
        except (FileNotFoundError, ValueError):
            return None

    def _supervisor_alive(self, workspace: str, cluster: str) -> bool:
        pid = self._supervisor_pid(workspace, cluster)
        if pid is None or not pid_alive(pid):
            return False
        # A zombie (our own exited child) is not alive.
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            return stat.rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return True

    def deprovision_cluster(self, workspace: str, cluster: str, *, wait: bool = True) -> None:
        pid = self._supervisor_pid(workspace, cluster)
        if pid is not None and self._supervisor_alive(workspace, cluster):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if wait:
                deadline = time.monotonic() + self.terminate_grace + 30
                while time.monotonic() < deadline and self._supervisor_alive(workspace, cluster):
                    try:
                        os.waitpid(pid, os.WNOHANG)
                    except ChildProcessError:
                        pass
                    time.sleep(0.05)
                if self._supervisor_alive(workspace, cluster):
                    os.kill(pid, signal.SIGKILL)
        if wait:
            self._kill_stray_agents(workspace, cluster)
            import shutil

            shutil.rmtree(self._home(workspace, cluster), ignore_errors=True)

    def _kill_stray_agents(self, workspace: str, cluster: str) -> None:
        """Agents whose supervisor was killed stop by themselves within a heartbeat; make sure."""
        nodes = self._home(workspace, cluster) / "nodes"
        if not nodes.is_dir():
            return
        for conf in nodes.glob("*/agent.json"):
            for pid in _pids_with_env("BATCHAI_AGENT_CONFIG", str(conf)):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def provisioning_status(self, workspace: str, cluster: str, record: dict[str, Any]) -> ProvisioningStatus:
        state = record.get("provisioningState", "creating")
        target = int(record.get("targetNodeCount", 0))
        if state == "creating" and self._supervisor_alive(workspace, cluster):
            state = "succeeded"
        errors: list[dict[str, Any]] = []
        if state in ("creating", "succeeded") and not self._supervisor_alive(workspace, cluster):
            try:
                sup = json.loads((self._home(workspace, cluster) / "supervisor.json").read_text("utf-8"))
                target = int(sup.get("target", target))
            except (FileNotFoundError, ValueError):
                pass
            if state == "succeeded":
                # The supervisor died (machine restart): start it again, the cluster spec is on the share.
                self.provision_cluster(workspace, cluster, record)
        return ProvisioningStatus(state=state, target_node_count=target, errors=errors)

    def supervisor_target(self, workspace: str, cluster: str) -> int | None:
        try:
            return int(json.loads((self._home(workspace, cluster) / "supervisor.json").read_text("utf-8"))["target"])
        except (FileNotFoundError, ValueError, KeyError):
            return None

    def remote_login_information(self, workspace: str, cluster: str) -> list[NodeLogin]:
        ndir = self.share_dir(self.control_share) / layout.nodes_dir(workspace, cluster)
        out = []
        for rec_path in sorted(ndir.glob("*.json")):
            try:
                rec = json.loads(rec_path.read_text("utf-8"))
            except ValueError:
                continue
            if rec.get("state") not in ("left", "unusable"):
                # Local nodes are processes on this machine: there is no SSH port (0).
                out.append(NodeLogin(node_id=rec["node"], ip_address=rec.get("address", "127.0.0.1"), port=0))
        return out

    # ------------------------------------------------------------------ file servers
    def file_server_share(self, name: str) -> str:
        """The share that is a file server's exported volume; node agents link ``fileServers`` mounts to it
        (:func:`batchai_sdk.agent.mounts.share_of`). Shares are per engine root, not per workspace."""
        return FILE_SERVER_SHARE_PREFIX + name

    def provision_file_server(self, workspace: str, name: str, record: dict[str, Any],
                              secrets: dict[str, Any] | None = None) -> None:
        # Raises ResourceExistsError when the directory exists: a file server of that name in another
        # workspace (or a share a user made with that name) already holds it.
        self.store.create_share(self.file_server_share(name))
        log.info("file server %s/%s: exported directory %s", workspace, name,
                 self.share_dir(self.file_server_share(name)))

    def deprovision_file_server(self, workspace: str, name: str) -> None:
        import shutil

        # Like deleting Batch AI's file server VM and its disks: the data goes with it.
        shutil.rmtree(self.share_dir(self.file_server_share(name)), ignore_errors=True)

    def file_server_status(self, workspace: str, name: str, record: dict[str, Any]) -> dict[str, Any]:
        state = str(record.get("provisioningState") or "creating")
        directory = self.share_dir(self.file_server_share(name))
        errors: list[dict[str, Any]] = list(record.get("errors") or [])
        if state in ("creating", "succeeded"):
            if directory.is_dir():
                state = "succeeded"
            else:
                state = "failed"
                errors = [{"code": "FileServerStorageMissing",
                           "message": f"The directory of file server '{name}' ({directory}) is gone."}]
        mount = {"mountPoint": str(directory), "fileServerInternalIP": "127.0.0.1",
                 "fileServerPublicIP": "127.0.0.1"} if state == "succeeded" else None
        return {"provisioningState": state, "mountSettings": mount, "errors": errors}

    def evict_node(self, workspace: str, cluster: str, node: str) -> None:
        """Simulate a Spot eviction of one node: the agent is killed and its job requeued."""
        rel = layout.node_record(workspace, cluster, node)
        path = self.share_dir(self.control_share) / rel
        rec = json.loads(path.read_text("utf-8"))
        rec["evicted"] = True
        rec["time"] = 0  # lost at once
        pid = int(rec["pid"])
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for pgid in rec.get("pgids") or []:
            try:
                os.killpg(int(pgid), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        tmp = path.with_name("." + path.name + ".evict")
        tmp.write_text(json.dumps(rec), encoding="utf-8")
        os.replace(tmp, path)


def _pids_with_env(name: str, value: str) -> list[int]:
    needle = f"{name}={value}".encode()
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if needle in (proc / "environ").read_bytes().split(b"\0"):
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids
