"""The entry points: a job spec plus its nodes → one :class:`NodePlan` per node."""

from __future__ import annotations

import logging
import os
import posixpath
from collections.abc import Mapping, Sequence
from typing import Any

from .caffe2 import plan_caffe2
from .context import LaunchContext
from .custom import plan_custom
from .errors import LaunchPlanError
from .hostfile import default_slots, distribute
from .mpi import MPI_KEYS, mpi_launch, plan_mpi_family
from .plan import NodePlan, NodeSlot
from .pytorch import plan_pytorch, pytorch_backend, pytorch_process_count
from .spec import node_count, toolkit_settings
from .tensorflow import plan_tensorflow, tf_shape

logger = logging.getLogger("batchai_sdk.toolkits")


def build_launch_plan(
    job: Mapping[str, Any],
    nodes: Sequence[NodeSlot],
    *,
    host_file: str,
    shared_job_temp: str,
    local: bool = False,
    python: str = "python",
    as_root: bool | None = None,
) -> list[NodePlan]:
    """Plan what every node of a job runs.

    ``job`` is the wire JSON ``properties`` of a job spec; ``nodes[i]`` is the node with NODE_RANK ``i``
    (``nodes[0]`` is the master). ``host_file`` and ``shared_job_temp`` are the absolute paths the agent sets
    as ``AZ_BATCHAI_MPI_HOST_FILE`` (write it with ``hostfile_text(nodes, hostfile_slots(job, nodes), local)``)
    and ``AZ_BATCHAI_SHARED_JOB_TEMP``. ``local`` means every node is this machine: ports come from
    ``NodeSlot.ports`` (see :func:`ports_needed`) and MPI stays on the loopback interface. ``python`` is the
    interpreter used where the job sets no ``pythonInterpreterPath``; ``as_root`` (default: whether this
    process runs as root) adds ``mpirun --allow-run-as-root``.

    User-given paths and arguments are put into the command lines unquoted, so ``$VARS`` in them expand on
    the node, as on Batch AI. Raises :class:`LaunchPlanError` naming the offending field.
    """
    count = node_count(job, nodes)
    for name, path in (("host_file", host_file), ("shared_job_temp", shared_job_temp)):
        if not posixpath.isabs(path):
            raise LaunchPlanError(f"{name} must be an absolute path, not {path!r}")
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    ctx = LaunchContext(
        nodes=tuple(nodes),
        host_file=host_file,
        shared_job_temp=shared_job_temp,
        local=local,
        default_python=python,
        as_root=as_root,
    )
    key, settings = toolkit_settings(job)
    if key == "customToolkitSettings":
        plans = plan_custom(ctx, settings)
    elif key == "tensorFlowSettings":
        plans = plan_tensorflow(ctx, job, settings)
    elif key == "pyTorchSettings":
        plans = plan_pytorch(ctx, job, settings)
    elif key == "caffe2Settings":
        plans = plan_caffe2(ctx, settings)
    else:
        plans = plan_mpi_family(ctx, job, key, settings)
    logger.debug(
        "launch plan for %s on %d node(s): %s",
        key,
        count,
        "; ".join(
            f"node {p.node_index}: " + (", ".join(q.name for q in p.processes) or "reserved") for p in plans
        ),
    )
    return plans


def hostfile_slots(job: Mapping[str, Any], nodes: Sequence[NodeSlot]) -> list[int]:
    """Slots per node for the job's host file, matching the ranks its plan starts under ``mpirun``.

    MPI-launched jobs get their block placement of ``processCount``; every other job gets one slot per GPU
    (at least one), which is what a custom toolkit's own ``mpirun --hostfile`` would start.
    """
    n = node_count(job, nodes)
    key, settings = toolkit_settings(job)
    if key in MPI_KEYS:
        launch = mpi_launch(key, settings, n, "python")
        if launch.use_mpirun:
            return distribute(launch.process_count, n)
    if key == "pyTorchSettings" and pytorch_backend(settings) == "mpi":
        return distribute(pytorch_process_count(settings, n), n)
    return default_slots(nodes)


def ports_needed(job: Mapping[str, Any], node_count: int) -> int:
    """How many ports each node must reserve in ``NodeSlot.ports`` for a local plan of this job.

    One rendezvous port (MASTER_PORT on the master node) plus, for distributed TensorFlow, one per task on the
    busiest node.
    """
    if node_count < 1:
        raise LaunchPlanError("a launch plan needs at least one node")
    key, settings = toolkit_settings(job)
    if key == "tensorFlowSettings":
        return 1 + tf_shape(settings, node_count).ports_per_node(node_count)
    return 1
