"""Runs multi-node jobs on a fresh local engine and prints what happened as JSON (one line).

Started by test_multinode_netns.py inside ``unshare -n`` with only ``lo`` up, to prove that local multi-node jobs
need no interface but loopback. Usage: ``python netns_driver.py <engine root>``.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "local"))
sys.path.insert(0, str(Path(__file__).parent))

from local_helpers import cluster_params  # noqa: E402
from multinode_helpers import key_values, pytorch_job, toolkit_job  # noqa: E402

from batchai_sdk import ClusterClient, FileShareClient, JobClient, LocalBackend  # noqa: E402
from batchai_sdk import models as m  # noqa: E402


def main(root: Path) -> dict[str, object]:
    backend = LocalBackend(root, heartbeat_interval=0.3, terminate_grace=2.0, auto_scale_idle_seconds=1.0)
    shares = FileShareClient(backend)
    shares.create_share("afs")
    scripts = backend.share_dir("afs") / "scripts"
    shutil.copytree(Path(__file__).parent / "scripts", scripts)
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", cluster_params(shares.get_share_url("afs"), 2)).result()
    clusters.wait_for_nodes("c1", 2, timeout=60)
    jobs = JobClient(backend, experiment="exp")
    report: dict[str, object] = {"interfaces": sorted(name for _, name in socket.if_nameindex())}
    try:
        if importlib.util.find_spec("torch"):
            job = jobs.begin_create("ddp", pytorch_job(cluster.id, "$AZ_BATCHAI_MOUNT_ROOT/afs/scripts/ddp_train.py"))
            report["ddp"] = _outcome(jobs, job.result(timeout=90), ["stdout-0.txt", "stdout-1.txt"])
        if shutil.which("mpirun"):
            command = "bash -c 'echo rank=$OMPI_COMM_WORLD_RANK size=$OMPI_COMM_WORLD_SIZE'"
            params = toolkit_job(cluster.id, 2, custom_mpi_settings=m.CustomMpiSettings(command_line=command,
                                                                                         process_count=2))
            report["mpi"] = _outcome(jobs, jobs.begin_create("mpi", params).result(timeout=60), ["stdout.txt"])
    finally:
        clusters.begin_delete("c1").result()
    return report


def _outcome(jobs: JobClient, job: m.Job, logs: list[str]) -> dict[str, object]:
    info, name = job.execution_info, str(job.name)
    lines = {log: list(jobs.stream_file(name, log)) for log in logs}
    return {
        "state": job.execution_state,
        "errors": [e.message for e in (info.errors if info else None) or []],
        "logs": {log: key_values(text) for log, text in lines.items()},
        "lines": lines,
    }


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
