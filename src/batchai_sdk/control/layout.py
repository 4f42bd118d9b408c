"""Paths on the control share (POSIX, relative to the share root).

::

    .batchai/workspaces/<ws>/workspace.json
    .batchai/workspaces/<ws>/clusters/<cluster>/cluster.json         spec + provisioning state
    .batchai/workspaces/<ws>/clusters/<cluster>/secrets.json         setup-task secrets, mount keys
    .batchai/workspaces/<ws>/clusters/<cluster>/nodes/<node>.json    heartbeat
    .batchai/workspaces/<ws>/clusters/<cluster>/queue/<entry>        one empty-ish file per queued job
    .batchai/workspaces/<ws>/fileServers/<name>/fileserver.json      spec (no secrets) + mountSettings
    .batchai/workspaces/<ws>/experiments/<exp>/experiment.json
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/job.json     spec (immutable)
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/secrets.json secret variable values
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/status.json  execution state (agents write)
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/terminate.json
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/attempts/<n>/claims/slot-<i>  gang claims
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/attempts/<n>/launch.json     the allocation
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/attempts/<n>/results/<node>.json
    .batchai/workspaces/<ws>/experiments/<exp>/jobs/<job>/attempts/<n>/end             who ended it
"""

from __future__ import annotations

import posixpath

ROOT = ".batchai"
#: Name of the control share of an engine.
CONTROL_SHARE = "batchai-control"

PRIORITY_RANK = {"high": 0, "normal": 1, "low": 2}


def join(*parts: str) -> str:
    return posixpath.join(*parts)


def workspaces_dir() -> str:
    return join(ROOT, "workspaces")


def workspace_dir(ws: str) -> str:
    return join(ROOT, "workspaces", ws)


def workspace_record(ws: str) -> str:
    return join(workspace_dir(ws), "workspace.json")


def clusters_dir(ws: str) -> str:
    return join(workspace_dir(ws), "clusters")


def cluster_dir(ws: str, cluster: str) -> str:
    return join(clusters_dir(ws), cluster)


def cluster_record(ws: str, cluster: str) -> str:
    return join(cluster_dir(ws, cluster), "cluster.json")


def cluster_secrets(ws: str, cluster: str) -> str:
    return join(cluster_dir(ws, cluster), "secrets.json")


def nodes_dir(ws: str, cluster: str) -> str:
    return join(cluster_dir(ws, cluster), "nodes")


def node_record(ws: str, cluster: str, node: str) -> str:
    return join(nodes_dir(ws, cluster), node + ".json")


def queue_dir(ws: str, cluster: str) -> str:
    return join(cluster_dir(ws, cluster), "queue")


def file_servers_dir(ws: str) -> str:
    return join(workspace_dir(ws), "fileServers")


def file_server_dir(ws: str, name: str) -> str:
    return join(file_servers_dir(ws), name)


def file_server_record(ws: str, name: str) -> str:
    """The file server's record; Azure nodes read ``mountSettings`` from it to mount the NFS export."""
    return join(file_server_dir(ws, name), "fileserver.json")


def experiments_dir(ws: str) -> str:
    return join(workspace_dir(ws), "experiments")


def experiment_dir(ws: str, exp: str) -> str:
    return join(experiments_dir(ws), exp)


def experiment_record(ws: str, exp: str) -> str:
    return join(experiment_dir(ws, exp), "experiment.json")


def jobs_dir(ws: str, exp: str) -> str:
    return join(experiment_dir(ws, exp), "jobs")


def job_dir(ws: str, exp: str, job: str) -> str:
    return join(jobs_dir(ws, exp), job)


def job_record(ws: str, exp: str, job: str) -> str:
    return join(job_dir(ws, exp, job), "job.json")


def job_secrets(ws: str, exp: str, job: str) -> str:
    return join(job_dir(ws, exp, job), "secrets.json")


def job_status(ws: str, exp: str, job: str) -> str:
    return join(job_dir(ws, exp, job), "status.json")


def job_terminate(ws: str, exp: str, job: str) -> str:
    return join(job_dir(ws, exp, job), "terminate.json")


def attempt_dir(ws: str, exp: str, job: str, attempt: int) -> str:
    return join(job_dir(ws, exp, job), "attempts", str(attempt))


def claims_dir(ws: str, exp: str, job: str, attempt: int) -> str:
    return join(attempt_dir(ws, exp, job, attempt), "claims")


def claim_record(ws: str, exp: str, job: str, attempt: int, slot: int) -> str:
    return join(claims_dir(ws, exp, job, attempt), f"slot-{slot}")


def launch_record(ws: str, exp: str, job: str, attempt: int) -> str:
    return join(attempt_dir(ws, exp, job, attempt), "launch.json")


def results_dir(ws: str, exp: str, job: str, attempt: int) -> str:
    return join(attempt_dir(ws, exp, job, attempt), "results")


def result_record(ws: str, exp: str, job: str, attempt: int, node: str) -> str:
    return join(results_dir(ws, exp, job, attempt), node + ".json")


def end_record(ws: str, exp: str, job: str, attempt: int) -> str:
    return join(attempt_dir(ws, exp, job, attempt), "end")


def queue_entry_name(priority: str, seq_ns: int, exp: str, job: str) -> str:
    """Entries sort by priority, then submission time: a directory listing is the queue order."""
    return f"{PRIORITY_RANK.get(priority, 1)}-{seq_ns:020d}-{exp}--{job}"


def parse_queue_entry(name: str) -> tuple[int, int, str, str] | None:
    try:
        rank, seq, rest = name.split("-", 2)
        exp, job = rest.split("--", 1)
        return int(rank), int(seq), exp, job
    except ValueError:
        return None


def job_segment(subscription: str, resource_group: str, ws: str, exp: str, job: str, uuid: str) -> str:
    """Batch AI's ``jobOutputDirectoryPathSegment`` (API 2018-05-01)."""
    return "/".join([subscription, resource_group, "workspaces", ws, "experiments", exp, "jobs", job, uuid])


def cluster_segment(subscription: str, resource_group: str, ws: str, cluster: str, uuid: str) -> str:
    """Batch AI's setup task ``stdOutErrPathSuffix``."""
    return "/".join([subscription, resource_group, "workspaces", ws, "clusters", cluster, uuid])
