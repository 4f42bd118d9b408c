"""The node agent's configuration: one JSON file written by the engine that starts the agent."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


@dataclass
class AgentConfig:
    #: Where the control share is mounted on this node.
    control_dir: str
    workspace: str
    cluster: str
    node_id: str
    #: Node root for mount points, job temp dirs and the agent's own files.
    node_dir: str
    #: Address other nodes of a job reach this node at.
    address: str = "127.0.0.1"
    #: GPU ids this node owns; None when the machine has no GPU (CUDA_VISIBLE_DEVICES left alone).
    gpus: list[str] | None = None
    subscription_id: str = "local"
    resource_group: str = "local"
    heartbeat_interval: float = 1.0
    poll_interval: float = 0.05
    terminate_grace: float = 10.0
    #: "symlink": shares are directories under ``shares_root`` linked into the mount root (local engine);
    #: "prepared": the node bootstrap mounted everything under ``mount_root`` before the agent started.
    mount_mode: str = "symlink"
    shares_root: str | None = None
    #: Prepended to PATH for jobs, so that ``python`` is the interpreter the user installed the SDK in.
    path_prepend: list[str] = field(default_factory=list)
    #: True when every node of the cluster is on this machine (ports, MPI loopback).
    local: bool = True
    #: Refuse container jobs when no Docker engine answers, instead of running them on the host.
    strict_containers: bool = False
    #: Exit after this many idle seconds (auto-scale scale-in); None: never.
    idle_timeout: float | None = None

    @property
    def mount_root(self) -> str:
        return str(Path(self.node_dir) / "mounts")

    @property
    def job_mount_root(self) -> str:
        return str(Path(self.node_dir) / "jobmounts")

    @property
    def jobs_root(self) -> str:
        return str(Path(self.node_dir) / "jobs")

    @classmethod
    def load(cls, path: str | Path) -> AgentConfig:
        data: dict[str, Any] = json.loads(Path(path).read_text("utf-8"))
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def dump(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
