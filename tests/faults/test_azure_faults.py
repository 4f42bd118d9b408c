"""The Azure engine under injected faults: 10 % of Files and ARM requests answered 429/500/503 or dropped.

Nothing may be lost or doubled: transfers are byte-identical, clusters come up, a job's log is streamed
line for line, and a non-idempotent rename whose answer was lost is not mistaken for a failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fault_helpers import (
    WRITER,
    azure_cluster,
    digests,
    expected_lines,
    job,
    make_tree,
    sha256_of_lines,
)

pytest.importorskip("azure.storage.fileshare")

FAULTS = (429, 500, 503, "drop")


def _injected(fake: Any) -> dict[str, int]:
    """How many requests of each kind got an injected fault (0 = dropped connection)."""
    out: dict[str, int] = {}
    for r in fake.requests:
        if r.status in (0, 429, 500, 503):
            kind = r.operation.split(".")[0]
            out[kind] = out.get(kind, 0) + 1
    return out


def test_transfers_are_byte_identical_through_faults(faulty_fake: Any, faulty_backend: Any, tmp_path: Path) -> None:
    from batchai_sdk import FileShareClient

    fake = faulty_fake
    src = make_tree(tmp_path / "src")
    single = tmp_path / "single.bin"
    single.write_bytes(bytes(range(256)) * 20_000)
    fake.fault_rate(0.10, statuses=FAULTS, seed=1)

    shares = FileShareClient(faulty_backend)
    shares.create_share("data")
    summary = shares.upload_directory("data", src, "tree")
    assert summary.transferred == 30
    assert shares.upload_file("data", single, "one/single.bin")
    assert digests(fake.share_root("data") / "tree") == digests(src)

    got = shares.download_directory("data", "tree", tmp_path / "back")
    assert got.transferred == 30
    assert digests(tmp_path / "back") == digests(src)
    assert (tmp_path / "back" / "empty.txt").read_bytes() == b""
    back = shares.download_file("data", "one/single.bin", tmp_path / "single-back.bin")
    assert back.read_bytes() == single.read_bytes()
    # Nothing half-done is left behind: no temporaries on either side.
    assert not [p for p in (tmp_path / "back").rglob(".*")]
    assert not [p for p in fake.share_root("data").rglob(".*")]
    # A second pass finds everything in place (the mtime stamp went on after the bytes).
    assert shares.upload_directory("data", src, "tree").skipped == 30
    assert sum(_injected(fake).values()) >= 20, "the fault plan did not bite"


class _LoseAnswers:
    """A transport that lets the service act on the first matching request but drops its answer."""

    def __init__(self, fake: Any, marker: str, count: int = 1) -> None:
        from azure.core.pipeline.transport import RequestsTransport

        self.inner = RequestsTransport(connection_verify=fake.ca_bundle)
        self.marker = marker
        self.remaining = count

    def __enter__(self) -> _LoseAnswers:
        self.inner.__enter__()
        return self

    def __exit__(self, *args: Any) -> None:
        self.inner.__exit__(*args)

    def open(self) -> None:
        self.inner.open()

    def close(self) -> None:
        self.inner.close()

    def sleep(self, duration: float) -> None:
        self.inner.sleep(duration)

    def send(self, request: Any, **kwargs: Any) -> Any:
        from azure.core.exceptions import ServiceResponseError

        response = self.inner.send(request, **kwargs)
        if self.marker in request.url and self.remaining > 0:
            self.remaining -= 1
            raise ServiceResponseError("connection reset after the service acted (injected)")
        return response


def test_a_rename_whose_answer_was_lost_still_counts(faulty_fake: Any) -> None:
    """create_exclusive/write_atomic are renames: the SDK repeats one whose answer was lost, and the repeat
    fails (source gone, or target exists) although the first try did the work."""
    from azure.storage.fileshare import LinearRetry

    from batchai_sdk.engines.azure.store import AzureFilesStore

    fake = faulty_fake
    fake.create_share("ctl")
    (fake.share_root("ctl") / "claims").mkdir()
    for call in (lambda store: store.create_exclusive("ctl", "claims/job-1.json", b'{"owner": "me"}'),
                 lambda store: store.write_atomic("ctl", "claims/state.json", b'{"state": "running"}')):
        with _LoseAnswers(fake, "comp=rename") as transport:
            store = AzureFilesStore(fake.files_url, fake.account_name, fake.account_key, transport=transport,
                                    retry_policy=LinearRetry(backoff=0, random_jitter_range=0))
            assert call(store) in (True, None)  # claimed / written, not "taken" or an error
            assert transport.remaining == 0  # the answer really was lost
            store.close()
    root = fake.share_root("ctl") / "claims"
    assert (root / "job-1.json").read_bytes() == b'{"owner": "me"}'
    assert (root / "state.json").read_bytes() == b'{"state": "running"}'
    # Exclusivity still holds: a second claimant loses, and no temporaries are left.
    other = AzureFilesStore(fake.files_url, fake.account_name, fake.account_key, connection_verify=fake.ca_bundle)
    assert other.create_exclusive("ctl", "claims/job-1.json", b'{"owner": "other"}') is False
    assert (root / "job-1.json").read_bytes() == b'{"owner": "me"}'
    assert sorted(p.name for p in root.iterdir()) == ["job-1.json", "state.json"]
    other.close()


@pytest.mark.slow
def test_cluster_comes_up_and_logs_stream_exactly_through_faults(faulty_fake: Any, faulty_backend: Any) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    fake, backend = faulty_fake, faulty_backend
    fake.fault_rate(0.10, statuses=FAULTS, seed=3)
    # ARM sees only a few dozen requests: make sure its key calls meet a fault whatever the random draw.
    fake.fail_next("arm.vmss.put", status=503)
    fake.fail_next("arm.poll", status="drop")
    url = FileShareClient(backend).create_share("afs")
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("nc6", azure_cluster(fake, url, 2)).result()
    assert cluster.provisioning_state == "succeeded"
    clusters.wait_for_nodes("nc6", 2, timeout=60)
    assert clusters.get("nc6").node_state_counts.idle_node_count == 2

    n = 3000
    jobs = JobClient(backend)
    jobs.begin_create("count", job(cluster.id, f"python -c 'for i in range({n}): print(\"n\", i, flush=i % 7 == 0)'"))
    lines = list(jobs.stream_file("count", timeout=60))
    assert lines == [f"n {i}" for i in range(n)]
    assert jobs.wait("count", timeout=30).execution_state == "succeeded"
    injected = _injected(fake)
    assert injected.get("arm", 0) >= 2 and injected.get("files", 0) >= 5, injected
    fake.clear_faults()
    clusters.begin_delete("nc6").result()


@pytest.mark.slow
def test_stream_is_exactly_once_and_reads_each_byte_once(faulty_fake: Any, faulty_backend: Any) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    fake, backend = faulty_fake, faulty_backend
    shares = FileShareClient(backend)
    url = shares.create_share("afs")
    shares.create_directory("afs", "scripts")
    (fake.share_root("afs") / "scripts" / "writer.py").write_text(WRITER)
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", azure_cluster(fake, url, 1)).result()
    clusters.wait_for_nodes("c1", 1, timeout=60)

    n = 5000
    fake.fault_rate(0.05, statuses=FAULTS, operations=["files.*"], seed=5)
    jobs = JobClient(backend)
    jobs.begin_create("w", job(cluster.id, f"python $AZ_BATCHAI_MOUNT_ROOT/afs/scripts/writer.py {n} 11 0.05",
                               outputs=("SUMS",)))
    stream = jobs.stream_file("w", timeout=60)
    lines = list(stream)
    assert jobs.wait("w", timeout=30).execution_state == "succeeded"
    fake.clear_faults()

    assert lines == expected_lines(n)
    assert lines[-1] == expected_lines(n)[-1]  # the last line had no newline
    [sums] = jobs.list_output_files("w", "SUMS")
    digest, count, size = (Path(jobs.download_outputs("w", "SUMS", fake.share_root("afs").parent / "sums")[0])
                           .read_text().split())
    assert sums.name == "expected.txt"
    assert (digest, int(count)) == (sha256_of_lines(lines), n)
    assert stream.offset == int(size)
    ratio = stream.bytes_read / int(size)
    print(f"bytes read / log size = {stream.bytes_read} / {size} = {ratio:.4f} in {stream.reads} reads")
    assert ratio <= 1.01
    assert stream.reads >= 20 and _injected(fake).get("files", 0) >= 3
