"""Job models: create parameters, the toolkit settings, directories, containers, output files."""

from __future__ import annotations

import datetime
from typing import Any, ClassVar

from ._base import _SEVEN_DAYS, _as_duration, _CreateParametersModel, _Model
from ._common import (
    BatchAIError,
    EnvironmentVariable,
    EnvironmentVariableWithSecretValue,
    KeyVaultSecretReference,
    MountVolumes,
    ProxyResource,
    ResourceId,
)
from ._enums import ExecutionState, FileType, JobPriority, ProvisioningState, ToolType

__all__ = [
    "CNTKsettings",
    "PyTorchSettings",
    "TensorFlowSettings",
    "CaffeSettings",
    "Caffe2Settings",
    "ChainerSettings",
    "CustomToolkitSettings",
    "CustomMpiSettings",
    "HorovodSettings",
    "PrivateRegistryCredentials",
    "ImageSourceRegistry",
    "ContainerSettings",
    "JobPreparation",
    "InputDirectory",
    "OutputDirectory",
    "JobBasePropertiesConstraints",
    "JobPropertiesConstraints",
    "JobPropertiesExecutionInfo",
    "JobCreateParameters",
    "Job",
    "JobListResult",
    "JobsListByExperimentOptions",
    "JobsListOutputFilesOptions",
    "File",
    "FileListResult",
]


class CNTKsettings(_Model):
    """CNTK toolkit: BrainScript (``config_file_path``) or Python (``python_script_file_path``)."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "language_type": {"key": "languageType", "type": "str"},
        "config_file_path": {"key": "configFilePath", "type": "str"},
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "command_line_args": {"key": "commandLineArgs", "type": "str"},
        "process_count": {"key": "processCount", "type": "int"},
    }

    def __init__(
        self,
        *,
        language_type: str | None = None,
        config_file_path: str | None = None,
        python_script_file_path: str | None = None,
        python_interpreter_path: str | None = None,
        command_line_args: str | None = None,
        process_count: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.language_type: str | None = language_type
        self.config_file_path: str | None = config_file_path
        self.python_script_file_path: str | None = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.command_line_args: str | None = command_line_args
        self.process_count: int | None = process_count


class PyTorchSettings(_Model):
    """PyTorch toolkit (tool type ``pytorch``)."""

    _validation: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "command_line_args": {"key": "commandLineArgs", "type": "str"},
        "process_count": {"key": "processCount", "type": "int"},
        "communication_backend": {"key": "communicationBackend", "type": "str"},
    }

    def __init__(
        self,
        *,
        python_script_file_path: str,
        python_interpreter_path: str | None = None,
        command_line_args: str | None = None,
        process_count: int | None = None,
        communication_backend: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.python_script_file_path: str = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.command_line_args: str | None = command_line_args
        self.process_count: int | None = process_count
        self.communication_backend: str | None = communication_backend


class TensorFlowSettings(_Model):
    """TensorFlow toolkit: master, or parameter servers and workers when distributed."""

    _validation: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "master_command_line_args": {"key": "masterCommandLineArgs", "type": "str"},
        "worker_command_line_args": {"key": "workerCommandLineArgs", "type": "str"},
        "parameter_server_command_line_args": {"key": "parameterServerCommandLineArgs", "type": "str"},
        "worker_count": {"key": "workerCount", "type": "int"},
        "parameter_server_count": {"key": "parameterServerCount", "type": "int"},
    }

    def __init__(
        self,
        *,
        python_script_file_path: str,
        python_interpreter_path: str | None = None,
        master_command_line_args: str | None = None,
        worker_command_line_args: str | None = None,
        parameter_server_command_line_args: str | None = None,
        worker_count: int | None = None,
        parameter_server_count: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.python_script_file_path: str = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.master_command_line_args: str | None = master_command_line_args
        self.worker_command_line_args: str | None = worker_command_line_args
        self.parameter_server_command_line_args: str | None = parameter_server_command_line_args
        self.worker_count: int | None = worker_count
        self.parameter_server_count: int | None = parameter_server_count


class CaffeSettings(_Model):
    """Caffe toolkit: ``config_file_path`` (solver) or ``python_script_file_path``."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "config_file_path": {"key": "configFilePath", "type": "str"},
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "command_line_args": {"key": "commandLineArgs", "type": "str"},
        "process_count": {"key": "processCount", "type": "int"},
    }

    def __init__(
        self,
        *,
        config_file_path: str | None = None,
        python_script_file_path: str | None = None,
        python_interpreter_path: str | None = None,
        command_line_args: str | None = None,
        process_count: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.config_file_path: str | None = config_file_path
        self.python_script_file_path: str | None = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.command_line_args: str | None = command_line_args
        self.process_count: int | None = process_count


class Caffe2Settings(_Model):
    """Caffe2 toolkit: one process per node."""

    _validation: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "command_line_args": {"key": "commandLineArgs", "type": "str"},
    }

    def __init__(
        self,
        *,
        python_script_file_path: str,
        python_interpreter_path: str | None = None,
        command_line_args: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.python_script_file_path: str = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.command_line_args: str | None = command_line_args


class ChainerSettings(_Model):
    """Chainer(MN) toolkit, run under MPI."""

    _validation: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "command_line_args": {"key": "commandLineArgs", "type": "str"},
        "process_count": {"key": "processCount", "type": "int"},
    }

    def __init__(
        self,
        *,
        python_script_file_path: str,
        python_interpreter_path: str | None = None,
        command_line_args: str | None = None,
        process_count: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.python_script_file_path: str = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.command_line_args: str | None = command_line_args
        self.process_count: int | None = process_count


class CustomToolkitSettings(_Model):
    """A command line run on the job's first node."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "command_line": {"key": "commandLine", "type": "str"},
    }

    def __init__(self, *, command_line: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.command_line: str | None = command_line


class CustomMpiSettings(_Model):
    """A command line run by the MPI runtime on every node."""

    _validation: dict[str, dict[str, Any]] = {
        "command_line": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "command_line": {"key": "commandLine", "type": "str"},
        "process_count": {"key": "processCount", "type": "int"},
    }

    def __init__(self, *, command_line: str, process_count: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.command_line: str = command_line
        self.process_count: int | None = process_count


class HorovodSettings(_Model):
    """Horovod: a Python script run under MPI."""

    _validation: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "python_script_file_path": {"key": "pythonScriptFilePath", "type": "str"},
        "python_interpreter_path": {"key": "pythonInterpreterPath", "type": "str"},
        "command_line_args": {"key": "commandLineArgs", "type": "str"},
        "process_count": {"key": "processCount", "type": "int"},
    }

    def __init__(
        self,
        *,
        python_script_file_path: str,
        python_interpreter_path: str | None = None,
        command_line_args: str | None = None,
        process_count: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.python_script_file_path: str = python_script_file_path
        self.python_interpreter_path: str | None = python_interpreter_path
        self.command_line_args: str | None = command_line_args
        self.process_count: int | None = process_count


class PrivateRegistryCredentials(_Model):
    """Docker registry credentials. The password never shows in repr()."""

    _validation: dict[str, dict[str, Any]] = {
        "username": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "username": {"key": "username", "type": "str"},
        "password": {"key": "password", "type": "str"},
        "password_secret_reference": {"key": "passwordSecretReference", "type": "KeyVaultSecretReference"},
    }

    _secret_attributes: ClassVar[frozenset[str]] = frozenset({"password"})

    def __init__(
        self,
        *,
        username: str,
        password: str | None = None,
        password_secret_reference: KeyVaultSecretReference | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.username: str = username
        self.password: str | None = password
        self.password_secret_reference: KeyVaultSecretReference | None = password_secret_reference


class ImageSourceRegistry(_Model):
    """A container image and the registry it comes from."""

    _validation: dict[str, dict[str, Any]] = {
        "image": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "server_url": {"key": "serverUrl", "type": "str"},
        "image": {"key": "image", "type": "str"},
        "credentials": {"key": "credentials", "type": "PrivateRegistryCredentials"},
    }

    def __init__(
        self,
        *,
        image: str,
        server_url: str | None = None,
        credentials: PrivateRegistryCredentials | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.server_url: str | None = server_url
        self.image: str = image
        self.credentials: PrivateRegistryCredentials | None = credentials


class ContainerSettings(_Model):
    """Run the job in a container (else directly on the node)."""

    _validation: dict[str, dict[str, Any]] = {
        "image_source_registry": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "image_source_registry": {"key": "imageSourceRegistry", "type": "ImageSourceRegistry"},
        "shm_size": {"key": "shmSize", "type": "str"},
    }

    def __init__(
        self,
        *,
        image_source_registry: ImageSourceRegistry,
        shm_size: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.image_source_registry: ImageSourceRegistry = image_source_registry
        self.shm_size: str | None = shm_size


class JobPreparation(_Model):
    """A command run on every node of the job before the toolkit starts."""

    _validation: dict[str, dict[str, Any]] = {
        "command_line": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "command_line": {"key": "commandLine", "type": "str"},
    }

    def __init__(self, *, command_line: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.command_line: str = command_line


class InputDirectory(_Model):
    """An input directory, exposed as ``$AZ_BATCHAI_INPUT_<id>``."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"required": True},
        "path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "path": {"key": "path", "type": "str"},
    }

    def __init__(self, *, id: str, path: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str = id
        self.path: str = path


class OutputDirectory(_Model):
    """An output directory, created and exposed as ``$AZ_BATCHAI_OUTPUT_<id>``."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"required": True},
        "path_prefix": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "path_prefix": {"key": "pathPrefix", "type": "str"},
        "path_suffix": {"key": "pathSuffix", "type": "str"},
    }

    def __init__(self, *, id: str, path_prefix: str, path_suffix: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str = id
        self.path_prefix: str = path_prefix
        self.path_suffix: str | None = path_suffix


class JobBasePropertiesConstraints(_Model):
    """Job constraints of a create request; ``max_wall_clock_time`` defaults to 7 days (fixed Q3)."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_wall_clock_time": {"key": "maxWallClockTime", "type": "duration"},
    }

    def __init__(
        self, *, max_wall_clock_time: datetime.timedelta | None = _SEVEN_DAYS, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.max_wall_clock_time: datetime.timedelta | None = _as_duration(max_wall_clock_time)


class JobPropertiesConstraints(_Model):
    """Job constraints as the service reports them."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_wall_clock_time": {"key": "maxWallClockTime", "type": "duration"},
    }

    def __init__(
        self, *, max_wall_clock_time: datetime.timedelta | None = _SEVEN_DAYS, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.max_wall_clock_time: datetime.timedelta | None = _as_duration(max_wall_clock_time)


class JobPropertiesExecutionInfo(_Model):
    """Start, end, exit code and errors of a job."""

    _validation: dict[str, dict[str, Any]] = {
        "start_time": {"readonly": True},
        "end_time": {"readonly": True},
        "exit_code": {"readonly": True},
        "errors": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "start_time": {"key": "startTime", "type": "iso-8601"},
        "end_time": {"key": "endTime", "type": "iso-8601"},
        "exit_code": {"key": "exitCode", "type": "int"},
        "errors": {"key": "errors", "type": "[BatchAIError]"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_time: datetime.datetime | None = None
        self.end_time: datetime.datetime | None = None
        self.exit_code: int | None = None
        self.errors: list[BatchAIError] | None = None


class JobCreateParameters(_CreateParametersModel):
    """Body of a job create request; ``cluster``, ``node_count`` and ``std_out_err_path_prefix`` are required (fixed Q1)."""

    _validation: dict[str, dict[str, Any]] = {
        "cluster": {"required": True},
        "node_count": {"required": True},
        "std_out_err_path_prefix": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "scheduling_priority": {"key": "properties.schedulingPriority", "type": "str"},
        "cluster": {"key": "properties.cluster", "type": "ResourceId"},
        "mount_volumes": {"key": "properties.mountVolumes", "type": "MountVolumes"},
        "node_count": {"key": "properties.nodeCount", "type": "int"},
        "container_settings": {"key": "properties.containerSettings", "type": "ContainerSettings"},
        "cntk_settings": {"key": "properties.cntkSettings", "type": "CNTKsettings"},
        "py_torch_settings": {"key": "properties.pyTorchSettings", "type": "PyTorchSettings"},
        "tensor_flow_settings": {"key": "properties.tensorFlowSettings", "type": "TensorFlowSettings"},
        "caffe_settings": {"key": "properties.caffeSettings", "type": "CaffeSettings"},
        "caffe2_settings": {"key": "properties.caffe2Settings", "type": "Caffe2Settings"},
        "chainer_settings": {"key": "properties.chainerSettings", "type": "ChainerSettings"},
        "custom_toolkit_settings": {
            "key": "properties.customToolkitSettings",
            "type": "CustomToolkitSettings",
        },
        "custom_mpi_settings": {"key": "properties.customMpiSettings", "type": "CustomMpiSettings"},
        "horovod_settings": {"key": "properties.horovodSettings", "type": "HorovodSettings"},
        "job_preparation": {"key": "properties.jobPreparation", "type": "JobPreparation"},
        "std_out_err_path_prefix": {"key": "properties.stdOutErrPathPrefix", "type": "str"},
        "input_directories": {"key": "properties.inputDirectories", "type": "[InputDirectory]"},
        "output_directories": {"key": "properties.outputDirectories", "type": "[OutputDirectory]"},
        "environment_variables": {"key": "properties.environmentVariables", "type": "[EnvironmentVariable]"},
        "secrets": {"key": "properties.secrets", "type": "[EnvironmentVariableWithSecretValue]"},
        "constraints": {"key": "properties.constraints", "type": "JobBasePropertiesConstraints"},
    }

    def __init__(
        self,
        *,
        scheduling_priority: str | JobPriority | None = "normal",
        cluster: ResourceId | None = None,
        mount_volumes: MountVolumes | None = None,
        node_count: int | None = None,
        container_settings: ContainerSettings | None = None,
        cntk_settings: CNTKsettings | None = None,
        py_torch_settings: PyTorchSettings | None = None,
        tensor_flow_settings: TensorFlowSettings | None = None,
        caffe_settings: CaffeSettings | None = None,
        caffe2_settings: Caffe2Settings | None = None,
        chainer_settings: ChainerSettings | None = None,
        custom_toolkit_settings: CustomToolkitSettings | None = None,
        custom_mpi_settings: CustomMpiSettings | None = None,
        horovod_settings: HorovodSettings | None = None,
        job_preparation: JobPreparation | None = None,
        std_out_err_path_prefix: str | None = None,
        input_directories: list[InputDirectory] | None = None,
        output_directories: list[OutputDirectory] | None = None,
        environment_variables: list[EnvironmentVariable] | None = None,
        secrets: list[EnvironmentVariableWithSecretValue] | None = None,
        constraints: JobBasePropertiesConstraints | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.scheduling_priority: str | JobPriority | None = scheduling_priority
        self.cluster: ResourceId | None = cluster
        self.mount_volumes: MountVolumes | None = mount_volumes
        self.node_count: int | None = node_count
        self.container_settings: ContainerSettings | None = container_settings
        self.cntk_settings: CNTKsettings | None = cntk_settings
        self.py_torch_settings: PyTorchSettings | None = py_torch_settings
        self.tensor_flow_settings: TensorFlowSettings | None = tensor_flow_settings
        self.caffe_settings: CaffeSettings | None = caffe_settings
        self.caffe2_settings: Caffe2Settings | None = caffe2_settings
        self.chainer_settings: ChainerSettings | None = chainer_settings
        self.custom_toolkit_settings: CustomToolkitSettings | None = custom_toolkit_settings
        self.custom_mpi_settings: CustomMpiSettings | None = custom_mpi_settings
        self.horovod_settings: HorovodSettings | None = horovod_settings
        self.job_preparation: JobPreparation | None = job_preparation
        self.std_out_err_path_prefix: str | None = std_out_err_path_prefix
        self.input_directories: list[InputDirectory] | None = input_directories
        self.output_directories: list[OutputDirectory] | None = output_directories
        self.environment_variables: list[EnvironmentVariable] | None = environment_variables
        self.secrets: list[EnvironmentVariableWithSecretValue] | None = secrets
        self.constraints: JobBasePropertiesConstraints | None = constraints


class Job(ProxyResource):
    """A job as the service reports it."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
        "job_output_directory_path_segment": {"readonly": True},
        "creation_time": {"readonly": True},
        "provisioning_state": {"readonly": True},
        "provisioning_state_transition_time": {"readonly": True},
        "execution_state": {"readonly": True},
        "execution_state_transition_time": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
        "scheduling_priority": {"key": "properties.schedulingPriority", "type": "str"},
        "cluster": {"key": "properties.cluster", "type": "ResourceId"},
        "mount_volumes": {"key": "properties.mountVolumes", "type": "MountVolumes"},
        "node_count": {"key": "properties.nodeCount", "type": "int"},
        "container_settings": {"key": "properties.containerSettings", "type": "ContainerSettings"},
        "tool_type": {"key": "properties.toolType", "type": "str"},
        "cntk_settings": {"key": "properties.cntkSettings", "type": "CNTKsettings"},
        "py_torch_settings": {"key": "properties.pyTorchSettings", "type": "PyTorchSettings"},
        "tensor_flow_settings": {"key": "properties.tensorFlowSettings", "type": "TensorFlowSettings"},
        "caffe_settings": {"key": "properties.caffeSettings", "type": "CaffeSettings"},
        "caffe2_settings": {"key": "properties.caffe2Settings", "type": "Caffe2Settings"},
        "chainer_settings": {"key": "properties.chainerSettings", "type": "ChainerSettings"},
        "custom_toolkit_settings": {
            "key": "properties.customToolkitSettings",
            "type": "CustomToolkitSettings",
        },
        "custom_mpi_settings": {"key": "properties.customMpiSettings", "type": "CustomMpiSettings"},
        "horovod_settings": {"key": "properties.horovodSettings", "type": "HorovodSettings"},
        "job_preparation": {"key": "properties.jobPreparation", "type": "JobPreparation"},
        "job_output_directory_path_segment": {
            "key": "properties.jobOutputDirectoryPathSegment",
            "type": "str",
        },
        "std_out_err_path_prefix": {"key": "properties.stdOutErrPathPrefix", "type": "str"},
        "input_directories": {"key": "properties.inputDirectories", "type": "[InputDirectory]"},
        "output_directories": {"key": "properties.outputDirectories", "type": "[OutputDirectory]"},
        "environment_variables": {"key": "properties.environmentVariables", "type": "[EnvironmentVariable]"},
        "secrets": {"key": "properties.secrets", "type": "[EnvironmentVariableWithSecretValue]"},
        "constraints": {"key": "properties.constraints", "type": "JobPropertiesConstraints"},
        "creation_time": {"key": "properties.creationTime", "type": "iso-8601"},
        "provisioning_state": {"key": "properties.provisioningState", "type": "str"},
        "provisioning_state_transition_time": {
            "key": "properties.provisioningStateTransitionTime",
            "type": "iso-8601",
        },
        "execution_state": {"key": "properties.executionState", "type": "str"},
        "execution_state_transition_time": {
            "key": "properties.executionStateTransitionTime",
            "type": "iso-8601",
        },
        "execution_info": {"key": "properties.executionInfo", "type": "JobPropertiesExecutionInfo"},
    }

    def __init__(
        self,
        *,
        scheduling_priority: str | JobPriority | None = None,
        cluster: ResourceId | None = None,
        mount_volumes: MountVolumes | None = None,
        node_count: int | None = None,
        container_settings: ContainerSettings | None = None,
        tool_type: str | ToolType | None = None,
        cntk_settings: CNTKsettings | None = None,
        py_torch_settings: PyTorchSettings | None = None,
        tensor_flow_settings: TensorFlowSettings | None = None,
        caffe_settings: CaffeSettings | None = None,
        caffe2_settings: Caffe2Settings | None = None,
        chainer_settings: ChainerSettings | None = None,
        custom_toolkit_settings: CustomToolkitSettings | None = None,
        custom_mpi_settings: CustomMpiSettings | None = None,
        horovod_settings: HorovodSettings | None = None,
        job_preparation: JobPreparation | None = None,
        std_out_err_path_prefix: str | None = None,
        input_directories: list[InputDirectory] | None = None,
        output_directories: list[OutputDirectory] | None = None,
        environment_variables: list[EnvironmentVariable] | None = None,
        secrets: list[EnvironmentVariableWithSecretValue] | None = None,
        constraints: JobPropertiesConstraints | None = None,
        execution_info: JobPropertiesExecutionInfo | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None
        self.scheduling_priority: str | JobPriority | None = scheduling_priority
        self.cluster: ResourceId | None = cluster
        self.mount_volumes: MountVolumes | None = mount_volumes
        self.node_count: int | None = node_count
        self.container_settings: ContainerSettings | None = container_settings
        self.tool_type: str | ToolType | None = tool_type
        self.cntk_settings: CNTKsettings | None = cntk_settings
        self.py_torch_settings: PyTorchSettings | None = py_torch_settings
        self.tensor_flow_settings: TensorFlowSettings | None = tensor_flow_settings
        self.caffe_settings: CaffeSettings | None = caffe_settings
        self.caffe2_settings: Caffe2Settings | None = caffe2_settings
        self.chainer_settings: ChainerSettings | None = chainer_settings
        self.custom_toolkit_settings: CustomToolkitSettings | None = custom_toolkit_settings
        self.custom_mpi_settings: CustomMpiSettings | None = custom_mpi_settings
        self.horovod_settings: HorovodSettings | None = horovod_settings
        self.job_preparation: JobPreparation | None = job_preparation
        self.job_output_directory_path_segment: str | None = None
        self.std_out_err_path_prefix: str | None = std_out_err_path_prefix
        self.input_directories: list[InputDirectory] | None = input_directories
        self.output_directories: list[OutputDirectory] | None = output_directories
        self.environment_variables: list[EnvironmentVariable] | None = environment_variables
        self.secrets: list[EnvironmentVariableWithSecretValue] | None = secrets
        self.constraints: JobPropertiesConstraints | None = constraints
        self.creation_time: datetime.datetime | None = None
        self.provisioning_state: str | ProvisioningState | None = None
        self.provisioning_state_transition_time: datetime.datetime | None = None
        self.execution_state: str | ExecutionState | None = None
        self.execution_state_transition_time: datetime.datetime | None = None
        self.execution_info: JobPropertiesExecutionInfo | None = execution_info


class JobListResult(_Model):
    """A page of jobs."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[Job]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[Job] | None = None
        self.next_link: str | None = None


class JobsListByExperimentOptions(_Model):
    """Paging options for listing jobs."""

    _validation: dict[str, dict[str, Any]] = {
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(self, *, max_results: int | None = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_results: int | None = max_results


class JobsListOutputFilesOptions(_Model):
    """Which output directory (or ``stdouterr``) to list, and how."""

    _validation: dict[str, dict[str, Any]] = {
        "outputdirectoryid": {"required": True},
        "linkexpiryinminutes": {"minimum": 5, "maximum": 600},
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "outputdirectoryid": {"key": "outputdirectoryid", "type": "str"},
        "directory": {"key": "directory", "type": "str"},
        "linkexpiryinminutes": {"key": "linkexpiryinminutes", "type": "int"},
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(
        self,
        *,
        outputdirectoryid: str,
        directory: str | None = ".",
        linkexpiryinminutes: int | None = 60,
        max_results: int | None = 1000,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.outputdirectoryid: str = outputdirectoryid
        self.directory: str | None = directory
        self.linkexpiryinminutes: int | None = linkexpiryinminutes
        self.max_results: int | None = max_results


class File(_Model):
    """A file or directory in a job's output."""

    _validation: dict[str, dict[str, Any]] = {
        "name": {"readonly": True},
        "file_type": {"readonly": True},
        "download_url": {"readonly": True},
        "last_modified": {"readonly": True},
        "content_length": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "name": {"key": "name", "type": "str"},
        "file_type": {"key": "fileType", "type": "str"},
        "download_url": {"key": "downloadUrl", "type": "str"},
        "last_modified": {"key": "properties.lastModified", "type": "iso-8601"},
        "content_length": {"key": "properties.contentLength", "type": "long"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.name: str | None = None
        self.file_type: str | FileType | None = None
        self.download_url: str | None = None
        self.last_modified: datetime.datetime | None = None
        self.content_length: int | None = None


class FileListResult(_Model):
    """A page of output files."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[File]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[File] | None = None
        self.next_link: str | None = None
