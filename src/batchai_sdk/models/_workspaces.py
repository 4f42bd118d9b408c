"""Workspace and experiment models."""

from __future__ import annotations

import datetime
from typing import Any

from ._base import _CreateParametersModel, _Model
from ._common import ProxyResource, Resource
from ._enums import ProvisioningState

__all__ = [
    "WorkspaceCreateParameters",
    "WorkspaceUpdateParameters",
    "Workspace",
    "WorkspaceListResult",
    "WorkspacesListOptions",
    "WorkspacesListByResourceGroupOptions",
    "Experiment",
    "ExperimentListResult",
    "ExperimentsListByWorkspaceOptions",
]


class WorkspaceCreateParameters(_CreateParametersModel):
    """Body of a workspace create request."""

    _validation: dict[str, dict[str, Any]] = {
        "location": {"required": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "location": {"key": "location", "type": "str"},
        "tags": {"key": "tags", "type": "{str}"},
    }

    def __init__(self, *, location: str, tags: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.location: str = location
        self.tags: dict[str, str] | None = tags


class WorkspaceUpdateParameters(_CreateParametersModel):
    """Body of a workspace update request."""

    _validation: dict[str, dict[str, Any]] = {}

    _attribute_map: dict[str, dict[str, Any]] = {
        "tags": {"key": "tags", "type": "{str}"},
    }

    def __init__(self, *, tags: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tags: dict[str, str] | None = tags


class Workspace(Resource):
    """A workspace: the container of clusters, file servers and experiments."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
        "location": {"readonly": True},
        "tags": {"readonly": True},
        "creation_time": {"readonly": True},
        "provisioning_state": {"readonly": True},
        "provisioning_state_transition_time": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
        "location": {"key": "location", "type": "str"},
        "tags": {"key": "tags", "type": "{str}"},
        "creation_time": {"key": "properties.creationTime", "type": "iso-8601"},
        "provisioning_state": {"key": "properties.provisioningState", "type": "str"},
        "provisioning_state_transition_time": {
            "key": "properties.provisioningStateTransitionTime",
            "type": "iso-8601",
        },
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None
        self.location: str | None = None
        self.tags: dict[str, str] | None = None
        self.creation_time: datetime.datetime | None = None
        self.provisioning_state: str | ProvisioningState | None = None
        self.provisioning_state_transition_time: datetime.datetime | None = None


class WorkspaceListResult(_Model):
    """A page of workspaces."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[Workspace]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[Workspace] | None = None
        self.next_link: str | None = None


class WorkspacesListOptions(_Model):
    """Paging options for listing workspaces."""

    _validation: dict[str, dict[str, Any]] = {
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(self, *, max_results: int | None = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_results: int | None = max_results


class WorkspacesListByResourceGroupOptions(_Model):
    """Paging options for listing workspaces of a resource group."""

    _validation: dict[str, dict[str, Any]] = {
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(self, *, max_results: int | None = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_results: int | None = max_results


class Experiment(ProxyResource):
    """An experiment: the container of jobs."""

    _validation: dict[str, dict[str, Any]] = {
        "id": {"readonly": True},
        "name": {"readonly": True},
        "type": {"readonly": True},
        "creation_time": {"readonly": True},
        "provisioning_state": {"readonly": True},
        "provisioning_state_transition_time": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "id": {"key": "id", "type": "str"},
        "name": {"key": "name", "type": "str"},
        "type": {"key": "type", "type": "str"},
        "creation_time": {"key": "properties.creationTime", "type": "iso-8601"},
        "provisioning_state": {"key": "properties.provisioningState", "type": "str"},
        "provisioning_state_transition_time": {
            "key": "properties.provisioningStateTransitionTime",
            "type": "iso-8601",
        },
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.id: str | None = None
        self.name: str | None = None
        self.type: str | None = None
        self.creation_time: datetime.datetime | None = None
        self.provisioning_state: str | ProvisioningState | None = None
        self.provisioning_state_transition_time: datetime.datetime | None = None


class ExperimentListResult(_Model):
    """A page of experiments."""

    _validation: dict[str, dict[str, Any]] = {
        "value": {"readonly": True},
        "next_link": {"readonly": True},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "value": {"key": "value", "type": "[Experiment]"},
        "next_link": {"key": "nextLink", "type": "str"},
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value: list[Experiment] | None = None
        self.next_link: str | None = None


class ExperimentsListByWorkspaceOptions(_Model):
    """Paging options for listing experiments."""

    _validation: dict[str, dict[str, Any]] = {
        "max_results": {"minimum": 1, "maximum": 1000},
    }

    _attribute_map: dict[str, dict[str, Any]] = {
        "max_results": {"key": "maxResults", "type": "int"},
    }

    def __init__(self, *, max_results: int | None = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_results: int | None = max_results
