"""Real multi-node jobs on the local engine: every toolkit's processes on two node agents of one machine."""

from __future__ import annotations

import shutil

import pytest
from multinode_helpers import key_values, pytorch_job, toolkit_job

from batchai_sdk import models as m


def test_pytorch_ranks_run_on_both_nodes_pinned_to_loopback(make_cluster, jobs, script_on_share) -> None:
    cluster = make_cluster(nodes=2)
    job = jobs.begin_create("who", pytorch_job(cluster.id, script_on_share("whoami.py"))).result()
    assert job.execution_state == "succeeded", job.execution_info
    ranks = [key_values(list(jobs.stream_file("who", f"stdout-{r}.txt"))) for r in (0, 1)]
    assert [(x["RANK"], x["WORLD_SIZE"], x["NODE_RANK"]) for x in ranks] == [("0", "2", "0"), ("1", "2", "1")]
    assert ranks[0]["AZ_BATCHAI_NODE_ID"] != ranks[1]["AZ_BATCHAI_NODE_ID"]
    # Every local node is this machine: collectives must not wander off onto another interface.
    assert {x["GLOO_SOCKET_IFNAME"] for x in ranks} == {"lo"}
    assert {x["NCCL_SOCKET_IFNAME"] for x in ranks} == {"lo"}


def test_job_may_choose_its_own_gloo_interface(make_cluster, jobs, script_on_share) -> None:
    cluster = make_cluster(nodes=1)
    params = pytorch_job(cluster.id, script_on_share("whoami.py"), processes=1, nodes=1)
    params.environment_variables = [m.EnvironmentVariable(name="GLOO_SOCKET_IFNAME", value="lo0")]
    assert jobs.begin_create("mine", params).result().execution_state == "succeeded"
    assert key_values(list(jobs.stream_file("mine", "stdout-0.txt")))["GLOO_SOCKET_IFNAME"] == "lo0"


@pytest.mark.slow
def test_pytorch_ddp_trains_on_two_nodes(make_cluster, jobs, script_on_share) -> None:
    pytest.importorskip("torch")
    cluster = make_cluster(nodes=2)
    job = jobs.begin_create("ddp", pytorch_job(cluster.id, script_on_share("ddp_train.py"))).result()
    if job.execution_state != "succeeded":
        logs = {f"stderr-{r}": "\n".join(list(jobs.stream_file("ddp", f"stderr-{r}.txt"))[-15:]) for r in (0, 1)}
        pytest.fail(f"DDP job failed: {job.execution_info}\n{logs}")
    names = {f.name for f in jobs.list_output_files("ddp")}
    assert {"stdout-0.txt", "stdout-1.txt", "stderr-0.txt", "stderr-1.txt", "execution.log"} <= names
    ranks = [key_values(list(jobs.stream_file("ddp", f"stdout-{r}.txt"))) for r in (0, 1)]
    for r, out in enumerate(ranks):
        assert (out["rank"], out["world"], out["node_rank"]) == (str(r), "2", str(r))
        assert out["gloo_ifname"] == "lo" and out["master"].startswith("127.0.0.1:")
        assert out["allreduce"] == "3"  # 1 + 2: both ranks took part
        assert float(out["final_loss"]) < float(out["first_loss"]) / 10
    assert ranks[0]["node"] != ranks[1]["node"]
    # DDP averages the gradients, so the ranks end with the same model although their data differ.
    assert (ranks[0]["weight"], ranks[0]["bias"]) == (ranks[1]["weight"], ranks[1]["bias"])
    assert abs(float(ranks[0]["weight"]) - 2) < 0.05 and abs(float(ranks[0]["bias"]) - 1) < 0.05


@pytest.mark.parametrize(("workers", "servers"), [(2, 1), (1, 2)], ids=["2wk-1ps", "1wk-2ps"])
def test_tensorflow_parameter_server_job(make_cluster, jobs, script_on_share, workers: int, servers: int) -> None:
    """ps i and worker i run on node i % 2. Worker 1 comes late; with 1 worker and 2 ps, node 1 runs only ps 1."""
    cluster = make_cluster(nodes=2)
    args = ("--task_index=$AZ_BATCHAI_TASK_INDEX --ps_hosts=$AZ_BATCHAI_PS_HOSTS "
            "--worker_hosts=$AZ_BATCHAI_WORKER_HOSTS")
    params = toolkit_job(cluster.id, 2, tensor_flow_settings=m.TensorFlowSettings(
        python_script_file_path=script_on_share("tf_stub.py"), worker_count=workers, parameter_server_count=servers,
        worker_command_line_args="--job_name=worker " + args, parameter_server_command_line_args="--job_name=ps " + args))
    job = jobs.begin_create("tf", params).result(timeout=60)
    # Parameter servers never return: the job ends because every node's workers did, and they were stopped then.
    assert job.execution_state == "succeeded", job.execution_info
    assert (job.execution_info.end_time - job.execution_info.start_time).total_seconds() < 20
    logs = [f"wk-{i}" for i in range(workers)] + [f"ps-{i}" for i in range(servers)]
    assert {f"stdout-{n}.txt" for n in logs} <= {f.name for f in jobs.list_output_files("tf")}
    lines = {n: list(jobs.stream_file("tf", f"stdout-{n}.txt")) for n in logs}
    assert not any("BAD" in line for text in lines.values() for line in text), lines
    tasks = {n: key_values(text) for n, text in lines.items()}
    for n, t in tasks.items():
        role, index = n.split("-")
        assert (t["role"], t["index"], t["node_rank"]) == ("worker" if role == "wk" else "ps", index, str(int(index) % 2))
        assert t["listening"].startswith("127.0.0.1:")
    assert len({t["listening"] for t in tasks.values()}) == len(tasks), "each task has a port of its own"
    ps_addresses = [tasks[f"ps-{i}"]["listening"] for i in range(servers)]
    for i in range(workers):
        worker_log = lines[f"wk-{i}"]
        assert [f"connected={a} got=ps" for a in ps_addresses] == [x for x in worker_log if x.startswith("connected")]


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="OpenMPI's mpirun is not installed (apt-get install openmpi-bin)")
def test_custom_mpi_job_reports_every_rank(make_cluster, jobs) -> None:
    cluster = make_cluster(nodes=2)
    # Single quotes: the rank's own shell expands these, not the launching one on node 0.
    command = "bash -c 'echo rank=$OMPI_COMM_WORLD_RANK size=$OMPI_COMM_WORLD_SIZE RANK=$RANK NODE_RANK=$NODE_RANK'"
    params = toolkit_job(cluster.id, 2, custom_mpi_settings=m.CustomMpiSettings(command_line=command, process_count=4))
    job = jobs.begin_create("mpi", params).result(timeout=60)
    assert job.execution_state == "succeeded", (job.execution_info, list(jobs.stream_file("mpi", "stderr.txt")))
    lines = sorted(line for line in jobs.stream_file("mpi") if line.startswith("rank="))
    assert lines == [f"rank={r} size=4 RANK={r} NODE_RANK={r // 2}" for r in range(4)]
