"""PyTorch: ``processCount`` ranks of ``<python> <script> <args>``, one process each, block-placed on the nodes.

Rendezvous is TCP on the master node (``AZ_BATCHAI_PYTORCH_INIT_METHOD=tcp://MASTER_ADDR:MASTER_PORT``), the
form the recipes' ``--dist-url`` expects; Batch AI's file-based init in the shared job temp is not used because
a file store on an SMB share is not reliable for ``torch.distributed``. With ``communicationBackend`` MPI the
ranks are started by one ``mpirun`` on the master node instead, like the MPI family.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import env
from .context import LaunchContext, rank_env
from .hostfile import distribute
from .mpi import launcher_process, mpirun_command
from .plan import NodePlan, ProcessPlan
from .spec import count, python_command, text

KEY = "pyTorchSettings"
DEFAULT_BACKEND = "gloo"


def pytorch_process_count(settings: Mapping[str, Any], node_count: int) -> int:
    return count(settings, "processCount", KEY, node_count)


def pytorch_backend(settings: Mapping[str, Any]) -> str:
    return text(settings, "communicationBackend", KEY).lower() or DEFAULT_BACKEND


def plan_pytorch(ctx: LaunchContext, job: Mapping[str, Any], settings: Mapping[str, Any]) -> list[NodePlan]:
    process_count = pytorch_process_count(settings, len(ctx.nodes))
    backend = pytorch_backend(settings)
    command = python_command(settings, KEY, ctx.default_python)
    shared = {
        env.PYTORCH_BACKEND: backend,
        env.PYTORCH_INIT_METHOD: f"tcp://{ctx.master_addr}:{ctx.master_port}",
    }
    plans = ctx.empty_plans()
    if backend == "mpi":
        launcher = mpirun_command(ctx, job, process_count, command, task_index=True)
        plans[0].processes.append(launcher_process(launcher, process_count, {env.TASK_INDEX: "0", **shared}))
        return plans
    rank = 0
    for plan, ranks_here in zip(plans, distribute(process_count, len(ctx.nodes)), strict=True):
        for local_rank in range(ranks_here):
            plan.processes.append(
                ProcessPlan(
                    command=command,
                    stdout=f"stdout-{rank}.txt",
                    stderr=f"stderr-{rank}.txt",
                    name=f"rank {rank}",
                    env={env.TASK_INDEX: str(rank), **rank_env(rank, process_count, local_rank), **shared},
                )
            )
            rank += 1
    return plans
