"""What every launch plan shares: tool types, the common environment, host files, errors."""

from __future__ import annotations

from typing import Any

import pytest
from toolkit_helpers import HOST_FILE, SHARED_TEMP, local_nodes, remote_nodes

from batchai_sdk.toolkits import (
    LaunchPlanError,
    NodeSlot,
    build_launch_plan,
    hostfile_slots,
    hostfile_text,
    ports_needed,
    tool_type,
)

SCRIPT = "$AZ_BATCHAI_INPUT_SCRIPT/train.py"

#: One job per toolkit, two nodes each.
JOBS: dict[str, dict[str, Any]] = {
    "custom": {"customToolkitSettings": {"commandLine": "echo hi | tee $AZ_BATCHAI_OUTPUT_OUT/hi.txt"}},
    "custommpi": {"customMpiSettings": {"commandLine": f"python {SCRIPT}", "processCount": 2}},
    "horovod": {"horovodSettings": {"pythonScriptFilePath": SCRIPT}},
    "cntk": {"cntkSettings": {"configFilePath": "$AZ_BATCHAI_INPUT_CONFIG/a.cntk"}},
    "tensorflow": {"tensorFlowSettings": {"pythonScriptFilePath": SCRIPT}},
    "pytorch": {"pyTorchSettings": {"pythonScriptFilePath": SCRIPT, "communicationBackend": "gloo"}},
    "chainer": {"chainerSettings": {"pythonScriptFilePath": SCRIPT}},
    "caffe": {"caffeSettings": {"configFilePath": "$AZ_BATCHAI_INPUT_SAMPLE/lenet_solver.prototxt"}},
    "caffe2": {"caffe2Settings": {"pythonScriptFilePath": SCRIPT}},
}


def two_node_job(kind: str) -> dict[str, Any]:
    return {"nodeCount": 2, **JOBS[kind]}


@pytest.mark.parametrize("kind", sorted(JOBS))
def test_tool_type_names_the_settings_present(kind: str) -> None:
    assert tool_type(two_node_job(kind)) == kind


def test_tool_type_refuses_no_toolkit_and_two_toolkits() -> None:
    with pytest.raises(LaunchPlanError, match="no toolkit settings"):
        tool_type({"nodeCount": 1})
    with pytest.raises(LaunchPlanError, match="more than one toolkit.*cntkSettings"):
        tool_type({**JOBS["custom"], **JOBS["cntk"]})


@pytest.mark.parametrize("kind", sorted(JOBS))
@pytest.mark.parametrize("local", [True, False], ids=["local", "remote"])
def test_every_node_and_process_gets_the_multi_node_contract(kind: str, local: bool) -> None:
    nodes = local_nodes(2) if local else remote_nodes(2)
    plans = build_launch_plan(
        two_node_job(kind), nodes, host_file=HOST_FILE, shared_job_temp=SHARED_TEMP, local=local
    )
    assert [p.node_index for p in plans] == [0, 1]
    master_port = "40000" if local else "29500"
    for index, plan in enumerate(plans):
        assert plan.env == {
            "NODE_RANK": str(index),
            "NUM_NODES": "2",
            "AZ_BATCHAI_NODE_LIST": ",".join(n.address for n in nodes),
            "MASTER_ADDR": nodes[0].address,
            "MASTER_PORT": master_port,
            "AZ_BATCHAI_SHARED_JOB_TEMP": SHARED_TEMP,
            "AZ_BATCHAI_MPI_HOST_FILE": HOST_FILE,
        }
        for process in plan.processes:
            assert {"RANK", "WORLD_SIZE", "LOCAL_RANK"} <= set(process.env), process.name
            assert 0 <= int(process.env["RANK"]) < int(process.env["WORLD_SIZE"])
            assert process.stdout.startswith("stdout") and process.stdout.endswith(".txt")
            assert process.stderr == process.stdout.replace("stdout", "stderr", 1)
    assert plans[0].processes, "the master node always runs something"
    logs = [p.stdout for plan in plans for p in plan.processes]
    assert len(logs) == len(set(logs)), "two processes would write the same log file"


def test_user_paths_and_arguments_stay_expandable() -> None:
    job = {
        "nodeCount": 1,
        "chainerSettings": {
            "pythonScriptFilePath": "$AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/train.py",
            "pythonInterpreterPath": "$AZ_BATCHAI_JOB_TEMP/venv/bin/python",
            "commandLineArgs": "-o $AZ_BATCHAI_OUTPUT_MODEL --name 'a b'",
        },
    }
    (plan,) = build_launch_plan(job, remote_nodes(1), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)
    assert plan.processes[0].command == (
        "$AZ_BATCHAI_JOB_TEMP/venv/bin/python $AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/train.py "
        "-o $AZ_BATCHAI_OUTPUT_MODEL --name 'a b'"
    )


def test_default_interpreter_can_be_chosen_by_the_agent() -> None:
    job = two_node_job("caffe2")
    plans = build_launch_plan(
        job, remote_nodes(2), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP, python="/opt/py/bin/python3"
    )
    assert plans[1].processes[0].command == f"/opt/py/bin/python3 {SCRIPT}"


def test_node_count_must_match_the_allocation() -> None:
    with pytest.raises(LaunchPlanError, match="nodeCount is 2 but 3 node"):
        build_launch_plan(
            two_node_job("custom"), remote_nodes(3), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP
        )
    with pytest.raises(LaunchPlanError, match="at least one node"):
        build_launch_plan(JOBS["custom"], [], host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)


def test_paths_must_be_absolute() -> None:
    with pytest.raises(LaunchPlanError, match="host_file must be an absolute path"):
        build_launch_plan(
            two_node_job("custom"), remote_nodes(2), host_file="hostfile", shared_job_temp=SHARED_TEMP
        )


def test_local_plans_need_reserved_ports() -> None:
    nodes = [NodeSlot("n0", "127.0.0.1"), NodeSlot("n1", "127.0.0.1")]
    with pytest.raises(LaunchPlanError, match="no reserved ports"):
        build_launch_plan(
            two_node_job("pytorch"), nodes, host_file=HOST_FILE, shared_job_temp=SHARED_TEMP, local=True
        )


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"horovodSettings": {}}, r"horovodSettings\.pythonScriptFilePath is required"),
        ({"customToolkitSettings": {"commandLine": "  "}}, r"customToolkitSettings\.commandLine is required"),
        (
            {"chainerSettings": {"pythonScriptFilePath": "a.py", "processCount": 0}},
            r"processCount must be at least 1",
        ),
        (
            {"pyTorchSettings": {"pythonScriptFilePath": "a.py", "processCount": "2"}},
            r"processCount must be an integer",
        ),
        (
            {"tensorFlowSettings": {"pythonScriptFilePath": "a.py", "workerCount": True}},
            r"workerCount must be an integer",
        ),
        ({"cntkSettings": {"languageType": "Lua"}}, r"languageType must be 'BrainScript' or 'Python'"),
        ({"caffeSettings": {"configFilePath": "s", "pythonScriptFilePath": "a.py"}}, r"not both"),
        ({"caffeSettings": {}}, r"configFilePath or pythonScriptFilePath is required"),
        ({"cntkSettings": "cntk"}, r"cntkSettings must be an object"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(LaunchPlanError, match=message):
        build_launch_plan(
            {"nodeCount": 1, **settings}, remote_nodes(1), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP
        )


def test_hostfile_lists_nodes_with_their_slots() -> None:
    nodes = remote_nodes(3, gpus=4)
    assert (
        hostfile_text(nodes, [3, 3, 2], local=False)
        == "10.0.0.4 slots=3\n10.0.0.5 slots=3\n10.0.0.6 slots=2\n"
    )
    # One slot per GPU by default, at least one on CPU nodes.
    assert hostfile_text(nodes, None, local=False).splitlines() == [f"10.0.0.{i} slots=4" for i in (4, 5, 6)]
    assert hostfile_text(remote_nodes(2, gpus=0), None, local=False) == "10.0.0.4 slots=1\n10.0.0.5 slots=1\n"
    # Nodes without ranks are left out: OpenMPI must not map onto them.
    assert hostfile_text(nodes, [1, 1, 0], local=False) == "10.0.0.4 slots=1\n10.0.0.5 slots=1\n"
    with pytest.raises(ValueError, match="2 entries for 3 node"):
        hostfile_text(nodes, [1, 1], local=False)


def test_local_hostfile_is_one_localhost_line() -> None:
    assert hostfile_text(local_nodes(3), [3, 3, 2], local=True) == "localhost slots=8\n"
    assert hostfile_text(local_nodes(2, gpus=2), None, local=True) == "localhost slots=4\n"


def test_hostfile_slots_follow_the_mpi_ranks() -> None:
    nodes = remote_nodes(3, gpus=1)
    job = {"nodeCount": 3, "horovodSettings": {"pythonScriptFilePath": SCRIPT, "processCount": 8}}
    assert hostfile_slots(job, nodes) == [3, 3, 2]
    job = {"nodeCount": 3, "customMpiSettings": {"commandLine": "hostname", "processCount": 2}}
    assert hostfile_slots(job, nodes) == [1, 1, 0]
    pytorch_mpi = {
        "nodeCount": 3,
        "pyTorchSettings": {"pythonScriptFilePath": SCRIPT, "communicationBackend": "MPI"},
    }
    assert hostfile_slots(pytorch_mpi, nodes) == [1, 1, 1]
    # Not MPI-launched: one slot per GPU, for a custom command's own mpirun.
    assert hostfile_slots({"nodeCount": 3, **JOBS["custom"]}, remote_nodes(3, gpus=2)) == [2, 2, 2]
    assert hostfile_slots(
        {"nodeCount": 3, **JOBS["cntk"], "cntkSettings": {**JOBS["cntk"]["cntkSettings"], "processCount": 1}},
        nodes,
    ) == [1, 1, 1]


def test_ports_needed_counts_rendezvous_and_tensorflow_tasks() -> None:
    assert ports_needed(two_node_job("pytorch"), 2) == 1
    assert ports_needed({"nodeCount": 1, **JOBS["tensorflow"]}, 1) == 1
    tf = {"tensorFlowSettings": {"pythonScriptFilePath": SCRIPT, "workerCount": 4, "parameterServerCount": 1}}
    # Node 0 hosts ps 0 and workers 0 and 2.
    assert ports_needed(tf, 2) == 4
