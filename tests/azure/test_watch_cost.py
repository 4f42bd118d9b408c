"""What watching a running job costs in requests with the engine's default client timings."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from engine_helpers import FAST
from test_end_to_end import _cluster, _job

log = logging.getLogger(__name__)


@pytest.mark.slow
def test_streaming_a_running_job_makes_few_requests(sim_fake: Any) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    fake = sim_fake
    # Fast nodes, but the client side as users get it: (0.5 s, 5 s) log polls, 1 s state polls.
    node_only = {k: v for k, v in FAST.items() if k in ("retry_wait", "heartbeat_interval", "poll_interval")}
    backend = fake.azure_backend(**node_only)
    url = FileShareClient(backend).create_share("afs")
    FileShareClient(backend).create_directory("afs", "data")
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("watch", _cluster(url, fake, 1)).result()
    clusters.wait_for_nodes("watch", timeout=60)
    jobs = JobClient(backend)
    seconds = 20
    jobs.begin_create("tick", _job(cluster.id, f"for i in $(seq 1 {seconds}); do echo tick $i; sleep 1; done"))
    start = len(fake.requests)
    began = time.monotonic()
    lines = list(jobs.stream_file("tick"))
    jobs.wait("tick")
    elapsed = time.monotonic() - began
    made = len(fake.requests) - start
    per_minute = made * 60 / elapsed
    log.warning("watching a running job: %d requests in %.1f s = %.0f requests/minute", made, elapsed, per_minute)
    assert lines == [f"tick {i}" for i in range(1, seconds + 1)]
    # Measured: ~310/minute for a job printing a line per second (log reads every 0.5-1 s while lines
    # flow, the job state at most every 5 s); it was ~580 before the state checks were thinned out.
    assert per_minute < 450
    clusters.begin_delete("watch").result()
