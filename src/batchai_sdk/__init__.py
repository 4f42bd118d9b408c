"""batchai-sdk: the Azure Batch AI experience on a local engine or on your own Azure subscription.

Public names are imported on first use, so that ``import batchai_sdk`` stays cheap and the node agent
(``python -m batchai_sdk.agent``) runs on a bare VM with the standard library only.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

logging.getLogger("batchai_sdk").addHandler(logging.NullHandler())

_EXPORTS = {
    "ClusterClient": "batchai_sdk.clients",
    "ExperimentClient": "batchai_sdk.clients",
    "FileServerClient": "batchai_sdk.clients",
    "FileShareClient": "batchai_sdk.clients",
    "JobClient": "batchai_sdk.clients",
    "JobPoller": "batchai_sdk.clients",
    "LogStream": "batchai_sdk.clients",
    "TransferSummary": "batchai_sdk.clients",
    "WorkspaceClient": "batchai_sdk.clients",
    "LocalBackend": "batchai_sdk.engines.local",
    "AzureBackend": "batchai_sdk.engines.azure",
    "ValidationError": "batchai_sdk.exceptions",
    "ResourceNotFoundError": "batchai_sdk.exceptions",
    "ResourceExistsError": "batchai_sdk.exceptions",
    "HttpResponseError": "batchai_sdk.exceptions",
    "models": "batchai_sdk.models",
}

__all__ = [
    "AzureBackend",
    "ClusterClient",
    "ExperimentClient",
    "FileServerClient",
    "FileShareClient",
    "HttpResponseError",
    "JobClient",
    "JobPoller",
    "LocalBackend",
    "LogStream",
    "ResourceExistsError",
    "ResourceNotFoundError",
    "TransferSummary",
    "ValidationError",
    "WorkspaceClient",
    "__version__",
    "models",
]

if TYPE_CHECKING:
    from . import models
    from .clients import (
        ClusterClient,
        ExperimentClient,
        FileServerClient,
        FileShareClient,
        JobClient,
        JobPoller,
        LogStream,
        TransferSummary,
        WorkspaceClient,
    )
    from .engines.azure import AzureBackend
    from .engines.local import LocalBackend
    from .exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError, ValidationError


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'batchai_sdk' has no attribute {name!r}")
    mod = importlib.import_module(module)
    value = mod if name == "models" else getattr(mod, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
