"""The Fashion-MNIST-style walkthrough of the Batch AI docs, as a user types it, on the local engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TRAIN = """\
import os, sys
for epoch in range(3):
    print(f"epoch {epoch} loss {1.0 / (epoch + 1):.3f}", flush=True)
with open(os.path.join(sys.argv[1], "model.txt"), "w") as f:
    f.write("weights")
"""

JOB = {
    "$schema": "https://raw.githubusercontent.com/Azure/BatchAI/master/schemas/2018-05-01/job.json",
    "properties": {
        "nodeCount": 1,
        "stdOutErrPathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs",
        "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs"}],
        "mountVolumes": {"azureFileShares": [{
            "accountName": "<AZURE_BATCHAI_STORAGE_ACCOUNT>",
            "azureFileUrl": "https://<AZURE_BATCHAI_STORAGE_ACCOUNT>.file.core.windows.net/scripts",
            "credentials": {"accountKey": "<AZURE_BATCHAI_STORAGE_KEY>"},
            "relativeMountPath": "scripts"}]},
        "customToolkitSettings": {
            "commandLine": "python $AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/fashion/train.py $AZ_BATCHAI_OUTPUT_MODEL"},
    },
}


@pytest.mark.slow
def test_walkthrough(cli, tmp_path: Path) -> None:
    src = tmp_path / "fashion"
    src.mkdir()
    (src / "train.py").write_text(TRAIN)
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(JOB, indent=2))
    storage = {"AZURE_BATCHAI_STORAGE_ACCOUNT": "batchailocal", "AZURE_BATCHAI_STORAGE_KEY": "local-key"}

    cli("share", "create", "-n", "afs")
    cli("share", "create", "-n", "scripts")
    up = json.loads(cli("share", "upload", "-n", "scripts", str(src), "--no-progress").out)
    assert up["transferred"] == 1
    listed = cli("share", "list", "-n", "scripts", "-p", "fashion", "-o", "tsv").out
    assert listed.startswith("train.py\tfile\t")

    created = json.loads(cli("cluster", "create", "-n", "nc6", "-s", "STANDARD_NC6", "-i", "UbuntuLTS", "-t", "1",
                             "--afs-name", "afs").out)
    assert created["name"] == "nc6" and created["scaleSettings"]["manual"]["targetNodeCount"] == 1
    assert created["virtualMachineConfiguration"]["imageReference"]["publisher"] == "Canonical"

    job = json.loads(cli("job", "create", "-n", "fashion1", "-c", "nc6", "-f", str(job_file), env=storage).out)
    assert job["cluster"]["id"].endswith("/workspaces/default/clusters/nc6")
    assert job["mountVolumes"]["azureFileShares"][0]["accountName"] == "batchailocal"

    streamed = cli("job", "file", "stream", "-j", "fashion1", "-f", "stdout.txt", timeout=60).out
    assert streamed.splitlines() == ["epoch 0 loss 1.000", "epoch 1 loss 0.500", "epoch 2 loss 0.333"]
    assert cli("job", "wait", "-n", "fashion1").rc == 0

    table = cli("job", "file", "list", "-j", "fashion1", "-o", "table").out.splitlines()
    assert table[0].split() == ["Name", "Type", "Size", "Modified"]
    names = {line.split()[0] for line in table[2:]}
    assert {"stdout.txt", "stderr.txt"} <= names
    models = json.loads(cli("job", "file", "list", "-j", "fashion1", "-d", "MODEL").out)
    assert [m["name"] for m in models] == ["model.txt"]
    assert models[0]["downloadUrl"]

    shown = cli("job", "show", "-n", "fashion1", "-o", "tsv").out.split("\t")
    assert shown[0] == "fashion1" and shown[6] == "succeeded" and shown[7].strip() == "0"

    nodes = cli("cluster", "node", "list", "-c", "nc6", "-o", "table").out.splitlines()
    assert nodes[0].split() == ["ID", "IP", "SSH", "Port"] and len(nodes) == 3
    ran = cli("cluster", "node", "exec", "-c", "nc6", "--exec", "ls $AZ_BATCHAI_MOUNT_ROOT/afs").out
    assert "local" in ran.split()  # the job output segment starts with the (local) subscription
    failed = cli("job", "node", "exec", "-j", "fashion1", "--exec", "exit 7", ok=False)
    assert failed.rc == 7

    out_dir = tmp_path / "downloaded"
    segment = job["jobOutputDirectoryPathSegment"]
    cli("share", "download", "-n", "afs", "-p", f"{segment}/outputs", str(out_dir), "--no-progress")
    assert (out_dir / "model.txt").read_text() == "weights"

    cli("cluster", "delete", "-n", "nc6", "-y")
    assert json.loads(cli("cluster", "list").out) == []
    assert cli("job", "show", "-n", "fashion1", "-o", "tsv").out.split("\t")[6] == "succeeded"
