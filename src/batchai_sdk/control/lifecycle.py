"""Job state transitions on the control share, shared by clients, agents and reapers.

Every transition that ends an attempt first wins the attempt's ``end`` record by exclusive create, so
a finishing agent, a terminating client and a reaper of a dead node can race and exactly one decides.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

from . import layout
from . import records as r

log = logging.getLogger("batchai_sdk.control")


class RecordIO(Protocol):
    """Record access on the control share (a mounted directory, or an engine's store)."""

    def read_json(self, rel: str) -> Any | None: ...

    def write_json(self, rel: str, record: Any, *, private: bool = False) -> None: ...

    def create_json(self, rel: str, record: Any) -> bool: ...

    def listdir(self, rel: str) -> list[str]: ...

    def remove(self, rel: str) -> None: ...


def queued_status(attempt: int, *, now: float | None = None, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    ts = now if now is not None else r.now()
    status: dict[str, Any] = {
        "executionState": r.QUEUED,
        "executionStateTransitionTime": ts,
        "attempt": attempt,
        "queuedTime": ts,
    }
    if previous:
        status["previousAttempts"] = previous.get("previousAttempts", []) + [
            {k: previous.get(k) for k in ("attempt", "startTime", "endTime", "errors", "nodes")}
        ]
    return status


def enqueue(io: RecordIO, job: dict[str, Any], attempt: int) -> str:
    """Put the job on its cluster's queue; returns the entry name."""
    entry = layout.queue_entry_name(job["priority"], time.time_ns(), job["experiment"], job["name"])
    cws, cname = job["cluster"]["workspace"], job["cluster"]["name"]
    io.write_json(
        layout.queue_dir(cws, cname) + "/" + entry,
        {"workspace": job["workspace"], "experiment": job["experiment"], "job": job["name"], "attempt": attempt},
    )
    return entry


def dequeue(io: RecordIO, job: dict[str, Any]) -> None:
    cws, cname = job["cluster"]["workspace"], job["cluster"]["name"]
    qdir = layout.queue_dir(cws, cname)
    suffix = f"-{job['experiment']}--{job['name']}"
    for name in io.listdir(qdir):
        if name.endswith(suffix):
            io.remove(qdir + "/" + name)


def end_attempt(
    io: RecordIO,
    job: dict[str, Any],
    attempt: int,
    state: str,
    *,
    exit_code: int | None = None,
    errors: list[dict[str, Any]] | None = None,
    by: str,
    start_time: float | None = None,
    nodes: list[str] | None = None,
) -> bool:
    """Finish attempt ``attempt`` with a final state; False when someone else already ended it."""
    ws, exp, name = job["workspace"], job["experiment"], job["name"]
    ts = r.now()
    final: dict[str, Any] = {
        "executionState": state,
        "executionStateTransitionTime": ts,
        "attempt": attempt,
        "endTime": ts,
        "exitCode": exit_code,
        "errors": errors or [],
        "endedBy": by,
    }
    if not io.create_json(layout.end_record(ws, exp, name, attempt), final):
        return False
    previous = io.read_json(layout.job_status(ws, exp, name)) or {}
    status = dict(previous)
    status.update(final)
    if start_time is not None:
        status["startTime"] = start_time
    if nodes is not None:
        status["nodes"] = nodes
    io.write_json(layout.job_status(ws, exp, name), status)
    dequeue(io, job)
    log.debug("job %s/%s attempt %d ended %s by %s", exp, name, attempt, state, by)
    return True


def requeue(io: RecordIO, job: dict[str, Any], attempt: int, *, reason: dict[str, Any], by: str) -> bool:
    """End ``attempt`` and queue attempt+1 (preemption, node failure under a requeue policy)."""
    ws, exp, name = job["workspace"], job["experiment"], job["name"]
    marker = {"executionState": r.QUEUED, "requeued": True, "errors": [reason], "endedBy": by, "endTime": r.now()}
    if not io.create_json(layout.end_record(ws, exp, name, attempt), marker):
        return False
    previous = io.read_json(layout.job_status(ws, exp, name)) or {}
    previous["errors"] = [reason]
    previous["attempt"] = attempt
    io.write_json(layout.job_status(ws, exp, name), queued_status(attempt + 1, previous=previous))
    enqueue(io, job, attempt + 1)
    log.info("job %s/%s requeued as attempt %d: %s", exp, name, attempt + 1, reason.get("message"))
    return True


def attempt_ended(io: RecordIO, job: dict[str, Any], attempt: int) -> dict[str, Any] | None:
    return io.read_json(layout.end_record(job["workspace"], job["experiment"], job["name"], attempt))  # type: ignore[no-any-return]
