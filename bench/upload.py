"""Upload of a directory tree to FakeAzure: ``FileShareClient.upload_directory`` vs a sequential loop of the
azure-storage-file-share client's ``ShareFileClient.upload_file``, then an unchanged re-upload.

    python bench/upload.py [--files 1000] [--mib 1024] [--quick]

The fake runs in its own process (bench/_fake_server.py), like a remote service, and counts requests per
operation: the unchanged re-upload must send no ``files.put_range`` (no file data). The data lives in a temp
directory that is removed afterwards, as is the fake's backing store. Writes the "Upload" section of
bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import BENCH, machine, write_section  # noqa: E402


class NoArmCredential:
    """The benchmark uses the Files endpoint only (shared key); an ARM call would be a bug here."""

    def get_token(self, *scopes: str, **kwargs: Any) -> Any:
        raise RuntimeError("no ARM calls expected in the upload benchmark")


class FakeProcess:
    def __enter__(self) -> FakeProcess:
        self.proc = subprocess.Popen([sys.executable, str(BENCH / "_fake_server.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.info: dict[str, str] = json.loads(self.proc.stdout.readline())
        return self

    def ask(self, cmd: str) -> dict[str, int]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return dict(json.loads(self.proc.stdout.readline()))

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # EOF: the fake removes its backing store and exits
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def make_data(root: Path, files: int, total: int) -> None:
    size = total // files
    for i in range(files):
        d = root / f"part{i % 10:02d}"
        d.mkdir(exist_ok=True)
        (d / f"f{i:05d}.bin").write_bytes(os.urandom(size))


def measure(fake: FakeProcess, src: Path, mib: int, rtt: float) -> tuple[list[tuple[str, str, str, str]], dict[str, int]]:
    from azure.storage.fileshare import LinearRetry, ShareServiceClient

    from batchai_sdk import FileShareClient
    from batchai_sdk.engines.azure import AzureBackend

    files = sorted(p for p in src.rglob("*") if p.is_file())
    info = fake.info
    tag = f"RTT {rtt:g} ms" if rtt else "loopback"

    # --- baseline: the storage SDK, one file after the other
    service = ShareServiceClient(info["files_url"], credential={"account_name": info["account_name"],
                                                                 "account_key": info["account_key"]},
                                 connection_verify=info["ca_bundle"],
                                 retry_policy=LinearRetry(backoff=0, random_jitter_range=0))
    share = service.get_share_client("seq")
    share.create_share()
    t = time.perf_counter()
    for d in sorted({p.parent for p in files}):
        share.create_directory(d.relative_to(src).as_posix())
    for p in files:
        with open(p, "rb") as f:
            share.get_file_client(p.relative_to(src).as_posix()).upload_file(f)
    seq = time.perf_counter() - t
    share.delete_share()  # frees the fake's disk before the second copy
    service.close()

    # --- batchai-sdk: parallel, skip unchanged
    backend = AzureBackend(info["subscription_id"], info["resource_group"], info["location"],
                           storage_account=info["account_name"], storage_account_key=info["account_key"],
                           credential=NoArmCredential(), arm_endpoint=info["arm_url"],
                           files_endpoint=info["files_url"], connection_verify=info["ca_bundle"], retry_wait=0)
    try:
        client = FileShareClient(backend)
        client.create_share("par")
        t = time.perf_counter()
        first = client.upload_directory("par", src)
        par = time.perf_counter() - t
        assert first.transferred == len(files), first

        fake.ask("reset")
        t = time.perf_counter()
        again = client.upload_directory("par", src)
        re_up = time.perf_counter() - t
        counts = fake.ask("counts")
        fake.ask("reset")
        client.delete_share("par")
    finally:
        backend.close()
    put_ranges = counts.get("files.put_range", 0)
    speedup = seq / par
    rows = [
        (f"upload {len(files)} files, {mib} MiB, {tag}", f"{par:.1f} s ({mib / par:.0f} MiB/s, "
         f"{client.max_concurrency} files in parallel)", f"{seq:.1f} s ({mib / seq:.0f} MiB/s)",
         f"{speedup:.1f}x faster; target ≥ 4x: {'met' if speedup >= 4 else 'NOT met'}"),
        (f"unchanged re-upload, {tag}", f"{re_up:.2f} s, {again.skipped} skipped, {again.bytes_transferred} bytes "
         f"sent, {put_ranges} put_range requests", f"first upload {par:.1f} s",
         f"{par / re_up:.0f}x faster than the first; zero file data: "
         f"{'met' if put_ranges == 0 and again.bytes_transferred == 0 else 'NOT met'}"),
    ]
    return rows, counts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--quick", action="store_true", help="200 files / 100 MiB")
    ap.add_argument("--rtt-ms", type=float, nargs="+", default=[0, 10, 30],
                    help="simulated round trips to measure (0: bare loopback)")
    args = ap.parse_args()
    if args.quick:
        args.files, args.mib = 200, 100
    total = args.mib * 2**20
    free = shutil.disk_usage(tempfile.gettempdir()).free
    note = ""
    if free < 4 * total:  # source + two copies in the fake + slack
        args.mib = max(10, int(free / 4 / 2**20 / 2))
        total = args.mib * 2**20
        note = f" Reduced to {args.mib} MiB: only {free / 2**30:.1f} GiB free in {tempfile.gettempdir()}."

    with tempfile.TemporaryDirectory(prefix="batchai-bench-upload-") as tmp, FakeProcess() as fake:
        src = Path(tmp) / "data"
        src.mkdir()
        make_data(src, args.files, total)
        rows = []
        ops = ""
        for rtt in args.rtt_ms:
            fake.ask(f"slow {rtt / 1000}")
            r, counts = measure(fake, src, args.mib, rtt)
            rows += r
            ops = ops or ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    table = "| measure | batchai-sdk upload_directory | sequential ShareFileClient.upload_file (same run, same fake) | ratio / target |\n|---|---|---|---|\n" + "\n".join(
        f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    body = (f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. `python bench/upload.py --files {args.files} "
            f"--mib {args.mib} --rtt-ms {' '.join(f'{x:g}' for x in args.rtt_ms)}`. FakeAzure (HTTPS on 127.0.0.1) in its "
            "own process; \"RTT\" rows delay every Files answer by that much, like a network round trip (on the bare "
            f"loopback both clients are CPU-bound on 2 cores, which hides what parallel transfers are for).{note}\n\n"
            f"{table}\n\nRequests of the unchanged re-upload, counted at the fake: {ops or 'none'}.\n")
    write_section("Upload", body)
    print(body)


if __name__ == "__main__":
    main()
