"""The engine interface: a *store* (paths on shares) and *provisioning* (a cluster's nodes).

The clients do everything else (validation, records, polling, streaming) once, on top of these, so both
engines share one code path. Paths are POSIX, relative to the share root, without a leading slash.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

#: Called with the number of bytes just transferred.
ProgressCallback = Callable[[int], None]


@dataclass(frozen=True)
class FileEntry:
    name: str
    is_directory: bool
    size: int | None = None
    last_modified: datetime | None = None


@dataclass
class NodeLogin:
    node_id: str
    ip_address: str
    port: int


@dataclass
class ProvisioningStatus:
    """What the provider says about a cluster's nodes (heartbeats on the share say the rest)."""

    state: str  # "creating" | "succeeded" | "failed" | "deleting"
    target_node_count: int
    errors: list[dict[str, Any]] = field(default_factory=list)


class Store(abc.ABC):
    """Files on the engine's shares. Errors: ``ResourceNotFoundError``, ``ResourceExistsError``."""

    # --- shares
    @abc.abstractmethod
    def create_share(self, share: str, *, quota_gb: int | None = None) -> None: ...

    @abc.abstractmethod
    def delete_share(self, share: str) -> None: ...

    @abc.abstractmethod
    def list_shares(self) -> list[str]: ...

    @abc.abstractmethod
    def share_exists(self, share: str) -> bool: ...

    # --- paths
    @abc.abstractmethod
    def make_dirs(self, share: str, path: str) -> None:
        """Create a directory and its parents; existing ones are fine."""

    @abc.abstractmethod
    def list_dir(self, share: str, path: str) -> list[FileEntry]:
        """Entries of a directory; ResourceNotFoundError when it does not exist."""

    @abc.abstractmethod
    def stat(self, share: str, path: str) -> FileEntry | None:
        """The entry at ``path`` or None."""

    @abc.abstractmethod
    def read(self, share: str, path: str, offset: int = 0, length: int | None = None) -> bytes:
        """Bytes ``[offset, offset+length)`` (to the end when length is None); short at end of file."""

    @abc.abstractmethod
    def write_atomic(self, share: str, path: str, data: bytes, *, private: bool = False) -> None:
        """Replace the file so that no reader sees half of it (temporary name, then rename)."""

    @abc.abstractmethod
    def create_exclusive(self, share: str, path: str, data: bytes) -> bool:
        """Create the file only if absent; True when this call created it."""

    @abc.abstractmethod
    def delete(self, share: str, path: str, *, recursive: bool = False) -> None:
        """Remove a file or directory; a missing path is fine."""

    # --- transfers
    @abc.abstractmethod
    def upload_file(
        self,
        share: str,
        path: str,
        local_path: Path,
        *,
        skip_unchanged: bool = True,
        progress: ProgressCallback | None = None,
        max_concurrency: int = 4,
        absent: bool = False,
    ) -> bool:
        """Upload one file; False when skipped because the share already holds the same file.

        ``absent=True`` says the caller listed the directory and the file is not there, so the store may
        skip its own "is it unchanged?" look-up (a request per file on Azure)."""

    @abc.abstractmethod
    def download_file(
        self,
        share: str,
        path: str,
        local_path: Path,
        *,
        skip_unchanged: bool = True,
        progress: ProgressCallback | None = None,
        max_concurrency: int = 4,
    ) -> bool:
        """Download one file; False when the local copy is already the same."""

    @abc.abstractmethod
    def download_url(self, share: str, path: str, *, expiry: timedelta) -> str:
        """A URL a browser or ``urllib`` can fetch the file from until ``expiry`` has passed."""


class Backend(abc.ABC):
    """An engine: a store, a control share on it, and node provisioning."""

    #: "local" or "azure"
    kind: str
    store: Store
    control_share: str
    subscription_id: str
    resource_group: str
    location: str
    storage_account_name: str

    @property
    @abc.abstractmethod
    def storage_account_key(self) -> str | None:
        """The key mount volumes use (never logged)."""

    @abc.abstractmethod
    def share_url(self, share: str) -> str:
        """``https://<account>.file.core.windows.net/<share>``, as cluster and job specs reference shares."""

    def share_from_url(self, url: str) -> str:
        """The share name an ``azureFileUrl`` names (its last path segment)."""
        return url.rstrip("/").rsplit("/", 1)[-1]

    def cluster_record_extras(self) -> dict[str, Any]:
        """Engine settings stored in a new cluster's record for its nodes to read."""
        return {}

    #: Seconds between reads while streaming a log: (when data flows, when it does not).
    stream_poll_intervals: tuple[float, float] = (0.02, 0.1)
    #: Seconds between state reads while waiting for an operation.
    poll_interval: float = 0.1

    # --- provisioning
    @abc.abstractmethod
    def provision_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        """Start making the cluster's nodes; returns once the request is accepted."""

    @abc.abstractmethod
    def resize_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        """Apply new scale settings already written to the cluster record."""

    @abc.abstractmethod
    def deprovision_cluster(self, workspace: str, cluster: str, *, wait: bool = True) -> None:
        """Stop and release every node and resource the engine made for the cluster."""

    @abc.abstractmethod
    def provisioning_status(self, workspace: str, cluster: str, record: dict[str, Any]) -> ProvisioningStatus: ...

    @abc.abstractmethod
    def remote_login_information(self, workspace: str, cluster: str) -> list[NodeLogin]: ...

    # --- file servers (single-node NFS servers that clusters mount through ``mountVolumes.fileServers``)
    def provision_file_server(self, workspace: str, name: str, record: dict[str, Any],
                              secrets: dict[str, Any] | None = None) -> None:
        """Start making the file server; returns once the request is accepted. ``secrets`` holds the values
        the client stripped from ``record["spec"]`` (the admin password) by their wire path; engines use them
        for this call only and never store them."""
        raise NotImplementedError(f"file servers are not supported by the {self.kind} engine")

    def deprovision_file_server(self, workspace: str, name: str) -> None:
        """Release the file server and its disks: the data on it is lost."""
        raise NotImplementedError(f"file servers are not supported by the {self.kind} engine")

    def file_server_status(self, workspace: str, name: str, record: dict[str, Any]) -> dict[str, Any]:
        """``{"provisioningState": ..., "mountSettings": {...} or None, "errors": [...]}`` (wire form); may add
        ``"subnet"`` (``{"id": ...}``) when the engine chose the network."""
        raise NotImplementedError(f"file servers are not supported by the {self.kind} engine")

    def on_job_queued(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        """A job was queued on the cluster (``record``: the cluster record); engines that scale on demand
        grow the cluster here. Default: nothing."""
        return None

    def ensure_control_share(self) -> None:
        if not self.store.share_exists(self.control_share):
            try:
                self.store.create_share(self.control_share)
            except Exception:
                # Another client may have created it between the check and the create.
                if not self.store.share_exists(self.control_share):
                    raise

    def close(self) -> None:  # noqa: B027 - engines without connections have nothing to release
        """Release connections; the clusters and jobs live on."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
