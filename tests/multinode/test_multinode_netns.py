"""Local multi-node jobs in a network namespace where only ``lo`` exists: nothing may need another interface."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("netns_driver.py")


def _netns_allowed() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(["unshare", "-n", "sh", "-c", "ip link set lo up"], capture_output=True, timeout=10)
    return probe.returncode == 0


@pytest.mark.slow
def test_multi_node_jobs_run_with_only_loopback(local_root: Path) -> None:
    if not _netns_allowed():
        pytest.skip("'unshare -n' (a private network namespace) is not permitted here; needs root or user namespaces")
    if importlib.util.find_spec("torch") is None and shutil.which("mpirun") is None:
        pytest.skip("neither torch nor OpenMPI's mpirun is installed: no multi-node collective to run")
    run = subprocess.run(
        ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', sys.executable, str(DRIVER),
         str(local_root)],
        capture_output=True, text=True, timeout=150,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["interfaces"] == ["lo"]
    assert {"ddp", "mpi"} & set(report), report
    if "ddp" in report:
        ddp = report["ddp"]
        assert ddp["state"] == "succeeded", ddp
        for r, name in enumerate(["stdout-0.txt", "stdout-1.txt"]):
            out = ddp["logs"][name]
            assert (out["rank"], out["world"], out["allreduce"], out["gloo_ifname"]) == (str(r), "2", "3", "lo"), ddp
    if "mpi" in report:
        mpi = report["mpi"]
        assert mpi["state"] == "succeeded", mpi
        assert sorted(x for x in mpi["lines"]["stdout.txt"] if x.startswith("rank=")) == [
            "rank=0 size=2", "rank=1 size=2"]
