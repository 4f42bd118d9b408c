"""Rank placement over nodes and the OpenMPI host file (``$AZ_BATCHAI_MPI_HOST_FILE``)."""

from __future__ import annotations

from collections.abc import Sequence

from .plan import NodeSlot

#: The host name OpenMPI always treats as this machine (never reached over SSH).
LOCAL_HOST = "localhost"


def distribute(process_count: int, node_count: int) -> list[int]:
    """Ranks per node, block placement: each node in NODE_RANK order takes ``ceil(process_count / node_count)``
    ranks until all are placed (8 over 3 → ``[3, 3, 2]``; 2 over 4 → ``[1, 1, 0, 0]``).

    This is the order in which ``mpirun --map-by slot`` fills a host file, so the PyTorch launcher and the
    MPI launcher put rank ``r`` on the same node.
    """
    per_node = -(-process_count // node_count)
    slots: list[int] = []
    left = process_count
    for _ in range(node_count):
        take = min(per_node, left)
        slots.append(take)
        left -= take
    return slots


def default_slots(nodes: Sequence[NodeSlot]) -> list[int]:
    """One slot per GPU, at least one per node (what ``mpirun`` without ``-np`` starts, as Batch AI did)."""
    return [max(1, node.gpus) for node in nodes]


def hostfile_text(nodes: Sequence[NodeSlot], slots_per_node: list[int] | None, local: bool) -> str:
    """The OpenMPI host file for ``nodes``: one ``<address> slots=<n>`` line per node in NODE_RANK order.

    ``slots_per_node`` defaults to :func:`default_slots`. Nodes with zero slots are left out (OpenMPI would
    otherwise still map onto them). With ``local`` all nodes are this machine, so the file is a single
    ``localhost slots=<total>`` line: OpenMPI then starts every rank itself instead of over SSH.
    """
    slots = default_slots(nodes) if slots_per_node is None else list(slots_per_node)
    if len(slots) != len(nodes):
        raise ValueError(f"slots_per_node has {len(slots)} entries for {len(nodes)} node(s)")
    if any(n < 0 for n in slots):
        raise ValueError("slots_per_node entries must not be negative")
    if local:
        return f"{LOCAL_HOST} slots={sum(slots)}\n"
    return "".join(f"{node.address} slots={n}\n" for node, n in zip(nodes, slots, strict=True) if n > 0)
