"""Exactly-once streaming on the local engine (real agents): 100 000 lines in random-sized writes that
split lines anywhere, ``\\r`` progress bars inside lines, a last line without a newline; and a resume
from the offset a client saved before it "restarted"."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from fault_helpers import WRITER, expected_lines, sha256_of_lines
from local_helpers import cluster_params, job_params

from batchai_sdk import models as m

N = 100_000
K = 30_000

CONSUMER = textwrap.dedent("""\
    import sys
    from batchai_sdk import JobClient, LocalBackend
    root, k = sys.argv[1], int(sys.argv[2])
    stream = JobClient(LocalBackend(root), experiment="exp").stream_file("w", timeout=60)
    for i, line in enumerate(stream, 1):
        if i == k:
            print(stream.offset, line, sep="\\t", flush=True)
            break
""")


@pytest.mark.slow
def test_100k_lines_exactly_once_and_resumed_after_a_restart(backend: Any, local_root: Path) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    shares = FileShareClient(backend)
    url = shares.create_share("afs")
    (backend.share_dir("afs") / "writer.py").write_text(WRITER)
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", cluster_params(url, 1)).result()
    clusters.wait_for_nodes("c1", 1, timeout=60)
    jobs = JobClient(backend, experiment="exp")
    jobs.begin_create("w", job_params(cluster.id, f"python $AZ_BATCHAI_MOUNT_ROOT/afs/writer.py {N} 3 0.002",
                                      output_directories=[m.OutputDirectory(id="SUMS", path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs")]))

    # A client that reads K lines, saves its offset and dies, while the job is still writing.
    consumer = subprocess.run([sys.executable, "-c", CONSUMER, str(local_root), str(K)], capture_output=True,
                              text=True, timeout=60)
    assert consumer.returncode == 0, consumer.stderr
    saved, line_k = consumer.stdout.rstrip("\n").split("\t", 1)
    expected = expected_lines(N)
    assert line_k == expected[K - 1]

    resumed = list(jobs.stream_file("w", offset=int(saved), timeout=60))
    assert jobs.get("w").execution_state == "succeeded"
    assert resumed == expected[K:]

    whole = jobs.stream_file("w", timeout=60)
    lines = list(whole)
    assert lines == expected
    assert lines[-1] == expected[-1] and "\r" in lines[97]
    [sums] = jobs.download_outputs("w", "SUMS", local_root.parent / "sums")
    digest, count, size = Path(sums).read_text().split()
    assert (digest, int(count), int(size)) == (sha256_of_lines(lines), N, whole.offset)
    assert whole.bytes_read == whole.offset  # every byte read once
