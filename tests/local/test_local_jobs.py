"""The job lifecycle on real node-agent processes: what a user sees on the share and in the API."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from local_helpers import job_params

from batchai_sdk import ResourceExistsError, ResourceNotFoundError, ValidationError
from batchai_sdk import models as m


def test_job_reads_input_and_writes_model_to_output(backend, shares, make_cluster, jobs, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "numbers.txt").write_text("1\n2\n3\n")
    shares.upload_directory("afs", data, "datasets/numbers")
    cluster = make_cluster()
    params = job_params(
        cluster.id,
        "python -c \"import os,sys; s=sum(int(x) for x in open(os.environ['AZ_BATCHAI_INPUT_DATA']+'/numbers.txt'));"
        " open(os.environ['AZ_BATCHAI_OUTPUT_MODEL']+'/model.txt','w').write(str(s)); print('sum', s)\"",
        input_directories=[m.InputDirectory(id="DATA", path="$AZ_BATCHAI_MOUNT_ROOT/afs/datasets/numbers")],
        output_directories=[m.OutputDirectory(id="MODEL", path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs", path_suffix="models")],
    )
    job = jobs.begin_create("sum", params).result()
    assert job.execution_state == "succeeded", job.execution_info
    assert job.execution_info.exit_code == 0
    # The model is on the share where Batch AI put it: {prefix}/{segment}/outputs/{suffix}
    model = backend.share_dir("afs") / job.job_output_directory_path_segment / "outputs" / "models" / "model.txt"
    assert model.read_text() == "6"
    names = {f.name for f in jobs.list_output_files("sum")}
    assert {"stdout.txt", "stderr.txt", "execution.log"} <= names
    [f] = jobs.list_output_files("sum", output_directory_id="MODEL")
    assert f.name == "model.txt" and f.content_length == 1 and f.download_url.startswith("file://")
    downloaded = jobs.download_outputs("sum", "MODEL", tmp_path / "out")
    assert [p.name for p in downloaded] == ["model.txt"] and downloaded[0].read_text() == "6"
    assert list(jobs.stream_file("sum")) == ["sum 6"]


def test_environment_contract(make_cluster, jobs) -> None:
    cluster = make_cluster()
    params = job_params(cluster.id, "env | sort", environment_variables=[m.EnvironmentVariable(name="MY_SETTING", value="42")],
                        secrets=[m.EnvironmentVariableWithSecretValue(name="MY_TOKEN", value="tok-XYZ-secret")])
    jobs.begin_create("env", params).result()
    env = dict(line.split("=", 1) for line in jobs.stream_file("env") if "=" in line)
    for name in ("AZ_BATCHAI_MOUNT_ROOT", "AZ_BATCHAI_JOB_MOUNT_ROOT", "AZ_BATCHAI_STDOUTERR_DIR", "AZ_BATCHAI_JOB_TEMP",
                 "AZ_BATCHAI_JOB_TEMP_DIR", "AZ_BATCHAI_SHARED_JOB_TEMP", "AZ_BATCHAI_MPI_HOST_FILE", "AZ_BATCHAI_NUM_GPUS",
                 "NODE_RANK", "NUM_NODES", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "LOCAL_RANK"):
        assert name in env, name
    assert env["MY_SETTING"] == "42" and env["MY_TOKEN"] == "tok-XYZ-secret"
    assert env["AZ_BATCHAI_JOB_ATTEMPT"] == "1" and env["NUM_NODES"] == "1"
    assert Path(env["AZ_BATCHAI_STDOUTERR_DIR"], "stdout.txt").is_file()
    # The secret never comes back from the API.
    job = jobs.get("env")
    assert job.secrets[0].value is None and "tok-XYZ-secret" not in repr(job)
    assert "tok-XYZ-secret" not in str(job.serialize(keep_readonly=True))


def test_stream_yields_every_line_once_in_order_including_the_last(make_cluster, jobs) -> None:
    cluster = make_cluster()
    script = "for i in $(seq 1 40); do echo line-$i; sleep 0.05; done; printf 'no-newline-at-exit'"
    poller = jobs.begin_create("ticker", job_params(cluster.id, script))
    lines = list(poller)  # iterating the poller follows stdout.txt
    assert lines == [f"line-{i}" for i in range(1, 41)] + ["no-newline-at-exit"]
    assert poller.result().execution_state == "succeeded"
    # A second reader resumes from a saved offset and sees only what follows it.
    first = jobs.stream_file("ticker")
    head = [next(first) for _ in range(10)]
    assert head[-1] == "line-10"
    rest = list(jobs.stream_file("ticker", offset=first.offset))
    assert rest[0] == "line-11" and len(head) + len(rest) == 41


def test_failing_job_reports_exit_code_and_stderr(make_cluster, jobs) -> None:
    cluster = make_cluster()
    job = jobs.begin_create("bad", job_params(cluster.id, "echo oops >&2; exit 3")).result()
    assert job.execution_state == "failed"
    assert job.execution_info.exit_code == 3
    [err] = job.execution_info.errors
    assert err.code == "JobFailed"
    details = {d.name: d.value for d in err.details}
    assert details["exit_code"] == "3" and "oops" in details["stderr_tail"]


def test_failing_preparation_fails_the_job_before_it_runs(backend, make_cluster, jobs) -> None:
    cluster = make_cluster()
    job = jobs.begin_create("prep", job_params(cluster.id, "echo never", prep="echo preparing; exit 7")).result()
    assert job.execution_state == "failed"
    assert job.execution_info.errors[0].code == "JobPreparationFailed"
    assert job.execution_info.exit_code == 7
    logs = backend.share_dir("afs") / job.job_output_directory_path_segment / "stdouterr"
    assert (logs / "stdout-job_prep.txt").read_text() == "preparing\n"
    assert (logs / "stdout.txt").exists() is False
    assert "job preparation: exited with code 7" in (logs / "execution.log").read_text()


def test_terminate_running_and_queued_jobs(make_cluster, jobs) -> None:
    cluster = make_cluster()
    jobs.begin_create("long", job_params(cluster.id, "echo started; sleep 60"))
    queued = jobs.begin_create("behind", job_params(cluster.id, "echo never"))
    stream = jobs.stream_file("long")
    assert next(stream) == "started"
    assert jobs.get("behind").execution_state == "queued"
    jobs.begin_terminate("behind").result()
    assert queued.result().execution_state == "failed"
    assert queued.result().execution_info.errors[0].code == "JobTerminated"
    t0 = time.monotonic()
    jobs.begin_terminate("long").result()
    assert time.monotonic() - t0 < 10
    job = jobs.get("long")
    assert job.execution_state == "failed" and job.execution_info.errors[0].code == "JobTerminated"
    # Terminating a finished job changes nothing.
    jobs.begin_terminate("long").result()
    assert jobs.get("long").execution_state == "failed"


def test_wall_clock_limit(make_cluster, jobs) -> None:
    cluster = make_cluster()
    params = job_params(cluster.id, "sleep 60", constraints=m.JobBasePropertiesConstraints(max_wall_clock_time="PT2S"))
    job = jobs.begin_create("slow", params).result()
    assert job.execution_state == "failed"
    assert job.execution_info.errors[0].code == "MaxWallClockTimeExceeded"
    assert 2 <= (job.execution_info.end_time - job.execution_info.start_time).total_seconds() < 15


def test_two_node_custom_toolkit_job_lists_both_nodes(make_cluster, jobs) -> None:
    cluster = make_cluster(nodes=2)
    job = jobs.begin_create("pair", job_params(cluster.id, "cat $AZ_BATCHAI_MPI_HOST_FILE; echo nodes=$NUM_NODES rank=$NODE_RANK",
                                               nodes=2)).result()
    assert job.execution_state == "succeeded", job.execution_info
    out = list(jobs.stream_file("pair"))
    assert out[-1] == "nodes=2 rank=0"
    # Both nodes were claimed: the host file holds them (one loopback host with 2 slots locally).
    assert "slots=2" in out[0]


def test_priority_then_first_come_first_served(backend, make_cluster, jobs) -> None:
    cluster = make_cluster()
    jobs.begin_create("blocker", job_params(cluster.id, "sleep 1.5"))
    time.sleep(0.5)
    order_file = backend.share_dir("afs") / "order.txt"
    for name, prio in [("low1", "low"), ("normal1", "normal"), ("high1", "high"), ("normal2", "normal"), ("high2", "high")]:
        jobs.begin_create(name, job_params(cluster.id, f"echo {name} >> $AZ_BATCHAI_MOUNT_ROOT/afs/order.txt",
                                           scheduling_priority=prio))
    for name in ("low1", "normal1", "high1", "normal2", "high2"):
        jobs.wait(name, timeout=60)
    assert order_file.read_text().split() == ["high1", "high2", "normal1", "normal2", "low1"]


def test_errors_for_unknown_names_and_duplicates(backend, make_cluster, jobs) -> None:
    from batchai_sdk import ClusterClient

    cluster = make_cluster()
    with pytest.raises(ResourceNotFoundError):
        jobs.get("nope")
    with pytest.raises(ResourceNotFoundError):
        ClusterClient(backend).get("nope")
    with pytest.raises(ResourceNotFoundError):
        jobs.begin_create("x", job_params(cluster.id.replace("/c1", "/missing"), "true"))
    jobs.begin_create("dup", job_params(cluster.id, "true")).result()
    with pytest.raises(ResourceExistsError):
        jobs.begin_create("dup", job_params(cluster.id, "true"))


def test_bad_specs_are_refused_before_anything_is_written(backend, make_cluster, jobs) -> None:
    cluster = make_cluster()
    control = backend.share_dir(backend.control_share)
    before = sorted(str(p) for p in control.rglob("*") if "nodes" not in p.parts)
    with pytest.raises(ValidationError) as err:
        jobs.begin_create("big", job_params(cluster.id, "true", nodes=5))
    assert err.value.errors[0][0] == "properties.nodeCount"
    bad = job_params(cluster.id, "true", output_directories=[m.OutputDirectory(id="bad-id", path_prefix="/abs")],
                     environment_variables=[m.EnvironmentVariable(name="AZ_BATCHAI_MOUNT_ROOT", value="x")])
    with pytest.raises(ValidationError) as err:
        jobs.begin_create("bad", bad)
    paths = [p for p, _ in err.value.errors]
    assert "properties.outputDirectories[0].id" in paths and "properties.environmentVariables[0].name" in paths
    with pytest.raises(ValidationError):
        jobs.begin_create("../evil", job_params(cluster.id, "true"))
    after = sorted(str(p) for p in control.rglob("*") if "nodes" not in p.parts)
    assert before == after


def test_list_delete_and_experiment_delete(backend, make_cluster, jobs) -> None:
    from batchai_sdk import ExperimentClient

    cluster = make_cluster()
    jobs.begin_create("a", job_params(cluster.id, "true")).result()
    jobs.begin_create("b", job_params(cluster.id, "sleep 60"))
    assert [j.name for j in jobs.list()] == ["a", "b"]
    jobs.begin_delete("a").result()
    assert [j.name for j in jobs.list()] == ["b"]
    ExperimentClient(backend).delete("exp")  # terminates b, then deletes
    with pytest.raises(ResourceNotFoundError):
        jobs.get("b")


def test_container_job_runs_on_the_host_and_says_so(backend, make_cluster, jobs) -> None:
    cluster = make_cluster()
    params = job_params(cluster.id, "echo in-job", container_settings=m.ContainerSettings(
        image_source_registry=m.ImageSourceRegistry(image="tensorflow/tensorflow:latest")))
    job = jobs.begin_create("boxed", params).result()
    assert job.execution_state == "succeeded"
    log = (backend.share_dir("afs") / job.job_output_directory_path_segment / "stdouterr" / "execution.log").read_text()
    assert "tensorflow/tensorflow:latest requested but no Docker engine answers" in log and "running on the host" in log
