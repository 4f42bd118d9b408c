"""Finding nodes whose heartbeat stopped and ending or requeueing what they ran.

Every agent (and the local engine's supervisor) runs this each heartbeat; the ``.dead`` marker is an
exclusive create, so one reaper handles each lost node.
"""

from __future__ import annotations

import logging
from typing import Any

from ..control import layout, lifecycle
from ..control import records as r

log = logging.getLogger("batchai_sdk.agent")

#: A node is lost after this many of its heartbeat intervals without a heartbeat.
MISSED_HEARTBEATS = 3
#: Lost nodes stay listed (as unusable) this long before their record is removed.
KEEP_LOST_SECONDS = 300.0


def reap(io: lifecycle.RecordIO, ws: str, cluster: str, *, me: str | None = None) -> list[str]:
    """Handle every lost node of the cluster; returns their ids."""
    now = r.now()
    lost: list[str] = []
    ndir = layout.nodes_dir(ws, cluster)
    names = io.listdir(ndir)
    dead = {n[: -len(".dead")] for n in names if n.endswith(".dead")}
    cluster_rec = io.read_json(layout.cluster_record(ws, cluster)) or {}
    for name in names:
        if not name.endswith(".json"):
            continue
        node = name[: -len(".json")]
        if node == me:
            continue
        rec = io.read_json(ndir + "/" + name)
        if not isinstance(rec, dict):
            continue
        if node in dead:
            if rec.get("state") in (r.NODE_UNUSABLE, "left") and now - float(rec.get("time", now)) > KEEP_LOST_SECONDS:
                io.remove(ndir + "/" + name)
                io.remove(ndir + "/" + node + ".dead")
            continue
        if rec.get("state") == "left":
            continue
        interval = float(rec.get("heartbeatInterval", 1.0))
        if now - float(rec.get("time", 0)) <= MISSED_HEARTBEATS * interval:
            continue
        if not io.create_json(ndir + "/" + node + ".dead", {"by": me, "time": now}):
            continue
        lost.append(node)
        rec["state"] = r.NODE_UNUSABLE
        rec["lost"] = True
        io.write_json(ndir + "/" + name, rec)
        job_ref = rec.get("job")
        if job_ref:
            _handle_lost_job(io, job_ref, node, evicted=bool(rec.get("evicted")), cluster_rec=cluster_rec, me=me)
        log.warning("node %s of cluster %s stopped sending heartbeats", node, cluster)
    return lost


def _handle_lost_job(
    io: lifecycle.RecordIO, ref: dict[str, Any], node: str, *, evicted: bool, cluster_rec: dict[str, Any], me: str | None
) -> None:
    ws, exp, name, attempt = ref["workspace"], ref["experiment"], ref["job"], int(ref["attempt"])
    job = io.read_json(layout.job_record(ws, exp, name))
    if not job:
        return
    if io.read_json(layout.end_record(ws, exp, name, attempt)) is not None:
        return
    started = io.read_json(layout.launch_record(ws, exp, name, attempt)) is not None
    if not started:
        # Only a claim in a forming gang: give the slot back.
        cdir = layout.claims_dir(ws, exp, name, attempt)
        for slot in io.listdir(cdir):
            claim = io.read_json(cdir + "/" + slot)
            if isinstance(claim, dict) and claim.get("node") == node:
                io.remove(cdir + "/" + slot)
        return
    policy = str(cluster_rec.get("nodeFailurePolicy", "fail"))
    if evicted:
        reason = r.error("NodePreempted", f"Node {node} was preempted (Spot eviction); the job was requeued.", node=node)
    else:
        reason = r.error(r.NODE_FAILED, f"Node {node} stopped responding (no heartbeat for {MISSED_HEARTBEATS} intervals).", node=node)
    if evicted or policy == "requeue":
        lifecycle.requeue(io, job, attempt, reason=reason, by=me or "reaper")
    else:
        lifecycle.end_attempt(io, job, attempt, r.FAILED, errors=[reason], by=me or "reaper")
