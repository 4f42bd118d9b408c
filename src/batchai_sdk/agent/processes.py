"""Starting and stopping a job's processes (each in its own process group)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path


def shell() -> str:
    for candidate in ("/bin/bash", "/usr/bin/bash"):
        if os.path.exists(candidate):
            return candidate
    return "/bin/sh"


class Process:
    """One started process with its log files open in append mode (the share keeps them)."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        env: Mapping[str, str],
        stdout: Path,
        stderr: Path,
        cwd: str,
        *,
        daemon: bool = False,
    ) -> None:
        self.name = name
        self.daemon = daemon
        self.stdout_path = stdout
        self.stderr_path = stderr
        stdout.parent.mkdir(parents=True, exist_ok=True)
        out = open(stdout, "ab", buffering=0)
        err = out if stderr == stdout else open(stderr, "ab", buffering=0)
        try:
            self.popen = subprocess.Popen(
                argv,
                env=dict(env),
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
                close_fds=True,
            )
        finally:
            out.close()
            if err is not out:
                err.close()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def poll(self) -> int | None:
        return self.popen.poll()

    def signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def stop_all(procs: list[Process], grace: float) -> None:
    """SIGTERM every process group, wait up to ``grace`` seconds, then SIGKILL what is left."""
    alive = [p for p in procs if p.poll() is None]
    for p in alive:
        p.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + grace
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if p.poll() is None]
        if alive:
            time.sleep(0.02)
    for p in alive:
        p.signal_group(signal.SIGKILL)
    for p in procs:
        try:
            p.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # Children that left the group's leader behind still hold the pgid.
        p.signal_group(signal.SIGKILL)


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists (one we may not signal counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_groups(pgids: list[int]) -> None:
    """Kill process groups a previous agent on this node left behind."""
    for pgid in pgids:
        try:
            os.killpg(int(pgid), signal.SIGKILL)
        except (ProcessLookupError, PermissionError, ValueError):
            pass


def tail(path: Path, lines: int = 10, max_bytes: int = 4096) -> str:
    """The last lines of a log, for error messages."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            data = f.read()
    except OSError:
        return ""
    text = data.decode("utf-8", "replace").replace("\r", "\n")
    return "\n".join([ln for ln in text.splitlines() if ln.strip()][-lines:])
