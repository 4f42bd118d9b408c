"""How many nodes a local cluster should have now (manual target or auto-scale)."""

from __future__ import annotations

from typing import Any


def desired_nodes(scale: dict[str, Any], queued_node_counts: list[int], busy_nodes: int, current: int,
                  idle_expired: int) -> int:
    """Manual: the target. Auto-scale: enough nodes for running and queued jobs within [min, max];
    idle nodes past their idle time are released down to the minimum."""
    if scale.get("manual"):
        return int(scale["manual"].get("targetNodeCount", 0))
    auto = scale.get("autoScale") or {}
    lo = int(auto.get("minimumNodeCount", 0))
    hi = int(auto.get("maximumNodeCount", lo))
    want_for_queue = busy_nodes + (max(queued_node_counts) if queued_node_counts else 0)
    if queued_node_counts:
        want = max(current, want_for_queue)
    else:
        want = current - idle_expired
    return max(lo, min(hi, want))


def initial_nodes(scale: dict[str, Any]) -> int:
    if scale.get("manual"):
        return int(scale["manual"].get("targetNodeCount", 0))
    auto = scale.get("autoScale") or {}
    lo = int(auto.get("minimumNodeCount", 0))
    return max(lo, int(auto.get("initialNodeCount", 0) or 0))
