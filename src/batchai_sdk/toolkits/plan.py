"""The launch-plan data structures shared by the toolkits and the node agent (stdlib only).

A toolkit turns a job spec and the nodes allocated to it into one :class:`NodePlan` per node. The
agent on node ``i`` runs ``plan[i].processes`` with the job's common environment plus each
process's ``env``; it writes each process's output to the named files in the job's ``stdouterr``
directory. Nothing here starts a process, so every plan is unit-testable.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class NodeSlot:
    """A node allocated to a job, as the launcher sees it."""

    node_id: str
    #: Address the job's other nodes reach this node at ("127.0.0.1" on the local engine).
    address: str
    #: GPUs this node gives the job (0 on CPU nodes).
    gpus: int = 0
    #: Free TCP ports reserved on this node for rendezvous; distinct between local nodes that share an address.
    ports: tuple[int, ...] = ()


@dataclass
class ProcessPlan:
    """One process the agent starts on a node."""

    #: Shell command line (run with ``bash -c``; ``$VARS`` expand, pipes work, as on Batch AI).
    command: str
    #: Log file names inside the job's ``stdouterr`` directory.
    stdout: str
    stderr: str
    #: How errors name this process: "rank 1", "worker 0", "ps 0", "master".
    name: str
    #: Variables set for this process on top of the job's common environment.
    env: dict[str, str] = field(default_factory=dict)
    #: Stopped by the agent once every non-daemon process of the job has ended (TensorFlow parameter servers).
    daemon: bool = False


@dataclass
class NodePlan:
    """Everything one node of the job runs."""

    node_index: int
    processes: list[ProcessPlan] = field(default_factory=list)
    #: Variables every process on this node sees (NODE_RANK, NUM_NODES, MASTER_ADDR, ...).
    env: dict[str, str] = field(default_factory=dict)
