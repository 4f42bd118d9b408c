"""Clusters as processes: heartbeats, lost nodes, preemption, auto-scale, setup tasks, survival."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from local_helpers import cluster_params, job_params

from batchai_sdk import ClusterClient, JobClient, ResourceNotFoundError
from batchai_sdk.engines.local.gpus import split


def _node_records(backend, cluster: str = "c1") -> dict[str, dict]:
    ndir = backend.share_dir(backend.control_share) / ".batchai/workspaces/default/clusters" / cluster / "nodes"
    return {p.stem: json.loads(p.read_text()) for p in ndir.glob("*.json")}


def _wait(predicate, timeout: float = 30.0, what: str = "condition"):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _running_node(backend, jobs, name: str) -> str:
    _wait(lambda: jobs.get(name).execution_state == "running", what="running")
    return _wait(lambda: next((n for n, r in _node_records(backend).items() if (r.get("job") or {}).get("job") == name), None),
                 what="node record")


def test_killed_agent_fails_its_job_and_is_replaced(backend, make_cluster, jobs) -> None:
    cluster = make_cluster()
    jobs.begin_create("victim", job_params(cluster.id, "echo up; sleep 60"))
    node = _running_node(backend, jobs, "victim")
    assert next(jobs.stream_file("victim")) == "up"
    os.kill(_node_records(backend)[node]["pid"], signal.SIGKILL)
    t0 = time.monotonic()
    job = jobs.wait("victim", timeout=30)
    # Lost after three missed heartbeats (0.3 s each here), with slack for a loaded machine.
    assert time.monotonic() - t0 < 3 * 0.3 + 3
    assert job.execution_state == "failed"
    assert job.execution_info.errors[0].code == "NodeFailed" and node in job.execution_info.errors[0].message
    c = ClusterClient(backend).get("c1")
    assert c.node_state_counts.unusable_node_count == 1
    # The supervisor replaced the node: the cluster runs jobs again.
    assert jobs.begin_create("after", job_params(cluster.id, "echo ok")).result().execution_state == "succeeded"


def test_lost_node_requeues_when_the_cluster_says_so(backend, make_cluster, jobs) -> None:
    cluster = make_cluster(node_failure_policy="requeue")
    jobs.begin_create("again", job_params(cluster.id, "echo attempt=$AZ_BATCHAI_JOB_ATTEMPT; "
                                                      "[ $AZ_BATCHAI_JOB_ATTEMPT -ge 2 ] || sleep 60"))
    node = _running_node(backend, jobs, "again")
    assert next(jobs.stream_file("again")) == "attempt=1"
    os.kill(_node_records(backend)[node]["pid"], signal.SIGKILL)
    job = jobs.wait("again", timeout=60)
    assert job.execution_state == "succeeded"
    assert job.attempt == 2
    assert list(jobs.stream_file("again")) == ["attempt=1", "attempt=2"]


def test_spot_eviction_requeues_on_another_node_and_keeps_outputs(backend, make_cluster, jobs) -> None:
    from batchai_sdk import models as m

    cluster = make_cluster(nodes=2)
    params = job_params(cluster.id, "echo $AZ_BATCHAI_JOB_ATTEMPT > $AZ_BATCHAI_OUTPUT_OUT/attempt-$AZ_BATCHAI_JOB_ATTEMPT.txt; "
                                    "[ $AZ_BATCHAI_JOB_ATTEMPT -ge 2 ] || sleep 60",
                        output_directories=[m.OutputDirectory(id="OUT", path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs")])
    jobs.begin_create("spot", params)
    node = _running_node(backend, jobs, "spot")
    _wait(lambda: [f.name for f in jobs.list_output_files("spot", "OUT")] == ["attempt-1.txt"], what="first output")
    backend.evict_node("default", "c1", node)
    job = jobs.wait("spot", timeout=60)
    assert job.execution_state == "succeeded" and job.attempt == 2
    assert sorted(f.name for f in jobs.list_output_files("spot", "OUT")) == ["attempt-1.txt", "attempt-2.txt"]


def test_cluster_outlives_the_process_that_created_it(backend, shares, local_root: Path) -> None:
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from local_helpers import cluster_params
        from batchai_sdk import LocalBackend, ClusterClient
        b = LocalBackend({str(local_root)!r}, heartbeat_interval=0.3)
        ClusterClient(b).begin_create("c1", cluster_params(b.share_url("afs"))).result()
        ClusterClient(b).wait_for_nodes("c1", 1, timeout=30)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    jobs = JobClient(backend, experiment="exp")
    cluster = ClusterClient(backend).get("c1")
    assert cluster.current_node_count == 1
    assert jobs.begin_create("later", job_params(cluster.id, "echo alive")).result().execution_state == "succeeded"


def test_delete_stops_every_process_and_fails_running_jobs(backend, make_cluster, jobs, local_root: Path) -> None:
    from process_helpers import processes_under

    cluster = make_cluster(nodes=2)
    jobs.begin_create("running", job_params(cluster.id, "sleep 60"))
    _running_node(backend, jobs, "running")
    ClusterClient(backend).begin_delete("c1").result()
    job = jobs.get("running")
    assert job.execution_state == "failed" and job.execution_info.errors[0].code == "ClusterDeleted"
    assert processes_under(local_root) == []


def test_auto_scale_starts_nodes_for_queued_jobs_and_stops_idle_ones(backend, shares, jobs) -> None:
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", cluster_params(shares.get_share_url("afs"), auto=(0, 2))).result()
    assert cluster.current_node_count == 0
    job = jobs.begin_create("wakeup", job_params(cluster.id, "echo woke", nodes=2)).result()
    assert job.execution_state == "succeeded"
    # Idle nodes go away again (idle time 1 s in these tests).
    _wait(lambda: clusters.get("c1").current_node_count == 0, timeout=30, what="scale-in")


def test_manual_resize(backend, make_cluster) -> None:
    make_cluster(nodes=1)
    clusters = ClusterClient(backend)
    clusters.resize("c1", 2)
    clusters.wait_for_nodes("c1", 2, timeout=30)
    assert clusters.get("c1").current_node_count == 2
    clusters.resize("c1", 1)
    _wait(lambda: clusters.get("c1").current_node_count == 1 and clusters.get("c1").allocation_state == "steady",
          timeout=30, what="scale-in")


def test_setup_task_runs_on_every_node_with_mounts(backend, make_cluster) -> None:
    make_cluster(nodes=2, setup="echo setup on $(hostname) > /dev/null; ls $AZ_BATCHAI_MOUNT_ROOT; echo done")
    cluster = ClusterClient(backend).get("c1")
    suffix = cluster.node_setup.setup_task.std_out_err_path_suffix
    out_dir = backend.share_dir("afs") / suffix
    outs = sorted(out_dir.glob("stdout-*.txt"))
    assert len(outs) == 2
    assert all(p.read_text() == "afs\ndone\n" for p in outs)


def test_failing_setup_task_makes_the_node_unusable(backend, make_cluster) -> None:
    make_cluster(nodes=1, setup="echo broken >&2; exit 4", wait=False)
    clusters = ClusterClient(backend)
    c = _wait(lambda: (lambda c: c if c.node_state_counts.unusable_node_count == 1 else None)(clusters.get("c1")),
              what="unusable node")
    assert c.errors and c.errors[0].code == "SetupTaskFailed"


def test_two_clients_creating_the_same_job_exactly_one_wins(backend, make_cluster, local_root: Path) -> None:
    cluster = make_cluster()
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from local_helpers import job_params
        from batchai_sdk import LocalBackend, JobClient, ResourceExistsError
        b = LocalBackend({str(local_root)!r})
        try:
            JobClient(b, experiment="exp").begin_create("race", job_params({cluster.id!r}, "echo won"))
            print("won")
        except ResourceExistsError:
            print("lost")
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(4)]
    results = sorted(p.communicate(timeout=60)[0].strip() for p in procs)
    assert results == ["lost", "lost", "lost", "won"]


def test_client_killed_mid_submit_leaves_no_job_and_rerun_succeeds(backend, make_cluster, jobs, local_root: Path) -> None:
    from batchai_sdk.control import layout

    cluster = make_cluster()
    # A client that dies right after taking the create lock and writing the queue entry.
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from local_helpers import job_params
        from batchai_sdk import LocalBackend, JobClient
        import batchai_sdk.clients.jobs as J
        real = J.lifecycle.enqueue
        def enqueue_then_die(*a, **k):
            real(*a, **k)
            os._exit(9)
        J.lifecycle.enqueue = enqueue_then_die
        JobClient(LocalBackend({str(local_root)!r}), experiment="exp").begin_create("half", job_params({cluster.id!r}, "echo done"))
    """)
    assert subprocess.run([sys.executable, "-c", script], timeout=60).returncode == 9
    assert [j.name for j in jobs.list()] == []
    with pytest.raises(ResourceNotFoundError):
        jobs.get("half")
    assert backend.share_dir(backend.control_share).joinpath(layout.job_dir("default", "exp", "half"), "create.lock").exists()
    job = jobs.begin_create("half", job_params(cluster.id, "echo done")).result()
    assert job.execution_state == "succeeded"
    assert list(jobs.stream_file("half")) == ["done"]


def test_gpu_split() -> None:
    assert split([], 2, 0) is None
    assert split(["0", "1", "2", "3"], 2, 0) == ["0", "1"]
    assert split(["0", "1", "2", "3"], 2, 1) == ["2", "3"]
    assert split(["0"], 2, 1) == []
