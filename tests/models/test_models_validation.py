"""One test per validation rule (see docs/models.md): each asserts the wire path and the message."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

import batchai_sdk.models as m
from batchai_sdk.exceptions import ValidationError

CLUSTER_ID = "/subscriptions/s/resourceGroups/g/providers/Microsoft.BatchAI/workspaces/w/clusters/c"


def job(**overrides: object) -> m.JobCreateParameters:
    fields: dict[str, object] = {
        "cluster": m.ResourceId(id=CLUSTER_ID),
        "node_count": 2,
        "std_out_err_path_prefix": "$AZ_BATCHAI_MOUNT_ROOT/logs",
        "custom_toolkit_settings": m.CustomToolkitSettings(command_line="echo hi"),
    }
    fields.update(overrides)
    return m.JobCreateParameters(**fields)  # type: ignore[arg-type]


def cluster(**overrides: object) -> m.ClusterCreateParameters:
    fields: dict[str, object] = {
        "vm_size": "STANDARD_NC6",
        "user_account_settings": m.UserAccountSettings(
            admin_user_name="admin", admin_user_ssh_public_key="ssh-rsa A"
        ),
        "scale_settings": m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=1)),
    }
    fields.update(overrides)
    return m.ClusterCreateParameters(**fields)  # type: ignore[arg-type]


def problems(model: object) -> dict[str, str]:
    return dict(m.validate_model(model))


def only(model: object) -> tuple[str, str]:
    found = m.validate_model(model)
    assert len(found) == 1, found
    return found[0]


def test_valid_fixtures() -> None:
    assert m.validate_model(job()) == [] and m.validate_model(cluster()) == []
    m.raise_if_invalid(job())


def test_raise_if_invalid_lists_everything_with_subject() -> None:
    with pytest.raises(ValidationError) as info:
        m.raise_if_invalid(m.JobCreateParameters(), subject="job 'j1'")
    err: Any = info.value
    assert issubclass(type(info.value), ValueError)
    assert err.subject == "job 'j1'"
    assert {p for p, _ in err.errors} == {
        "properties.cluster",
        "properties.nodeCount",
        "properties.stdOutErrPathPrefix",
        "properties",
    }
    assert str(err).startswith("job 'j1' is invalid:")


# --- names ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a", "job-1_x", "A" * 64])
def test_resource_name_ok(name: str) -> None:
    assert m.validate_resource_name(name, "job") == name


@pytest.mark.parametrize("name", ["", "a" * 65, "has space", "dot.ted", "slash/x", "ünï"])
def test_resource_name_rejected(name: str) -> None:
    with pytest.raises(ValidationError, match="cluster name"):
        m.validate_resource_name(name, "cluster")


@pytest.mark.parametrize("name", ["abc", "logs", "a-b-1", "x" * 63])
def test_share_name_ok(name: str) -> None:
    assert m.validate_share_name(name) == name


@pytest.mark.parametrize("name", ["ab", "x" * 64, "Logs", "-ab", "ab-", "a--b", "a_b"])
def test_share_name_rejected(name: str) -> None:
    with pytest.raises(ValidationError, match="3 to 63 lowercase"):
        m.validate_share_name(name)


# --- required / min / max --------------------------------------------------------------------------------


def test_required_nested_and_min_max() -> None:
    found = problems(job(input_directories=[m.InputDirectory(id="A", path=None)]))  # type: ignore[arg-type]
    assert found == {"properties.inputDirectories[0].path": "is required"}
    assert only(m.JobsListOutputFilesOptions(outputdirectoryid="x", linkexpiryinminutes=4)) == (
        "linkexpiryinminutes",
        "must be at least 5",
    )
    assert only(m.JobsListByExperimentOptions(max_results=1001)) == ("maxResults", "must be at most 1000")


def test_container_image_required() -> None:
    settings = m.ContainerSettings(image_source_registry=None)  # type: ignore[arg-type]
    assert only(job(container_settings=settings)) == (
        "properties.containerSettings.imageSourceRegistry",
        "is required",
    )
    blank = m.ContainerSettings(image_source_registry=m.ImageSourceRegistry(image=" "))
    assert only(job(container_settings=blank))[0] == "properties.containerSettings.imageSourceRegistry.image"


# --- toolkits and counts -------------------------------------------------------------------------------------


def test_exactly_one_toolkit() -> None:
    path, message = only(job(custom_toolkit_settings=None))
    assert path == "properties" and "found none" in message
    two = job(horovod_settings=m.HorovodSettings(python_script_file_path="h.py"))
    assert "customToolkitSettings, horovodSettings" in only(two)[1]


def test_node_count_at_least_one() -> None:
    assert only(job(node_count=0)) == ("properties.nodeCount", "must be at least 1")


@pytest.mark.parametrize(
    "attr,settings_cls,extra",
    [
        ("cntk_settings", m.CNTKsettings, {"python_script_file_path": "a.py"}),
        ("chainer_settings", m.ChainerSettings, {"python_script_file_path": "a.py"}),
        ("horovod_settings", m.HorovodSettings, {"python_script_file_path": "a.py"}),
        ("custom_mpi_settings", m.CustomMpiSettings, {"command_line": "a"}),
        ("py_torch_settings", m.PyTorchSettings, {"python_script_file_path": "a.py"}),
        ("caffe_settings", m.CaffeSettings, {"config_file_path": "s.prototxt"}),
    ],
)
def test_process_count_at_least_one_and_not_below_node_count(
    attr: str, settings_cls: type, extra: dict
) -> None:
    key = m.JobCreateParameters._attribute_map[attr]["key"]
    zero = job(custom_toolkit_settings=None, **{attr: settings_cls(process_count=0, **extra)})
    assert only(zero) == (f"{key}.processCount", "must be at least 1")
    fewer = job(node_count=4, custom_toolkit_settings=None, **{attr: settings_cls(process_count=2, **extra)})
    assert "less than nodeCount (4)" in only(fewer)[1]
    more = job(node_count=2, custom_toolkit_settings=None, **{attr: settings_cls(process_count=8, **extra)})
    assert m.validate_model(more) == []


def test_tensorflow_counts() -> None:
    def tf(**counts: int) -> m.JobCreateParameters:
        return job(
            custom_toolkit_settings=None,
            tensor_flow_settings=m.TensorFlowSettings(python_script_file_path="t.py", **counts),
        )

    assert (
        m.validate_model(tf(worker_count=4, parameter_server_count=1)) == []
    )  # workers may exceed nodes (GPUs)
    assert only(tf(worker_count=0)) == ("properties.tensorFlowSettings.workerCount", "must be at least 1")
    assert only(tf(parameter_server_count=0))[0] == "properties.tensorFlowSettings.parameterServerCount"
    assert "must not exceed nodeCount (2)" in only(tf(parameter_server_count=3))[1]


def test_cntk_and_caffe_script_or_config() -> None:
    both = m.CNTKsettings(config_file_path="c.cntk", python_script_file_path="a.py")
    assert only(job(custom_toolkit_settings=None, cntk_settings=both))[0] == "properties.cntkSettings"
    neither = m.CaffeSettings()
    assert (
        "exactly one of configFilePath" in only(job(custom_toolkit_settings=None, caffe_settings=neither))[1]
    )
    mismatch = m.CNTKsettings(language_type="Python", config_file_path="c.cntk")
    assert (
        only(job(custom_toolkit_settings=None, cntk_settings=mismatch))[0]
        == "properties.cntkSettings.languageType"
    )
    interp = m.CaffeSettings(config_file_path="s.prototxt", python_interpreter_path="/usr/bin/python")
    assert only(job(custom_toolkit_settings=None, caffe_settings=interp))[0] == (
        "properties.caffeSettings.pythonInterpreterPath"
    )


def test_custom_toolkit_needs_command_line() -> None:
    assert only(job(custom_toolkit_settings=m.CustomToolkitSettings())) == (
        "properties.customToolkitSettings.commandLine",
        "is required",
    )


# --- directories -----------------------------------------------------------------------------------------


def test_directory_ids_usable_in_variable_names() -> None:
    found = problems(
        job(
            input_directories=[m.InputDirectory(id="1ABC", path="/x")],
            output_directories=[m.OutputDirectory(id="MY-OUT", path_prefix="/y")],
        )
    )
    assert "AZ_BATCHAI_INPUT_<id>" in found["properties.inputDirectories[0].id"]
    assert "AZ_BATCHAI_OUTPUT_<id>" in found["properties.outputDirectories[0].id"]


def test_directory_ids_unique_per_kind() -> None:
    dup = job(
        input_directories=[m.InputDirectory(id="A", path="/x"), m.InputDirectory(id="A", path="/y")],
        output_directories=[m.OutputDirectory(id="A", path_prefix="/z")],
    )
    path, message = only(dup)
    assert path == "properties.inputDirectories[1].id" and "properties.inputDirectories[0].id" in message


def test_stdouterr_is_reserved() -> None:
    assert (
        "reserved" in only(job(output_directories=[m.OutputDirectory(id="stdouterr", path_prefix="/z")]))[1]
    )


@pytest.mark.parametrize("suffix", ["/abs", "a/../b", "..", " "])
def test_output_path_suffix_relative(suffix: str) -> None:
    path, _ = only(
        job(output_directories=[m.OutputDirectory(id="OUT", path_prefix="/z", path_suffix=suffix)])
    )
    assert path == "properties.outputDirectories[0].pathSuffix"


# --- environment -----------------------------------------------------------------------------------------


def test_environment_variable_names() -> None:
    found = problems(
        job(
            environment_variables=[m.EnvironmentVariable(name="1X", value="v")],
            secrets=[m.EnvironmentVariableWithSecretValue(name="BAD-NAME", value="v")],
        )
    )
    assert set(found) == {"properties.environmentVariables[0].name", "properties.secrets[0].name"}


def test_environment_may_not_override_batchai_variables() -> None:
    found = problems(
        job(
            environment_variables=[m.EnvironmentVariable(name="AZ_BATCHAI_OUTPUT_X", value="v")],
            secrets=[m.EnvironmentVariableWithSecretValue(name="az_batchai_job_temp", value="v")],
        )
    )
    assert all("AZ_BATCHAI_*" in message for message in found.values()) and len(found) == 2


def test_environment_duplicates_across_variables_and_secrets() -> None:
    path, message = only(
        job(
            environment_variables=[m.EnvironmentVariable(name="A", value="v")],
            secrets=[m.EnvironmentVariableWithSecretValue(name="A", value="sekrit")],
        )
    )
    assert path == "properties.secrets[0].name" and "sekrit" not in message


def test_setup_task_environment_checked() -> None:
    task = m.SetupTask(
        command_line="x",
        std_out_err_path_prefix="/p",
        environment_variables=[m.EnvironmentVariable(name="AZ_BATCHAI_X", value="1")],
    )
    assert only(cluster(node_setup=m.NodeSetup(setup_task=task)))[0] == (
        "properties.nodeSetup.setupTask.environmentVariables[0].name"
    )


def test_secret_needs_exactly_one_source() -> None:
    assert only(job(secrets=[m.EnvironmentVariableWithSecretValue(name="S")]))[0] == "properties.secrets[0]"


# --- mounts and storage ----------------------------------------------------------------------------------


def afs(
    mount: str = "afs", url: str = "https://acct.file.core.windows.net/share", **kw: object
) -> m.AzureFileShareReference:
    fields: dict[str, object] = {
        "account_name": "acct",
        "azure_file_url": url,
        "credentials": m.AzureStorageCredentialsInfo(account_key="k"),
        "relative_mount_path": mount,
    }
    fields.update(kw)
    return m.AzureFileShareReference(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("mount", ["/abs", "a/../b", ".."])
def test_relative_mount_path(mount: str) -> None:
    path, _ = only(job(mount_volumes=m.MountVolumes(azure_file_shares=[afs(mount)])))
    assert path == "properties.mountVolumes.azureFileShares[0].relativeMountPath"


def test_mount_paths_unique() -> None:
    unmanaged = m.UnmanagedFileSystemReference(mount_command="mount x", relative_mount_path="afs")
    path, _ = only(
        job(mount_volumes=m.MountVolumes(azure_file_shares=[afs()], unmanaged_file_systems=[unmanaged]))
    )
    assert path == "properties.mountVolumes.unmanagedFileSystems[0].relativeMountPath"


def test_azure_file_url_form_share_and_account() -> None:
    assert only(job(mount_volumes=m.MountVolumes(azure_file_shares=[afs(url="ftp://x/y")])))[0].endswith(
        "azureFileUrl"
    )
    assert (
        "share name"
        in only(
            job(
                mount_volumes=m.MountVolumes(
                    azure_file_shares=[afs(url="https://acct.file.core.windows.net/Bad_Share")]
                )
            )
        )[1]
    )
    assert only(job(mount_volumes=m.MountVolumes(azure_file_shares=[afs(account_name="other")])))[0].endswith(
        "accountName"
    )


def test_blob_container_name() -> None:
    blob = m.AzureBlobFileSystemReference(
        account_name="a",
        container_name="Data",
        relative_mount_path="d",
        credentials=m.AzureStorageCredentialsInfo(account_key="k"),
    )
    assert only(job(mount_volumes=m.MountVolumes(azure_blob_file_systems=[blob])))[0].endswith(
        "containerName"
    )


def test_storage_credentials_exactly_one() -> None:
    creds = m.AzureStorageCredentialsInfo()
    path, _ = only(job(mount_volumes=m.MountVolumes(azure_file_shares=[afs(credentials=creds)])))
    assert path == "properties.mountVolumes.azureFileShares[0].credentials"
    local = job(mount_volumes=m.MountVolumes(azure_file_shares=[afs(credentials=None, account_name=None)]))
    assert m.validate_model(local, storage_credentials=False) == []


def test_registry_password_exactly_one() -> None:
    registry = m.ImageSourceRegistry(image="img", credentials=m.PrivateRegistryCredentials(username="u"))
    assert only(job(container_settings=m.ContainerSettings(image_source_registry=registry)))[0] == (
        "properties.containerSettings.imageSourceRegistry.credentials"
    )


# --- scale settings, disks, constraints ----------------------------------------------------------------------


def test_exactly_one_of_manual_and_auto_scale() -> None:
    both = m.ScaleSettings(
        manual=m.ManualScaleSettings(target_node_count=1),
        auto_scale=m.AutoScaleSettings(minimum_node_count=0, maximum_node_count=2),
    )
    assert only(cluster(scale_settings=both))[0] == "properties.scaleSettings"
    assert only(cluster(scale_settings=m.ScaleSettings()))[0] == "properties.scaleSettings"


def test_manual_target_not_negative() -> None:
    settings = m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=-1))
    assert only(cluster(scale_settings=settings))[0] == "properties.scaleSettings.manual.targetNodeCount"


def test_auto_scale_bounds() -> None:
    def auto(low: int, high: int, initial: int = 0) -> m.ClusterCreateParameters:
        return cluster(
            scale_settings=m.ScaleSettings(
                auto_scale=m.AutoScaleSettings(
                    minimum_node_count=low, maximum_node_count=high, initial_node_count=initial
                )
            )
        )

    assert m.validate_model(auto(0, 4, 2)) == []
    assert "must not exceed maximumNodeCount" in only(auto(5, 4))[1]
    assert only(auto(-1, 4))[0] == "properties.scaleSettings.autoScale.minimumNodeCount"
    assert only(auto(0, 4, -1))[0] == "properties.scaleSettings.autoScale.initialNodeCount"
    assert only(auto(0, 4, 5))[0] == "properties.scaleSettings.autoScale.initialNodeCount"


def test_data_disks_counts() -> None:
    server = m.FileServerCreateParameters(
        vm_size="STANDARD_D2",
        ssh_configuration=m.SshConfiguration(
            user_account_settings=m.UserAccountSettings(admin_user_name="a")
        ),
        data_disks=m.DataDisks(disk_size_in_gb=0, disk_count=1, storage_account_type="Standard_LRS"),
    )
    assert only(server) == ("properties.dataDisks.diskSizeInGB", "must be at least 1")


def test_wall_clock_positive() -> None:
    constraints = m.JobBasePropertiesConstraints(max_wall_clock_time=datetime.timedelta(0))
    assert only(job(constraints=constraints)) == (
        "properties.constraints.maxWallClockTime",
        "must be positive",
    )


def test_secrets_never_in_messages() -> None:
    bad = job(
        secrets=[m.EnvironmentVariableWithSecretValue(name="AZ_BATCHAI_X", value="SUPERSECRET")],
        mount_volumes=m.MountVolumes(
            azure_file_shares=[
                afs(credentials=m.AzureStorageCredentialsInfo(account_key="<AZURE_BATCHAI_STORAGE_KEY>"))
            ]
        ),
    )
    text = str(m.validate_model(bad)) + "".join(str(e) for e in bad.validate())
    assert "SUPERSECRET" not in text and "STORAGE_KEY" in text
