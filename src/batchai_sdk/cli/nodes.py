"""``node list`` / ``node exec`` for clusters and jobs.

Local engine: a node is an agent process with a directory (``<root>/clusters/<ws>/<cluster>/nodes/<id>``);
``exec`` runs ``bash -c CMD`` there with the node's environment (``AZ_BATCHAI_MOUNT_ROOT`` ...). Azure
engine: a VMSS run command, when the engine offers one (``run_node_command``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import click

from .common import State
from .errors import CLIError, ExitCode


def node_list(state: State, workspace: str, cluster: str) -> list[Any]:
    from ..clients import ClusterClient

    return ClusterClient(state.backend, workspace=workspace).list_remote_login_information(cluster)


def node_exec(state: State, workspace: str, cluster: str, node_id: str | None, command: str | None) -> None:
    nodes = node_list(state, workspace, cluster)
    if not nodes:
        raise CLIError(f"cluster '{cluster}' has no running nodes (see: batchai cluster show -n {cluster})")
    ids = [n.node_id for n in nodes]
    node = node_id or ids[0]
    if node not in ids:
        raise CLIError(f"node '{node}' is not a node of cluster '{cluster}' (its nodes: {', '.join(ids)})")
    backend = state.backend
    if backend.kind == "local":
        rc = _local_exec(backend, workspace, cluster, node, command)
    else:
        run = getattr(backend, "run_node_command", None)
        if run is None:
            raise CLIError(f"node exec is not available on the {backend.kind} engine yet "
                           "(it needs a VMSS run command); use the node's SSH address from: batchai cluster node list")
        if not command:
            raise CLIError("the azure engine runs one command per call: pass --exec CMD")
        result = run(workspace, cluster, node, command)
        rc = int(getattr(result, "exit_code", 0) or 0)
        click.echo(getattr(result, "stdout", "") or "", nl=False)
        click.echo(getattr(result, "stderr", "") or "", nl=False, err=True)
    if rc:
        raise ExitCode(rc)


def _local_exec(backend: Any, workspace: str, cluster: str, node: str, command: str | None) -> int:
    from ..agent.config import AgentConfig

    conf = Path(backend.root) / "clusters" / workspace / cluster / "nodes" / node / "agent.json"
    if not conf.is_file():
        raise CLIError(f"node '{node}' of cluster '{cluster}' has no agent configuration at {conf} (is the node still starting?)")
    cfg = AgentConfig.load(conf)
    env = dict(os.environ)
    if cfg.path_prepend:
        env["PATH"] = os.pathsep.join(list(cfg.path_prepend) + [env.get("PATH", os.defpath)])
    env["AZ_BATCHAI_MOUNT_ROOT"] = cfg.mount_root
    env["AZ_BATCHAI_JOB_TEMP_DIR"] = cfg.jobs_root
    args = ["bash", "-c", command] if command else ["bash", "-i"]
    return subprocess.call(args, cwd=cfg.node_dir, env=env)
