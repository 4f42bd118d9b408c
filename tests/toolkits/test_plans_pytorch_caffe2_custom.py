"""PyTorch, Caffe2 and custom-toolkit plans."""

from __future__ import annotations

from typing import Any

from toolkit_helpers import HOST_FILE, SHARED_TEMP, local_nodes, remote_nodes

from batchai_sdk.toolkits import build_launch_plan

SCRIPT = "$AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/pytorch/mnist_trainer.py"


def pytorch_job(node_count: int, **settings: Any) -> dict[str, Any]:
    return {
        "nodeCount": node_count,
        "pyTorchSettings": {"pythonScriptFilePath": SCRIPT, "commandLineArgs": "--epochs 1", **settings},
    }


def test_pytorch_one_rank_per_node_by_default() -> None:
    plans = build_launch_plan(
        pytorch_job(2, communicationBackend="Gloo"),
        remote_nodes(2),
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
    )
    for rank, plan in enumerate(plans):
        (process,) = plan.processes
        assert process.command == f"python {SCRIPT} --epochs 1"
        assert process.name == f"rank {rank}"
        assert (process.stdout, process.stderr) == (f"stdout-{rank}.txt", f"stderr-{rank}.txt")
        assert process.env == {
            "AZ_BATCHAI_TASK_INDEX": str(rank),
            "RANK": str(rank),
            "WORLD_SIZE": "2",
            "LOCAL_RANK": "0",
            "AZ_BATCHAI_PYTORCH_BACKEND": "gloo",
            "AZ_BATCHAI_PYTORCH_INIT_METHOD": "tcp://10.0.0.4:29500",
        }


def test_pytorch_ranks_are_block_placed_with_local_ranks() -> None:
    nodes = local_nodes(2)
    plans = build_launch_plan(
        pytorch_job(2, processCount=5), nodes, host_file=HOST_FILE, shared_job_temp=SHARED_TEMP, local=True
    )
    placed = [[(p.env["RANK"], p.env["LOCAL_RANK"]) for p in plan.processes] for plan in plans]
    assert placed == [[("0", "0"), ("1", "1"), ("2", "2")], [("3", "0"), ("4", "1")]]
    every = [p for plan in plans for p in plan.processes]
    assert {p.env["WORLD_SIZE"] for p in every} == {"5"}
    # Rendezvous on the master's reserved port; default backend gloo.
    assert {p.env["AZ_BATCHAI_PYTORCH_INIT_METHOD"] for p in every} == {"tcp://127.0.0.1:40000"}
    assert {p.env["AZ_BATCHAI_PYTORCH_BACKEND"] for p in every} == {"gloo"}
    assert [p.stdout for p in every] == [f"stdout-{r}.txt" for r in range(5)]


def test_pytorch_fewer_ranks_than_nodes_leaves_nodes_reserved() -> None:
    plans = build_launch_plan(
        pytorch_job(3, processCount=1), remote_nodes(3), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP
    )
    assert [len(p.processes) for p in plans] == [1, 0, 0]
    assert plans[2].env["NODE_RANK"] == "2"


def test_pytorch_mpi_backend_is_one_mpirun_on_the_master() -> None:
    plans = build_launch_plan(
        pytorch_job(2, communicationBackend="MPI", processCount=4),
        remote_nodes(2),
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
    )
    (launcher,) = plans[0].processes
    assert plans[1].processes == []
    assert launcher.command.startswith("mpirun -np 4 --hostfile /jobs/j1/hostfile ")
    assert launcher.command.endswith(f"batchai-rank python {SCRIPT} --epochs 1")
    assert 'export AZ_BATCHAI_TASK_INDEX="$RANK"' in launcher.command
    assert (launcher.stdout, launcher.stderr) == ("stdout.txt", "stderr.txt")
    assert launcher.env["AZ_BATCHAI_PYTORCH_BACKEND"] == "mpi"
    assert launcher.env["WORLD_SIZE"] == "4"


def test_caffe2_one_task_per_node() -> None:
    job = {
        "nodeCount": 3,
        "caffe2Settings": {
            "pythonScriptFilePath": "$S/resnet50_trainer.py",
            "commandLineArgs": "--shard_id $AZ_BATCHAI_TASK_INDEX",
        },
    }
    plans = build_launch_plan(job, remote_nodes(3), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)
    for i, plan in enumerate(plans):
        (task,) = plan.processes
        assert task.command == "python $S/resnet50_trainer.py --shard_id $AZ_BATCHAI_TASK_INDEX"
        assert (task.stdout, task.stderr) == (f"stdout-{i}.txt", f"stderr-{i}.txt")
        assert task.env == {
            "AZ_BATCHAI_TASK_INDEX": str(i),
            "RANK": str(i),
            "WORLD_SIZE": "3",
            "LOCAL_RANK": "0",
        }
        assert plan.env["AZ_BATCHAI_SHARED_JOB_TEMP"] == SHARED_TEMP


def test_custom_toolkit_runs_once_on_the_master_and_reserves_the_rest() -> None:
    command = (
        "mpirun --hostfile $AZ_BATCHAI_MPI_HOST_FILE python $AZ_BATCHAI_INPUT_SCRIPTS/tensorflow_mnist.py"
    )
    job = {"nodeCount": 2, "customToolkitSettings": {"commandLine": command}}
    plans = build_launch_plan(job, remote_nodes(2), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)
    (master,) = plans[0].processes
    assert master.command == command
    assert (master.name, master.stdout, master.stderr) == ("master", "stdout.txt", "stderr.txt")
    assert master.env == {"RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "0"}
    assert plans[1].processes == []
    assert plans[1].env["MASTER_ADDR"] == "10.0.0.4"
