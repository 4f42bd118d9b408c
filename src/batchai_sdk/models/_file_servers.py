"""File server models (NFS server VMs)."""

from __future__ import annotations

import datetime
from typing import Any

from ._base import _CreateParametersModel, _Model
from ._common import ProxyResource, ResourceId, UserAccountSettings
from ._enums import CachingType, FileServerProvisioningState, StorageAccountType

__all__ = [
    "SshConfiguration",
    "DataDisks",
    "MountSettings",
    "FileServerCreateParameters",
    "FileServer",
    "FileServerListResult",
    "FileServersListByWorkspaceOptions",
]


class SshConfiguration(_Model):
    """SSH access to a file server."""

    _validation: dict[str, dict[str, Any]] = {
        "user_account_settings": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "public_ips_to_allow": {"key": "publicIPsToAllow", "type": "[str]"},
        "user_account_settings": {"key": "userAccountSettings", "type": "UserAccountSettings"},
    }

    def __init__(
        self,
        *,
        user_account_settings: UserAccountSettings,
        public_ips_to_allow: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.public_ips_to_allow: list[str] | None = public_ips_to_allow
        self.user_account_settings: UserAccountSettings = user_account_settings


class DataDisks(_Model):
    """The data disks of a file server (several disks form a RAID 0)."""

    _validation: dict[str, dict[str, Any]] = {
        "disk_size_in_gb": {"required": True},
        "disk_count": {"required": True},
        "storage_account_type": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "disk_size_in_gb": {"key": "diskSizeInGB", "type": "int"},
        "caching_type": {"key": "cachingType", "type": "str"},
        "disk_count": {"key": "diskCount", "type": "int"},
        "storage_account_type": {"key": "storageAccountType", "type": "str"},
    }

    def __init__(
        self,
        *,
        disk_size_in_gb: int,
        disk_count: int,
        storage_account_type: str | StorageAccountType,
        caching_type: str | CachingType | None = "none",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.disk_size_in_gb: int = disk_size_in_gb
        self.caching_type: str | CachingType | None = caching_type
        self.disk_count: int = disk_count
        self.storage_account_type: str | StorageAccountType = storage_account_type


class MountSettings(_Model):
    """Where a file server is mounted from."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "mount_point": {"key": "mountPoint", "type": "str"},
        "file_server_public_ip": {"key": "fileServerPublicIP", "type": "str"},
        "file_server_internal_ip": {"key": "fileServerInternalIP", "type": "str"},
    }

    def __init__(
        self,
        *,
        mount_point: str | None = None,
        file_server_public_ip: str | None = None,
        file_server_internal_ip: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.mount_point: str | None = mount_point
        self.file_server_public_ip: str | None = file_server_public_ip
        self.file_server_internal_ip: str | None = file_server_internal_ip


class FileServerCreateParameters(_CreateParametersModel):
    """Body of a file server create request; ``vm_size``, ``ssh_configuration`` and ``data_disks`` are required."""

    _validation: dict[str, dict[str, Any]] = {
        "vm_size": {"required": True},
        "ssh_configuration": {"required": True},
        "data_disks": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "vm_size": {"key": "properties.vmSize", "type": "str"},
        "ssh_configuration": {"key": "properties.sshConfiguration", "type": "SshConfiguration"},
        "data_disks": {"key": "properties.dataDisks", "type": "DataDisks"},
        "subnet": {"key": "properties.subnet", "type": "ResourceId"},
    }

    def __init__(
        self,
        *,
        vm_size: str | None = None,
        ssh_configuration: SshConfiguration | None = None,
        data_disks: DataDisks | None = None,
        subnet: ResourceId | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.vm_size: str | None = vm_size
        self.ssh_configuration: SshConfiguration | None = ssh_configuration
        self.data_disks: DataDisks | None = data_disks
        self.subnet: ResourceId | None = subnet


class FileServer(ProxyResource):
    """A file server as the service reports it."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
        "mount_settings": {"readonly": True},
        "provisioning_state_transition_time": {"readonly": True},
        "creation_time": {"readonly": True},
        "provisioning_state": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
        "vm_size": {"key": "properties.vmSize", "type": "str"},
        "ssh_configuration": {"key": "properties.sshConfiguration", "type": "SshConfiguration"},
        "data_disks": {"key": "properties.dataDisks", "type": "DataDisks"},
        "subnet": {"key": "properties.subnet", "type": "ResourceId"},
        "mount_settings": {"key": "properties.mountSettings", "type": "MountSettings"},
        "provisioning_state_transition_time": {
            "key": "properties.provisioningStateTransitionTime",
            "type": "iso-8601",
        },
        "creation_time": {"key": "properties.creationTime", "type": "iso-8601"},
        "provisioning_state": {"key": "properties.provisioningState", "type": "str"},
    }

    def __init__(
        self,
        *,
        vm_size: str | None = None,
        ssh_configuration: SshConfiguration | None = None,
        data_disks: DataDisks | None = None,
        subnet: ResourceId | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None
        self.vm_size: str | None = vm_size
        self.ssh_configuration: SshConfiguration | None = ssh_configuration
        self.data_disks: DataDisks | None = data_disks
        self.subnet: ResourceId | None = subnet
        self.mount_settings: MountSettings | None = None
        self.provisioning_state_transition_time: datetime.datetime | None = None
        self.creation_time: datetime.datetime | None = None
        self.provisioning_state: str | FileServerProvisioningState | None = None


class FileServerListResult(_Model):
    """A page of file servers."""

    _validation: dict[str, dict[str, Any]] = {
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[FileServer]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, *, value: list[FileServer] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[FileServer] | None = value
        self.next_link: str | None = None


class FileServersListByWorkspaceOptions(_Model):
    """Paging options for listing file servers."""

    _validation: dict[str, dict[str, Any]] = {
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(self, *, max_results: int | None = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_results: int | None = max_results
