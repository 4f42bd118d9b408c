"""JSON record codecs and the vocabulary of states shared by clients and agents."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from typing import Any

QUEUED = "queued"
RUNNING = "running"
TERMINATING = "terminating"
SUCCEEDED = "succeeded"
FAILED = "failed"
FINAL_STATES = frozenset({SUCCEEDED, FAILED})

# Node states as Batch AI counted them (NodeStateCounts).
NODE_IDLE = "idle"
NODE_RUNNING = "running"
NODE_PREPARING = "preparing"
NODE_UNUSABLE = "unusable"
NODE_LEAVING = "leaving"

# Error codes written into executionInfo.errors.
JOB_FAILED = "JobFailed"
JOB_PREPARATION_FAILED = "JobPreparationFailed"
NODE_FAILED = "NodeFailed"
JOB_TERMINATED = "JobTerminated"
WALL_CLOCK_EXCEEDED = "MaxWallClockTimeExceeded"
CONTAINER_UNAVAILABLE = "ContainerRuntimeUnavailable"
CLUSTER_DELETED = "ClusterDeleted"


def dumps(record: Any) -> bytes:
    return json.dumps(record, indent=1, sort_keys=True).encode("utf-8")


def loads(data: bytes) -> Any:
    return json.loads(data.decode("utf-8"))


def now() -> float:
    return time.time()


def iso(ts: float | None) -> str | None:
    """Epoch seconds → ISO 8601 UTC, the form Batch AI used on the wire."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def error(code: str, message: str, **details: Any) -> dict[str, Any]:
    """A BatchAIError in wire form; details become NameValuePairs."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = [{"name": k, "value": str(v)} for k, v in details.items()]
    return body
