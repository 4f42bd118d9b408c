"""Building blocks for the fault tests: engines that ride out injected faults without sleeping."""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path
from typing import Any

#: Agent and client timings that keep an end-to-end run at a few seconds (as in tests/azure).
FAST: dict[str, Any] = {
    "retry_wait": 0,
    "heartbeat_interval": 0.5,
    "poll_interval": 0.05,
    "client_poll_interval": 0.05,
    "stream_poll_intervals": (0.05, 0.2),
    "terminate_grace": 2.0,
    "idle_timeout": 3.0,
}

#: Storage retries per request. At a 10 % fault rate the SDK's default of 3 loses one request in 10^4,
#: i.e. a run in a few; 10 makes a lost request a 10^-11 event while waiting zero seconds between tries.
RETRIES = 10


def faulty_azure_backend(fake: Any, **overrides: Any) -> Any:
    """An AzureBackend wired to ``fake`` with zero-backoff retries deep enough for a 10 % fault rate."""
    from batchai_sdk.engines.azure.retries import ThrottleAwareLinearRetry
    from batchai_sdk.engines.azure.store import AzureFilesStore

    backend = fake.azure_backend(**{**FAST, **overrides})
    backend.store.close()
    backend.store = AzureFilesStore(
        fake.files_url, fake.account_name, fake.account_key, connection_verify=fake.ca_bundle,
        retry_policy=ThrottleAwareLinearRetry(backoff=0, random_jitter_range=0, retry_total=RETRIES))  # type: ignore[arg-type]
    return backend


def make_tree(root: Path, *, files: int = 30, big: int = 6 * 1024 * 1024, seed: int = 7) -> Path:
    """A directory of mixed sizes: one empty file, one of several MiB, the rest up to 300 KiB, nested."""
    rnd = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / "empty.txt").write_bytes(b"")
    (root / "big.bin").write_bytes(os.urandom(big))
    for i in range(files - 2):
        sub = root / f"dir{i % 3}" / ("deep" if i % 5 == 0 else "")
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"part-{i:02d}.bin").write_bytes(os.urandom(rnd.choice([1, 100, 4096, 65_537, 300_000])))
    return root


def digests(root: Path) -> dict[str, str]:
    """Relative path → sha256 of every file below ``root``."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------------------------------- specs
def azure_cluster(fake: Any, share_url: str, nodes: int, *, priority: str = "dedicated") -> Any:
    """A cluster that mounts share 'afs' at $AZ_BATCHAI_MOUNT_ROOT/afs."""
    from batchai_sdk import models as m

    return m.ClusterCreateParameters(
        vm_size="STANDARD_NC6", vm_priority=priority,
        scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=nodes)),
        user_account_settings=m.UserAccountSettings(admin_user_name="me", admin_user_password="Pa55word!x"),
        node_setup=m.NodeSetup(mount_volumes=m.MountVolumes(azure_file_shares=[m.AzureFileShareReference(
            account_name=fake.account_name, azure_file_url=share_url, relative_mount_path="afs",
            credentials=m.AzureStorageCredentialsInfo(account_key=fake.account_key))])),
    )


def job(cluster_id: str, command: str, *, outputs: tuple[str, ...] = ()) -> Any:
    from batchai_sdk import models as m

    mount = "$AZ_BATCHAI_MOUNT_ROOT/afs"
    return m.JobCreateParameters(
        cluster=m.ResourceId(id=cluster_id), node_count=1, std_out_err_path_prefix=mount,
        output_directories=[m.OutputDirectory(id=o, path_prefix=mount) for o in outputs] or None,
        custom_toolkit_settings=m.CustomToolkitSettings(command_line=command),
    )


# ---------------------------------------------------------------------------------------------- writer
def expected_line(i: int) -> str:
    """Line ``i`` of WRITER's output: plain lines of varied length, every 97th a ``\\r`` progress bar."""
    if i % 97 == 0:
        return f"progress 10%\rprogress 20%\rdone {i}"
    return f"line {i} " + "x" * (i * 7919 % 61)


def expected_lines(n: int) -> list[str]:
    return [expected_line(i) for i in range(n)]


#: A job that prints ``argv[1]`` lines (``expected_line``) in random-sized writes that split lines anywhere,
#: the last one without a newline, then stores the sha256 of the lines joined by "\n" and their count in
#: ``$AZ_BATCHAI_OUTPUT_SUMS/expected.txt``.
WRITER = '''\
import hashlib, os, random, sys, time

def expected_line(i):
    if i % 97 == 0:
        return f"progress 10%\\rprogress 20%\\rdone {i}"
    return f"line {i} " + "x" * (i * 7919 % 61)

n, seed, pause = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
rnd = random.Random(seed)
out = sys.stdout.buffer
lines = [expected_line(i) for i in range(n)]
data = "\\n".join(lines).encode()
pos = 0
while pos < len(data):
    size = rnd.choice([1, 5, 40, 300, 1000, 2500, 4096, 9000])
    out.write(data[pos:pos + size])
    out.flush()
    pos += size
    time.sleep(rnd.random() * pause)
sums = os.environ.get("AZ_BATCHAI_OUTPUT_SUMS")
if sums:
    with open(os.path.join(sums, "expected.txt"), "w") as f:
        f.write(f"{hashlib.sha256(data).hexdigest()} {len(lines)} {len(data)}\\n")
'''


def sha256_of_lines(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()
