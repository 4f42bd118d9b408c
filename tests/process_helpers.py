"""Finding the processes a test started under a local engine root."""

from __future__ import annotations

import os
import signal
from pathlib import Path


def processes_under(root: Path) -> list[int]:
    """Pids of agents, supervisors and job processes started for a local engine root."""
    needle = str(root).encode()
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes()
            env = (proc / "environ").read_bytes()
        except OSError:
            continue
        if needle in cmd or needle in env:
            pids.append(int(proc.name))
    return pids


def kill_all_under(root: Path) -> list[int]:
    pids = processes_under(root)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return pids
