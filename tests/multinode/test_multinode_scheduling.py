"""Failure propagation and gang scheduling of multi-node jobs on real node agents."""

from __future__ import annotations

import time
from pathlib import Path

from local_helpers import job_params
from multinode_helpers import error_details, key_values, pytorch_job
from process_helpers import processes_under


def _running(local_root: Path, needle: str) -> list[int]:
    """Job processes under this engine root whose command line mentions ``needle``."""
    found = []
    for pid in processes_under(local_root):
        try:
            if needle.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


def test_failed_rank_ends_the_job_and_names_itself(backend, local_root, make_cluster, jobs, script_on_share) -> None:
    cluster = make_cluster(nodes=2)
    t0 = time.monotonic()
    job = jobs.begin_create("fail", pytorch_job(cluster.id, script_on_share("rank_fails.py"))).result(timeout=60)
    took = time.monotonic() - t0
    assert job.execution_state == "failed"
    assert took < 10, "rank 0 (sleeping for 60 s) must be stopped, not waited for"
    assert job.execution_info.exit_code == 3
    err = error_details(job)
    assert err["code"] == "JobFailed" and err["process"] == "rank 1" and err["exit_code"] == "3"
    assert "rank 1 gives up" in err["stderr_tail"]
    # The failing rank ran on the second node; its log and rank 0's stay on the share.
    rank1 = list(jobs.stream_file("fail", "stdout-1.txt"))
    assert rank1 == [f"rank 1 started on {err['node']}"]
    rank0 = list(jobs.stream_file("fail", "stdout-0.txt"))
    assert len(rank0) == 1 and rank0[0].startswith("rank 0 started on ") and not rank0[0].endswith(err["node"])
    names = {f.name for f in jobs.list_output_files("fail")}
    assert {"stdout-0.txt", "stderr-0.txt", "stdout-1.txt", "stderr-1.txt", "execution.log"} <= names
    assert f"execution-{err['node']}.log" in names
    # Rank 0 is gone once the job is reported failed (the agent stopped it, the test's teardown did not).
    deadline = time.monotonic() + 5
    while _running(local_root, "rank_fails.py") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _running(local_root, "rank_fails.py") == []


def test_two_node_job_waits_for_a_busy_node(backend, make_cluster, jobs, script_on_share) -> None:
    cluster = make_cluster(nodes=2)
    jobs.begin_create("long", job_params(cluster.id, "echo started on $AZ_BATCHAI_NODE_ID; sleep 60"))
    long_log = jobs.stream_file("long")
    busy = next(long_log).split()[-1]
    pair = jobs.begin_create("pair", pytorch_job(cluster.id, script_on_share("whoami.py")))
    time.sleep(2)  # many agent polls: a partial gang must not start
    assert jobs.get("pair").execution_state == "queued"
    assert jobs.get("long").execution_state == "running"
    jobs.begin_terminate("long").result()
    job = pair.result(timeout=60)
    assert job.execution_state == "succeeded", job.execution_info
    ranks = [key_values(list(jobs.stream_file("pair", f"stdout-{r}.txt"))) for r in (0, 1)]
    nodes = [x["AZ_BATCHAI_NODE_ID"] for x in ranks]
    assert len(set(nodes)) == 2 and busy in nodes
    logs = backend.share_dir("afs") / job.job_output_directory_path_segment / "stdouterr"
    assert f"node {nodes[0]} allocated as node rank 0 of 2" in (logs / "execution.log").read_text()
    assert f"node {nodes[1]} allocated as node rank 1 of 2" in (logs / f"execution-{nodes[1]}.log").read_text()
    # The pair started only after the long job ended.
    long_end = jobs.get("long").execution_info.end_time
    assert job.execution_info.start_time >= long_end
