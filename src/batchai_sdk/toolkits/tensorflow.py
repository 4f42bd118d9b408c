"""TensorFlow: parameter servers and workers as separate processes (no MPI), or one master process.

Distributed (more than one node or worker, or parameter servers asked for): ps ``i`` and worker ``i`` run on
node ``i % nodeCount``. Each task listens on its own port: on a node, the parameter servers take the first
task ports, then the workers (remote defaults 2222, 2223, ...; so 1 ps + 2 workers on 2 nodes gives workers
``node0:2223,node1:2222``, Batch AI's documented example). Parameter servers never exit on their own, so they
are daemons: the agent stops them once the workers have ended.

Non-distributed: one master process with ``masterCommandLineArgs`` logging to ``stdout-wk-0.txt``. It gets no
``TF_CONFIG``: a cluster spec would make TF1 estimators wait for a gRPC master that nobody starts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import env
from .context import LaunchContext, single_process
from .plan import NodePlan, ProcessPlan
from .spec import count, join, text

KEY = "tensorFlowSettings"


@dataclass(frozen=True)
class TfShape:
    """How many tasks of each kind a TensorFlow job runs (``distributed`` False: one master process)."""

    distributed: bool
    workers: int
    parameter_servers: int

    def tasks_on(self, node: int, node_count: int) -> tuple[list[int], list[int]]:
        """Indexes of the (ps, worker) tasks placed on ``node``."""
        ps = [i for i in range(self.parameter_servers) if i % node_count == node]
        workers = [i for i in range(self.workers) if i % node_count == node]
        return ps, workers

    def ports_per_node(self, node_count: int) -> int:
        """Task ports the busiest node needs."""
        if not self.distributed:
            return 0
        return max(sum(map(len, self.tasks_on(node, node_count))) for node in range(node_count))


def tf_shape(settings: Mapping[str, Any], node_count: int) -> TfShape:
    workers = count(settings, "workerCount", KEY, node_count)
    ps_given = settings.get("parameterServerCount") is not None
    ps_asked = count(settings, "parameterServerCount", KEY, 0, minimum=0)
    distributed = node_count > 1 or workers > 1 or ps_asked > 0
    if not distributed:
        return TfShape(False, 1, 0)
    return TfShape(True, workers, ps_asked if ps_given else 1)


def plan_tensorflow(
    ctx: LaunchContext, job: Mapping[str, Any], settings: Mapping[str, Any]
) -> list[NodePlan]:
    node_count = len(ctx.nodes)
    shape = tf_shape(settings, node_count)
    interpreter = text(settings, "pythonInterpreterPath", KEY) or ctx.default_python
    script = text(settings, "pythonScriptFilePath", KEY, required=True)
    plans = ctx.empty_plans()
    if not shape.distributed:
        command = join(interpreter, script, text(settings, "masterCommandLineArgs", KEY))
        plans[0].processes.append(
            single_process(command, "master", "stdout-wk-0.txt", "stderr-wk-0.txt", {env.TASK_INDEX: "0"})
        )
        return plans

    ps_hosts: list[str] = [""] * shape.parameter_servers
    worker_hosts: list[str] = [""] * shape.workers
    for node in range(node_count):
        ps, workers = shape.tasks_on(node, node_count)
        ports = iter(ctx.task_ports(node, len(ps) + len(workers)))
        address = ctx.nodes[node].address
        for i in ps:
            ps_hosts[i] = f"{address}:{next(ports)}"
        for i in workers:
            worker_hosts[i] = f"{address}:{next(ports)}"

    cluster: dict[str, list[str]] = {"worker": worker_hosts}
    if ps_hosts:
        cluster = {"ps": ps_hosts, **cluster}
    shared = {env.PS_HOSTS: ",".join(ps_hosts), env.WORKER_HOSTS: ",".join(worker_hosts)}
    world = shape.workers + shape.parameter_servers
    worker_command = join(interpreter, script, text(settings, "workerCommandLineArgs", KEY))
    ps_command = join(interpreter, script, text(settings, "parameterServerCommandLineArgs", KEY))

    def task(kind: str, index: int, local_rank: int) -> ProcessPlan:
        tf_config = {"cluster": cluster, "task": {"type": kind, "index": index}, "environment": "cloud"}
        short = "wk" if kind == "worker" else "ps"
        # Workers are ranks 0..W-1 (worker 0 is the chief); parameter servers follow.
        rank = index if kind == "worker" else shape.workers + index
        return ProcessPlan(
            command=worker_command if kind == "worker" else ps_command,
            stdout=f"stdout-{short}-{index}.txt",
            stderr=f"stderr-{short}-{index}.txt",
            name=f"{kind} {index}",
            env={
                env.TASK_INDEX: str(index),
                env.TF_CONFIG: json.dumps(tf_config, separators=(",", ":")),
                env.RANK: str(rank),
                env.WORLD_SIZE: str(world),
                env.LOCAL_RANK: str(local_rank),
                **shared,
            },
            daemon=kind == "ps",
        )

    for node, plan in enumerate(plans):
        ps, workers = shape.tasks_on(node, node_count)
        # LOCAL_RANK counts workers first so that they, not the parameter servers, get GPUs 0, 1, ...
        plan.processes += [task("ps", i, len(workers) + k) for k, i in enumerate(ps)]
        plan.processes += [task("worker", i, k) for k, i in enumerate(workers)]
    return plans
