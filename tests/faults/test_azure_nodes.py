"""Lost and evicted nodes on the Azure path (simulated VMSS nodes running the real agent)."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import pytest
from fault_helpers import FAST, azure_cluster, job

pytest.importorskip("azure.storage.fileshare")

JOBS = ".batchai/workspaces/default/experiments/default/jobs"


def _wait(predicate: Any, timeout: float = 30.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _node_of(fake: Any, name: str) -> Any:
    """The simulated node (handle) running job ``name``."""
    status = fake.share_root("batchai-control") / JOBS / name / "status.json"
    node = _wait(lambda: (json.loads(status.read_text()).get("nodes") or [None])[0] if status.exists() else None,
                 what="the job's node")
    [(vmss, handle)] = [(v, h) for v in _scale_sets(fake) for h in fake.node_handles(v).values()
                        if h is not None and h.node == node]
    return vmss, handle


def _scale_sets(fake: Any) -> list[str]:
    return sorted({r.url.split("virtualMachineScaleSets/")[1].split("?")[0].split("/")[0]
                   for r in fake.requests if r.operation == "arm.vmss.put"})


def _start(fake: Any, backend: Any, policy: str, priority: str = "dedicated") -> Any:
    from batchai_sdk import ClusterClient, FileShareClient

    url = FileShareClient(backend).create_share("afs")
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c2", azure_cluster(fake, url, 2, priority=priority),
                                    node_failure_policy=policy).result()
    clusters.wait_for_nodes("c2", 2, timeout=60)
    return cluster


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["fail", "requeue"])
def test_killed_agent_is_noticed_within_three_heartbeats(faulty_fake: Any, faulty_backend: Any, policy: str) -> None:
    from batchai_sdk import JobClient

    fake, backend = faulty_fake, faulty_backend
    cluster = _start(fake, backend, policy)
    jobs = JobClient(backend)
    jobs.begin_create("victim", job(cluster.id, 'echo "attempt $AZ_BATCHAI_JOB_ATTEMPT"; '
                                                '[ "$AZ_BATCHAI_JOB_ATTEMPT" -ge 2 ] || sleep 60'))
    _wait(lambda: jobs.get("victim").execution_state == "running", what="running")
    _vmss, node = _node_of(fake, "victim")
    assert next(jobs.stream_file("victim", timeout=30)) == "attempt 1"
    os.kill(node.proc.pid, signal.SIGKILL)  # the agent only: its job keeps running, as on a hung VM
    t0 = time.monotonic()
    beat = FAST["heartbeat_interval"]
    if policy == "fail":
        done = jobs.wait("victim", timeout=30)
        assert done.execution_state == "failed"
        assert done.execution_info.errors[0].code == "NodeFailed"
        assert node.node in done.execution_info.errors[0].message
    else:
        _wait(lambda: jobs.get("victim").attempt == 2, timeout=30, what="requeue")
    # Lost after three missed heartbeats, noticed by the other node's reaper at its next beat (+ slack).
    assert time.monotonic() - t0 < 3 * beat + beat + 3
    if policy == "requeue":
        done = jobs.wait("victim", timeout=30)
        assert done.execution_state == "succeeded" and done.attempt == 2
        assert list(jobs.stream_file("victim", timeout=10)) == ["attempt 1", "attempt 2"]


@pytest.mark.slow
def test_eviction_requeues_with_attempt_two_and_keeps_attempt_one_outputs(faulty_fake: Any,
                                                                           faulty_backend: Any) -> None:
    """tests/azure checks the requeue; this adds what the job sees and what survives on the share."""
    from batchai_sdk import JobClient

    fake, backend = faulty_fake, faulty_backend
    cluster = _start(fake, backend, "fail", priority="lowpriority")
    jobs = JobClient(backend)
    command = ('env | grep "^AZ_BATCHAI_JOB_ATTEMPT=" > "$AZ_BATCHAI_OUTPUT_OUT/env-$AZ_BATCHAI_JOB_ATTEMPT.txt"; '
               'echo partial > "$AZ_BATCHAI_OUTPUT_OUT/checkpoint-$AZ_BATCHAI_JOB_ATTEMPT.txt"; '
               '[ "$AZ_BATCHAI_JOB_ATTEMPT" -ge 2 ] || sleep 60')
    jobs.begin_create("spot", job(cluster.id, command, outputs=("OUT",)))
    _wait(lambda: jobs.get("spot").execution_state == "running", what="running")
    _wait(lambda: [f for f in jobs.list_output_files("spot", "OUT") if f.name == "checkpoint-1.txt"],
          what="attempt 1's checkpoint")
    vmss, node = _node_of(fake, "spot")
    [instance] = [i for i, h in fake.node_handles(vmss).items() if h is node]
    fake.evict(vmss, instance)
    done = jobs.wait("spot", timeout=60)
    assert done.execution_state == "succeeded" and done.attempt == 2
    names = sorted(f.name for f in jobs.list_output_files("spot", "OUT"))
    assert names == ["checkpoint-1.txt", "checkpoint-2.txt", "env-1.txt", "env-2.txt"]
    out = {f.name: f for f in jobs.list_output_files("spot", "OUT")}
    assert out["checkpoint-1.txt"].content_length == len("partial\n")
    paths = {p.name: p for p in jobs.download_outputs("spot", "OUT", fake.share_root("afs").parent / "dl")}
    assert paths["env-2.txt"].read_text() == "AZ_BATCHAI_JOB_ATTEMPT=2\n"
    assert paths["checkpoint-1.txt"].read_text() == "partial\n"
