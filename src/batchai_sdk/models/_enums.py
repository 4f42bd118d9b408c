"""The enums of Batch AI 2018-05-01 (values as the service wrote them).

Enum-typed attributes are typed ``str`` on the wire, so a value the enum does not know (a newer service, or
``"pytorch"`` before :class:`ToolType` had it) still deserializes, as a plain string.
"""

from __future__ import annotations

from enum import Enum

from azure.core import CaseInsensitiveEnumMeta

__all__ = [
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
]


class AllocationState(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Whether a cluster is resizing."""

    STEADY = "steady"
    RESIZING = "resizing"


class CachingType(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Host caching of a file server's data disks."""

    NONE = "none"
    READONLY = "readonly"
    READWRITE = "readwrite"


class DeallocationOption(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """What happens to running jobs when a cluster shrinks."""

    REQUEUE = "requeue"
    TERMINATE = "terminate"
    WAITFORJOBCOMPLETION = "waitforjobcompletion"


class ExecutionState(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """A job's execution state: queued → running → (terminating) → succeeded/failed."""

    QUEUED = "queued"
    RUNNING = "running"
    TERMINATING = "terminating"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class FileServerProvisioningState(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Provisioning state of a file server."""

    CREATING = "creating"
    UPDATING = "updating"
    DELETING = "deleting"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class FileType(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Kind of an entry returned by ``list_output_files``."""

    FILE = "file"
    DIRECTORY = "directory"


class JobPriority(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Scheduling priority of a job (high before normal before low)."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class ProvisioningState(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Provisioning state of workspaces, experiments, clusters and jobs."""

    CREATING = "creating"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    DELETING = "deleting"


class StorageAccountType(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Storage type of a file server's data disks."""

    STANDARD_LRS = "Standard_LRS"
    PREMIUM_LRS = "Premium_LRS"


class ToolType(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """The toolkit the service derived from the one ``*Settings`` object of a job.

    ``PYTORCH`` is missing from azure-mgmt-batchai 7.0.0 although the service reported ``"pytorch"``.
    """

    CNTK = "cntk"
    TENSORFLOW = "tensorflow"
    CAFFE = "caffe"
    CAFFE2 = "caffe2"
    CHAINER = "chainer"
    HOROVOD = "horovod"
    CUSTOMMPI = "custommpi"
    CUSTOM = "custom"
    PYTORCH = "pytorch"


class UsageUnit(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Unit of a usage counter."""

    COUNT = "Count"


class VmPriority(str, Enum, metaclass=CaseInsensitiveEnumMeta):
    """Dedicated or low-priority (pre-emptible) VMs."""

    DEDICATED = "dedicated"
    LOWPRIORITY = "lowpriority"
