"""The node agent: heartbeat, node setup, claiming queued jobs (gang scheduling), running them."""

from __future__ import annotations

import logging
import os
import random
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

from ..control import layout, lifecycle
from ..control import records as r
from ..control.paths import expand
from . import containers
from .attempt import Attempt, ExecutionLog, Outcome, finalize
from .config import AgentConfig
from .control_dir import ControlDir
from .mounts import MountError, mount_volumes
from .processes import Process, kill_groups, shell, tail
from .reaper import reap

log = logging.getLogger("batchai_sdk.agent")

#: Ports each node offers a job for rendezvous (TensorFlow runs several processes per node).
PORTS_PER_NODE = 8
#: A queue entry whose job record never appeared is dropped after this long (a client died mid-submit).
STALE_ENTRY_NS = 60 * 10**9


def _ephemeral_range() -> tuple[int, int]:
    try:
        lo, hi = open("/proc/sys/net/ipv4/ip_local_port_range").read().split()
        return int(lo), int(hi)
    except (OSError, ValueError):
        return 32768, 60999


def free_ports(address: str, count: int) -> list[int]:
    """Ports free on this node now, for a job's rendezvous.

    They are drawn below the kernel's ephemeral range: a port handed out by ``bind(0)`` is exactly the kind
    the kernel also gives to outgoing connections, so another process could take it before the job binds it.
    """
    host = address if address not in ("", "0.0.0.0") else "127.0.0.1"
    lo, _hi = _ephemeral_range()
    pool_lo, pool_hi = (20000, lo - 1) if lo > 21000 else (lo, 65535)
    rng = random.Random()
    socks: list[socket.socket] = []
    try:
        tries = 0
        while len(socks) < count and tries < count * 50:
            tries += 1
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.bind((host, rng.randint(pool_lo, pool_hi)))
            except OSError:
                s.close()
                continue
            socks.append(s)
        while len(socks) < count:  # a crowded range: let the kernel choose
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((host, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class NodeAgent:
    def __init__(self, cfg: AgentConfig) -> None:
        self.cfg = cfg
        self.io = ControlDir(cfg.control_dir)
        self.state = r.NODE_PREPARING
        self.current: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.stopping = threading.Event()
        self.started = r.now()
        self.last_busy = time.monotonic()
        self.tick = 0
        self._pgids: list[int] = []
        self._docker: bool | None = None
        self._hb_lock = threading.Lock()

    # ------------------------------------------------------------------ heartbeat
    def note_processes(self, procs: list[Process]) -> None:
        self._pgids = [p.pid for p in procs]
        self.heartbeat()

    def set_state(self, state: str, job: dict[str, Any] | None = None) -> None:
        self.state = state
        self.current = job
        self.heartbeat()

    def heartbeat(self) -> None:
        with self._hb_lock:
            rec = {
                "node": self.cfg.node_id,
                "state": self.state,
                "time": r.now(),
                "startTime": self.started,
                "heartbeatInterval": self.cfg.heartbeat_interval,
                "address": self.cfg.address,
                "pid": os.getpid(),
                "pgids": self._pgids if self.current else [],
                "gpus": self.cfg.gpus,
                "job": self.current,
                "errors": self.errors,
            }
            self.io.write_json(layout.node_record(self.cfg.workspace, self.cfg.cluster, self.cfg.node_id), rec)

    def _heartbeat_loop(self) -> None:
        while not self.stopping.wait(self.cfg.heartbeat_interval):
            try:
                self.heartbeat()
                cluster = self.io.read_json(layout.cluster_record(self.cfg.workspace, self.cfg.cluster))
                if cluster is None or cluster.get("provisioningState") == "deleting":
                    log.info("cluster %s is being deleted; node %s stops", self.cfg.cluster, self.cfg.node_id)
                    self.stopping.set()
                    break
                reap(self.io, self.cfg.workspace, self.cfg.cluster, me=self.cfg.node_id)
            except Exception:  # a transient share error must not kill the heartbeat
                log.exception("heartbeat failed")

    # ------------------------------------------------------------------ setup
    def docker_available(self) -> bool:
        if self._docker is None:
            self._docker = containers.docker_available()
        return self._docker

    def setup(self) -> bool:
        """Mount the cluster's volumes and run its setup task; False leaves the node unusable."""
        cfg = self.cfg
        previous = self.io.read_json(layout.node_record(cfg.workspace, cfg.cluster, cfg.node_id))
        if isinstance(previous, dict) and previous.get("pgids"):
            # An agent restarted by systemd finds its predecessor's job processes still running.
            kill_groups(previous["pgids"])
        cluster = self.io.read_json(layout.cluster_record(cfg.workspace, cfg.cluster)) or {}
        props = (cluster.get("spec") or {}).get("properties", {})
        node_setup = props.get("nodeSetup") or {}
        Path(cfg.node_dir).mkdir(parents=True, exist_ok=True)
        notes: list[str] = []
        try:
            mount_volumes(
                node_setup.get("mountVolumes"),
                Path(cfg.mount_root),
                mode=cfg.mount_mode,
                shares_root=Path(cfg.shares_root) if cfg.shares_root else None,
                note=notes.append,
            )
        except (MountError, OSError) as exc:
            self.errors = [r.error("MountFailed", str(exc), node=cfg.node_id)]
            return False
        task = node_setup.get("setupTask")
        if task:
            return self._run_setup_task(cluster, task, notes)
        return True

    def _run_setup_task(self, cluster: dict[str, Any], task: dict[str, Any], notes: list[str]) -> bool:
        cfg = self.cfg
        env = dict(os.environ)
        if cfg.path_prepend:
            env["PATH"] = os.pathsep.join(cfg.path_prepend + [env.get("PATH", os.defpath)])
        env["AZ_BATCHAI_MOUNT_ROOT"] = cfg.mount_root
        prefix = expand(task.get("stdOutErrPathPrefix") or "", env)
        out_dir = Path(prefix) / cluster.get("setupSegment", "") if prefix else Path(cfg.node_dir) / "setup"
        env["AZ_BATCHAI_STDOUTERR_DIR"] = str(out_dir)
        for var in task.get("environmentVariables") or []:
            env[var["name"]] = str(var.get("value") or "")
        secrets = self.io.read_json(layout.cluster_secrets(cfg.workspace, cfg.cluster)) or {}
        for k, v in (secrets.get("setupTask") or {}).items():
            env[k] = str(v)
        xlog = ExecutionLog(out_dir / f"execution-{cfg.node_id}.log")
        for n in notes:
            xlog(n)
        xlog("setup task: started")
        p = Process("setup task", [shell(), "-c", task["commandLine"]], env, out_dir / f"stdout-{cfg.node_id}.txt",
                    out_dir / f"stderr-{cfg.node_id}.txt", cwd=cfg.node_dir)
        while p.poll() is None and not self.stopping.is_set():
            time.sleep(cfg.poll_interval)
        rc = p.poll()
        xlog(f"setup task: exited with code {rc}")
        if rc != 0:
            self.errors = [r.error("SetupTaskFailed", f"The setup task failed on node {cfg.node_id} with exit code {rc}",
                                   node=cfg.node_id, exit_code=rc, stderr_tail=tail(p.stderr_path))]
            return False
        return True

    # ------------------------------------------------------------------ scheduling
    def _job_ref(self, job: dict[str, Any], attempt: int) -> dict[str, Any]:
        return {"workspace": job["workspace"], "experiment": job["experiment"], "job": job["name"], "attempt": attempt}

    def try_claim(self) -> tuple[dict[str, Any], int, int] | None:
        """Claim a slot of the job at the head of the queue (priority, then first come first served)."""
        io, cfg = self.io, self.cfg
        qdir = layout.queue_dir(cfg.workspace, cfg.cluster)
        for entry in io.listdir(qdir):
            q = io.read_json(qdir + "/" + entry)
            if not isinstance(q, dict):
                continue
            job = io.read_json(layout.job_record(q["workspace"], q["experiment"], q["job"]))
            attempt = int(q.get("attempt", 1))
            if not isinstance(job, dict):
                parsed = layout.parse_queue_entry(entry)
                # Not published yet (a client is between its writes) or deleted / abandoned (stale entry).
                if parsed is None or time.time_ns() - parsed[1] > STALE_ENTRY_NS:
                    io.remove(qdir + "/" + entry)
                continue
            if lifecycle.attempt_ended(io, job, attempt) is not None:
                io.remove(qdir + "/" + entry)
                continue
            if io.exists(layout.job_terminate(job["workspace"], job["experiment"], job["name"])):
                lifecycle.end_attempt(io, job, attempt, r.FAILED, by=cfg.node_id,
                                      errors=[r.error(r.JOB_TERMINATED, "The job was terminated by the user.")])
                continue
            n = int(job["spec"]["properties"].get("nodeCount") or 1)
            cdir = layout.claims_dir(job["workspace"], job["experiment"], job["name"], attempt)
            taken = set(io.listdir(cdir))
            if len(taken) >= n:
                continue  # gang complete, starting: the next entry is the head for idle nodes
            claim = {
                "node": cfg.node_id,
                "address": cfg.address,
                "ports": free_ports(cfg.address, PORTS_PER_NODE),
                "gpus": len(cfg.gpus or []),
                "time": r.now(),
            }
            for slot in range(n):
                if f"slot-{slot}" in taken:
                    continue
                if io.create_json(layout.claim_record(job["workspace"], job["experiment"], job["name"], attempt, slot), claim):
                    return job, attempt, slot
            return None
        return None

    def _release(self, job: dict[str, Any], attempt: int, slot: int) -> None:
        self.io.remove(layout.claim_record(job["workspace"], job["experiment"], job["name"], attempt, slot))

    def run_claim(self, job: dict[str, Any], attempt: int, slot: int) -> None:
        io, cfg = self.io, self.cfg
        ws, exp, name = job["workspace"], job["experiment"], job["name"]
        n = int(job["spec"]["properties"].get("nodeCount") or 1)
        self.set_state(r.NODE_PREPARING, self._job_ref(job, attempt))
        cdir = layout.claims_dir(ws, exp, name, attempt)
        # Gang: wait until every slot is claimed.
        while len(io.listdir(cdir)) < n:
            if self.stopping.is_set() or lifecycle.attempt_ended(io, job, attempt) is not None:
                self._release(job, attempt, slot)
                return
            if io.exists(layout.job_terminate(ws, exp, name)):
                self._release(job, attempt, slot)
                lifecycle.end_attempt(io, job, attempt, r.FAILED, by=cfg.node_id,
                                      errors=[r.error(r.JOB_TERMINATED, "The job was terminated by the user.")])
                return
            time.sleep(cfg.poll_interval)
        if slot == 0:
            nodes = [io.read_json(layout.claim_record(ws, exp, name, attempt, i)) for i in range(n)]
            launch = {"nodes": nodes, "startTime": r.now(), "attempt": attempt}
            io.write_json(layout.launch_record(ws, exp, name, attempt), launch)
            status = io.read_json(layout.job_status(ws, exp, name)) or {}
            status.update({"executionState": r.RUNNING, "executionStateTransitionTime": launch["startTime"],
                           "startTime": launch["startTime"], "attempt": attempt,
                           "nodes": [x["node"] for x in nodes if x]})
            io.write_json(layout.job_status(ws, exp, name), status)
            lifecycle.dequeue(io, job)
            ended = lifecycle.attempt_ended(io, job, attempt)
            if ended is not None and not ended.get("requeued"):
                # A terminate won the race against the start: its final state stands.
                status.update(ended)
                io.write_json(layout.job_status(ws, exp, name), status)
                self._release(job, attempt, slot)
                return
        else:
            while True:
                found = io.read_json(layout.launch_record(ws, exp, name, attempt))
                if isinstance(found, dict):
                    launch = found
                    break
                if self.stopping.is_set() or lifecycle.attempt_ended(io, job, attempt) is not None:
                    return
                time.sleep(cfg.poll_interval)
        self.set_state(r.NODE_RUNNING, self._job_ref(job, attempt))
        try:
            outcome = Attempt(self, job, attempt, slot, launch).run()
        except Exception as exc:  # the job must end even if the agent trips over it
            log.exception("running %s/%s failed", exp, name)
            outcome = Outcome(None, [r.error(r.JOB_FAILED, f"The node agent failed to run the job: {exc}", node=cfg.node_id)])
        finalize(self, job, attempt, slot, launch, outcome)
        self._pgids = []

    # ------------------------------------------------------------------ main loop
    def run(self) -> int:
        cfg = self.cfg
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.stopping.set())
        self.heartbeat()
        hb = threading.Thread(target=self._heartbeat_loop, name="heartbeat", daemon=True)
        hb.start()
        if not self.setup():
            self.set_state(r.NODE_UNUSABLE)
            log.error("node %s is unusable: %s", cfg.node_id, self.errors)
            self.stopping.wait()
        else:
            self.set_state(r.NODE_IDLE)
        while not self.stopping.is_set():
            claimed = self.try_claim()
            if claimed:
                self.run_claim(*claimed)
                self.set_state(r.NODE_IDLE)
                self.last_busy = time.monotonic()
                continue  # look for the next job at once: a busy queue drains without polling delays
            if cfg.idle_timeout is not None and time.monotonic() - self.last_busy > cfg.idle_timeout:
                log.info("node %s idle for %.0f s; leaving", cfg.node_id, cfg.idle_timeout)
                break
            # A node idle for a while looks at the queue half as often: idle CPU stays far below 1 %.
            idle_for = time.monotonic() - self.last_busy
            self.stopping.wait(cfg.poll_interval * (2 if idle_for > 2.0 else 1))
        self.stopping.set()
        self.state = "left"
        self.current = None
        self.heartbeat()
        return 0
