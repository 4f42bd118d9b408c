"""Bytes read to follow a growing log, and line latency: ``stream_file`` vs a naive re-downloading follower.

    python bench/log_streaming.py [--mb 50] [--seconds 15] [--azure-mb 15] [--no-azure]

A writer produces ``--mb`` MB of timestamped lines over ``--seconds`` s. It runs twice, identically: once
followed by ``stream_file`` (range reads of new bytes only), once by the baseline most tools use, a follower
that downloads the whole file on every poll and keeps what is new. The naive follower polls every
``max(observed stream_file poll period, slow interval)``: never faster than stream_file, so its figure is a
generous lower bound. Local engine: a real job on a 1-node cluster. FakeAzure: the writer appends to the
share's backing file (what a simulated node's mount does) and both followers read over HTTPS.
Writes the "Log streaming" section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempRoot, machine, pct, write_section  # noqa: E402
from local_engine import cluster_params, job  # noqa: E402

from batchai_sdk import ClusterClient, FileShareClient, JobClient, LocalBackend  # noqa: E402
from batchai_sdk.clients.streaming import LogStream  # noqa: E402
from batchai_sdk.engines.base import Store  # noqa: E402

#: Writes ``size`` bytes of lines over ``seconds`` s, every 10 ms a batch whose lines start with its time.
WRITER = r"""
import sys, time
size, seconds = int(sys.argv[1]), float(sys.argv[2])
out = open(sys.argv[3], "a", buffering=1 << 20) if len(sys.argv) > 3 else sys.stdout
pad = "x" * 170
tick = 0.01
per = max(1, int(size / 200 / (seconds / tick)))
start = time.time()
written = k = 0
while written < size:
    now = time.time()
    buf = "".join(f"{now!r} {i} {pad}\n" for i in range(per))
    out.write(buf)
    out.flush()
    written += len(buf)
    k += 1
    delay = start + k * tick - time.time()
    if delay > 0:
        time.sleep(delay)
"""


class Result:
    def __init__(self, bytes_read: int, size: int, reads: int, latencies: list[float], seconds: float) -> None:
        self.bytes_read, self.size, self.reads, self.latencies, self.seconds = bytes_read, size, reads, latencies, seconds

    @property
    def ratio(self) -> float:
        return self.bytes_read / self.size

    def lat(self) -> str:
        return f"{pct(self.latencies, 0.5) * 1000:.0f} / {pct(self.latencies, 0.95) * 1000:.0f} ms"


def follow_stream(stream: LogStream) -> Result:
    t = time.perf_counter()
    lat = []
    for line in stream:
        lat.append(time.time() - float(line.split(" ", 1)[0]))
    return Result(stream.bytes_read, stream.offset, stream.reads, lat, time.perf_counter() - t)


def follow_naive(store: Store, share: str, path: str, is_finished: Callable[[], bool], interval: float) -> Result:
    """Download the whole file on every poll and keep the lines after the last position seen."""
    from azure.core.exceptions import ResourceNotFoundError

    t = time.perf_counter()
    pos = total = reads = 0
    lat: list[float] = []
    while True:
        finished = is_finished()  # before the read: the bytes written before the end are in it
        try:
            data = store.read(share, path)
        except ResourceNotFoundError:
            data = b""
        reads += 1
        total += len(data)
        now = time.time()
        end = data.rfind(b"\n") + 1
        if end > pos:
            for raw in data[pos:end].split(b"\n")[:-1]:
                lat.append(now - float(raw.split(b" ", 1)[0]))
            pos = end
        if finished:
            return Result(total, len(data), reads, lat, time.perf_counter() - t)
        time.sleep(interval)


def run_local(mb: float, seconds: float) -> tuple[Result, Result, float]:
    size = int(mb * 2**20)
    with TempRoot() as root:
        backend = LocalBackend(root)
        shares = FileShareClient(backend)
        url = shares.create_share("afs")
        (backend.share_dir("afs") / "writer.py").write_text(WRITER)
        clusters = ClusterClient(backend)
        cluster = clusters.begin_create("logs", cluster_params(url, 1)).result()
        clusters.wait_for_nodes("logs", 1, timeout=60)
        jobs = JobClient(backend, experiment="logs")
        cmd = f"python $AZ_BATCHAI_MOUNT_ROOT/afs/writer.py {size} {seconds}"

        jobs.begin_create("smart", job(cluster.id, cmd))
        smart = follow_stream(jobs.stream_file("smart"))
        assert jobs.get("smart").execution_state == "succeeded", jobs.get("smart").execution_state

        period = max(smart.seconds / max(1, smart.reads), backend.stream_poll_intervals[1])
        jobs.begin_create("naive", job(cluster.id, cmd))
        probe = jobs.stream_file("naive")  # only for its location: the naive follower reads whole files
        naive = follow_naive(probe.store, probe.share, probe.path,
                             lambda: jobs.get("naive").execution_state in ("succeeded", "failed"), period)
        clusters.begin_delete("logs").result()
    return smart, naive, period


def run_azure(mb: float, seconds: float) -> tuple[Result, Result, float]:
    from batchai_sdk.testing import FakeAzure

    size = int(mb * 2**20)
    intervals = (0.05, 0.2)  # the fast settings of tests/azure; Azure's defaults are (0.5, 5.0)
    with tempfile.TemporaryDirectory(prefix="batchai-bench-logs-") as tmp, FakeAzure() as fake:
        writer = Path(tmp) / "writer.py"
        writer.write_text(WRITER)
        backend = fake.azure_backend(retry_wait=0, stream_poll_intervals=intervals)
        try:
            store = backend.store
            store.create_share("logs")
            out: dict[str, Result] = {}
            period = intervals[1]
            for name in ("smart", "naive"):
                disk = fake.share_root("logs") / f"{name}.txt"
                proc = subprocess.Popen([sys.executable, str(writer), str(size), str(seconds), str(disk)])
                try:
                    done = lambda p=proc: p.poll() is not None  # noqa: E731
                    if name == "smart":
                        out[name] = follow_stream(LogStream(store, "logs", f"{name}.txt", done, intervals=intervals))
                        period = max(out[name].seconds / max(1, out[name].reads), intervals[1])
                    else:
                        out[name] = follow_naive(store, "logs", f"{name}.txt", done, period)
                finally:
                    proc.kill()
                    proc.wait()
        finally:
            backend.close()
    return out["smart"], out["naive"], period


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=50)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--azure-mb", type=float, default=15)
    ap.add_argument("--azure-seconds", type=float, default=10)
    ap.add_argument("--no-azure", action="store_true")
    args = ap.parse_args()
    rows = []
    smart, naive, period = run_local(args.mb, args.seconds)
    rows.append((f"local engine, {smart.size / 2**20:.0f} MB log over {args.seconds:.0f} s: bytes read / log size",
                 f"{smart.ratio:.4f} ({smart.reads} reads)",
                 f"{naive.ratio:.1f} ({naive.reads} whole-file reads, every {period * 1000:.0f} ms)",
                 f"{naive.ratio / smart.ratio:.0f}x fewer bytes; target ≤ 1.01: {'met' if smart.ratio <= 1.01 else 'NOT met'}"))
    rows.append(("local engine, line latency p50 / p95 (same logs)", smart.lat(), naive.lat(),
                 f"p95 ratio naive/stream_file {pct(naive.latencies, 0.95) / pct(smart.latencies, 0.95):.1f}x"))
    if not args.no_azure:
        try:
            a_smart, a_naive, a_period = run_azure(args.azure_mb, args.azure_seconds)
            rows.append((f"FakeAzure (HTTPS), {a_smart.size / 2**20:.0f} MB log over {args.azure_seconds:.0f} s: bytes read / log size",
                         f"{a_smart.ratio:.4f} ({a_smart.reads} range reads)",
                         f"{a_naive.ratio:.1f} ({a_naive.reads} full downloads, every {a_period * 1000:.0f} ms)",
                         f"{a_naive.ratio / a_smart.ratio:.0f}x fewer bytes; target ≤ 1.01: {'met' if a_smart.ratio <= 1.01 else 'NOT met'}"))
            rows.append(("FakeAzure, line latency p50 / p95 (poll 50-200 ms)", a_smart.lat(), a_naive.lat(),
                         f"p95 ratio naive/stream_file {pct(a_naive.latencies, 0.95) / pct(a_smart.latencies, 0.95):.1f}x"))
        except Exception as exc:  # a missing [azure,testing] extra must not hide the local figures
            rows.append(("FakeAzure", "not measured", "", f"{type(exc).__name__}: {exc}"))
    table = "| measure | stream_file | naive whole-file follower (same run) | ratio / target |\n|---|---|---|---|\n" + "\n".join(
        f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    body = (f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. `python bench/log_streaming.py --mb {args.mb:g} "
            f"--seconds {args.seconds:g} --azure-mb {args.azure_mb:g}`\n\nEach follower reads its own run of the same "
            "writer (identical size and pace), one after the other, so they do not compete for the 2 cores.\n\n"
            f"{table}\n")
    write_section("Log streaming", body)
    print(body)


if __name__ == "__main__":
    main()
