"""The Batch AI journey on the Azure engine: real Azure SDK clients, FakeAzure, simulated VMSS nodes running
the real node agent (from the zipapp the engine published on the control share)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import requests

from batchai_sdk import models

TRAIN = """\
import os, sys
data = os.environ["AZ_BATCHAI_INPUT_DATASET"]
files = sorted(os.listdir(data))
total = sum(len(open(os.path.join(data, f)).read()) for f in files)
for epoch in range(1, 151):
    print(f"Epoch {epoch}/150 - loss: {1.0 / epoch:.4f}", flush=True)
model = os.path.join(os.environ["AZ_BATCHAI_OUTPUT_MODEL"], "model.txt")
open(model, "w").write(f"trained on {len(files)} files, {total} bytes\\n")
sys.stdout.write("done, no newline at the end")
"""


def _cluster(url: str, fake: Any, nodes: int, priority: str = "dedicated") -> models.ClusterCreateParameters:
    return models.ClusterCreateParameters(
        vm_size="STANDARD_NC6",
        vm_priority=priority,
        scale_settings=models.ScaleSettings(manual=models.ManualScaleSettings(target_node_count=nodes)),
        user_account_settings=models.UserAccountSettings(admin_user_name="me", admin_user_password="Pa55word!x"),
        node_setup=models.NodeSetup(mount_volumes=models.MountVolumes(azure_file_shares=[models.AzureFileShareReference(
            account_name=fake.account_name, azure_file_url=url, relative_mount_path="afs",
            credentials=models.AzureStorageCredentialsInfo(account_key=fake.account_key))])),
    )


def _job(cluster_id: str, command: str) -> models.JobCreateParameters:
    mount = "$AZ_BATCHAI_MOUNT_ROOT/afs"
    return models.JobCreateParameters(
        cluster=models.ResourceId(id=cluster_id),
        node_count=1,
        std_out_err_path_prefix=mount,
        input_directories=[models.InputDirectory(id="DATASET", path=f"{mount}/data")],
        output_directories=[models.OutputDirectory(id="MODEL", path_prefix=mount)],
        custom_toolkit_settings=models.CustomToolkitSettings(command_line=command),
    )


def _vmss(fake: Any) -> str:
    [name] = [r.url.split("virtualMachineScaleSets/")[1].split("?")[0].split("/")[0]
              for r in fake.requests if r.operation == "arm.vmss.put"]
    return name


@pytest.mark.slow
def test_share_cluster_jobs_outputs_resize_delete(sim_fake: Any, azure_backend: Any, tmp_path: Path) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    fake, backend = sim_fake, azure_backend
    shares = FileShareClient(backend)
    url = shares.create_share("afs")
    local = tmp_path / "upload"
    (local / "data").mkdir(parents=True)
    for i in range(3):
        (local / "data" / f"part-{i}.csv").write_text("1,2,3\n" * (i + 1))
    (local / "scripts").mkdir()
    (local / "scripts" / "train.py").write_text(TRAIN)
    shares.upload_directory("afs", local, ".")
    assert (fake.share_root("afs") / "scripts" / "train.py").read_text() == TRAIN

    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("nc6", _cluster(url, fake, 2)).result()
    assert cluster.provisioning_state == "succeeded"
    clusters.wait_for_nodes("nc6", timeout=60)
    assert clusters.get("nc6").node_state_counts.idle_node_count == 2
    boot_logs = list((fake.share_root("batchai-control") / ".batchai/workspaces/default/clusters/nc6/bootstrap").glob("*.log"))
    assert len(boot_logs) == 2 and "node agent started" in boot_logs[0].read_text()

    jobs = JobClient(backend, experiment="fashion")
    poller = jobs.begin_create("train", _job(cluster.id, "python $AZ_BATCHAI_MOUNT_ROOT/afs/scripts/train.py"))
    lines = list(poller)
    assert lines == [f"Epoch {e}/150 - loss: {1.0 / e:.4f}" for e in range(1, 151)] + ["done, no newline at the end"]
    job = poller.result()
    assert job.execution_state == "succeeded" and job.execution_info.exit_code == 0

    files = jobs.list_output_files("train", "MODEL")
    assert [f.name for f in files] == ["model.txt"]
    fetched = requests.get(files[0].download_url, verify=fake.ca_bundle, timeout=10)
    assert fetched.status_code == 200 and fetched.text == "trained on 3 files, 36 bytes\n"
    [path] = jobs.download_outputs("train", "MODEL", tmp_path / "model")
    assert path.read_text() == "trained on 3 files, 36 bytes\n"
    logs = {f.name for f in jobs.list_output_files("train")}
    assert {"stdout.txt", "stderr.txt", "execution.log"} <= logs

    failing = jobs.begin_create("broken", _job(cluster.id, "echo about to fail >&2; exit 3")).result()
    assert failing.execution_state == "failed" and failing.execution_info.exit_code == 3
    assert "about to fail" in str(failing.execution_info.errors[0].details or failing.execution_info.errors[0].message)

    vmss = _vmss(fake)
    clusters.resize("nc6", 1)
    deadline = time.monotonic() + 30
    while len(fake.node_handles(vmss)) != 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(fake.node_handles(vmss)) == 1
    assert len(clusters.list_remote_login_information("nc6")) == 1
    assert clusters.list_remote_login_information("nc6")[0].port == 22

    clusters.begin_delete("nc6").result()
    assert not fake.node_handles(vmss)
    put_networks = {r.url.split("?")[0] for r in fake.requests if r.operation == "arm.resource.put"}
    deleted = {r.url.split("?")[0] for r in fake.requests if r.operation == "arm.resource.delete"}
    assert put_networks and put_networks <= deleted


@pytest.mark.slow
def test_spot_eviction_requeues_the_job(sim_fake: Any, azure_backend: Any) -> None:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    fake, backend = sim_fake, azure_backend
    url = FileShareClient(backend).create_share("afs")
    FileShareClient(backend).create_directory("afs", "data")
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("spot", _cluster(url, fake, 2, priority="lowpriority")).result()
    clusters.wait_for_nodes("spot", timeout=60)
    jobs = JobClient(backend)
    script = ('echo "attempt $AZ_BATCHAI_JOB_ATTEMPT on $(hostname)"; '
              'if [ "$AZ_BATCHAI_JOB_ATTEMPT" = 1 ]; then sleep 60; fi; echo finished')
    poller = jobs.begin_create("long", _job(cluster.id, script))
    deadline = time.monotonic() + 30
    while jobs.get("long").execution_state != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    status = (fake.share_root("batchai-control") / ".batchai/workspaces/default/experiments/default/jobs/long/status.json")
    import json

    node = json.loads(status.read_text())["nodes"][0]
    vmss = _vmss(fake)
    [instance] = [i for i, h in fake.node_handles(vmss).items() if h is not None and h.node == node]
    fake.evict(vmss, instance)
    job = poller.result()
    assert job.execution_state == "succeeded"
    assert job.attempt == 2
    clusters.begin_delete("spot").result()
