"""Running this node's part of one job attempt: directories, environment, preparation, processes."""

from __future__ import annotations

import logging
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..control import layout, lifecycle
from ..control import records as r
from ..control.paths import expand
from ..toolkits import LaunchPlanError, NodePlan, NodeSlot, build_launch_plan, hostfile_slots, hostfile_text
from . import containers
from .durations import parse_seconds
from .mounts import MountError, mount_volumes
from .processes import Process, shell, stop_all, tail

if TYPE_CHECKING:
    from .node import NodeAgent

log = logging.getLogger("batchai_sdk.agent")

#: The slowest pace at which a running job's control records are read (terminate, end, failed peers).
MAX_CHECK_INTERVAL = 0.5

#: Variables of the agent's own process that a job must not inherit.
_AGENT_ONLY = ("BATCHAI_AGENT_CONFIG",)
#: Local nodes are all this machine: collective libraries must rendezvous over loopback, not whatever interface
#: they would pick (a container bridge, a VPN) and not fail inside a network namespace that has only ``lo``.
#: Set before the job's own ``environmentVariables`` so that a job can still choose otherwise.
LOCAL_LOOPBACK_ENV = {"GLOO_SOCKET_IFNAME": "lo", "NCCL_SOCKET_IFNAME": "lo"}


@dataclass
class Outcome:
    """How this node's part ended."""

    exit_code: int | None = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    #: Why the processes were stopped from outside, if they were: "terminated", "ended", "stopping".
    interrupted: str | None = None


class ExecutionLog:
    """Timestamped phases in ``execution.log`` (startup transparency)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)

    def __call__(self, message: str) -> None:
        stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(f"{stamp} {message}\n")


class Attempt:
    def __init__(self, agent: NodeAgent, job: dict[str, Any], attempt: int, slot: int, launch: dict[str, Any]) -> None:
        self.agent = agent
        self.cfg = agent.cfg
        self.io = agent.io
        self.job = job
        self.attempt = attempt
        self.slot = slot
        self.launch = launch
        self.spec: dict[str, Any] = job["spec"].get("properties", {})
        self.ws, self.exp, self.name = job["workspace"], job["experiment"], job["name"]
        self.procs: list[Process] = []
        self.started = float(launch.get("startTime", time.time()))

    # ------------------------------------------------------------------ layout
    def _dirs(self) -> dict[str, Path]:
        node_dir = Path(self.cfg.node_dir)
        job_temp = node_dir / "jobs" / f"{self.exp}--{self.name}"
        shared = self.io.path(layout.attempt_dir(self.ws, self.exp, self.name, self.attempt) + "/shared")
        return {
            "job_temp": job_temp,
            "job_mounts": job_temp / "mounts",
            "shared": shared,
            "hostfile": job_temp / "hostfile",
        }

    def _path_env(self, dirs: dict[str, Path]) -> dict[str, str]:
        return {
            "AZ_BATCHAI_MOUNT_ROOT": self.cfg.mount_root,
            "AZ_BATCHAI_JOB_MOUNT_ROOT": str(dirs["job_mounts"]),
        }

    def _location(self, path: str, env: dict[str, str]) -> Path:
        return Path(os.path.expanduser(expand(path, env)))

    # ------------------------------------------------------------------ environment
    def _environment(self, dirs: dict[str, Path], stdouterr: Path, outputs: dict[str, Path]) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in _AGENT_ONLY}
        if self.cfg.path_prepend:
            env["PATH"] = os.pathsep.join(self.cfg.path_prepend + [env.get("PATH", os.defpath)])
        env.setdefault("PYTHONUNBUFFERED", "1")  # logs on the share should stream, not arrive at exit
        path_env = self._path_env(dirs)
        nodes = self.launch["nodes"]
        env.update(path_env)
        env.update(
            {
                "AZ_BATCHAI_STDOUTERR_DIR": str(stdouterr),
                "AZ_BATCHAI_JOB_TEMP": str(dirs["job_temp"]),
                "AZ_BATCHAI_JOB_TEMP_DIR": str(Path(self.cfg.node_dir) / "jobs"),
                "AZ_BATCHAI_SHARED_JOB_TEMP": str(dirs["shared"]),
                "AZ_BATCHAI_MPI_HOST_FILE": str(dirs["hostfile"]),
                "AZ_BATCHAI_NUM_GPUS": str(len(self.cfg.gpus or [])),
                "AZ_BATCHAI_JOB_NAME": self.name,
                "AZ_BATCHAI_EXPERIMENT_NAME": self.exp,
                "AZ_BATCHAI_WORKSPACE_NAME": self.ws,
                "AZ_BATCHAI_CLUSTER_NAME": self.cfg.cluster,
                "AZ_BATCHAI_NODE_ID": self.cfg.node_id,
                "AZ_BATCHAI_JOB_ATTEMPT": str(self.attempt),
                "AZ_BATCHAI_NODE_COUNT": str(len(nodes)),
            }
        )
        if self.cfg.local:
            env.update(LOCAL_LOOPBACK_ENV)
        if self.cfg.gpus is not None:
            env["CUDA_VISIBLE_DEVICES"] = ",".join(self.cfg.gpus)
        for d in self.spec.get("inputDirectories") or []:
            env[f"AZ_BATCHAI_INPUT_{d['id']}"] = str(self._location(d["path"], path_env))
        for oid, p in outputs.items():
            env[f"AZ_BATCHAI_OUTPUT_{oid}"] = str(p)
        for var in self.spec.get("environmentVariables") or []:
            env[var["name"]] = str(var.get("value") or "")
        secrets = self.io.read_json(layout.job_secrets(self.ws, self.exp, self.name)) or {}
        for k, v in secrets.items():
            env[k] = str(v)
        return env

    # ------------------------------------------------------------------ main
    def run(self) -> Outcome:
        dirs = self._dirs()
        path_env = self._path_env(dirs)
        segment = self.job["segment"]
        stdouterr = self._location(self.spec["stdOutErrPathPrefix"], path_env) / segment / "stdouterr"
        master = self.slot == 0
        xlog = ExecutionLog(stdouterr / ("execution.log" if master else f"execution-{self.cfg.node_id}.log"))
        xlog(f"attempt {self.attempt}: node {self.cfg.node_id} allocated as node rank {self.slot} of {len(self.launch['nodes'])}")
        try:
            if dirs["job_temp"].exists():
                shutil.rmtree(dirs["job_temp"], ignore_errors=True)
            dirs["job_temp"].mkdir(parents=True)
            dirs["shared"].mkdir(parents=True, exist_ok=True)
            mount_volumes(
                self.spec.get("mountVolumes"),
                dirs["job_mounts"],
                mode="symlink" if self.cfg.mount_mode == "symlink" else "prepared",
                shares_root=Path(self.cfg.shares_root) if self.cfg.shares_root else None,
                note=xlog,
            )
            outputs: dict[str, Path] = {}
            for d in self.spec.get("outputDirectories") or []:
                base = self._location(d["pathPrefix"], path_env) / segment / "outputs"
                suffix = str(d.get("pathSuffix") or "").strip("/")
                outputs[d["id"]] = base / suffix if suffix else base
                outputs[d["id"]].mkdir(parents=True, exist_ok=True)
            stdouterr.mkdir(parents=True, exist_ok=True)
        except (OSError, MountError) as exc:
            xlog(f"node setup for the job failed: {exc}")
            return Outcome(None, [r.error(r.JOB_FAILED, f"Preparing the job's directories and mounts failed: {exc}",
                                          node=self.cfg.node_id)])
        env = self._environment(dirs, stdouterr, outputs)
        slots = [
            NodeSlot(n["node"], n["address"], int(n.get("gpus", 0)), tuple(n.get("ports", ())))
            for n in self.launch["nodes"]
        ]
        try:
            plans: list[NodePlan] = build_launch_plan(
                self.spec, slots, host_file=str(dirs["hostfile"]), shared_job_temp=str(dirs["shared"]),
                local=self.cfg.local,
            )
        except LaunchPlanError as exc:
            xlog(f"launch plan: {exc}")
            return Outcome(None, [r.error(r.JOB_FAILED, f"The job cannot be launched: {exc}")])
        dirs["hostfile"].write_text(hostfile_text(slots, hostfile_slots(self.spec, slots), self.cfg.local),
                                    encoding="utf-8")
        plan = plans[self.slot]
        env.update(plan.env)

        container = self.spec.get("containerSettings")
        use_docker = False
        if container:
            image = containers.image_name(container)
            if self.agent.docker_available():
                use_docker = True
                xlog(f"container: running in image {image}")
            elif self.cfg.strict_containers:
                xlog(f"container: image {image} requested but no Docker engine answers on this node; refusing (strict)")
                return Outcome(None, [r.error(r.CONTAINER_UNAVAILABLE,
                                              f"The job asks for container image {image} but no Docker engine answers on node {self.cfg.node_id}.")])
            else:
                xlog(f"container: image {image} requested but no Docker engine answers on this node; running on the host")

        def argv(command: str, pname: str) -> list[str]:
            if not use_docker:
                return [shell(), "-c", command]
            return containers.docker_command(
                command,
                container or {},
                name=f"batchai-{self.name}-{self.attempt}-{pname}".replace(" ", "-")[:120],
                env_names=sorted(k for k in env if k.startswith(("AZ_BATCHAI_", "CUDA_", "NODE_", "MASTER_", "WORLD_", "RANK", "LOCAL_RANK", "TF_CONFIG", "NUM_NODES"))),
                volumes=sorted({self.cfg.mount_root, str(dirs["job_temp"]), str(dirs["shared"]), str(stdouterr)} | {str(p) for p in outputs.values()}),
                workdir=str(dirs["job_temp"]),
                gpus=bool(self.cfg.gpus),
            )

        # Job preparation runs on every node of the job, before the job's processes.
        prep = (self.spec.get("jobPreparation") or {}).get("commandLine")
        if prep:
            suffix = "" if master else f"-{self.cfg.node_id}"
            xlog("job preparation: started")
            p = Process("job preparation", argv(prep, "prep"), env,
                        stdouterr / f"stdout-job_prep{suffix}.txt", stderr=stdouterr / f"stderr-job_prep{suffix}.txt",
                        cwd=str(dirs["job_temp"]))
            self.procs = [p]
            self.agent.note_processes(self.procs)
            outcome = self._watch()
            if outcome.interrupted:
                xlog(f"job preparation: stopped ({outcome.interrupted})")
                return outcome
            rc = p.poll()
            xlog(f"job preparation: exited with code {rc}")
            if rc != 0:
                return Outcome(rc, [r.error(r.JOB_PREPARATION_FAILED, "Job preparation failed with non-zero exit code",
                                            exit_code=rc, node=self.cfg.node_id, stderr_tail=tail(p.stderr_path))])

        if not plan.processes:
            xlog("reserved for the job (no process on this node); waiting for the job to end")
            return Outcome(0)
        self.procs = []
        for pp in plan.processes:
            penv = dict(env)
            penv.update(pp.env)
            self.procs.append(
                Process(pp.name, argv(pp.command, pp.name), penv, stdouterr / pp.stdout, stdouterr / pp.stderr,
                        cwd=str(dirs["job_temp"]), daemon=pp.daemon)
            )
        self.agent.note_processes(self.procs)
        xlog("job: started " + ", ".join(f"{p.name} (pid {p.pid})" for p in self.procs))
        outcome = self._watch()
        if outcome.interrupted:
            xlog(f"job: stopped ({outcome.interrupted})")
        else:
            xlog(f"job: ended with exit code {outcome.exit_code}")
        return outcome

    # ------------------------------------------------------------------ watching
    def _stop_reason(self) -> tuple[str, dict[str, Any] | None] | None:
        io = self.io
        if self.agent.stopping.is_set():
            return "stopping", None
        if io.exists(layout.job_terminate(self.ws, self.exp, self.name)):
            return "terminated", r.error(r.JOB_TERMINATED, "The job was terminated by the user.")
        if io.exists(layout.end_record(self.ws, self.exp, self.name, self.attempt)):
            return "ended", None
        limit = parse_seconds((self.spec.get("constraints") or {}).get("maxWallClockTime"))
        if limit is not None and time.time() - self.started > limit:
            return "wall clock", r.error(r.WALL_CLOCK_EXCEEDED,
                                         f"The job ran longer than its maximum wall clock time ({limit:g} s).")
        if self.slot == 0 or self.agent.tick % 4 == 0:
            failed = self._failed_peer()
            if failed:
                return "peer failed", None
        return None

    def _failed_peer(self) -> dict[str, Any] | None:
        rdir = layout.results_dir(self.ws, self.exp, self.name, self.attempt)
        for n in self.io.listdir(rdir):
            res = self.io.read_json(rdir + "/" + n)
            if isinstance(res, dict) and res.get("node") != self.cfg.node_id and res.get("errors"):
                return res
        return None

    def _peers_done(self) -> bool:
        """Whether every node of the job has written its result (its own processes have ended)."""
        rdir = layout.results_dir(self.ws, self.exp, self.name, self.attempt)
        done = {res.get("node") for res in (self.io.read_json(rdir + "/" + n) for n in self.io.listdir(rdir))
                if isinstance(res, dict)}
        return all(n["node"] in done for n in self.launch["nodes"])

    def _watch(self) -> Outcome:
        """Wait for the processes; stop them on terminate, wall clock, a failed peer or a lost job."""
        grace = self.cfg.terminate_grace
        reported = False
        # A thread blocked in waitpid per process wakes the loop the moment one exits; the control records
        # (terminate, end, peers) are read at a pace that slows to MAX_CHECK_INTERVAL, so a long CPU-bound job
        # is not interrupted 20 times a second (its thread pools lose time to every wake-up on a small machine).
        exited = threading.Event()
        for proc in self.procs:
            threading.Thread(target=_wait_then_set, args=(proc, exited), daemon=True,
                             name=f"wait-{proc.pid}").start()
        interval = self.cfg.poll_interval
        while True:
            main = [p for p in self.procs if not p.daemon]
            codes = [p.poll() for p in main]
            failed = [(p, c) for p, c in zip(main, codes, strict=True) if c not in (None, 0)]
            if failed:
                p, code = failed[0]
                stop_all(self.procs, grace)
                return Outcome(code, [r.error(r.JOB_FAILED, "Job failed with non-zero exit code",
                                              process=p.name, node=self.cfg.node_id, exit_code=code,
                                              stderr_tail=tail(p.stderr_path))])
            if all(c is not None for c in codes):
                done = Outcome(codes[0] if codes else 0)
                if not any(p.daemon and p.poll() is None for p in self.procs):
                    return done
                # Parameter servers also serve the workers of other nodes: they stop only once every node's
                # workers have ended. This node says its own are done by writing its result now.
                if not reported:
                    write_result(self.agent, self.job, self.attempt, self.slot, done)
                    reported = True
                if self._peers_done():
                    stop_all(self.procs, grace)
                    return done
            reason = self._stop_reason()
            if reason:
                why, err = reason
                stop_all(self.procs, grace)
                return Outcome(None, [err] if err else [], interrupted=why)
            self.agent.tick += 1
            if exited.wait(interval):
                exited.clear()
                interval = self.cfg.poll_interval
            else:
                interval = min(MAX_CHECK_INTERVAL, interval * 1.5)


def _wait_then_set(proc: Process, event: threading.Event) -> None:
    proc.popen.wait()
    event.set()


def write_result(agent: NodeAgent, job: dict[str, Any], attempt: int, slot: int, outcome: Outcome) -> None:
    """This node's result record: its processes have ended (the master waits for every node's)."""
    result = {"node": agent.cfg.node_id, "slot": slot, "exitCode": outcome.exit_code, "errors": outcome.errors,
              "interrupted": outcome.interrupted, "time": r.now()}
    agent.io.write_json(layout.result_record(job["workspace"], job["experiment"], job["name"], attempt,
                                             agent.cfg.node_id), result)


def finalize(agent: NodeAgent, job: dict[str, Any], attempt: int, slot: int, launch: dict[str, Any], outcome: Outcome) -> None:
    """Write this node's result; the master node ends the attempt once every node reported."""
    io = agent.io
    ws, exp, name = job["workspace"], job["experiment"], job["name"]
    write_result(agent, job, attempt, slot, outcome)
    node_ids = [n["node"] for n in launch["nodes"]]
    start = float(launch.get("startTime", r.now()))
    if outcome.interrupted == "stopping":
        cluster = io.read_json(layout.cluster_record(agent.cfg.workspace, agent.cfg.cluster)) or {}
        if cluster.get("provisioningState") == "deleting" or cluster == {}:
            lifecycle.end_attempt(io, job, attempt, r.FAILED, by=agent.cfg.node_id, start_time=start, nodes=node_ids,
                                  errors=[r.error(r.CLUSTER_DELETED, "The cluster running the job was deleted.")])
        else:
            lifecycle.requeue(io, job, attempt, by=agent.cfg.node_id,
                              reason=r.error("NodeStopped", f"Node {agent.cfg.node_id} was stopped; the job was requeued."))
        return
    if outcome.interrupted in ("terminated", "wall clock"):
        lifecycle.end_attempt(io, job, attempt, r.FAILED, exit_code=None, errors=outcome.errors, by=agent.cfg.node_id,
                              start_time=start, nodes=node_ids)
        return
    if outcome.errors and outcome.interrupted is None:
        # The first failure ends the job for everyone, named by its rank.
        lifecycle.end_attempt(io, job, attempt, r.FAILED, exit_code=outcome.exit_code, errors=outcome.errors,
                              by=agent.cfg.node_id, start_time=start, nodes=node_ids)
        return
    if slot != 0:
        _wait_for_end(agent, job, attempt)
        return
    # Master: wait for every node's result, then decide.
    rdir = layout.results_dir(ws, exp, name, attempt)
    while True:
        if lifecycle.attempt_ended(io, job, attempt) is not None:
            return
        results: list[dict[str, Any]] = [
            x for x in (io.read_json(rdir + "/" + n) for n in io.listdir(rdir)) if isinstance(x, dict)
        ]
        bad = [x for x in results if x.get("errors")]
        if bad:
            first = bad[0]
            lifecycle.end_attempt(io, job, attempt, r.FAILED, exit_code=first.get("exitCode"), errors=first["errors"],
                                  by=agent.cfg.node_id, start_time=start, nodes=node_ids)
            return
        if len({x["node"] for x in results}) >= len(node_ids):
            state = r.SUCCEEDED if outcome.exit_code == 0 else r.FAILED
            lifecycle.end_attempt(io, job, attempt, state, exit_code=outcome.exit_code, by=agent.cfg.node_id,
                                  start_time=start, nodes=node_ids)
            return
        if agent.stopping.is_set():
            return
        time.sleep(agent.cfg.poll_interval)


def _wait_for_end(agent: NodeAgent, job: dict[str, Any], attempt: int) -> None:
    while lifecycle.attempt_ended(agent.io, job, attempt) is None and not agent.stopping.is_set():
        time.sleep(agent.cfg.poll_interval)
