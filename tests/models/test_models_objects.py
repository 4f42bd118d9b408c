"""The model classes: names, defaults, fixed quirks, repr without secrets, loading forms."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from msrest.exceptions import ValidationError as MsrestValidationError

import batchai_sdk.models as m
from batchai_sdk.exceptions import ValidationError

SRC = Path(__file__).resolve().parents[2] / "src"
ENUM_NAMES = {
    "AllocationState",
    "CachingType",
    "DeallocationOption",
    "ExecutionState",
    "FileServerProvisioningState",
    "FileType",
    "JobPriority",
    "ProvisioningState",
    "StorageAccountType",
    "ToolType",
    "UsageUnit",
    "VmPriority",
}


def _job(**overrides: object) -> m.JobCreateParameters:
    fields: dict[str, object] = {
        "cluster": m.ResourceId(
            id="/subscriptions/s/resourceGroups/g/providers/Microsoft.BatchAI/workspaces/w/clusters/c"
        ),
        "node_count": 1,
        "std_out_err_path_prefix": "$AZ_BATCHAI_MOUNT_ROOT/logs",
        "custom_toolkit_settings": m.CustomToolkitSettings(command_line="echo hi"),
    }
    fields.update(overrides)
    return m.JobCreateParameters(**fields)  # type: ignore[arg-type]


def test_eighty_models_and_twelve_enums_exported() -> None:
    from msrest.serialization import Model

    model_names = {
        n for n in m.__all__ if isinstance(getattr(m, n), type) and issubclass(getattr(m, n), Model)
    }
    assert len(model_names) == 80
    assert {n for n in m.__all__ if n in ENUM_NAMES} == ENUM_NAMES
    assert issubclass(m.Cluster, m.ProxyResource) and issubclass(m.Workspace, m.Resource)


def test_wire_keys_are_flattened_like_azure_mgmt_batchai() -> None:
    assert m.JobCreateParameters._attribute_map["py_torch_settings"] == {
        "key": "properties.pyTorchSettings",
        "type": "PyTorchSettings",
    }
    assert m.File._attribute_map["content_length"] == {"key": "properties.contentLength", "type": "long"}
    assert m.JobsListOutputFilesOptions._validation["linkexpiryinminutes"] == {"minimum": 5, "maximum": 600}
    assert m.Job._validation["execution_state"] == {"readonly": True}


def test_enums_are_case_insensitive_strings_and_know_pytorch() -> None:
    assert m.ToolType["cntk"] is m.ToolType.CNTK
    assert m.ToolType.PYTORCH == "pytorch"
    assert m.JobPriority("normal") is m.JobPriority.NORMAL
    job = _job(scheduling_priority=m.JobPriority.HIGH)
    assert job.serialize()["properties"]["schedulingPriority"] == "high"


def test_spec_defaults_restored() -> None:
    assert m.ClusterCreateParameters(vm_size="STANDARD_NC6").vm_priority == "dedicated"
    assert m.JobCreateParameters().scheduling_priority == "normal"
    assert m.JobBasePropertiesConstraints().max_wall_clock_time == datetime.timedelta(days=7)
    assert m.ManualScaleSettings(target_node_count=1).node_deallocation_option == "requeue"
    assert (
        m.AzureFileShareReference(
            account_name="a",
            azure_file_url="u",
            credentials=m.AzureStorageCredentialsInfo(),
            relative_mount_path="r",
        ).file_mode
        == "0777"
    )


def test_max_wall_clock_time_serializes_as_p7d_and_accepts_timespan_text() -> None:
    job = _job(constraints=m.JobBasePropertiesConstraints())
    assert job.serialize()["properties"]["constraints"] == {"maxWallClockTime": "P7D"}
    assert m.JobBasePropertiesConstraints(max_wall_clock_time="1.02:00:00").max_wall_clock_time == (
        datetime.timedelta(days=1, hours=2)
    )  # type: ignore[arg-type]
    assert m.JobBasePropertiesConstraints(max_wall_clock_time="PT90M").max_wall_clock_time == (
        datetime.timedelta(minutes=90)
    )  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a duration"):
        m.JobBasePropertiesConstraints(max_wall_clock_time="soon")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("model", "missing"),
    [
        (m.ClusterCreateParameters(), {"vm_size", "user_account_settings"}),
        (m.FileServerCreateParameters(), {"vm_size", "ssh_configuration", "data_disks"}),
        (
            m.JobCreateParameters(custom_toolkit_settings=m.CustomToolkitSettings(command_line="x")),
            {"cluster", "node_count", "std_out_err_path_prefix"},
        ),
    ],
)
def test_required_fields_restored(model: m.JobCreateParameters, missing: set[str]) -> None:
    errors = model.validate()
    required = {e.target.split(".")[-1] for e in errors if e.rule == "required"}
    assert required == missing
    assert all(isinstance(e, MsrestValidationError) for e in errors)


def test_validate_appends_batchai_rules_with_wire_paths() -> None:
    job = _job(output_directories=[m.OutputDirectory(id="bad id", path_prefix="p")])
    errors = job.validate()
    ours = [e for e in errors if isinstance(e, m.SpecValidationError)]
    assert [e.target for e in ours] == ["properties.outputDirectories[0].id"]
    assert "properties.outputDirectories[0].id" in str(ours[0])
    assert _job().validate() == []


SECRETS = [
    m.EnvironmentVariableWithSecretValue(name="TOKEN", value="hunter2-secret"),
    m.AzureStorageCredentialsInfo(account_key="hunter2-secret"),
    m.PrivateRegistryCredentials(username="u", password="hunter2-secret"),
    m.UserAccountSettings(admin_user_name="admin", admin_user_password="hunter2-secret"),
    m.AppInsightsReference(component=m.ResourceId(id="/c"), instrumentation_key="hunter2-secret"),
]


@pytest.mark.parametrize("model", SECRETS, ids=lambda s: type(s).__name__)
def test_secrets_never_in_repr_or_str(model: Any) -> None:
    holder = _job(secrets=[model]) if isinstance(model, m.EnvironmentVariableWithSecretValue) else model
    for text in (repr(model), str(model), repr(holder), str([holder])):
        assert "hunter2-secret" not in text
    assert "'***'" in repr(model)
    assert "hunter2-secret" in json.dumps(model.serialize())  # the wire still carries it


def test_repr_is_compact_and_readable() -> None:
    job = _job(input_directories=[m.InputDirectory(id="DATA", path="/d")])
    text = repr(job)
    assert text.startswith("JobCreateParameters(scheduling_priority='normal', cluster=ResourceId(id=")
    assert "input_directories=[InputDirectory(id='DATA', path='/d')]" in text
    assert "None" not in text and "additional_properties" not in text
    assert repr(m.JobsListOutputFilesOptions(outputdirectoryid="stdouterr")) == (
        "JobsListOutputFilesOptions(outputdirectoryid='stdouterr', directory='.', linkexpiryinminutes=60, "
        "max_results=1000)"
    )


def test_deserialize_ignores_comment_keys_and_accepts_text_and_flat_bodies() -> None:
    body = {
        "$schema": "https://example/job.json",
        "comment": "top",
        "properties": {
            "$comment": "x",
            "comment2": "y",
            "nodeCount": 2,
            "customToolkitSettings": {"commandLine": "run", "_note": "z"},
        },
    }
    job = m.JobCreateParameters.deserialize(body)
    assert job.node_count == 2 and job.custom_toolkit_settings.command_line == "run"
    assert job.additional_properties == {} and job.custom_toolkit_settings.additional_properties == {}
    assert m.JobCreateParameters.deserialize(json.dumps(body)) == job
    assert m.JobCreateParameters.deserialize(body["properties"]) == job
    assert (
        m.JobCreateParameters.from_dict({"node_count": 2, "custom_toolkit_settings": {"command_line": "run"}})
        == job
    )


def test_tags_keep_their_keys() -> None:
    ws = m.WorkspaceCreateParameters.deserialize(
        {"location": "eastus", "tags": {"comment": "kept", "$x": "1"}}
    )
    assert ws.tags == {"comment": "kept", "$x": "1"}


def test_unknown_tool_type_string_survives() -> None:
    job = m.Job.deserialize({"properties": {"toolType": "somethingnew", "nodeCount": 1}})
    assert job.tool_type == "somethingnew"


def test_tool_type_of() -> None:
    assert m.tool_type_of(_job()) == "custom"
    pytorch = _job(
        custom_toolkit_settings=None, py_torch_settings=m.PyTorchSettings(python_script_file_path="t.py")
    )
    assert m.tool_type_of(pytorch) == "pytorch"
    assert m.tool_type_of(m.Job.deserialize({"properties": {"toolType": "pytorch"}})) == "pytorch"
    assert m.tool_type_of(
        m.Job.deserialize({"properties": {"horovodSettings": {"pythonScriptFilePath": "h.py"}}})
    ) == ("horovod")
    with pytest.raises(ValidationError, match="exactly one toolkit"):
        m.tool_type_of(_job(cntk_settings=m.CNTKsettings(python_script_file_path="x.py")))
    with pytest.raises(ValidationError, match="no toolkit"):
        m.tool_type_of(m.JobCreateParameters())


def test_import_models_pulls_no_azure_service_sdks() -> None:
    code = (
        "import sys; import batchai_sdk.models, batchai_sdk.images; "
        "bad = [n for n in sys.modules if n.startswith(('azure.mgmt', 'azure.storage', 'azure.identity'))]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": str(SRC)}, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_500_specs_serialize_and_validate_quickly() -> None:
    jobs = [
        _job(
            node_count=1 + i % 4,
            input_directories=[m.InputDirectory(id=f"IN{i}", path="/x")],
            environment_variables=[m.EnvironmentVariable(name="A", value=str(i))],
        )
        for i in range(500)
    ]
    start = time.perf_counter()
    for job in jobs:
        wire = job.serialize()
        assert m.validate_model(m.JobCreateParameters.deserialize(wire)) == []
    assert time.perf_counter() - start < 5.0
