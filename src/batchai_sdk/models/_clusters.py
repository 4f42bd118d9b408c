"""Cluster models: create/update parameters, scale settings, node setup, images."""

from __future__ import annotations

import datetime
from typing import Any, ClassVar

from ._base import _CreateParametersModel, _Model
from ._common import (
    BatchAIError,
    EnvironmentVariable,
    EnvironmentVariableWithSecretValue,
    KeyVaultSecretReference,
    MountVolumes,
    ProxyResource,
    ResourceId,
    UserAccountSettings,
)
from ._enums import AllocationState, DeallocationOption, ProvisioningState, VmPriority

__all__ = [
    "ScaleSettings",
    "ManualScaleSettings",
    "AutoScaleSettings",
    "ImageReference",
    "VirtualMachineConfiguration",
    "SetupTask",
    "AppInsightsReference",
    "PerformanceCountersSettings",
    "NodeSetup",
    "NodeStateCounts",
    "ClusterCreateParameters",
    "ClusterUpdateParameters",
    "Cluster",
    "ClusterListResult",
    "ClustersListByWorkspaceOptions",
]


class ScaleSettings(_Model):
    """Exactly one of manual or auto-scale settings."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "manual": {"key": "manual", "type": "ManualScaleSettings"},
        "auto_scale": {"key": "autoScale", "type": "AutoScaleSettings"},
    }

    def __init__(
        self,
        *,
        manual: ManualScaleSettings | None = None,
        auto_scale: AutoScaleSettings | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.manual: ManualScaleSettings | None = manual
        self.auto_scale: AutoScaleSettings | None = auto_scale


class ManualScaleSettings(_Model):
    """A fixed node count."""

    _validation: dict[str, dict[str, Any]] = {
        "target_node_count": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "target_node_count": {"key": "targetNodeCount", "type": "int"},
        "node_deallocation_option": {"key": "nodeDeallocationOption", "type": "str"},
    }

    def __init__(
        self,
        *,
        target_node_count: int,
        node_deallocation_option: str | DeallocationOption | None = "requeue",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.target_node_count: int = target_node_count
        self.node_deallocation_option: str | DeallocationOption | None = node_deallocation_option


class AutoScaleSettings(_Model):
    """Scale between minimum and maximum with the queued and running jobs."""

    _validation: dict[str, dict[str, Any]] = {
        "minimum_node_count": {"required": True},
        "maximum_node_count": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "minimum_node_count": {"key": "minimumNodeCount", "type": "int"},
        "maximum_node_count": {"key": "maximumNodeCount", "type": "int"},
        "initial_node_count": {"key": "initialNodeCount", "type": "int"},
    }

    def __init__(
        self,
        *,
        minimum_node_count: int,
        maximum_node_count: int,
        initial_node_count: int | None = 0,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.minimum_node_count: int = minimum_node_count
        self.maximum_node_count: int = maximum_node_count
        self.initial_node_count: int | None = initial_node_count


class ImageReference(_Model):
    """A marketplace image (publisher/offer/sku/version), or a custom image by ``virtual_machine_image_id``."""

    _validation: dict[str, dict[str, Any]] = {
        "publisher": {"required": True},
        "offer": {"required": True},
        "sku": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "publisher": {"key": "publisher", "type": "str"},
        "offer": {"key": "offer", "type": "str"},
        "sku": {"key": "sku", "type": "str"},
        "version": {"key": "version", "type": "str"},
        "virtual_machine_image_id": {"key": "virtualMachineImageId", "type": "str"},
    }

    def __init__(
        self,
        *,
        publisher: str,
        offer: str,
        sku: str,
        version: str | None = None,
        virtual_machine_image_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.publisher: str = publisher
        self.offer: str = offer
        self.sku: str = sku
        self.version: str | None = version
        self.virtual_machine_image_id: str | None = virtual_machine_image_id


class VirtualMachineConfiguration(_Model):
    """The OS image of the nodes."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "image_reference": {"key": "imageReference", "type": "ImageReference"},
    }

    def __init__(self, *, image_reference: ImageReference | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.image_reference: ImageReference | None = image_reference


class SetupTask(_Model):
    """A command run as root on every node after allocation or reboot."""

    _validation: dict[str, dict[str, Any]] = {
        "command_line": {"required": True},
        "std_out_err_path_prefix": {"required": True},
        "std_out_err_path_suffix": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "command_line": {"key": "commandLine", "type": "str"},
        "environment_variables": {"key": "environmentVariables", "type": "[EnvironmentVariable]"},
        "secrets": {"key": "secrets", "type": "[EnvironmentVariableWithSecretValue]"},
        "std_out_err_path_prefix": {"key": "stdOutErrPathPrefix", "type": "str"},
        "std_out_err_path_suffix": {"key": "stdOutErrPathSuffix", "type": "str"},
    }

    def __init__(
        self,
        *,
        command_line: str,
        std_out_err_path_prefix: str,
        environment_variables: list[EnvironmentVariable] | None = None,
        secrets: list[EnvironmentVariableWithSecretValue] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.command_line: str = command_line
        self.environment_variables: list[EnvironmentVariable] | None = environment_variables
        self.secrets: list[EnvironmentVariableWithSecretValue] | None = secrets
        self.std_out_err_path_prefix: str = std_out_err_path_prefix
        self.std_out_err_path_suffix: str | None = None


class AppInsightsReference(_Model):
    """Application Insights component for performance counters. The key never shows in repr()."""

    _validation: dict[str, dict[str, Any]] = {
        "component": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "component": {"key": "component", "type": "ResourceId"},
        "instrumentation_key": {"key": "instrumentationKey", "type": "str"},
        "instrumentation_key_secret_reference": {
            "key": "instrumentationKeySecretReference",
            "type": "KeyVaultSecretReference",
        },
    }

    _secret_attributes: ClassVar[frozenset[str]] = frozenset({"instrumentation_key"})

    def __init__(
        self,
        *,
        component: ResourceId,
        instrumentation_key: str | None = None,
        instrumentation_key_secret_reference: KeyVaultSecretReference | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.component: ResourceId = component
        self.instrumentation_key: str | None = instrumentation_key
        self.instrumentation_key_secret_reference: KeyVaultSecretReference | None = (
            instrumentation_key_secret_reference
        )


class PerformanceCountersSettings(_Model):
    """Where nodes report performance counters."""

    _validation: dict[str, dict[str, Any]] = {
        "app_insights_reference": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "app_insights_reference": {"key": "appInsightsReference", "type": "AppInsightsReference"},
    }

    def __init__(self, *, app_insights_reference: AppInsightsReference, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app_insights_reference: AppInsightsReference = app_insights_reference


class NodeSetup(_Model):
    """Setup task, mounts and performance counters of a cluster's nodes."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "setup_task": {"key": "setupTask", "type": "SetupTask"},
        "mount_volumes": {"key": "mountVolumes", "type": "MountVolumes"},
        "performance_counters_settings": {
            "key": "performanceCountersSettings",
            "type": "PerformanceCountersSettings",
        },
    }

    def __init__(
        self,
        *,
        setup_task: SetupTask | None = None,
        mount_volumes: MountVolumes | None = None,
        performance_counters_settings: PerformanceCountersSettings | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.setup_task: SetupTask | None = setup_task
        self.mount_volumes: MountVolumes | None = mount_volumes
        self.performance_counters_settings: PerformanceCountersSettings | None = performance_counters_settings


class NodeStateCounts(_Model):
    """Number of nodes per state."""

    _validation: dict[str, dict[str, Any]] = {
        "idle_node_count": {"readonly": True},
        "running_node_count": {"readonly": True},
        "preparing_node_count": {"readonly": True},
        "unusable_node_count": {"readonly": True},
        "leaving_node_count": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "idle_node_count": {"key": "idleNodeCount", "type": "int"},
        "running_node_count": {"key": "runningNodeCount", "type": "int"},
        "preparing_node_count": {"key": "preparingNodeCount", "type": "int"},
        "unusable_node_count": {"key": "unusableNodeCount", "type": "int"},
        "leaving_node_count": {"key": "leavingNodeCount", "type": "int"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.idle_node_count: int | None = None
        self.running_node_count: int | None = None
        self.preparing_node_count: int | None = None
        self.unusable_node_count: int | None = None
        self.leaving_node_count: int | None = None


class ClusterCreateParameters(_CreateParametersModel):
    """Body of a cluster create request. ``vm_size`` and ``user_account_settings`` are required (fixed Q1)."""

    _validation: dict[str, dict[str, Any]] = {
        "vm_size": {"required": True},
        "user_account_settings": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "vm_size": {"key": "properties.vmSize", "type": "str"},
        "vm_priority": {"key": "properties.vmPriority", "type": "str"},
        "scale_settings": {"key": "properties.scaleSettings", "type": "ScaleSettings"},
        "virtual_machine_configuration": {
            "key": "properties.virtualMachineConfiguration",
            "type": "VirtualMachineConfiguration",
        },
        "node_setup": {"key": "properties.nodeSetup", "type": "NodeSetup"},
        "user_account_settings": {"key": "properties.userAccountSettings", "type": "UserAccountSettings"},
        "subnet": {"key": "properties.subnet", "type": "ResourceId"},
    }

    def __init__(
        self,
        *,
        vm_size: str | None = None,
        vm_priority: str | VmPriority | None = "dedicated",
        scale_settings: ScaleSettings | None = None,
        virtual_machine_configuration: VirtualMachineConfiguration | None = None,
        node_setup: NodeSetup | None = None,
        user_account_settings: UserAccountSettings | None = None,
        subnet: ResourceId | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.vm_size: str | None = vm_size
        self.vm_priority: str | VmPriority | None = vm_priority
        self.scale_settings: ScaleSettings | None = scale_settings
        self.virtual_machine_configuration: VirtualMachineConfiguration | None = virtual_machine_configuration
        self.node_setup: NodeSetup | None = node_setup
        self.user_account_settings: UserAccountSettings | None = user_account_settings
        self.subnet: ResourceId | None = subnet


class ClusterUpdateParameters(_CreateParametersModel):
    """Body of a cluster update (resize) request."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "scale_settings": {"key": "properties.scaleSettings", "type": "ScaleSettings"},
    }

    def __init__(self, *, scale_settings: ScaleSettings | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale_settings: ScaleSettings | None = scale_settings


class Cluster(ProxyResource):
    """A cluster as the service reports it."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
        "creation_time": {"readonly": True},
        "provisioning_state": {"readonly": True},
        "provisioning_state_transition_time": {"readonly": True},
        "allocation_state": {"readonly": True},
        "allocation_state_transition_time": {"readonly": True},
        "errors": {"readonly": True},
        "current_node_count": {"readonly": True},
        "node_state_counts": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
        "vm_size": {"key": "properties.vmSize", "type": "str"},
        "vm_priority": {"key": "properties.vmPriority", "type": "str"},
        "scale_settings": {"key": "properties.scaleSettings", "type": "ScaleSettings"},
        "virtual_machine_configuration": {
            "key": "properties.virtualMachineConfiguration",
            "type": "VirtualMachineConfiguration",
        },
        "node_setup": {"key": "properties.nodeSetup", "type": "NodeSetup"},
        "user_account_settings": {"key": "properties.userAccountSettings", "type": "UserAccountSettings"},
        "subnet": {"key": "properties.subnet", "type": "ResourceId"},
        "creation_time": {"key": "properties.creationTime", "type": "iso-8601"},
        "provisioning_state": {"key": "properties.provisioningState", "type": "str"},
        "provisioning_state_transition_time": {
            "key": "properties.provisioningStateTransitionTime",
            "type": "iso-8601",
        },
        "allocation_state": {"key": "properties.allocationState", "type": "str"},
        "allocation_state_transition_time": {
            "key": "properties.allocationStateTransitionTime",
            "type": "iso-8601",
        },
        "errors": {"key": "properties.errors", "type": "[BatchAIError]"},
        "current_node_count": {"key": "properties.currentNodeCount", "type": "int"},
        "node_state_counts": {"key": "properties.nodeStateCounts", "type": "NodeStateCounts"},
    }

    def __init__(
        self,
        *,
        vm_size: str | None = None,
        vm_priority: str | VmPriority | None = None,
        scale_settings: ScaleSettings | None = None,
        virtual_machine_configuration: VirtualMachineConfiguration | None = None,
        node_setup: NodeSetup | None = None,
        user_account_settings: UserAccountSettings | None = None,
        subnet: ResourceId | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None
        self.vm_size: str | None = vm_size
        self.vm_priority: str | VmPriority | None = vm_priority
        self.scale_settings: ScaleSettings | None = scale_settings
        self.virtual_machine_configuration: VirtualMachineConfiguration | None = virtual_machine_configuration
        self.node_setup: NodeSetup | None = node_setup
        self.user_account_settings: UserAccountSettings | None = user_account_settings
        self.subnet: ResourceId | None = subnet
        self.creation_time: datetime.datetime | None = None
        self.provisioning_state: str | ProvisioningState | None = None
        self.provisioning_state_transition_time: datetime.datetime | None = None
        self.allocation_state: str | AllocationState | None = None
        self.allocation_state_transition_time: datetime.datetime | None = None
        self.errors: list[BatchAIError] | None = None
        self.current_node_count: int | None = None
        self.node_state_counts: NodeStateCounts | None = None


class ClusterListResult(_Model):
    """A page of clusters."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[Cluster]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[Cluster] | None = None
        self.next_link: str | None = None


class ClustersListByWorkspaceOptions(_Model):
    """Paging options for listing clusters."""

    _validation: dict[str, dict[str, Any]] = {
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(self, *, max_results: int | None = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_results: int | None = max_results
