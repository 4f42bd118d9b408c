"""MPI-family plans: custom MPI, Horovod, Chainer, CNTK, Caffe.

The ``mpirun`` command line is checked as a shell really runs it: a stand-in ``mpirun`` on PATH records the
arguments it receives (after the launching shell has expanded the ``-x`` list), then the per-rank part is
run with OpenMPI's rank variables to see what each rank's environment becomes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolkit_helpers import HOST_FILE, SHARED_TEMP, local_nodes, remote_nodes

from batchai_sdk.toolkits import NodePlan, build_launch_plan

SCRIPT = "$AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/train.py"

FAKE_MPIRUN = """#!{python}
import json, os, sys
with open(os.environ["FAKE_MPIRUN_ARGS"], "w") as f:
    json.dump(sys.argv[1:], f)
"""


def plan(
    job: dict[str, Any], *, local: bool = False, as_root: bool = False, nodes: int = 2
) -> list[NodePlan]:
    slots = local_nodes(nodes) if local else remote_nodes(nodes)
    return build_launch_plan(
        {"nodeCount": nodes, **job},
        slots,
        host_file=HOST_FILE,
        shared_job_temp=SHARED_TEMP,
        local=local,
        as_root=as_root,
    )


def mpirun_argv(command: str, tmp_path: Path, env: dict[str, str]) -> list[str]:
    """The argv the launching shell hands to ``mpirun`` for ``command``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "mpirun"
    fake.write_text(FAKE_MPIRUN.format(python=sys.executable))
    fake.chmod(0o755)
    record = tmp_path / "argv.json"
    environment = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "FAKE_MPIRUN_ARGS": str(record),
        **env,
    }
    subprocess.run(["bash", "-c", command], env=environment, check=True, timeout=30)
    argv = json.loads(record.read_text())
    assert isinstance(argv, list)
    return argv


def rank_env(argv: list[str], rank: int, size: int, local_rank: int) -> dict[str, str]:
    """Run the per-rank part of an mpirun argv as OpenMPI would for one rank; return the rank's environment."""
    tail = argv[argv.index("bash") :]
    dump = [sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"]
    # Replace the user command by an environment dump, keep the wrapper.
    argv = tail[: tail.index("batchai-rank") + 1] + dump
    environment = {
        "PATH": os.environ["PATH"],
        "OMPI_COMM_WORLD_RANK": str(rank),
        "OMPI_COMM_WORLD_SIZE": str(size),
        "OMPI_COMM_WORLD_LOCAL_RANK": str(local_rank),
    }
    out = subprocess.run(argv, env=environment, capture_output=True, text=True, check=True, timeout=30).stdout
    result = json.loads(out)
    assert isinstance(result, dict)
    return result


def test_custom_mpi_runs_mpirun_on_the_master_only() -> None:
    nodes = plan(
        {
            "customMpiSettings": {
                "commandLine": "python -u $AZ_BATCHAI_INPUT_SCRIPT/label.py --batch 64",
                "processCount": 4,
            }
        }
    )
    (launcher,) = nodes[0].processes
    assert nodes[1].processes == [], "the other nodes are reserved: their ranks come from mpirun over SSH"
    assert (launcher.name, launcher.stdout, launcher.stderr) == ("mpirun", "stdout.txt", "stderr.txt")
    assert launcher.env == {"RANK": "0", "WORLD_SIZE": "4", "LOCAL_RANK": "0"}
    assert launcher.command.startswith(
        "mpirun -np 4 --hostfile /jobs/j1/hostfile --map-by slot --bind-to none "
    )
    assert launcher.command.endswith("batchai-rank python -u $AZ_BATCHAI_INPUT_SCRIPT/label.py --batch 64")


def test_custom_mpi_process_count_defaults_to_node_count_and_keeps_mpirun_for_one() -> None:
    assert (
        plan({"customMpiSettings": {"commandLine": "hostname"}}, nodes=3)[0]
        .processes[0]
        .command.startswith("mpirun -np 3 ")
    )
    (single,) = plan({"customMpiSettings": {"commandLine": "hostname"}}, nodes=1)[0].processes
    assert single.command.startswith("mpirun -np 1 ")


def test_remote_and_local_transport_flags(tmp_path: Path) -> None:
    job = {"horovodSettings": {"pythonScriptFilePath": SCRIPT}}
    remote = mpirun_argv(plan(job)[0].processes[0].command, tmp_path, {})
    assert remote[:9] == [
        "-np",
        "2",
        "--hostfile",
        HOST_FILE,
        "--map-by",
        "slot",
        "--bind-to",
        "none",
        "--mca",
    ]
    assert remote[9:11] == ["btl_tcp_if_exclude", "lo,docker0"]
    assert "--allow-run-as-root" not in remote and "--oversubscribe" not in remote

    local = mpirun_argv(plan(job, local=True, as_root=True)[0].processes[0].command, tmp_path, {})
    joined = " ".join(local[: local.index("bash")])
    for flag in (
        "--oversubscribe",
        "--mca btl self,tcp",
        "--mca btl_tcp_if_include lo",
        "--mca oob_tcp_if_include lo",
        "--allow-run-as-root",
    ):
        assert flag in joined
    assert "docker0" not in joined


def test_host_file_path_is_quoted() -> None:
    nodes = remote_nodes(2)
    plans = build_launch_plan(
        {"nodeCount": 2, "chainerSettings": {"pythonScriptFilePath": SCRIPT}},
        nodes,
        host_file="/jobs/my job/hostfile",
        shared_job_temp=SHARED_TEMP,
    )
    assert "--hostfile '/jobs/my job/hostfile' " in plans[0].processes[0].command


def test_only_set_variables_are_forwarded_to_ranks(tmp_path: Path) -> None:
    job = {
        "customMpiSettings": {"commandLine": "hostname", "processCount": 2},
        "inputDirectories": [{"id": "SCRIPT", "path": "$AZ_BATCHAI_JOB_MOUNT_ROOT/s"}],
        "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/o"}],
        "environmentVariables": [
            {"name": "LR", "value": "0.1"},
            {"name": "bad name; rm -rf /", "value": "x"},
        ],
        "secrets": [{"name": "API_TOKEN", "value": None}],
    }
    launcher = plan(job)[0].processes[0]
    assert "rm -rf" not in launcher.command
    present = {
        "AZ_BATCHAI_INPUT_SCRIPT": "/s",
        "AZ_BATCHAI_OUTPUT_MODEL": "/o",
        "LR": "0.1",
        "API_TOKEN": "s3cret",
        "AZ_BATCHAI_JOB_TEMP": "/tmp/j",
        "MASTER_ADDR": "10.0.0.4",
    }
    argv = mpirun_argv(launcher.command, tmp_path, present)
    forwarded = {argv[i + 1] for i, a in enumerate(argv) if a == "-x"}
    assert forwarded == {"PATH", *present}, "unset names are left out (OpenMPI warns on each)"
    assert "s3cret" not in launcher.command and "s3cret" not in argv, (
        "values never appear on the command line"
    )


def test_every_rank_gets_rank_local_rank_world_size_and_node_rank(tmp_path: Path) -> None:
    launcher = plan({"horovodSettings": {"pythonScriptFilePath": SCRIPT, "processCount": 5}})[0].processes[0]
    argv = mpirun_argv(launcher.command, tmp_path, {})
    # Block placement over the host file [3, 2]: ranks 0-2 on node 0, ranks 3-4 on node 1.
    seen = [rank_env(argv, r, 5, r if r < 3 else r - 3) for r in range(5)]
    assert [(e["RANK"], e["LOCAL_RANK"], e["WORLD_SIZE"], e["NODE_RANK"]) for e in seen] == [
        ("0", "0", "5", "0"),
        ("1", "1", "5", "0"),
        ("2", "2", "5", "0"),
        ("3", "0", "5", "1"),
        ("4", "1", "5", "1"),
    ]
    assert all("AZ_BATCHAI_TASK_INDEX" not in e for e in seen)


def test_ranks_launched_by_a_pmi_runtime_fall_back_to_pmi_variables(tmp_path: Path) -> None:
    launcher = plan({"chainerSettings": {"pythonScriptFilePath": SCRIPT, "processCount": 2}})[0].processes[0]
    argv = mpirun_argv(launcher.command, tmp_path, {})
    tail = argv[argv.index("bash") : argv.index("batchai-rank") + 1]
    out = subprocess.run(
        [*tail, "bash", "-c", 'echo "$RANK $WORLD_SIZE $NODE_RANK"'],
        env={"PATH": os.environ["PATH"], "PMI_RANK": "1", "PMI_SIZE": "2"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["1", "2", "1"]


@pytest.mark.parametrize("key", ["horovodSettings", "chainerSettings"])
def test_one_process_runs_directly_without_mpirun(key: str) -> None:
    nodes = plan({key: {"pythonScriptFilePath": SCRIPT, "commandLineArgs": "-g", "processCount": 1}})
    (process,) = nodes[0].processes
    assert process.command == f"python {SCRIPT} -g"
    assert (process.name, process.stdout, process.stderr) == ("master", "stdout.txt", "stderr.txt")
    assert process.env == {"RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "0"}
    assert nodes[1].processes == []
    (alone,) = plan({key: {"pythonScriptFilePath": SCRIPT}}, nodes=1)[0].processes
    assert not alone.command.startswith("mpirun")


def test_cntk_brainscript_and_python_commands() -> None:
    brainscript = {
        "cntkSettings": {
            "configFilePath": "$AZ_BATCHAI_INPUT_CONFIG/ConvNet.cntk",
            "commandLineArgs": "rootDir=. parallelTrain=true",
        }
    }
    (process,) = plan(brainscript, nodes=1)[0].processes
    assert (
        process.command
        == "cntk configFile=$AZ_BATCHAI_INPUT_CONFIG/ConvNet.cntk rootDir=. parallelTrain=true"
    )
    explicit = {"cntkSettings": {"languageType": "BrainScript", "configFilePath": "a.cntk"}}
    assert plan(explicit, nodes=1)[0].processes[0].command == "cntk configFile=a.cntk"
    python = {
        "cntkSettings": {
            "languageType": "Python",
            "pythonScriptFilePath": SCRIPT,
            "pythonInterpreterPath": "/opt/py",
        }
    }
    assert plan(python, nodes=1)[0].processes[0].command == f"/opt/py {SCRIPT}"
    distributed = plan({"cntkSettings": {"pythonScriptFilePath": SCRIPT, "processCount": 2}})[0].processes[0]
    assert distributed.command.startswith("mpirun -np 2 ") and distributed.command.endswith(
        f"batchai-rank python {SCRIPT}"
    )


def test_caffe_solver_and_script_commands() -> None:
    solver = {
        "caffeSettings": {
            "configFilePath": "$AZ_BATCHAI_INPUT_SAMPLE/lenet_solver.prototxt",
            "commandLineArgs": "--gpu all",
        }
    }
    (process,) = plan(solver, nodes=1)[0].processes
    assert process.command == "caffe train --solver=$AZ_BATCHAI_INPUT_SAMPLE/lenet_solver.prototxt --gpu all"
    script = {"caffeSettings": {"pythonScriptFilePath": SCRIPT}}
    assert plan(script, nodes=1)[0].processes[0].command == f"python {SCRIPT}"
    assert plan(solver)[0].processes[0].command.startswith("mpirun -np 2 ")
