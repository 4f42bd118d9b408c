"""FileServerClient: create, inspect and delete file servers (single-node NFS servers) of an engine.

Unlike the last Batch AI SDK (quirk Q5: only ``begin_create`` and ``list_by_workspace``), ``get`` and
``begin_delete`` exist, as in the 2018-05-01 REST API.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError
from azure.core.paging import ItemPaged
from azure.core.polling import LROPoller

from ..control import layout
from ..control import records as r
from ..engines.base import Backend
from ..exceptions import ValidationError
from ._base import WorkspaceClientBase
from ._polling import make_poller
from ._records import iso, resource_id, strip_secrets
from .workspaces import ensure_workspace, single_page

log = logging.getLogger("batchai_sdk")

FILE_SERVER_TYPE = "Microsoft.BatchAI/workspaces/fileServers"
_FINAL = ("succeeded", "failed")


class FileServerClient(WorkspaceClientBase):
    """File servers of one workspace.

    A file server is an NFS volume that clusters mount with
    ``MountVolumes(file_servers=[FileServerReference(file_server=ResourceId(id=fs.id), relative_mount_path=...)])``.
    On the local engine it is a directory; on Azure a VM with RAID 0 data disks exporting ``/mnt/data``.

    :param backend: the engine (default: ``LocalBackend()``).
    :param workspace: the workspace (created on first use).
    """

    def __init__(self, backend: Backend | None = None, workspace: str = "default") -> None:
        super().__init__(backend, workspace)

    # ------------------------------------------------------------------ records
    def _record(self, name: str) -> dict[str, Any]:
        rec = self._io.read_json(layout.file_server_record(self.workspace, name))
        if not isinstance(rec, dict):
            raise ResourceNotFoundError(f"The file server '{name}' was not found in workspace '{self.workspace}'.")
        return rec

    def _refresh(self, rec: dict[str, Any]) -> dict[str, Any]:
        """Ask the engine and store what changed: nodes of clusters read ``mountSettings`` from the record."""
        state = str(rec.get("provisioningState") or "creating")
        if state not in ("creating", "succeeded"):
            return rec
        status = self.backend.file_server_status(self.workspace, rec["name"], rec)
        new_state = str(status.get("provisioningState") or state)
        changed = new_state != state
        for key in ("mountSettings", "subnet"):
            if status.get(key) is not None and status[key] != rec.get(key):
                rec[key] = status[key]
                changed = True
        if changed:
            if new_state != state:
                rec["provisioningState"] = new_state
                rec["provisioningStateTransitionTime"] = r.now()
                log.info("file server %s/%s: %s", self.workspace, rec["name"], new_state)
            if status.get("errors"):
                rec["errors"] = status["errors"]
            self._io.write_json(layout.file_server_record(self.workspace, rec["name"]), rec)
        return rec

    def _to_model(self, rec: dict[str, Any]) -> Any:
        from ..models import FileServer

        props = dict((rec.get("spec") or {}).get("properties", {}))
        if not props.get("subnet") and rec.get("subnet"):
            props["subnet"] = rec["subnet"]
        props.update({
            "mountSettings": rec.get("mountSettings"),
            "creationTime": iso(rec.get("creationTime")),
            "provisioningState": rec.get("provisioningState"),
            "provisioningStateTransitionTime": iso(rec.get("provisioningStateTransitionTime")),
        })
        return FileServer.deserialize({
            "id": resource_id(self.backend, "workspaces", self.workspace, "fileServers", rec["name"]),
            "name": rec["name"],
            "type": FILE_SERVER_TYPE,
            "properties": props,
        })

    # ------------------------------------------------------------------ operations
    def begin_create(self, name: str, parameters: Any, *, polling_interval: float | None = None) -> LROPoller[Any]:
        """Create a file server; the poller's result is the :class:`~batchai_sdk.models.FileServer` once it
        is provisioned (``mount_settings`` then says where it exports its volume).

        The admin password of ``ssh_configuration`` is used for the VM only: it is not stored.
        """
        from ..models import FileServerCreateParameters, raise_if_invalid, validate_resource_name

        validate_resource_name(name, "file server")
        if not isinstance(parameters, FileServerCreateParameters):
            raise TypeError("parameters must be a batchai_sdk.models.FileServerCreateParameters")
        raise_if_invalid(parameters, f"file server '{name}'")
        disks = parameters.data_disks
        problems = []
        if disks is not None and int(disks.disk_count) < 1:
            problems.append(("properties.dataDisks.diskCount", "must be at least 1"))
        if disks is not None and int(disks.disk_size_in_gb) < 1:
            problems.append(("properties.dataDisks.diskSizeInGB", "must be at least 1"))
        if problems:
            raise ValidationError(problems, f"file server '{name}'")
        clean, found = strip_secrets(parameters.serialize())
        io = self._io
        ensure_workspace(io, self.workspace, self.backend.location)
        now = r.now()
        rec: dict[str, Any] = {
            "name": name,
            "workspace": self.workspace,
            "uuid": str(uuid.uuid4()),
            "creationTime": now,
            "spec": clean,
            "provisioningState": "creating",
            "provisioningStateTransitionTime": now,
            "mountSettings": None,
        }
        path = layout.file_server_record(self.workspace, name)
        if not io.create_json(path, rec):
            raise ResourceExistsError(f"The file server '{name}' already exists in workspace '{self.workspace}'.")
        try:
            self.backend.provision_file_server(self.workspace, name, rec, found)
        except ResourceExistsError:
            io.remove_tree(layout.file_server_dir(self.workspace, name))
            raise ResourceExistsError(
                f"The file server '{name}' cannot be created: the engine already holds a file server of that "
                "name (in another workspace) or a share named like its volume.") from None
        except Exception as exc:
            rec["provisioningState"] = "failed"
            rec["provisioningStateTransitionTime"] = r.now()
            rec["errors"] = [r.error(getattr(exc, "error_code", None) or "ProvisioningFailed", str(exc))]
            io.write_json(path, rec)
            raise
        log.info("file server %s/%s: creating", self.workspace, name)

        def check() -> tuple[bool, str, Any]:
            current = self._refresh(self._record(name))
            state = str(current.get("provisioningState"))
            done = state in _FINAL
            return done, state, self._to_model(current) if done else None

        return make_poller(check, polling_interval if polling_interval is not None else self.backend.poll_interval)

    def get(self, name: str) -> Any:
        """The :class:`~batchai_sdk.models.FileServer`; ResourceNotFoundError when there is none."""
        return self._to_model(self._refresh(self._record(name)))

    def list(self) -> ItemPaged[Any]:
        """Every file server of the workspace."""
        models = []
        for n in self._io.listdir(layout.file_servers_dir(self.workspace)):
            rec = self._io.read_json(layout.file_server_record(self.workspace, n))
            if isinstance(rec, dict):
                models.append(self._to_model(self._refresh(rec)))
        return single_page(models)

    def begin_delete(self, name: str, *, polling_interval: float | None = None) -> LROPoller[None]:
        """Delete a file server and its disks: the data on it is lost. Clusters that mount it lose the mount."""
        rec = self._record(name)
        rec["provisioningState"] = "deleting"
        rec["provisioningStateTransitionTime"] = r.now()
        self._io.write_json(layout.file_server_record(self.workspace, name), rec)
        self.backend.deprovision_file_server(self.workspace, name)
        self._io.remove_tree(layout.file_server_dir(self.workspace, name))
        log.info("file server %s/%s: deleted", self.workspace, name)
        return make_poller(lambda: (True, "succeeded", None),
                           polling_interval if polling_interval is not None else self.backend.poll_interval)
