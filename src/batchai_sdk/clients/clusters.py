"""ClusterClient: create, resize, inspect and delete clusters of an engine."""

from __future__ import annotations

import builtins
import logging
import time
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

NODE_FAILURE_POLICIES = ("fail", "requeue")


def node_counts(io: Any, ws: str, cluster: str) -> tuple[int, dict[str, int], list[dict[str, Any]], list[dict[str, Any]]]:
    """(current node count, NodeStateCounts in wire form, live node records, node errors) from heartbeats."""
    counts = {"idleNodeCount": 0, "runningNodeCount": 0, "preparingNodeCount": 0, "unusableNodeCount": 0,
              "leavingNodeCount": 0}
    now = r.now()
    ndir = layout.nodes_dir(ws, cluster)
    names = io.listdir(ndir)
    dead = {n[: -len(".dead")] for n in names if n.endswith(".dead")}
    live: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    current = 0
    for name in names:
        if not name.endswith(".json"):
            continue
        rec = io.read_json(ndir + "/" + name)
        if not isinstance(rec, dict) or rec.get("state") == "left":
            continue
        stale = now - float(rec.get("time", 0)) > 3 * float(rec.get("heartbeatInterval", 1.0))
        errors.extend(rec.get("errors") or [])
        if name[:-5] in dead or stale or rec.get("state") == r.NODE_UNUSABLE:
            counts["unusableNodeCount"] += 1
            if name[:-5] not in dead and not stale:
                current += 1
            continue
        state = rec.get("state")
        key = {r.NODE_IDLE: "idleNodeCount", r.NODE_RUNNING: "runningNodeCount", r.NODE_PREPARING: "preparingNodeCount",
               r.NODE_LEAVING: "leavingNodeCount"}.get(str(state), "preparingNodeCount")
        if state == r.NODE_PREPARING and not rec.get("job"):
            key = "preparingNodeCount"
        counts[key] += 1
        current += 1
        live.append(rec)
    return current, counts, live, errors


def target_of(scale: dict[str, Any]) -> int:
    if scale.get("manual"):
        return int(scale["manual"].get("targetNodeCount", 0))
    auto = scale.get("autoScale") or {}
    return max(int(auto.get("minimumNodeCount", 0)), int(auto.get("initialNodeCount", 0) or 0))


def max_nodes(scale: dict[str, Any]) -> int:
    """The most nodes the cluster can ever hold under its scale settings."""
    if scale.get("manual"):
        return int(scale["manual"].get("targetNodeCount", 0))
    return int((scale.get("autoScale") or {}).get("maximumNodeCount", 0))


class ClusterClient(WorkspaceClientBase):
    """Clusters of one workspace.

    :param backend: the engine (default: ``LocalBackend()``).
    :param workspace: the workspace (created on first use).
    """

    def __init__(self, backend: Backend | None = None, workspace: str = "default") -> None:
        super().__init__(backend, workspace)

    # ------------------------------------------------------------------ records
    def _record(self, name: str) -> dict[str, Any]:
        rec = self._io.read_json(layout.cluster_record(self.workspace, name))
        if rec is None:
            raise ResourceNotFoundError(f"The cluster '{name}' was not found in workspace '{self.workspace}'.")
        return rec  # type: ignore[no-any-return]

    def _to_model(self, rec: dict[str, Any]) -> Any:
        from ..models import Cluster

        name = rec["name"]
        status = self.backend.provisioning_status(self.workspace, name, rec)
        current, counts, _live, node_errors = node_counts(self._io, self.workspace, name)
        props = dict((rec.get("spec") or {}).get("properties", {}))
        target = status.target_node_count
        if props.get("scaleSettings", {}).get("autoScale") and hasattr(self.backend, "supervisor_target"):
            target = self.backend.supervisor_target(self.workspace, name) or target  # type: ignore[attr-defined]
        steady = current == target and counts["unusableNodeCount"] == 0
        setup = (props.get("nodeSetup") or {}).get("setupTask")
        if setup is not None:
            setup["stdOutErrPathSuffix"] = rec.get("setupSegment")
        props.update({
            "creationTime": iso(rec.get("creationTime")),
            "provisioningState": status.state,
            "provisioningStateTransitionTime": iso(rec.get("provisioningStateTransitionTime")),
            "allocationState": "steady" if steady else "resizing",
            "allocationStateTransitionTime": iso(rec.get("allocationStateTransitionTime")),
            "errors": status.errors + node_errors,
            "currentNodeCount": current,
            "nodeStateCounts": counts,
        })
        return Cluster.deserialize({
            "id": resource_id(self.backend, "workspaces", self.workspace, "clusters", name),
            "name": name,
            "type": "Microsoft.BatchAI/workspaces/clusters",
            "properties": props,
        })

    # ------------------------------------------------------------------ operations
    def begin_create(
        self,
        name: str,
        parameters: Any,
        *,
        node_failure_policy: str = "fail",
        polling_interval: float | None = None,
    ) -> LROPoller[Any]:
        """Create a cluster; the poller's result is the :class:`~batchai_sdk.models.Cluster` once it is
        provisioned (nodes keep joining afterwards: watch ``allocation_state``).

        :param node_failure_policy: what happens to a job whose node stops responding: ``"fail"`` it with a
            ``NodeFailed`` error, or ``"requeue"`` it on other nodes. Jobs on evicted Spot nodes are always
            requeued.
        """
        from ..models import ClusterCreateParameters, raise_if_invalid, validate_resource_name

        validate_resource_name(name, "cluster")
        if not isinstance(parameters, ClusterCreateParameters):
            raise TypeError("parameters must be a batchai_sdk.models.ClusterCreateParameters")
        raise_if_invalid(parameters, f"cluster '{name}'", storage_credentials=self.backend.kind != "local")
        if node_failure_policy not in NODE_FAILURE_POLICIES:
            raise ValidationError([("node_failure_policy", f"must be one of {', '.join(NODE_FAILURE_POLICIES)}")])
        wire = parameters.serialize()
        clean, found = strip_secrets(wire)
        io = self._io
        ensure_workspace(io, self.workspace, self.backend.location)
        now = r.now()
        cid = str(uuid.uuid4())
        rec = {
            "name": name,
            "workspace": self.workspace,
            "uuid": cid,
            "creationTime": now,
            "spec": clean,
            "provisioningState": "creating",
            "provisioningStateTransitionTime": now,
            "allocationStateTransitionTime": now,
            "setupSegment": layout.cluster_segment(self.backend.subscription_id, self.backend.resource_group,
                                                   self.workspace, name, cid),
            "targetNodeCount": target_of(clean.get("properties", {}).get("scaleSettings") or {}),
            "nodeFailurePolicy": node_failure_policy,
            **self.backend.cluster_record_extras(),
        }
        secrets = {"values": found}
        task_secrets = {str(v["name"]): str(v["value"]) for k, v in found.items()
                        if k.startswith("properties.nodeSetup.setupTask.secrets") and isinstance(v, dict)}
        secrets["setupTask"] = task_secrets  # type: ignore[assignment]
        if not io.create_json(layout.cluster_record(self.workspace, name), rec):
            raise ResourceExistsError(f"The cluster '{name}' already exists in workspace '{self.workspace}'.")
        # Before provisioning: the nodes that read the secrets start only after this write.
        io.write_json(layout.cluster_secrets(self.workspace, name), secrets, private=True)
        try:
            self.backend.provision_cluster(self.workspace, name, rec)
        except Exception as exc:
            rec["provisioningState"] = "failed"
            rec["errors"] = [r.error(getattr(exc, "error_code", None) or "ProvisioningFailed", str(exc))]
            io.write_json(layout.cluster_record(self.workspace, name), rec)
            raise
        log.info("cluster %s/%s: creating", self.workspace, name)

        def check() -> tuple[bool, str, Any]:
            current = self._record(name)
            status = self.backend.provisioning_status(self.workspace, name, current)
            if status.state != current.get("provisioningState") and status.state in ("succeeded", "failed"):
                current["provisioningState"] = status.state
                current["provisioningStateTransitionTime"] = r.now()
                if status.errors:
                    current["errors"] = status.errors
                io.write_json(layout.cluster_record(self.workspace, name), current)
            done = status.state in ("succeeded", "failed")
            return done, status.state, self._to_model(current) if done else None

        return make_poller(check, polling_interval if polling_interval is not None else self.backend.poll_interval)

    def get(self, name: str) -> Any:
        return self._to_model(self._record(name))

    def list(self) -> ItemPaged[Any]:
        models = []
        for n in self._io.listdir(layout.clusters_dir(self.workspace)):
            rec = self._io.read_json(layout.cluster_record(self.workspace, n))
            if rec:
                models.append(self._to_model(rec))
        return single_page(models)

    def update(self, name: str, parameters: Any = None, *, scale_settings: Any = None) -> Any:
        """Resize (manual target) or change auto-scale bounds: ``ClusterUpdateParameters(scale_settings=...)``."""
        from ..models import ClusterUpdateParameters, ScaleSettings, raise_if_invalid

        if parameters is None:
            parameters = ClusterUpdateParameters(scale_settings=scale_settings)
        if isinstance(parameters, ScaleSettings):
            parameters = ClusterUpdateParameters(scale_settings=parameters)
        raise_if_invalid(parameters, f"cluster '{name}' update")
        rec = self._record(name)
        if rec.get("provisioningState") == "deleting":
            raise ResourceNotFoundError(f"The cluster '{name}' is being deleted.")
        wire = parameters.serialize()
        scale = (wire.get("properties") or {}).get("scaleSettings")
        if scale:
            rec["spec"].setdefault("properties", {})["scaleSettings"] = scale
            rec["targetNodeCount"] = target_of(scale)
            rec["allocationStateTransitionTime"] = r.now()
            self._io.write_json(layout.cluster_record(self.workspace, name), rec)
            self.backend.resize_cluster(self.workspace, name, rec)
        return self._to_model(rec)

    def resize(self, name: str, target_node_count: int) -> Any:
        """Shorthand for a manual-scale update."""
        from ..models import ManualScaleSettings, ScaleSettings

        return self.update(name, scale_settings=ScaleSettings(manual=ManualScaleSettings(target_node_count=target_node_count)))

    def wait_for_nodes(self, name: str, count: int | None = None, *, timeout: float | None = 120.0, idle: bool = True) -> Any:
        """Block until ``count`` nodes (default: the target) are idle (or just present), then return the cluster."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            rec = self._record(name)
            want = count if count is not None else int(rec.get("targetNodeCount", 0))
            _cur, counts, live, node_errors = node_counts(self._io, self.workspace, name)
            have = counts["idleNodeCount"] if idle else len(live)
            if have >= want:
                return self._to_model(rec)
            if counts["unusableNodeCount"] >= want and not live:
                raise RuntimeError(f"cluster '{name}' has only unusable nodes: {node_errors}")
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"cluster '{name}': {have} of {want} nodes ready after {timeout} s")
            time.sleep(self.backend.poll_interval)

    def begin_delete(self, name: str, *, polling_interval: float | None = None) -> LROPoller[None]:
        """Delete a cluster: its nodes stop, its running jobs fail (``ClusterDeleted``), its queued jobs too."""
        rec = self._record(name)
        io = self._io
        rec["provisioningState"] = "deleting"
        rec["provisioningStateTransitionTime"] = r.now()
        io.write_json(layout.cluster_record(self.workspace, name), rec)
        self.backend.deprovision_cluster(self.workspace, name, wait=True)
        self._fail_queued_jobs(name)
        io.remove_tree(layout.cluster_dir(self.workspace, name))
        log.info("cluster %s/%s: deleted", self.workspace, name)
        return make_poller(lambda: (True, "succeeded", None), polling_interval or self.backend.poll_interval)

    def _fail_queued_jobs(self, name: str) -> None:
        from ..control import lifecycle

        io = self._io
        qdir = layout.queue_dir(self.workspace, name)
        for entry in io.listdir(qdir):
            q = io.read_json(qdir + "/" + entry)
            if not isinstance(q, dict):
                continue
            job = io.read_json(layout.job_record(q["workspace"], q["experiment"], q["job"]))
            if isinstance(job, dict):
                lifecycle.end_attempt(io, job, int(q.get("attempt", 1)), r.FAILED, by="client",
                                      errors=[r.error(r.CLUSTER_DELETED, f"The cluster '{name}' was deleted.")])

    def list_remote_login_information(self, name: str) -> builtins.list[Any]:
        from ..models import RemoteLoginInformation

        self._record(name)
        return [RemoteLoginInformation.deserialize({"nodeId": n.node_id, "ipAddress": n.ip_address, "port": n.port})
                for n in self.backend.remote_login_information(self.workspace, name)]
