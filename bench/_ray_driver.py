"""Runs inside bench/_work/ray-venv against a local Ray head: prints the Ray Jobs figures as one JSON line.

    ray-venv/bin/python bench/_ray_driver.py ADDRESS RUNS JOBS LINES
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
import time

from ray.job_submission import JobStatus, JobSubmissionClient

TERMINAL = {JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.STOPPED}


def wait(client: JobSubmissionClient, job_id: str) -> JobStatus:
    while True:
        status = client.get_job_status(job_id)
        if status in TERMINAL:
            return status
        time.sleep(0.01)


async def follow(client: JobSubmissionClient, job_id: str) -> list[float]:
    lat: list[float] = []
    async for chunk in client.tail_job_logs(job_id):
        now = time.time()
        for line in chunk.splitlines():
            try:
                lat.append(now - float(line.strip()))
            except ValueError:
                pass  # Ray's own log lines
    return lat


def main() -> None:
    address, runs, jobs, lines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    client = JobSubmissionClient(address)
    out: dict[str, object] = {"ray": __import__("ray").__version__}

    assert wait(client, client.submit_job(entrypoint="true")) == JobStatus.SUCCEEDED  # warm-up, not timed
    trivial = []
    for _ in range(runs):
        t = time.perf_counter()
        job_id = client.submit_job(entrypoint="true")
        status = wait(client, job_id)
        trivial.append(time.perf_counter() - t)
        assert status == JobStatus.SUCCEEDED, status
    out["trivial"] = trivial

    code = f"import time\nfor i in range({lines}):\n print(repr(time.time()), flush=True); time.sleep(0.02)"
    job_id = client.submit_job(entrypoint=f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}")
    lat = asyncio.run(follow(client, job_id))
    assert wait(client, job_id) == JobStatus.SUCCEEDED
    out["log_latency"] = lat

    t = time.perf_counter()
    ids = [client.submit_job(entrypoint="true") for _ in range(jobs)]
    out["submit_seconds"] = time.perf_counter() - t
    failed = sum(wait(client, i) != JobStatus.SUCCEEDED for i in ids)
    out["throughput_seconds"] = time.perf_counter() - t
    out["failed"] = failed
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
