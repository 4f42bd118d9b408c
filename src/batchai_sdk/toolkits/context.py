"""What every toolkit planner needs to know about the allocation, and the environment common to all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from . import env
from .errors import LaunchPlanError
from .plan import NodePlan, NodeSlot, ProcessPlan

#: MASTER_PORT on remote nodes when the engine reserved none (PyTorch's own default).
DEFAULT_MASTER_PORT = 29500
#: First TensorFlow task port on remote nodes when the engine reserved none (Batch AI's documented 2222/2223).
DEFAULT_TF_PORT = 2222


@dataclass(frozen=True)
class LaunchContext:
    """The allocation a plan is built for (immutable; one per :func:`build_launch_plan` call)."""

    nodes: tuple[NodeSlot, ...]
    host_file: str
    shared_job_temp: str
    local: bool
    default_python: str
    as_root: bool

    def __post_init__(self) -> None:
        if self.local and not self.nodes[0].ports:
            raise LaunchPlanError(
                f"node {self.nodes[0].node_id!r} has no reserved ports: local plans take MASTER_PORT from "
                "NodeSlot.ports because all local nodes share one address"
            )

    @property
    def master_addr(self) -> str:
        return self.nodes[0].address

    @property
    def master_port(self) -> int:
        ports = self.nodes[0].ports
        return ports[0] if ports else DEFAULT_MASTER_PORT

    def node_env(self, index: int) -> dict[str, str]:
        """The variables every process on node ``index`` sees."""
        return {
            env.NODE_RANK: str(index),
            env.NUM_NODES: str(len(self.nodes)),
            env.NODE_LIST: ",".join(node.address for node in self.nodes),
            env.MASTER_ADDR: self.master_addr,
            env.MASTER_PORT: str(self.master_port),
            env.SHARED_JOB_TEMP: self.shared_job_temp,
            env.MPI_HOST_FILE: self.host_file,
        }

    def empty_plans(self) -> list[NodePlan]:
        """One plan per node with the common environment and no processes yet (a reserved node stays so)."""
        return [NodePlan(node_index=i, env=self.node_env(i)) for i in range(len(self.nodes))]

    def task_ports(self, index: int, needed: int) -> list[int]:
        """``needed`` distinct ports for tasks on node ``index`` (TensorFlow ps and workers).

        The node's reserved ports after the first (which is the node's rendezvous port, MASTER_PORT on node 0)
        are used when there are enough; remote nodes otherwise use 2222, 2223, ... as Batch AI did. Local
        nodes share an address, so for them the reserved ports are required.
        """
        reserved = self.nodes[index].ports[1:]
        if len(reserved) >= needed:
            return list(reserved[:needed])
        if self.local:
            raise LaunchPlanError(
                f"node {self.nodes[index].node_id!r} needs {needed + 1} reserved ports for this job "
                f"(1 rendezvous + {needed} task ports) but has {len(self.nodes[index].ports)}"
            )
        return list(range(DEFAULT_TF_PORT, DEFAULT_TF_PORT + needed))


def rank_env(rank: int, world_size: int, local_rank: int) -> dict[str, str]:
    """RANK / WORLD_SIZE / LOCAL_RANK of one process."""
    return {env.RANK: str(rank), env.WORLD_SIZE: str(world_size), env.LOCAL_RANK: str(local_rank)}


def single_process(
    command: str, name: str, stdout: str, stderr: str, extra: Mapping[str, str] | None = None
) -> ProcessPlan:
    """The only process of a job, run on the master node (RANK 0 of a world of 1)."""
    return ProcessPlan(
        command=command, stdout=stdout, stderr=stderr, name=name, env={**rank_env(0, 1, 0), **(extra or {})}
    )
