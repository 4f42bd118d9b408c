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
