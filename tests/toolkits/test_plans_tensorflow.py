"""TensorFlow plans: task placement, ports, TF_CONFIG, host lists, logs, daemon parameter servers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolkit_helpers import HOST_FILE, SHARED_TEMP, local_nodes, remote_nodes

from batchai_sdk.toolkits import LaunchPlanError, NodePlan, ProcessPlan, build_launch_plan

SCRIPT = "$AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/tf/mnist_replica.py"


def tf_job(node_count: int, **settings: Any) -> dict[str, Any]:
    return {
        "nodeCount": node_count,
        "tensorFlowSettings": {
            "pythonScriptFilePath": SCRIPT,
            "masterCommandLineArgs": "--role master",
            "workerCommandLineArgs": "--job_name=worker --task_index=$AZ_BATCHAI_TASK_INDEX",
            "parameterServerCommandLineArgs": "--job_name=ps --task_index=$AZ_BATCHAI_TASK_INDEX",
            **settings,
        },
    }


def by_name(plans: list[NodePlan]) -> dict[str, tuple[int, ProcessPlan]]:
    return {p.name: (plan.node_index, p) for plan in plans for p in plan.processes}


def test_remote_distributed_job_matches_batch_ai_documented_layout() -> None:
    plans = build_launch_plan(
        tf_job(2, workerCount=2, parameterServerCount=1),
        remote_nodes(2),
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
    )
    tasks = by_name(plans)
    assert sorted(tasks) == ["ps 0", "worker 0", "worker 1"]
    assert {name: node for name, (node, _) in tasks.items()} == {"ps 0": 0, "worker 0": 0, "worker 1": 1}
    # BATCHAI-SERVICE.md 4.1: AZ_BATCHAI_WORKER_HOSTS example 10.0.0.4:2223,10.0.0.5:2222.
    for _, process in tasks.values():
        assert process.env["AZ_BATCHAI_PS_HOSTS"] == "10.0.0.4:2222"
        assert process.env["AZ_BATCHAI_WORKER_HOSTS"] == "10.0.0.4:2223,10.0.0.5:2222"
    config = json.loads(tasks["worker 1"][1].env["TF_CONFIG"])
    assert config == {
        "cluster": {"ps": ["10.0.0.4:2222"], "worker": ["10.0.0.4:2223", "10.0.0.5:2222"]},
        "task": {"type": "worker", "index": 1},
        "environment": "cloud",
    }
    assert json.loads(tasks["ps 0"][1].env["TF_CONFIG"])["task"] == {"type": "ps", "index": 0}


def test_commands_logs_ranks_and_daemons() -> None:
    plans = build_launch_plan(
        tf_job(2, workerCount=3, parameterServerCount=2),
        remote_nodes(2),
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
    )
    tasks = by_name(plans)
    for i in range(3):
        node, worker = tasks[f"worker {i}"]
        assert node == i % 2
        assert worker.command == f"python {SCRIPT} --job_name=worker --task_index=$AZ_BATCHAI_TASK_INDEX"
        assert (worker.stdout, worker.stderr) == (f"stdout-wk-{i}.txt", f"stderr-wk-{i}.txt")
        assert worker.env["AZ_BATCHAI_TASK_INDEX"] == str(i)
        assert worker.env["RANK"] == str(i)
        assert not worker.daemon
    for i in range(2):
        node, ps = tasks[f"ps {i}"]
        assert node == i
        assert ps.command == f"python {SCRIPT} --job_name=ps --task_index=$AZ_BATCHAI_TASK_INDEX"
        assert (ps.stdout, ps.stderr) == (f"stdout-ps-{i}.txt", f"stderr-ps-{i}.txt")
        assert ps.env["RANK"] == str(3 + i)
        assert ps.daemon, "parameter servers never exit; the agent must stop them"
    assert {p.env["WORLD_SIZE"] for _, p in tasks.values()} == {"5"}
    # Workers take the low LOCAL_RANKs (GPU 0, 1, ...) on their node.
    assert [(p.name, p.env["LOCAL_RANK"]) for p in plans[0].processes] == [
        ("ps 0", "2"),
        ("worker 0", "0"),
        ("worker 2", "1"),
    ]


def test_defaults_worker_per_node_and_one_parameter_server() -> None:
    plans = build_launch_plan(tf_job(3), remote_nodes(3), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)
    assert sorted(by_name(plans)) == ["ps 0", "worker 0", "worker 1", "worker 2"]


def test_workers_only_when_no_parameter_server_is_asked_for() -> None:
    plans = build_launch_plan(
        tf_job(2, parameterServerCount=0), remote_nodes(2), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP
    )
    tasks = by_name(plans)
    assert sorted(tasks) == ["worker 0", "worker 1"]
    config = json.loads(tasks["worker 0"][1].env["TF_CONFIG"])
    assert config["cluster"] == {"worker": ["10.0.0.4:2222", "10.0.0.5:2222"]}
    assert tasks["worker 0"][1].env["AZ_BATCHAI_PS_HOSTS"] == ""


def test_single_node_job_is_one_master_process_without_tf_config() -> None:
    (plan,) = build_launch_plan(tf_job(1), remote_nodes(1), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)
    (master,) = plan.processes
    assert master.name == "master"
    assert master.command == f"python {SCRIPT} --role master"
    assert (master.stdout, master.stderr) == ("stdout-wk-0.txt", "stderr-wk-0.txt")
    assert master.env == {"AZ_BATCHAI_TASK_INDEX": "0", "RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "0"}
    assert not master.daemon


def test_two_workers_on_one_node_are_distributed() -> None:
    plans = build_launch_plan(
        tf_job(1, workerCount=2), local_nodes(1), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP, local=True
    )
    assert sorted(by_name(plans)) == ["ps 0", "worker 0", "worker 1"]


def test_local_tasks_get_distinct_reserved_ports() -> None:
    nodes = local_nodes(2, ports_each=4)
    plans = build_launch_plan(
        tf_job(2, workerCount=4, parameterServerCount=2),
        nodes,
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
        local=True,
    )
    config = json.loads(plans[0].processes[0].env["TF_CONFIG"])
    endpoints = config["cluster"]["ps"] + config["cluster"]["worker"]
    assert len(endpoints) == len(set(endpoints)) == 6
    ports = [int(e.split(":")[1]) for e in endpoints]
    # Each task's port is one its node reserved, and never the master's rendezvous port.
    assert config["cluster"]["ps"] == ["127.0.0.1:40001", "127.0.0.1:40005"]
    assert config["cluster"]["worker"] == [
        "127.0.0.1:40002",
        "127.0.0.1:40006",
        "127.0.0.1:40003",
        "127.0.0.1:40007",
    ]
    assert 40000 not in ports


def test_local_plan_with_too_few_ports_is_refused() -> None:
    with pytest.raises(LaunchPlanError, match="needs 4 reserved ports"):
        build_launch_plan(
            tf_job(2, workerCount=4),
            local_nodes(2, ports_each=3),
            host_file=HOST_FILE,
            shared_job_temp=SHARED_TEMP,
            local=True,
        )


def test_interpreter_path_applies_to_every_task() -> None:
    plans = build_launch_plan(
        tf_job(2, pythonInterpreterPath="/usr/bin/python3.6"),
        remote_nodes(2),
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
    )
    assert all(p.command.startswith(f"/usr/bin/python3.6 {SCRIPT} ") for _, p in by_name(plans).values())
