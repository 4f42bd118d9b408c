"""Job specs and log readers for multi-node tests."""

from __future__ import annotations

from typing import Any

from batchai_sdk import models as m

SHARE_PREFIX = "$AZ_BATCHAI_MOUNT_ROOT/afs"


def toolkit_job(cluster_id: str, nodes: int, **toolkit: Any) -> m.JobCreateParameters:
    """A job whose logs go to the share, with one toolkit's settings (e.g. ``py_torch_settings=...``)."""
    return m.JobCreateParameters(cluster=m.ResourceId(id=cluster_id), node_count=nodes,
                                 std_out_err_path_prefix=SHARE_PREFIX, **toolkit)


def pytorch_job(cluster_id: str, script: str, *, processes: int = 2, nodes: int = 2,
                args: str | None = None) -> m.JobCreateParameters:
    return toolkit_job(cluster_id, nodes, py_torch_settings=m.PyTorchSettings(
        python_script_file_path=script, command_line_args=args, process_count=processes,
        communication_backend="gloo"))


def key_values(lines: list[str]) -> dict[str, str]:
    """``KEY=value`` pairs printed by a script (later lines win)."""
    out: dict[str, str] = {}
    for line in lines:
        for word in line.split():
            if "=" in word:
                k, v = word.split("=", 1)
                out[k] = v
    return out


def error_details(job: Any) -> dict[str, str]:
    [err] = job.execution_info.errors
    return {"code": err.code, "message": err.message, **{d.name: d.value for d in err.details or []}}
