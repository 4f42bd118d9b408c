"""Plans run for real on this machine: processes started with ``bash -c`` as the node agent starts them.

(a) A two-node TensorFlow-style job: a parameter server and two workers really listen on their TF_CONFIG
    addresses and the workers reach the parameter server; every process reports what it saw.
(b) A two-node custom-MPI job under the real OpenMPI ``mpirun`` (Debian ``openmpi-bin``). When ``unshare -n``
    works (root, or user namespaces), it runs in a fresh network namespace with only loopback up, which proves
    the local plan needs nothing but ``lo``. Skipped where ``mpirun`` is absent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from toolkit_helpers import free_local_nodes

from batchai_sdk.toolkits import build_launch_plan, hostfile_slots, hostfile_text, ports_needed

CONTRACT = [
    "NODE_RANK", "NUM_NODES", "AZ_BATCHAI_NODE_LIST", "MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE",
    "LOCAL_RANK", "AZ_BATCHAI_TASK_INDEX", "AZ_BATCHAI_PS_HOSTS", "AZ_BATCHAI_WORKER_HOSTS", "TF_CONFIG",
    "AZ_BATCHAI_SHARED_JOB_TEMP", "AZ_BATCHAI_MPI_HOST_FILE",
]  # fmt: skip

TF_STUB = r"""
import json, os, socket, sys, time
role, index, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
config = json.loads(os.environ["TF_CONFIG"])
assert config["task"] == {"type": role, "index": index}, config
host, port = config["cluster"][role][index].split(":")
server = socket.create_server((host, int(port)))
print(f"hello from {role} {index}", flush=True)
report = {name: os.environ.get(name) for name in json.loads(os.environ["CONTRACT"])}
if role == "ps":
    seen = []
    server.settimeout(20)
    while len(seen) < len(config["cluster"]["worker"]):
        conn, _ = server.accept()
        seen.append(int(conn.recv(16)))
        conn.close()
    report["workers_seen"] = sorted(seen)
    with open(os.path.join(out, f"ps-{index}.json"), "w") as f:
        json.dump(report, f)
    time.sleep(600)  # parameter servers never end on their own
ps_host, ps_port = config["cluster"]["ps"][0].split(":")
deadline = time.time() + 20
while True:
    try:
        with socket.create_connection((ps_host, int(ps_port)), timeout=2) as conn:
            conn.sendall(str(index).encode())
        break
    except OSError:
        if time.time() > deadline:
            raise
        time.sleep(0.1)
with open(os.path.join(out, f"worker-{index}.json"), "w") as f:
    json.dump(report, f)
"""

MPI_STUB = r"""
import json, os
print(json.dumps({name: os.environ.get(name) for name in (
    "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "RANK", "WORLD_SIZE", "LOCAL_RANK", "NODE_RANK",
    "AZ_BATCHAI_OUTPUT_OUT", "MASTER_ADDR")}), flush=True)
"""


def test_two_node_tensorflow_job_really_meets(
    tmp_path: Path, run_plan: Callable[..., dict[str, int]]
) -> None:
    stub = tmp_path / "tf_stub.py"
    stub.write_text(TF_STUB)
    out = tmp_path / "out"
    out.mkdir()
    job = {
        "nodeCount": 2,
        "tensorFlowSettings": {
            "pythonScriptFilePath": str(stub),
            "pythonInterpreterPath": sys.executable,
            "workerCount": 2,
            "parameterServerCount": 1,
            "workerCommandLineArgs": "worker $AZ_BATCHAI_TASK_INDEX $AZ_BATCHAI_OUTPUT_OUT",
            "parameterServerCommandLineArgs": "ps $AZ_BATCHAI_TASK_INDEX $AZ_BATCHAI_OUTPUT_OUT",
        },
    }
    nodes = free_local_nodes(2, ports_needed(job, 2))
    plans = build_launch_plan(
        job, nodes, host_file=str(tmp_path / "hostfile"), shared_job_temp=str(tmp_path / "shared"), local=True
    )
    logs = tmp_path / "stdouterr"
    logs.mkdir()
    codes = run_plan(plans, logs, {"AZ_BATCHAI_OUTPUT_OUT": str(out), "CONTRACT": json.dumps(CONTRACT)})
    errors = {p.name: (logs / p.stderr).read_text() for plan in plans for p in plan.processes}
    assert codes == {"worker 0": 0, "worker 1": 0}, errors

    ps = json.loads((out / "ps-0.json").read_text())
    assert ps["workers_seen"] == [0, 1]
    workers = [json.loads((out / f"worker-{i}.json").read_text()) for i in range(2)]
    ps_port = json.loads(ps["TF_CONFIG"])["cluster"]["ps"][0]
    assert [w["NODE_RANK"] for w in workers] == ["0", "1"]
    for i, seen in enumerate([*workers, ps]):
        assert seen["NUM_NODES"] == "2"
        assert seen["AZ_BATCHAI_NODE_LIST"] == "127.0.0.1,127.0.0.1"
        assert (seen["MASTER_ADDR"], seen["MASTER_PORT"]) == ("127.0.0.1", str(nodes[0].ports[0]))
        assert seen["AZ_BATCHAI_PS_HOSTS"] == ps_port
        assert seen["AZ_BATCHAI_WORKER_HOSTS"] == ",".join(json.loads(seen["TF_CONFIG"])["cluster"]["worker"])
        assert seen["WORLD_SIZE"] == "3"
        assert seen["AZ_BATCHAI_SHARED_JOB_TEMP"] == str(tmp_path / "shared")
        if i < 2:
            assert (seen["RANK"], seen["AZ_BATCHAI_TASK_INDEX"]) == (str(i), str(i))
    assert (logs / "stdout-wk-1.txt").read_text() == "hello from worker 1\n"
    assert (logs / "stdout-ps-0.txt").read_text() == "hello from ps 0\n"


def _network_namespace_works() -> bool:
    if not (shutil.which("unshare") and shutil.which("ip")):
        return False
    probe = subprocess.run(
        ["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True, timeout=10
    )
    return probe.returncode == 0


@pytest.mark.skipif(
    shutil.which("mpirun") is None, reason="mpirun not installed (Debian package openmpi-bin)"
)
def test_two_node_mpi_job_runs_under_real_mpirun(tmp_path: Path) -> None:
    stub = tmp_path / "mpi_stub.py"
    stub.write_text(MPI_STUB)
    job = {
        "nodeCount": 2,
        "customMpiSettings": {"commandLine": f"{sys.executable} {stub}", "processCount": 2},
    }
    nodes = free_local_nodes(2, 1)
    host_file = tmp_path / "hostfile"
    host_file.write_text(hostfile_text(nodes, hostfile_slots(job, nodes), local=True))
    plans = build_launch_plan(job, nodes, host_file=str(host_file), shared_job_temp=str(tmp_path), local=True)
    (launcher,) = plans[0].processes
    assert plans[1].processes == []

    argv = ["bash", "-c", launcher.command]
    if _network_namespace_works():
        argv = [
            "unshare",
            "-n",
            "bash",
            "-c",
            'ip link set lo up && exec bash -c "$1"',
            "batchai-netns",
            launcher.command,
        ]
    environment = {**os.environ, **plans[0].env, **launcher.env, "AZ_BATCHAI_OUTPUT_OUT": "/outputs/out"}
    result = subprocess.run(argv, env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "could not find environment variable" not in result.stderr
    ranks = sorted((json.loads(line) for line in result.stdout.splitlines()), key=lambda r: r["RANK"])
    assert [(r["OMPI_COMM_WORLD_RANK"], r["OMPI_COMM_WORLD_SIZE"]) for r in ranks] == [("0", "2"), ("1", "2")]
    assert [(r["RANK"], r["WORLD_SIZE"], r["NODE_RANK"]) for r in ranks] == [("0", "2", "0"), ("1", "2", "1")]
    assert {r["AZ_BATCHAI_OUTPUT_OUT"] for r in ranks} == {"/outputs/out"}
