"""The local engine's stand-in for a VM Scale Set: one detached process per cluster that starts,
replaces and stops the cluster's node-agent processes.

It outlives the Python process that created the cluster (a notebook restart must not kill a running
job) and exits when the cluster record is deleted or marked ``deleting``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ...agent.config import AgentConfig
from ...agent.control_dir import ControlDir
from ...agent.reaper import reap
from ...control import layout
from ...control import records as r
from .gpus import detect_gpus, split
from .scaling import desired_nodes, initial_nodes

log = logging.getLogger("batchai_sdk.local")

TICK = 0.5
#: An idle node of an auto-scale cluster is released after this many seconds.
DEFAULT_IDLE_SECONDS = 30.0


class Supervisor:
    def __init__(self, root: Path, workspace: str, cluster: str) -> None:
        self.root = root
        self.ws = workspace
        self.cluster = cluster
        self.io = ControlDir(root / "shares" / layout.CONTROL_SHARE)
        self.home = root / "clusters" / workspace / cluster
        self.nodes: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping_nodes: dict[str, float] = {}
        self.gpus = detect_gpus()
        self.counter = 0
        self.stop = False
        self.idle_since: dict[str, float] = {}
        self.ticks = 0

    # ------------------------------------------------------------------ nodes
    def _next_id(self) -> str:
        existing = {p.name for p in (self.home / "nodes").glob("*")} if (self.home / "nodes").is_dir() else set()
        while True:
            self.counter += 1
            node = f"{self.cluster}-n{self.counter}"
            if node not in existing:
                return node

    def spawn(self, index: int, total: int, rec: dict[str, Any]) -> str:
        node = self._next_id()
        node_dir = self.home / "nodes" / node
        node_dir.mkdir(parents=True, exist_ok=True)
        opts = rec.get("local") or {}
        cfg = AgentConfig(
            control_dir=str(self.io.root),
            workspace=self.ws,
            cluster=self.cluster,
            node_id=node,
            node_dir=str(node_dir),
            address="127.0.0.1",
            gpus=split(self.gpus, total, index),
            heartbeat_interval=float(opts.get("heartbeatInterval", 1.0)),
            poll_interval=float(opts.get("pollInterval", 0.05)),
            terminate_grace=float(opts.get("terminateGrace", 10.0)),
            mount_mode="symlink",
            shares_root=str(self.root / "shares"),
            path_prepend=list(opts.get("pathPrepend", [])),
            local=True,
            strict_containers=bool(opts.get("strictContainers", False)),
        )
        conf = node_dir / "agent.json"
        conf.write_text(json.dumps(cfg.dump(), indent=1), encoding="utf-8")
        out = open(node_dir / "agent.log", "ab")
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "batchai_sdk.agent", "--config", str(conf)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=str(node_dir),
                env=dict(os.environ, BATCHAI_AGENT_CONFIG=str(conf)),
            )
        finally:
            out.close()
        self.nodes[node] = proc
        log.info("started node %s (pid %d)", node, proc.pid)
        return node

    def _records(self) -> dict[str, dict[str, Any]]:
        ndir = layout.nodes_dir(self.ws, self.cluster)
        out = {}
        for name in self.io.listdir(ndir):
            if name.endswith(".json"):
                rec = self.io.read_json(ndir + "/" + name)
                if isinstance(rec, dict):
                    out[name[:-5]] = rec
        return out

    def _queued_node_counts(self) -> list[int]:
        qdir = layout.queue_dir(self.ws, self.cluster)
        counts = []
        for entry in self.io.listdir(qdir):
            q = self.io.read_json(qdir + "/" + entry)
            if not isinstance(q, dict):
                continue
            job = self.io.read_json(layout.job_record(q["workspace"], q["experiment"], q["job"]))
            if isinstance(job, dict):
                counts.append(int(job["spec"]["properties"].get("nodeCount") or 1))
        return counts

    def stop_node(self, node: str) -> None:
        proc = self.nodes.get(node)
        if proc and proc.poll() is None and node not in self.stopping_nodes:
            proc.send_signal(signal.SIGTERM)
            self.stopping_nodes[node] = time.monotonic()

    def _kill_lost_jobs(self, node: str) -> None:
        rec = self.io.read_json(layout.node_record(self.ws, self.cluster, node))
        if isinstance(rec, dict):
            for pgid in rec.get("pgids") or []:
                try:
                    os.killpg(int(pgid), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass

    # ------------------------------------------------------------------ loop
    def step(self) -> bool:
        rec = self.io.read_json(layout.cluster_record(self.ws, self.cluster))
        if rec is None or rec.get("provisioningState") == "deleting":
            return False
        # Processes that ended: a node that died leaves its job to the reaper and is replaced below.
        for node, proc in list(self.nodes.items()):
            if proc.poll() is not None:
                if node not in self.stopping_nodes:
                    log.warning("node %s exited with %s", node, proc.returncode)
                    self._kill_lost_jobs(node)
                del self.nodes[node]
                self.stopping_nodes.pop(node, None)
        self.ticks += 1
        if self.ticks % 2 == 0:
            reap(self.io, self.ws, self.cluster, me=None)
        scale = (rec.get("spec") or {}).get("properties", {}).get("scaleSettings") or {}
        records = self._records()
        live = [n for n in self.nodes if n not in self.stopping_nodes]
        busy = [n for n in live if records.get(n, {}).get("state") in (r.NODE_RUNNING, r.NODE_PREPARING) and records[n].get("job")]
        idle = [n for n in live if n not in busy]
        now = time.monotonic()
        for n in list(self.idle_since):
            if n not in idle:
                del self.idle_since[n]
        for n in idle:
            self.idle_since.setdefault(n, now)
        idle_after = float((rec.get("local") or {}).get("autoScaleIdleSeconds", DEFAULT_IDLE_SECONDS))
        expired = [n for n in idle if now - self.idle_since[n] > idle_after]
        queued = self._queued_node_counts() if scale.get("autoScale") else []
        want = desired_nodes(scale, queued, len(busy), len(live), len(expired))
        if len(live) < want:
            for i in range(want - len(live)):
                self.spawn(len(live) + i, want, rec)
        elif len(live) > want:
            excess = len(live) - want
            option = ((scale.get("manual") or {}).get("nodeDeallocationOption") or "requeue").lower()
            candidates = sorted(idle, key=lambda n: self.idle_since.get(n, now))
            if option != "waitforjobcompletion" and scale.get("manual"):
                candidates += busy
            for node in candidates[:excess]:
                self.stop_node(node)
        for node, since in list(self.stopping_nodes.items()):
            stopping = self.nodes.get(node)
            if stopping and stopping.poll() is None and now - since > 30:
                stopping.kill()
        state = {"pid": os.getpid(), "time": r.now(), "nodes": sorted(self.nodes), "target": want}
        tmp = self.home / ".supervisor.json.tmp"
        tmp.write_text(json.dumps(state), encoding="utf-8")
        os.replace(tmp, self.home / "supervisor.json")
        return True

    def shutdown(self) -> None:
        for node in list(self.nodes):
            self.stop_node(node)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(p.poll() is None for p in self.nodes.values()):
            time.sleep(0.05)
        for node, proc in self.nodes.items():
            if proc.poll() is None:
                proc.kill()
                self._kill_lost_jobs(node)
            proc.wait()

    def run(self) -> int:
        signal.signal(signal.SIGTERM, lambda *_: setattr(self, "stop", True))
        signal.signal(signal.SIGINT, lambda *_: setattr(self, "stop", True))
        self.home.mkdir(parents=True, exist_ok=True)
        rec = self.io.read_json(layout.cluster_record(self.ws, self.cluster)) or {}
        scale = (rec.get("spec") or {}).get("properties", {}).get("scaleSettings") or {}
        n0 = initial_nodes(scale)
        for i in range(n0):
            self.spawn(i, n0, rec)
        try:
            while not self.stop:
                try:
                    if not self.step():
                        break
                except Exception:  # keep supervising through a transient error
                    log.exception("supervisor step failed")
                time.sleep(TICK)
        finally:
            self.shutdown()
            (self.home / "supervisor.json").unlink(missing_ok=True)
        return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="batchai-local-supervisor")
    p.add_argument("--root", required=True)
    p.add_argument("--workspace", required=True)
    p.add_argument("--cluster", required=True)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return Supervisor(Path(args.root), args.workspace, args.cluster).run()


if __name__ == "__main__":
    sys.exit(main())
