"""The ``run_plan`` fixture: run a launch plan's processes on this machine the way the node agent does."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest
from toolkit_helpers import start_plan

from batchai_sdk.toolkits import NodePlan


@pytest.fixture
def run_plan() -> Iterator[Callable[..., dict[str, int]]]:
    """Run a plan to completion: wait for the non-daemon processes, then stop the daemons (as the agent does).
    Returns each non-daemon process's exit code by name."""
    running: list[subprocess.Popen[bytes]] = []

    def run(
        plans: Sequence[NodePlan], log_dir: Path, base_env: Mapping[str, str], timeout: float = 30
    ) -> dict[str, int]:
        started = start_plan(plans, log_dir, base_env)
        running.extend(p for _, _, p in started)
        codes = {name: popen.wait(timeout=timeout) for name, daemon, popen in started if not daemon}
        for _, daemon, popen in started:
            if daemon:
                popen.terminate()
                popen.wait(timeout=5)
        return codes

    yield run
    for popen in running:
        if popen.poll() is None:
            popen.kill()
            popen.wait()
