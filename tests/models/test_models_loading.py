"""load_job_file / load_cluster_file / load_spec: the files az batchai read."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

import batchai_sdk.models as m
from batchai_sdk.exceptions import ValidationError

JOB = {
    "$schema": "https://raw.githubusercontent.com/Azure/BatchAI/master/schemas/2018-05-01/job.json",
    "properties": {
        "nodeCount": 1,
        "customToolkitSettings": {"commandLine": "echo hi"},
        "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/logs",
        "mountVolumes": {
            "azureFileShares": [
                {
                    "azureFileUrl": "https://<AZURE_BATCHAI_STORAGE_ACCOUNT>.file.core.windows.net/logs",
                    "relativeMountPath": "logs",
                },
                {"azureFileUrl": "https://other.file.core.windows.net/data", "relativeMountPath": "other"},
            ],
            "azureBlobFileSystems": [
                {
                    "accountName": "<AZURE_BATCHAI_STORAGE_ACCOUNT>",
                    "containerName": "data",
                    "relativeMountPath": "data",
                },
            ],
        },
    },
}


def _write(tmp_path: Path, data: object, name: str = "job.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=4) if not isinstance(data, str) else data)
    return path


def test_placeholders_account_and_credentials(tmp_path: Path) -> None:
    job = m.load_job_file(_write(tmp_path, JOB), storage_account_name="myacct", storage_account_key="S3CRET")
    share, other = job.mount_volumes.azure_file_shares
    assert share.azure_file_url == "https://myacct.file.core.windows.net/logs"
    assert share.account_name == "myacct" and share.credentials.account_key == "S3CRET"
    # Another account's share gets its name derived, but never this account's key.
    assert other.account_name == "other" and other.credentials is None
    blob = job.mount_volumes.azure_blob_file_systems[0]
    assert blob.account_name == "myacct" and blob.credentials.account_key == "S3CRET"
    assert isinstance(job, m.JobCreateParameters)


def test_defaults_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_BATCHAI_STORAGE_ACCOUNT", "envacct")
    monkeypatch.setenv("AZURE_BATCHAI_STORAGE_KEY", "ENVKEY")
    job = m.load_job_file(_write(tmp_path, JOB))
    assert job.mount_volumes.azure_file_shares[0].account_name == "envacct"
    assert job.mount_volumes.azure_blob_file_systems[0].credentials.account_key == "ENVKEY"


def test_unresolved_placeholder_is_reported_by_validation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AZURE_BATCHAI_STORAGE_ACCOUNT", raising=False)
    monkeypatch.delenv("AZURE_BATCHAI_STORAGE_KEY", raising=False)
    job = m.load_job_file(_write(tmp_path, JOB))
    paths = [p for p, _ in m.validate_model(job)]
    assert "properties.mountVolumes.azureFileShares[0].azureFileUrl" in paths
    assert "properties.mountVolumes.azureBlobFileSystems[0].accountName" in paths
    # The local engine does not need storage accounts.
    assert m.validate_model(job, storage_credentials=False) == [("properties.cluster", "is required")]


def test_cluster_node_setup_mounts_are_completed(tmp_path: Path) -> None:
    cluster = {
        "properties": {
            "vmSize": "STANDARD_NC6",
            "nodeSetup": {
                "mountVolumes": {
                    "azureFileShares": [
                        {
                            "azureFileUrl": "https://<AZURE_BATCHAI_STORAGE_ACCOUNT>.file.core.windows.net/share",
                            "relativeMountPath": "external",
                        }
                    ]
                }
            },
        }
    }
    params = m.load_cluster_file(
        _write(tmp_path, cluster, "cluster.json"), storage_account_name="acct", storage_account_key="KEY"
    )
    share = params.node_setup.mount_volumes.azure_file_shares[0]
    assert (share.account_name, share.credentials.account_key) == ("acct", "KEY")
    assert params.vm_size == "STANDARD_NC6" and isinstance(params, m.ClusterCreateParameters)


def test_file_server_file(tmp_path: Path) -> None:
    body = {
        "properties": {
            "vmSize": "STANDARD_D2",
            "sshConfiguration": {"userAccountSettings": {"adminUserName": "a"}},
            "dataDisks": {"diskSizeInGB": 10, "diskCount": 2, "storageAccountType": "Standard_LRS"},
        }
    }
    server = m.load_file_server_file(_write(tmp_path, body, "nfs.json"))
    assert server.data_disks.disk_count == 2 and m.validate_model(server) == []


def test_invalid_json_names_file_line_and_column(tmp_path: Path) -> None:
    text = '{\n    "properties": {\n        "nodeCount": 1\n        "cntkSettings": {}\n    }\n}\n'
    with pytest.raises(ValidationError) as info:
        m.load_job_file(_write(tmp_path, text))
    assert "job.json:4:9: Expecting ',' delimiter" in str(info.value)
    assert info.value.errors == [("job.json:4:9", "Expecting ',' delimiter")]


def test_trailing_comma_and_literal_ellipsis_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match=r"job.json:1:\d+:"):
        m.load_job_file(_write(tmp_path, '{"properties": {"nodeCount": 1,}}'))
    with pytest.raises(ValidationError, match=r"doc.json:3:\d+:"):
        m.load_spec('{\n "properties": {\n   ...\n }\n}', m.JobCreateParameters, source_name="doc.json")


def test_non_object_and_wrong_types_are_validation_errors() -> None:
    with pytest.raises(ValidationError, match="must be a JSON object"):
        m.load_spec("[1, 2]", m.JobCreateParameters)
    with pytest.raises(ValidationError, match="cannot be read as JobCreateParameters"):
        m.load_spec({"properties": {"nodeCount": "two"}}, m.JobCreateParameters)


def test_misspelled_keys_are_mapped_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    body = {
        "properties": {
            "cntkSettings": {"pythonScriptFilePath": "a.py", "process_count": 2},
            "nodeCount": 1,
            "noSuchKey": 1,
        }
    }
    with caplog.at_level(logging.WARNING, logger="batchai_sdk"):
        job = m.load_spec(body, m.JobCreateParameters, source_name="job.json")
    assert job.cntk_settings.process_count == 2
    messages = [r.getMessage() for r in caplog.records]
    assert any("properties.cntkSettings.process_count read as processCount" in t for t in messages)
    assert any("unknown key properties.noSuchKey" in t for t in messages)


def test_secret_key_never_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        job = m.load_job_file(
            _write(tmp_path, JOB), storage_account_name="a", storage_account_key="TOPSECRETKEY"
        )
        m.validate_model(job)
    assert "TOPSECRETKEY" not in caplog.text and "TOPSECRETKEY" not in repr(job)
