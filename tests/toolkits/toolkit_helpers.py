"""Shared helpers for the launch-plan tests (a unique module name: tests/ directories are not packages)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from batchai_sdk.toolkits import NodePlan, NodeSlot

REPO_ROOT = Path(__file__).resolve().parents[2]
RECIPE_JOBS = REPO_ROOT / ".." / "shared" / "reference" / "batchai" / "recipes" / "jobs"

HOST_FILE = "/jobs/j1/hostfile"
SHARED_TEMP = "/jobs/j1/shared"


def local_nodes(count: int, ports_each: int = 4, gpus: int = 0, first_port: int = 40000) -> list[NodeSlot]:
    """``count`` local nodes on 127.0.0.1, each with its own block of (not necessarily free) ports."""
    return [
        NodeSlot(
            node_id=f"node-{i}",
            address="127.0.0.1",
            gpus=gpus,
            ports=tuple(range(first_port + i * ports_each, first_port + (i + 1) * ports_each)),
        )
        for i in range(count)
    ]


def remote_nodes(count: int, gpus: int = 1) -> list[NodeSlot]:
    """``count`` Azure-like nodes 10.0.0.4, 10.0.0.5, ... without reserved ports."""
    return [NodeSlot(node_id=f"tvm-{i}", address=f"10.0.0.{4 + i}", gpus=gpus) for i in range(count)]


def free_local_nodes(count: int, ports_each: int) -> list[NodeSlot]:
    """Local nodes whose ports were free a moment ago (for tests that really listen on them)."""
    sockets = []
    for _ in range(count * ports_each):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return [
        NodeSlot(f"node-{i}", "127.0.0.1", ports=tuple(ports[i * ports_each : (i + 1) * ports_each]))
        for i in range(count)
    ]


def load_job(path: Path) -> dict[str, Any]:
    properties = json.loads(path.read_text())["properties"]
    assert isinstance(properties, dict)
    return properties


def start_plan(
    plans: Sequence[NodePlan], log_dir: Path, base_env: Mapping[str, str]
) -> list[tuple[str, bool, subprocess.Popen[bytes]]]:
    """Start every process of every node the way the agent does: ``bash -c`` with common + node + process env,
    output to the named log files. Returns ``(name, daemon, popen)`` triples."""
    started = []
    for node in plans:
        for process in node.processes:
            environment = {**os.environ, **base_env, **node.env, **process.env}
            with open(log_dir / process.stdout, "wb") as out, open(log_dir / process.stderr, "wb") as err:
                popen = subprocess.Popen(
                    ["bash", "-c", process.command], env=environment, stdout=out, stderr=err
                )
            started.append((process.name, process.daemon, popen))
    return started
