"""Every public Batch AI recipe job file turns into a sensible launch plan.

The files are read in place from ``../shared/reference/batchai/recipes/jobs`` beside the checkout. Expected
log names are those the recipes' instructions stream (BATCHAI-SERVICE.md Part D, 2a).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toolkit_helpers import HOST_FILE, RECIPE_JOBS, SHARED_TEMP, load_job, local_nodes, remote_nodes

from batchai_sdk.toolkits import build_launch_plan, ports_needed, tool_type

#: recipe file → (ranks in the job's world, log files the recipe's instructions stream).
EXPECTED: dict[str, tuple[int, set[str]]] = {
    "recipes__Batch-Scoring__Distributed-Batch-Scoring-in-Tensorflow-with-GPU__job.json": (2, {"stdout.txt"}),
    "recipes__CNTK__CNTK-GPU-BrainScript-Distributed__job.json": (2, {"stderr.txt"}),
    "recipes__CNTK__CNTK-GPU-BrainScript__job.json": (1, {"stderr.txt"}),
    "recipes__CNTK__CNTK-GPU-Python-Distributed-Infiniband__job.json": (8, {"stdout.txt"}),
    "recipes__CNTK__CNTK-GPU-Python-Distributed__job.json": (2, {"stdout.txt"}),
    "recipes__CNTK__CNTK-GPU-Python__job.json": (1, {"stderr.txt"}),
    "recipes__Caffe2__Caffe2-GPU-Distributed__job.json": (2, {"stderr-0.txt", "stderr-1.txt"}),
    "recipes__Chainer__Chainer-GPU-Distributed-Infiniband__job.json": (8, {"stdout.txt"}),
    "recipes__Chainer__Chainer-GPU-Distributed__job.json": (2, {"stdout.txt"}),
    "recipes__Horovod__Horovod-Infiniband-Benchmark__job.json": (8, {"stdout.txt"}),
    "recipes__Horovod__Horovod-PyTorch__job.json": (2, {"stdout.txt"}),
    "recipes__Horovod__Horovod-Tensorflow__job.json": (2, {"stderr.txt"}),
    "recipes__Horovod__Horovod__job.json": (1, {"stdout.txt"}),
    "recipes__Keras__Keras-DSVM__job.json": (1, {"stdout.txt"}),
    "recipes__Keras__Keras-GPU__job_cntk.json": (1, {"stdout.txt"}),
    "recipes__Keras__Keras-GPU__job_tensorflow.json": (1, {"stdout-wk-0.txt"}),
    "recipes__PyTorch__PyTorch-GPU-Distributed-Gloo__job.json": (2, {"stdout-0.txt"}),
    "recipes__TensorFlow__TensorFlow-GPU-Distributed__job.json": (
        3,
        {"stdout-wk-0.txt", "stdout-ps-0.txt", "stdout-wk-1.txt"},
    ),
    "recipes__TensorFlow__TensorFlow-GPU__job.json": (1, {"stdout-wk-0.txt"}),
}

#: Log-name patterns per toolkit (Part D, 2a "Standard-output file names").
SINGLE_STREAM = {"custom", "custommpi", "horovod", "cntk", "chainer", "caffe"}


def recipe_files() -> list[Path]:
    if not RECIPE_JOBS.is_dir():
        return []
    return sorted(RECIPE_JOBS.glob("*.json"))


needs_recipes = pytest.mark.skipif(
    not RECIPE_JOBS.is_dir(),
    reason=f"recipe job files not found at {RECIPE_JOBS} (../shared beside the checkout)",
)


@needs_recipes
def test_all_known_recipes_are_present() -> None:
    assert set(EXPECTED) <= {p.name for p in recipe_files()}


@needs_recipes
@pytest.mark.parametrize("local", [False, True], ids=["remote", "local"])
@pytest.mark.parametrize("path", recipe_files(), ids=lambda p: p.stem.removeprefix("recipes__"))
def test_recipe_plan_invariants(path: Path, local: bool) -> None:
    job = load_job(path)
    count = job["nodeCount"]
    nodes = local_nodes(count, ports_each=ports_needed(job, count)) if local else remote_nodes(count)
    plans = build_launch_plan(job, nodes, host_file=HOST_FILE, shared_job_temp=SHARED_TEMP, local=local)
    processes = [p for plan in plans for p in plan.processes]
    assert len(plans) == count
    assert processes and plans[0].processes, "the master node runs something"

    logs = [p.stdout for p in processes] + [p.stderr for p in processes]
    assert len(logs) == len(set(logs)) and all(logs)
    kind = tool_type(job)
    if kind in SINGLE_STREAM:
        assert logs == ["stdout.txt", "stderr.txt"]
    elif kind == "tensorflow":
        assert all(name.split("-")[1] in ("wk", "ps") for name in logs)
    else:
        assert sorted(p.stdout for p in processes) == sorted(f"stdout-{i}.txt" for i in range(len(processes)))

    worlds = {p.env["WORLD_SIZE"] for p in processes}
    assert len(worlds) == 1
    if path.name in EXPECTED:
        ranks, streamed = EXPECTED[path.name]
        assert int(worlds.pop()) == ranks
        assert streamed <= set(logs)

    # Every user-written $VAR survives into the commands for the node's shell to expand.
    settings = json.dumps(job)
    for process in processes:
        for token in process.command.split():
            if token.startswith("$AZ_BATCHAI_JOB_MOUNT_ROOT/scripts"):
                assert token in settings


@needs_recipes
def test_distributed_tensorflow_recipe_sees_its_hosts() -> None:
    job = load_job(RECIPE_JOBS / "recipes__TensorFlow__TensorFlow-GPU-Distributed__job.json")
    plans = build_launch_plan(job, remote_nodes(2), host_file=HOST_FILE, shared_job_temp=SHARED_TEMP)
    (ps,) = [p for plan in plans for p in plan.processes if p.daemon]
    assert "--job_name=ps" in ps.command
    assert ps.env["AZ_BATCHAI_PS_HOSTS"] == "10.0.0.4:2222"
    assert ps.env["AZ_BATCHAI_WORKER_HOSTS"] == "10.0.0.4:2223,10.0.0.5:2222"
