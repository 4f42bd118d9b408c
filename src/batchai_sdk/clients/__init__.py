"""The clients: one code path over every engine."""

from .clusters import ClusterClient
from .experiments import ExperimentClient
from .file_servers import FileServerClient
from .jobs import JobClient, JobPoller
from .shares import FileShareClient, TransferSummary
from .streaming import LogStream
from .workspaces import WorkspaceClient

__all__ = [
    "ClusterClient",
    "ExperimentClient",
    "FileServerClient",
    "FileShareClient",
    "JobClient",
    "JobPoller",
    "LogStream",
    "TransferSummary",
    "WorkspaceClient",
]
