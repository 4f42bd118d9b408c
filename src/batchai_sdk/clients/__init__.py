"""The clients: one code path over every engine."""

from .clusters import ClusterClient
from .experiments import ExperimentClient
from .jobs import JobClient, JobPoller
from .shares import FileShareClient, TransferSummary
from .streaming import LogStream
from .workspaces import WorkspaceClient

__all__ = [
    "ClusterClient",
    "ExperimentClient",
    "FileShareClient",
    "JobClient",
    "JobPoller",
    "LogStream",
    "TransferSummary",
    "WorkspaceClient",
]
