"""Models shared by several resource families: ids, secrets, environment variables, mounts, errors, usages."""

from __future__ import annotations

from typing import Any, ClassVar

from ._base import _Model
from ._enums import UsageUnit

__all__ = [
    "ResourceId",
    "ProxyResource",
    "Resource",
    "KeyVaultSecretReference",
    "AzureStorageCredentialsInfo",
    "EnvironmentVariable",
    "EnvironmentVariableWithSecretValue",
    "NameValuePair",
    "BatchAIError",
    "CloudErrorBody",
    "AzureFileShareReference",
    "AzureBlobFileSystemReference",
    "FileServerReference",
    "UnmanagedFileSystemReference",
    "MountVolumes",
    "UserAccountSettings",
    "RemoteLoginInformation",
    "RemoteLoginInformationListResult",
    "Operation",
    "OperationDisplay",
    "OperationListResult",
    "Usage",
    "UsageName",
    "ListUsagesResult",
]


class ResourceId(_Model):
    """A reference to another Azure resource by ARM id."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
    }

    def __init__(self, *, id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str = id


class ProxyResource(_Model):
    """Base of resources without location and tags (clusters, file servers, experiments, jobs)."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None


class Resource(_Model):
    """Base of tracked resources (workspaces): location and tags are read-only."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
        "location": {"readonly": True},
        "tags": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
        "location": {"key": "location", "type": "str"},
        "tags": {"key": "tags", "type": "{str}"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None
        self.location: str | None = None
        self.tags: dict[str, str] | None = None


class KeyVaultSecretReference(_Model):
    """A secret stored in Azure Key Vault (vault id + secret URL)."""

    _validation: dict[str, dict[str, Any]] = {
        "source_vault": {"required": True},
        "secret_url": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "source_vault": {"key": "sourceVault", "type": "ResourceId"},
        "secret_url": {"key": "secretUrl", "type": "str"},
    }

    def __init__(self, *, source_vault: ResourceId, secret_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source_vault: ResourceId = source_vault
        self.secret_url: str = secret_url


class AzureStorageCredentialsInfo(_Model):
    """Storage account key, given directly or through Key Vault. The key never shows in repr()."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "account_key": {"key": "accountKey", "type": "str"},
        "account_key_secret_reference": {
            "key": "accountKeySecretReference",
            "type": "KeyVaultSecretReference",
        },
    }

    _secret_attributes: ClassVar[frozenset[str]] = frozenset({"account_key"})

    def __init__(
        self,
        *,
        account_key: str | None = None,
        account_key_secret_reference: KeyVaultSecretReference | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.account_key: str | None = account_key
        self.account_key_secret_reference: KeyVaultSecretReference | None = account_key_secret_reference


class EnvironmentVariable(_Model):
    """A name/value environment variable for a job or setup task."""

    _validation: dict[str, dict[str, Any]] = {
        "name": {"required": True},
        "value": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "name": {"key": "name", "type": "str"},
        "value": {"key": "value", "type": "str"},
    }

    def __init__(self, *, name: str, value: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.name: str = name
        self.value: str = value


class EnvironmentVariableWithSecretValue(_Model):
    """A secret environment variable; the service never reports the value back."""

    _validation: dict[str, dict[str, Any]] = {
        "name": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "name": {"key": "name", "type": "str"},
        "value": {"key": "value", "type": "str"},
        "value_secret_reference": {"key": "valueSecretReference", "type": "KeyVaultSecretReference"},
    }

    _secret_attributes: ClassVar[frozenset[str]] = frozenset({"value"})

    def __init__(
        self,
        *,
        name: str,
        value: str | None = None,
        value_secret_reference: KeyVaultSecretReference | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.name: str = name
        self.value: str | None = value
        self.value_secret_reference: KeyVaultSecretReference | None = value_secret_reference


class NameValuePair(_Model):
    """A name/value pair (error details)."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "name": {"key": "name", "type": "str"},
        "value": {"key": "value", "type": "str"},
    }

    def __init__(self, *, name: str | None = None, value: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.name: str | None = name
        self.value: str | None = value


class BatchAIError(_Model):
    """An error reported on a cluster or job."""

    _validation: dict[str, dict[str, Any]] = {
        "code": {"readonly": True},
        "message": {"readonly": True},
        "details": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "code": {"key": "code", "type": "str"},
        "message": {"key": "message", "type": "str"},
        "details": {"key": "details", "type": "[NameValuePair]"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code: str | None = None
        self.message: str | None = None
        self.details: list[NameValuePair] | None = None


class CloudErrorBody(_Model):
    """The ARM error body."""

    _validation: dict[str, dict[str, Any]] = {
        "code": {"readonly": True},
        "message": {"readonly": True},
        "target": {"readonly": True},
        "details": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "code": {"key": "code", "type": "str"},
        "message": {"key": "message", "type": "str"},
        "target": {"key": "target", "type": "str"},
        "details": {"key": "details", "type": "[CloudErrorBody]"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code: str | None = None
        self.message: str | None = None
        self.target: str | None = None
        self.details: list[CloudErrorBody] | None = None


class AzureFileShareReference(_Model):
    """An Azure file share mounted at ``$AZ_BATCHAI_[JOB_]MOUNT_ROOT/<relativeMountPath>``."""

    _validation: dict[str, dict[str, Any]] = {
        "account_name": {"required": True},
        "azure_file_url": {"required": True},
        "credentials": {"required": True},
        "relative_mount_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "account_name": {"key": "accountName", "type": "str"},
        "azure_file_url": {"key": "azureFileUrl", "type": "str"},
        "credentials": {"key": "credentials", "type": "AzureStorageCredentialsInfo"},
        "relative_mount_path": {"key": "relativeMountPath", "type": "str"},
        "file_mode": {"key": "fileMode", "type": "str"},
        "directory_mode": {"key": "directoryMode", "type": "str"},
    }

    def __init__(
        self,
        *,
        account_name: str,
        azure_file_url: str,
        credentials: AzureStorageCredentialsInfo,
        relative_mount_path: str,
        file_mode: str | None = "0777",
        directory_mode: str | None = "0777",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.account_name: str = account_name
        self.azure_file_url: str = azure_file_url
        self.credentials: AzureStorageCredentialsInfo = credentials
        self.relative_mount_path: str = relative_mount_path
        self.file_mode: str | None = file_mode
        self.directory_mode: str | None = directory_mode


class AzureBlobFileSystemReference(_Model):
    """A blob container mounted with blobfuse."""

    _validation: dict[str, dict[str, Any]] = {
        "account_name": {"required": True},
        "container_name": {"required": True},
        "credentials": {"required": True},
        "relative_mount_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "account_name": {"key": "accountName", "type": "str"},
        "container_name": {"key": "containerName", "type": "str"},
        "credentials": {"key": "credentials", "type": "AzureStorageCredentialsInfo"},
        "relative_mount_path": {"key": "relativeMountPath", "type": "str"},
        "mount_options": {"key": "mountOptions", "type": "str"},
    }

    def __init__(
        self,
        *,
        account_name: str,
        container_name: str,
        credentials: AzureStorageCredentialsInfo,
        relative_mount_path: str,
        mount_options: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.account_name: str = account_name
        self.container_name: str = container_name
        self.credentials: AzureStorageCredentialsInfo = credentials
        self.relative_mount_path: str = relative_mount_path
        self.mount_options: str | None = mount_options


class FileServerReference(_Model):
    """A Batch AI file server (NFS) mount."""

    _validation: dict[str, dict[str, Any]] = {
        "file_server": {"required": True},
        "relative_mount_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "file_server": {"key": "fileServer", "type": "ResourceId"},
        "source_directory": {"key": "sourceDirectory", "type": "str"},
        "relative_mount_path": {"key": "relativeMountPath", "type": "str"},
        "mount_options": {"key": "mountOptions", "type": "str"},
    }

    def __init__(
        self,
        *,
        file_server: ResourceId,
        relative_mount_path: str,
        source_directory: str | None = None,
        mount_options: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.file_server: ResourceId = file_server
        self.source_directory: str | None = source_directory
        self.relative_mount_path: str = relative_mount_path
        self.mount_options: str | None = mount_options


class UnmanagedFileSystemReference(_Model):
    """A file system mounted by a user command (the mount path is appended)."""

    _validation: dict[str, dict[str, Any]] = {
        "mount_command": {"required": True},
        "relative_mount_path": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "mount_command": {"key": "mountCommand", "type": "str"},
        "relative_mount_path": {"key": "relativeMountPath", "type": "str"},
    }

    def __init__(self, *, mount_command: str, relative_mount_path: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mount_command: str = mount_command
        self.relative_mount_path: str = relative_mount_path


class MountVolumes(_Model):
    """The file systems mounted on a cluster (node setup) or for one job."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "azure_file_shares": {"key": "azureFileShares", "type": "[AzureFileShareReference]"},
        "azure_blob_file_systems": {"key": "azureBlobFileSystems", "type": "[AzureBlobFileSystemReference]"},
        "file_servers": {"key": "fileServers", "type": "[FileServerReference]"},
        "unmanaged_file_systems": {"key": "unmanagedFileSystems", "type": "[UnmanagedFileSystemReference]"},
    }

    def __init__(
        self,
        *,
        azure_file_shares: list[AzureFileShareReference] | None = None,
        azure_blob_file_systems: list[AzureBlobFileSystemReference] | None = None,
        file_servers: list[FileServerReference] | None = None,
        unmanaged_file_systems: list[UnmanagedFileSystemReference] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.azure_file_shares: list[AzureFileShareReference] | None = azure_file_shares
        self.azure_blob_file_systems: list[AzureBlobFileSystemReference] | None = azure_blob_file_systems
        self.file_servers: list[FileServerReference] | None = file_servers
        self.unmanaged_file_systems: list[UnmanagedFileSystemReference] | None = unmanaged_file_systems


class UserAccountSettings(_Model):
    """The administrator account created on every node. The password never shows in repr()."""

    _validation: dict[str, dict[str, Any]] = {
        "admin_user_name": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "admin_user_name": {"key": "adminUserName", "type": "str"},
        "admin_user_ssh_public_key": {"key": "adminUserSshPublicKey", "type": "str"},
        "admin_user_password": {"key": "adminUserPassword", "type": "str"},
    }

    _secret_attributes: ClassVar[frozenset[str]] = frozenset({"admin_user_password"})

    def __init__(
        self,
        *,
        admin_user_name: str,
        admin_user_ssh_public_key: str | None = None,
        admin_user_password: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.admin_user_name: str = admin_user_name
        self.admin_user_ssh_public_key: str | None = admin_user_ssh_public_key
        self.admin_user_password: str | None = admin_user_password


class RemoteLoginInformation(_Model):
    """How to SSH to one node."""

    _validation: dict[str, dict[str, Any]] = {
        "node_id": {"readonly": True},
        "ip_address": {"readonly": True},
        "port": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "node_id": {"key": "nodeId", "type": "str"},
        "ip_address": {"key": "ipAddress", "type": "str"},
        "port": {"key": "port", "type": "int"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.node_id: str | None = None
        self.ip_address: str | None = None
        self.port: int | None = None


class RemoteLoginInformationListResult(_Model):
    """A page of remote login information."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[RemoteLoginInformation]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[RemoteLoginInformation] | None = None
        self.next_link: str | None = None


class Operation(_Model):
    """An operation of the Microsoft.BatchAI provider."""

    _validation: dict[str, dict[str, Any]] = {
        "name": {"readonly": True},
        "origin": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "name": {"key": "name", "type": "str"},
        "display": {"key": "display", "type": "OperationDisplay"},
        "origin": {"key": "origin", "type": "str"},
        "properties": {"key": "properties", "type": "object"},
    }

    def __init__(
        self,
        *,
        display: OperationDisplay | None = None,
        properties: Any | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.name: str | None = None
        self.display: OperationDisplay | None = display
        self.origin: str | None = None
        self.properties: Any | None = properties


class OperationDisplay(_Model):
    """Display strings of an operation."""

    _validation: dict[str, dict[str, Any]] = {
        "provider": {"readonly": True},
        "operation": {"readonly": True},
        "resource": {"readonly": True},
        "description": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "provider": {"key": "provider", "type": "str"},
        "operation": {"key": "operation", "type": "str"},
        "resource": {"key": "resource", "type": "str"},
        "description": {"key": "description", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.provider: str | None = None
        self.operation: str | None = None
        self.resource: str | None = None
        self.description: str | None = None


class OperationListResult(_Model):
    """A page of operations."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[Operation]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[Operation] | None = None
        self.next_link: str | None = None


class Usage(_Model):
    """A quota usage counter."""

    _validation: dict[str, dict[str, Any]] = {
        "unit": {"readonly": True},
        "current_value": {"readonly": True},
        "limit": {"readonly": True},
        "name": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "unit": {"key": "unit", "type": "str"},
        "current_value": {"key": "currentValue", "type": "int"},
        "limit": {"key": "limit", "type": "long"},
        "name": {"key": "name", "type": "UsageName"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.unit: str | UsageUnit | None = None
        self.current_value: int | None = None
        self.limit: int | None = None
        self.name: UsageName | None = None


class UsageName(_Model):
    """The name of a usage counter."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "localized_value": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "str"},
        "localized_value": {"key": "localizedValue", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: str | None = None
        self.localized_value: str | None = None


class ListUsagesResult(_Model):
    """A page of usages."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[Usage]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[Usage] | None = None
        self.next_link: str | None = None
