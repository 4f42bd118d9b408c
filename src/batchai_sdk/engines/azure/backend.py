"""AzureBackend: clusters as VM Scale Sets in your subscription, shares as Azure file shares.

Retries have one owner per layer: azure-core's retry policies repeat single requests (throttling, 5xx,
dropped connections); tenacity repeats our multi-step operations (network, then scale set) only on ARM's
eventual-consistency answers that a single-request retry cannot fix. Both waits are injectable
(``retry_wait``) so tests run without sleeping.
"""

from __future__ import annotations

import json
import logging
import posixpath
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from azure.core.exceptions import HttpResponseError, ResourceNotFoundError
from azure.core.rest import HttpRequest
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential, wait_fixed

from ...control import layout
from ...control import records as r
from ..base import Backend, NodeLogin, ProvisioningStatus
from . import bootstrap, compute
from . import file_servers as fs
from .errors import error_code_of, map_arm_error
from .network import SUBNET_PREFIX, NetworkNames, delete_network, ensure_network
from .retries import ThrottleAwareExponentialRetry, ThrottleAwareLinearRetry
from .store import AzureFilesStore

log = logging.getLogger("batchai_sdk.azure")

T = TypeVar("T")

#: ARM answers that mean "not yet" rather than "no": a just-created subnet not visible to Compute yet,
#: another operation on the same resource still running.
RETRYABLE_CODES = frozenset({"RetryableError", "AnotherOperationInProgress", "InvalidResourceReference",
                             "OperationPreempted", "NetworkingInternalOperationError"})
STORAGE_API = "2023-05-01"
NETWORK_API = "2018-10-01"
SSH_PORT = 22


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, HttpResponseError) and error_code_of(exc) in RETRYABLE_CODES


class AzureBackend(Backend):
    """The Azure engine.

    :param subscription_id: the subscription clusters are created in.
    :param resource_group: an existing resource group for the scale sets and networks.
    :param location: Azure region of the clusters (e.g. ``"eastus"``).
    :param storage_account: the storage account holding the control share and your file shares.
    :param storage_account_key: its key; fetched with ARM ``listKeys`` when omitted.
    :param credential: an ``azure.core.credentials.TokenCredential``; default ``DefaultAzureCredential()``.
    :param arm_endpoint: Resource Manager endpoint (sovereign clouds, tests).
    :param files_endpoint: Files endpoint; default ``https://<account>.file.core.windows.net``.
    :param connection_verify: TLS verification (True, or a CA bundle path).
    :param polling_interval: seconds between ARM long-running-operation polls (SDK default 30).
    :param retry_wait: fixed seconds between retries of every layer (0 in tests); None keeps the SDKs'
        exponential backoff.
    :param control_share: the share holding the control plane (specs, state, logs of the agents).
    :param heartbeat_interval: seconds between node heartbeats (a node is lost after three missed).
    :param poll_interval: seconds between an idle node's looks at the queue.
    :param idle_timeout: seconds an auto-scale node stays idle before its agent leaves and the engine
        removes the VM at its next call.
    :param client_poll_interval: seconds between a client's state reads while waiting.
    :param stream_poll_intervals: seconds between log reads while data flows / while it does not.
    :param public_ip: give each node a public IP (SSH, outbound internet in an engine-made network).
    """

    kind = "azure"

    def __init__(
        self,
        subscription_id: str,
        resource_group: str,
        location: str,
        *,
        storage_account: str,
        storage_account_key: str | None = None,
        credential: Any = None,
        arm_endpoint: str = "https://management.azure.com",
        files_endpoint: str | None = None,
        connection_verify: bool | str = True,
        polling_interval: float | None = None,
        retry_wait: float | None = None,
        control_share: str = layout.CONTROL_SHARE,
        heartbeat_interval: float = 15.0,
        poll_interval: float = 2.0,
        terminate_grace: float = 10.0,
        idle_timeout: float = 600.0,
        client_poll_interval: float = 1.0,
        stream_poll_intervals: tuple[float, float] = (0.5, 5.0),
        public_ip: bool = True,
        os_disk_type: str = "Standard_LRS",
    ) -> None:
        self.subscription_id = subscription_id
        self.resource_group = resource_group
        self.location = location
        self.storage_account_name = storage_account
        self.control_share = control_share
        self.arm_endpoint = arm_endpoint.rstrip("/")
        self.files_endpoint = (files_endpoint or f"https://{storage_account}.file.core.windows.net").rstrip("/")
        self.connection_verify = connection_verify
        self.polling_interval = polling_interval
        self.retry_wait = retry_wait
        self.heartbeat_interval = heartbeat_interval
        self.node_poll_interval = poll_interval
        self.terminate_grace = terminate_grace
        self.idle_timeout = idle_timeout
        self.poll_interval = client_poll_interval
        self.stream_poll_intervals = stream_poll_intervals
        self.public_ip = public_ip
        self.os_disk_type = os_disk_type
        if credential is None:
            from azure.identity import DefaultAzureCredential

            credential = DefaultAzureCredential()
        self._credential = credential
        self._compute: Any = None
        self._network: Any = None
        self._pollers: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()
        self._key = storage_account_key
        self.store: AzureFilesStore = AzureFilesStore(self.files_endpoint, storage_account, self.storage_account_key,
                                     **self._storage_options())
        self.ensure_control_share()

    def __repr__(self) -> str:
        return (f"AzureBackend(subscription_id={self.subscription_id!r}, resource_group={self.resource_group!r}, "
                f"location={self.location!r}, storage_account={self.storage_account_name!r})")

    # ------------------------------------------------------------------ clients
    def _storage_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"connection_verify": self.connection_verify}
        # The SDK's own policies give up on 429 at once; ours repeat it like a 503 (see retries.py).
        if self.retry_wait is not None:
            options["retry_policy"] = ThrottleAwareLinearRetry(backoff=self.retry_wait,  # type: ignore[arg-type]
                                                               random_jitter_range=0)
        else:
            options["retry_policy"] = ThrottleAwareExponentialRetry()
        return options

    def _arm_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"base_url": self.arm_endpoint, "connection_verify": self.connection_verify}
        if self.polling_interval is not None:
            options["polling_interval"] = self.polling_interval
        if self.retry_wait is not None:
            options["retry_backoff_factor"] = self.retry_wait
            options["retry_backoff_max"] = self.retry_wait
        return options

    @property
    def compute(self) -> Any:
        """The ``ComputeManagementClient`` (created on first use)."""
        if self._compute is None:
            from azure.mgmt.compute import ComputeManagementClient

            self._compute = ComputeManagementClient(self._credential, self.subscription_id, **self._arm_options())
        return self._compute

    @property
    def network(self) -> Any:
        """The ``NetworkManagementClient`` (created on first use: only clusters without a subnet need it)."""
        if self._network is None:
            from azure.mgmt.network import NetworkManagementClient

            self._network = NetworkManagementClient(self._credential, self.subscription_id, **self._arm_options())
        return self._network

    def _arm(self, method: str, path: str, api_version: str) -> Any:
        """A raw ARM request through the compute client's pipeline (auth, retries, TLS settings)."""
        response = self.compute._client.send_request(HttpRequest(method, f"{self.arm_endpoint}{path}",
                                                                 params={"api-version": api_version}))
        response.raise_for_status()
        return response.json() if response.content else None

    def _retrying(self) -> Retrying:
        wait = wait_fixed(self.retry_wait) if self.retry_wait is not None else wait_exponential(multiplier=2, max=30)
        return Retrying(retry=retry_if_exception(_retryable), wait=wait, stop=stop_after_attempt(4), reraise=True)

    def _steps(self, fn: Callable[[], T]) -> T:
        result: T | None = None
        for attempt in self._retrying():
            with attempt:
                result = fn()
        return result  # type: ignore[return-value]

    @property
    def storage_account_key(self) -> str:
        if self._key is None:
            rg = self.resource_group
            path = (f"/subscriptions/{self.subscription_id}/resourceGroups/{rg}/providers/Microsoft.Storage/"
                    f"storageAccounts/{self.storage_account_name}/listKeys")
            try:
                body = self._arm("POST", path, STORAGE_API)
            except HttpResponseError as exc:
                raise map_arm_error(exc, f"reading the keys of storage account '{self.storage_account_name}'") from None
            self._key = str(body["keys"][0]["value"])
        return self._key

    def share_url(self, share: str) -> str:
        return f"https://{self.storage_account_name}.file.core.windows.net/{share}"

    def close(self) -> None:
        for client in (self._compute, self._network):
            if client is not None:
                client.close()
        self.store.close()

    # ------------------------------------------------------------------ cluster records
    def cluster_record_extras(self) -> dict[str, Any]:
        return {"azure": {"scaleSet": None, "heartbeatInterval": self.heartbeat_interval}}

    def _secrets(self, ws: str, cluster: str) -> dict[str, Any]:
        try:
            return json.loads(self.store.read(self.control_share, layout.cluster_secrets(ws, cluster)))
        except (ResourceNotFoundError, ValueError):
            return {}

    def _publish_agent(self) -> str:
        data = bootstrap.build_agent_zipapp()
        path = bootstrap.agent_blob_path(data)
        entry = self.store.stat(self.control_share, path)
        if entry is None or entry.size != len(data):
            self.store.write_atomic(self.control_share, path, data)
        return path

    def _agent_base(self, ws: str, cluster: str, props: dict[str, Any]) -> dict[str, Any]:
        auto = bool((props.get("scaleSettings") or {}).get("autoScale"))
        return {
            "control_dir": bootstrap.CONTROL_MOUNT,
            "workspace": ws,
            "cluster": cluster,
            "node_id": "",
            "node_dir": bootstrap.NODE_ROOT,
            "subscription_id": self.subscription_id,
            "resource_group": self.resource_group,
            "heartbeat_interval": self.heartbeat_interval,
            "poll_interval": self.node_poll_interval,
            "terminate_grace": self.terminate_grace,
            "mount_mode": "prepared",
            "shares_root": None,
            "path_prepend": [],
            "local": False,
            "strict_containers": True,
            "idle_timeout": self.idle_timeout if auto else None,
        }

    def _nfs_sources(self, ws: str, volumes: dict[str, Any]) -> dict[int, str | None]:
        """``ip:/export`` of each fileServers volume, from the file server's record on the control share."""
        out: dict[int, str | None] = {}
        for i, ref in enumerate(volumes.get("fileServers") or []):
            name = str((ref.get("fileServer") or {}).get("id", "")).rstrip("/").rsplit("/", 1)[-1]
            rel = layout.join(layout.workspace_dir(ws), "fileServers", name, "fileserver.json")
            try:
                rec = json.loads(self.store.read(self.control_share, rel))
                mount = rec.get("mountSettings") or {}
                ip = mount.get("fileServerInternalIP")
                out[i] = f"{ip}:{mount.get('mountPoint') or '/mnt/data'}" if ip else None
            except (ResourceNotFoundError, ValueError):
                out[i] = None
        return out

    # ------------------------------------------------------------------ provisioning
    def provision_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        props = (record.get("spec") or {}).get("properties", {})
        name = compute.scale_set_name(workspace, cluster)
        secrets = (self._secrets(workspace, cluster).get("values") or {})
        password = secrets.get("properties.userAccountSettings.adminUserPassword")
        agent_blob = self._publish_agent()
        volumes = (props.get("nodeSetup") or {}).get("mountVolumes") or {}
        params = bootstrap.NodeScriptParams(
            account=self.storage_account_name,
            files_host=f"{self.storage_account_name}.file.core.windows.net",
            control_share=self.control_share,
            workspace=workspace,
            cluster=cluster,
            agent_blob=agent_blob,
            agent_base=self._agent_base(workspace, cluster, props),
            mount_volumes=volumes,
            nfs_sources=self._nfs_sources(workspace, volumes),
        )
        image = compute.image_reference(props)
        custom_data = bootstrap.encode_custom_data(
            bootstrap.cloud_config({"publisher": image.get("publisher"), "virtualMachineImageId": image.get("id")},
                                   str(props.get("vmSize") or "")))
        extension = bootstrap.custom_script_extension(bootstrap.node_script(params, self.storage_account_key))
        tags = compute.tags_for(workspace, cluster)

        def create() -> Any:
            # Batch AI: "Cluster and mounted NFS must be in the same subnet" - a cluster without its own
            # subnet joins its file server's.
            subnet_id = (props.get("subnet") or {}).get("id") or self._file_server_subnet(workspace, volumes)
            nsg_id = None
            if not subnet_id:
                subnet_id, nsg_id = ensure_network(self.network, self.resource_group, self.location,
                                                   NetworkNames.for_scale_set(name), tags)
            body = compute.scale_set_body(
                workspace=workspace, cluster=cluster, location=self.location, props=props,
                admin_password=password, custom_data_b64=custom_data, extension=extension,
                subnet_id=subnet_id, nsg_id=nsg_id, public_ip=self.public_ip, os_disk_type=self.os_disk_type)
            return self.compute.virtual_machine_scale_sets.begin_create_or_update(self.resource_group, name, body)

        try:
            poller = self._steps(create)
        except HttpResponseError as exc:
            raise map_arm_error(exc, f"creating scale set '{name}' for cluster '{cluster}'") from None
        with self._lock:
            self._pollers[(workspace, cluster)] = poller
        log.info("cluster %s/%s: scale set %s requested (%s)", workspace, cluster, name, props.get("vmSize"))

    def _scale_set(self, workspace: str, cluster: str) -> Any | None:
        try:
            return self.compute.virtual_machine_scale_sets.get(
                self.resource_group, compute.scale_set_name(workspace, cluster))
        except ResourceNotFoundError:
            return None

    def _instances(self, workspace: str, cluster: str) -> dict[str, str]:
        """node id (computer name) → instance id."""
        out: dict[str, str] = {}
        try:
            for vm in self.compute.virtual_machine_scale_set_vms.list(
                    self.resource_group, compute.scale_set_name(workspace, cluster)):
                name = (vm.os_profile.computer_name if vm.os_profile else None) or vm.name
                out[str(name)] = str(vm.instance_id)
        except ResourceNotFoundError:
            pass
        return out

    def _node_records(self, workspace: str, cluster: str) -> tuple[dict[str, dict[str, Any]], set[str]]:
        store, share = self.store, self.control_share
        ndir = layout.nodes_dir(workspace, cluster)
        try:
            names = [e.name for e in store.list_dir(share, ndir)]
        except ResourceNotFoundError:
            return {}, set()
        dead = {n[: -len(".dead")] for n in names if n.endswith(".dead")}
        recs: dict[str, dict[str, Any]] = {}
        for n in names:
            if n.endswith(".json") and not n.startswith("."):
                try:
                    rec = json.loads(store.read(share, posixpath.join(ndir, n)))
                except (ResourceNotFoundError, ValueError):
                    continue
                if isinstance(rec, dict):
                    recs[n[:-5]] = rec
        return recs, dead

    def _queued_node_counts(self, workspace: str, cluster: str) -> list[int]:
        from ...clients._records import StoreRecords

        io = StoreRecords(self.store, self.control_share)
        counts = []
        qdir = layout.queue_dir(workspace, cluster)
        for entry in io.listdir(qdir):
            q = io.read_json(posixpath.join(qdir, entry))
            if isinstance(q, dict):
                job = io.read_json(layout.job_record(q["workspace"], q["experiment"], q["job"]))
                if isinstance(job, dict):
                    counts.append(int(job["spec"]["properties"].get("nodeCount") or 1))
        return counts

    def _set_capacity(self, workspace: str, cluster: str, capacity: int) -> None:
        name = compute.scale_set_name(workspace, cluster)
        try:
            self.compute.virtual_machine_scale_sets.begin_update(
                self.resource_group, name, {"sku": {"capacity": capacity}})
        except HttpResponseError as exc:
            raise map_arm_error(exc, f"resizing scale set '{name}' to {capacity}") from None
        log.info("cluster %s/%s: capacity %d", workspace, cluster, capacity)

    def _delete_instances(self, workspace: str, cluster: str, ids: list[str]) -> None:
        if ids:
            name = compute.scale_set_name(workspace, cluster)
            self.compute.virtual_machine_scale_sets.begin_delete_instances(
                self.resource_group, name, {"instanceIds": ids})
            log.info("cluster %s/%s: removing instances %s", workspace, cluster, ids)

    def reconcile(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        """What a scheduler would do between client calls: remove VMs whose agent left (idle auto-scale
        nodes), mark nodes whose VM vanished as evicted (Spot), grow an auto-scale cluster for its queue."""
        props = (record.get("spec") or {}).get("properties", {})
        scale = props.get("scaleSettings") or {}
        instances = self._instances(workspace, cluster)
        recs, dead = self._node_records(workspace, cluster)
        spot = str(props.get("vmPriority") or "").lower() == "lowpriority"
        for node, rec in recs.items():
            if node in instances or node in dead or rec.get("state") == "left" or rec.get("evicted"):
                continue
            if spot:
                rec["evicted"] = True
                self.store.write_atomic(self.control_share, layout.node_record(workspace, cluster, node), r.dumps(rec))
                log.warning("cluster %s/%s: node %s was evicted", workspace, cluster, node)
        left = [instances[n] for n, rec in recs.items() if rec.get("state") == "left" and n in instances]
        if left and scale.get("autoScale"):
            self._delete_instances(workspace, cluster, left)
        if scale.get("autoScale"):
            from ..local.scaling import desired_nodes

            auto = scale["autoScale"]
            current = len(instances) - len(left)
            busy = sum(1 for n, rec in recs.items() if n in instances and rec.get("job"))
            queued = self._queued_node_counts(workspace, cluster)
            want = desired_nodes(scale, queued, busy, current, 0)
            if want > current and want <= int(auto.get("maximumNodeCount", want)):
                self._set_capacity(workspace, cluster, want)

    def on_job_queued(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        if ((record.get("spec") or {}).get("properties", {}).get("scaleSettings") or {}).get("autoScale"):
            self.reconcile(workspace, cluster, record)

    def resize_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        scale = (record.get("spec") or {}).get("properties", {}).get("scaleSettings") or {}
        want = compute.target_capacity(scale)
        instances = self._instances(workspace, cluster)
        if want >= len(instances):
            self._set_capacity(workspace, cluster, want)
            return
        # Shrinking: remove idle nodes first; busy ones only if the deallocation option allows it.
        recs, _dead = self._node_records(workspace, cluster)
        option = str((scale.get("manual") or {}).get("nodeDeallocationOption") or "requeue").lower()
        idle = [i for n, i in instances.items() if not (recs.get(n) or {}).get("job")]
        busy = [i for n, i in instances.items() if (recs.get(n) or {}).get("job")]
        victims = (idle + ([] if option == "waitforjobcompletion" else busy))[: len(instances) - want]
        self._delete_instances(workspace, cluster, victims)

    def deprovision_cluster(self, workspace: str, cluster: str, *, wait: bool = True) -> None:
        name = compute.scale_set_name(workspace, cluster)
        with self._lock:
            self._pollers.pop((workspace, cluster), None)
        try:
            poller = self.compute.virtual_machine_scale_sets.begin_delete(self.resource_group, name)
            if wait:
                poller.result()
        except ResourceNotFoundError:
            pass
        except HttpResponseError as exc:
            raise map_arm_error(exc, f"deleting scale set '{name}'") from None
        if wait:
            # The network can go only once no NIC uses it; a user's own subnet is left alone (other names).
            try:
                delete_network(self.network, self.resource_group, NetworkNames.for_scale_set(name))
            except HttpResponseError as exc:
                log.warning("cluster %s/%s: network of %s not deleted: %s", workspace, cluster, name, exc.message)
        log.info("cluster %s/%s: scale set %s deleted", workspace, cluster, name)

    def provisioning_status(self, workspace: str, cluster: str, record: dict[str, Any]) -> ProvisioningStatus:
        current = str(record.get("provisioningState", "creating"))
        target = int(record.get("targetNodeCount", 0))
        if current in ("deleting", "failed"):
            return ProvisioningStatus(state=current, target_node_count=target, errors=list(record.get("errors") or []))
        with self._lock:
            poller = self._pollers.get((workspace, cluster))
        if poller is not None and poller.done():
            with self._lock:
                self._pollers.pop((workspace, cluster), None)
            try:
                poller.result()
            except HttpResponseError as exc:
                return self._creation_failed(workspace, cluster, target, exc)
        try:
            vmss = self._scale_set(workspace, cluster)
        except HttpResponseError as exc:
            log.warning("cluster %s/%s: scale set state unknown: %s", workspace, cluster, exc.message)
            return ProvisioningStatus(current, target)
        if vmss is None:
            return ProvisioningStatus(current, target)
        state = str(vmss.provisioning_state or "").lower()
        if vmss.sku is not None and vmss.sku.capacity is not None:
            target = int(vmss.sku.capacity)
        if state == "failed":
            if poller is not None:
                # The create operation carries the precise error (AllocationFailed, quota, ...); it ends
                # right after the scale set turns failed, so wait for it rather than guess from instances.
                try:
                    poller.result(timeout=60)
                except HttpResponseError as exc:
                    with self._lock:
                        self._pollers.pop((workspace, cluster), None)
                    return self._creation_failed(workspace, cluster, target, exc)
            return ProvisioningStatus("failed", target, self._instance_errors(workspace, cluster))
        if state == "succeeded" or current == "succeeded":
            if current == "succeeded":
                try:
                    self.reconcile(workspace, cluster, record)
                except HttpResponseError as exc:
                    log.warning("cluster %s/%s: reconcile failed: %s", workspace, cluster, exc.message)
            return ProvisioningStatus("succeeded", target)
        return ProvisioningStatus("creating", target)

    def _creation_failed(self, workspace: str, cluster: str, target: int, exc: HttpResponseError) -> ProvisioningStatus:
        name = compute.scale_set_name(workspace, cluster)
        mapped = map_arm_error(exc, f"creating scale set '{name}'")
        code = getattr(mapped, "error_code", None) or "ProvisioningFailed"
        return ProvisioningStatus("failed", target, [r.error(code, mapped.message)])

    def _instance_errors(self, workspace: str, cluster: str) -> list[dict[str, Any]]:
        name = compute.scale_set_name(workspace, cluster)
        try:
            view = self.compute.virtual_machine_scale_sets.get_instance_view(self.resource_group, name)
        except HttpResponseError:
            return [r.error("ProvisioningFailed", f"The scale set '{name}' failed to provision.")]
        errors = [r.error(str(s.code).rsplit("/", 1)[-1], str(s.message or s.display_status or s.code))
                  for s in (view.statuses or []) if str(s.level or "").lower() == "error"]
        return errors or [r.error("ProvisioningFailed", f"The scale set '{name}' failed to provision.")]

    def remote_login_information(self, workspace: str, cluster: str) -> list[NodeLogin]:
        """Each node's public IP (or private IP when it has none) and SSH port 22."""
        name = compute.scale_set_name(workspace, cluster)
        base = (f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers/"
                f"Microsoft.Compute/virtualMachineScaleSets/{name}")
        public: dict[str, str] = {}
        try:
            for pip in (self._arm("GET", base + "/publicipaddresses", NETWORK_API) or {}).get("value", []):
                ip = (pip.get("properties") or {}).get("ipAddress")
                vm = str(pip.get("id", "")).split("/virtualMachines/")[-1].split("/")[0]
                if ip and vm:
                    public[vm] = ip
        except HttpResponseError:
            pass  # no public IPs (own subnet without them) or not listable: private addresses it is
        out = []
        for node, instance in sorted(self._instances(workspace, cluster).items()):
            ip = public.get(instance)
            if ip is None:
                try:
                    nics = self._arm("GET", f"{base}/virtualMachines/{instance}/networkInterfaces", NETWORK_API)
                    configs = [c for nic in (nics or {}).get("value", [])
                               for c in (nic.get("properties") or {}).get("ipConfigurations", [])]
                    ip = next((c["properties"].get("privateIPAddress") for c in configs
                               if c.get("properties", {}).get("privateIPAddress")), None)
                except HttpResponseError:
                    ip = None
            out.append(NodeLogin(node_id=node, ip_address=ip or "", port=SSH_PORT))
        return out

    # ------------------------------------------------------------------ file servers
    def _file_server_subnet(self, ws: str, volumes: dict[str, Any]) -> str | None:
        """The subnet of the first file server the volumes mount (None: no file server, or not known yet)."""
        for ref in volumes.get("fileServers") or []:
            name = str((ref.get("fileServer") or {}).get("id", "")).rstrip("/").rsplit("/", 1)[-1]
            try:
                rec = json.loads(self.store.read(self.control_share, layout.file_server_record(ws, name)))
            except (ResourceNotFoundError, ValueError):
                continue
            subnet = (rec.get("subnet") or ((rec.get("spec") or {}).get("properties") or {}).get("subnet") or {})
            if subnet.get("id"):
                return str(subnet["id"])
        return None

    def _nfs_clients(self, subnet_id: str, engine_network: bool) -> list[str]:
        """Who may mount the export: the subnet's address prefix (the private ranges if unreadable)."""
        if engine_network:
            return [SUBNET_PREFIX]
        try:
            props = (self._arm("GET", subnet_id, NETWORK_API) or {}).get("properties") or {}
        except HttpResponseError as exc:
            log.warning("subnet %s not readable (%s); exporting to the private address ranges", subnet_id, exc.message)
            return list(fs.PRIVATE_RANGES)
        prefixes = props.get("addressPrefixes") or ([props["addressPrefix"]] if props.get("addressPrefix") else [])
        return [str(p) for p in prefixes] or list(fs.PRIVATE_RANGES)

    def provision_file_server(self, workspace: str, name: str, record: dict[str, Any],
                              secrets: dict[str, Any] | None = None) -> None:
        props = (record.get("spec") or {}).get("properties", {})
        vmss = fs.scale_set_name(workspace, name)
        password = (secrets or {}).get("properties.sshConfiguration.userAccountSettings.adminUserPassword")
        disk_count = int((props.get("dataDisks") or {}).get("diskCount") or 1)

        def create() -> Any:
            subnet_id = (props.get("subnet") or {}).get("id")
            nsg_id = None
            own = not subnet_id
            if own:
                subnet_id, nsg_id = ensure_network(self.network, self.resource_group, self.location,
                                                   NetworkNames.for_scale_set(vmss), fs.tags_for(workspace, name))
            custom_data = bootstrap.encode_custom_data(
                fs.cloud_config(disk_count, self._nfs_clients(str(subnet_id), own)))
            body = fs.scale_set_body(
                workspace=workspace, name=name, location=self.location, props=props, admin_password=password,
                custom_data_b64=custom_data, subnet_id=str(subnet_id), nsg_id=nsg_id, public_ip=self.public_ip,
                os_disk_type=self.os_disk_type)
            return self.compute.virtual_machine_scale_sets.begin_create_or_update(self.resource_group, vmss, body)

        try:
            poller = self._steps(create)
        except HttpResponseError as exc:
            raise map_arm_error(exc, f"creating scale set '{vmss}' for file server '{name}'") from None
        with self._lock:
            self._pollers[(workspace, "fileServers/" + name)] = poller
        log.info("file server %s/%s: scale set %s requested (%s)", workspace, name, vmss, props.get("vmSize"))

    def deprovision_file_server(self, workspace: str, name: str) -> None:
        vmss = fs.scale_set_name(workspace, name)
        with self._lock:
            self._pollers.pop((workspace, "fileServers/" + name), None)
        try:
            # The data disks were created with the scale set and go with it.
            self.compute.virtual_machine_scale_sets.begin_delete(self.resource_group, vmss).result()
        except ResourceNotFoundError:
            pass
        except HttpResponseError as exc:
            raise map_arm_error(exc, f"deleting scale set '{vmss}' of file server '{name}'") from None
        try:
            delete_network(self.network, self.resource_group, NetworkNames.for_scale_set(vmss))
        except HttpResponseError as exc:
            # Clusters that joined the file server's subnet keep the network alive until they go.
            log.warning("file server %s/%s: network of %s not deleted: %s", workspace, name, vmss, exc.message)
        log.info("file server %s/%s: scale set %s deleted", workspace, name, vmss)

    def _file_server_ips(self, vmss: str) -> tuple[str | None, str | None]:
        """(private IP, public IP) of the file server's VM."""
        base = (f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers/"
                f"Microsoft.Compute/virtualMachineScaleSets/{vmss}")
        instances = list(self.compute.virtual_machine_scale_set_vms.list(self.resource_group, vmss))
        if not instances:
            return None, None
        instance = str(instances[0].instance_id)
        private = public = None
        nics = self._arm("GET", f"{base}/virtualMachines/{instance}/networkInterfaces", NETWORK_API)
        for nic in (nics or {}).get("value", []):
            for config in (nic.get("properties") or {}).get("ipConfigurations", []):
                private = private or (config.get("properties") or {}).get("privateIPAddress")
        try:
            for pip in (self._arm("GET", base + "/publicipaddresses", NETWORK_API) or {}).get("value", []):
                public = public or (pip.get("properties") or {}).get("ipAddress")
        except HttpResponseError:
            pass  # no public IP (an own subnet without them)
        return private, public

    def file_server_status(self, workspace: str, name: str, record: dict[str, Any]) -> dict[str, Any]:
        current = str(record.get("provisioningState") or "creating")
        out: dict[str, Any] = {"provisioningState": current, "mountSettings": record.get("mountSettings"),
                               "errors": list(record.get("errors") or [])}
        if current in ("deleting", "failed"):
            return out
        vmss_name = fs.scale_set_name(workspace, name)
        with self._lock:
            poller = self._pollers.get((workspace, "fileServers/" + name))
        if poller is not None and poller.done():
            with self._lock:
                self._pollers.pop((workspace, "fileServers/" + name), None)
            try:
                poller.result()
            except HttpResponseError as exc:
                mapped = map_arm_error(exc, f"creating scale set '{vmss_name}'")
                code = getattr(mapped, "error_code", None) or "ProvisioningFailed"
                return {**out, "provisioningState": "failed", "errors": [r.error(code, mapped.message)]}
        try:
            vmss = self.compute.virtual_machine_scale_sets.get(self.resource_group, vmss_name)
        except ResourceNotFoundError:
            return out
        except HttpResponseError as exc:
            log.warning("file server %s/%s: state unknown: %s", workspace, name, exc.message)
            return out
        state = str(vmss.provisioning_state or "").lower()
        subnet = fs.subnet_of(vmss)
        if subnet:
            out["subnet"] = {"id": subnet}
        if state == "failed":
            return {**out, "provisioningState": "failed",
                    "errors": [r.error("ProvisioningFailed", f"The scale set '{vmss_name}' failed to provision.")]}
        if state != "succeeded" or current == "succeeded" and out["mountSettings"]:
            return out
        try:
            private, public = self._file_server_ips(vmss_name)
        except HttpResponseError as exc:
            log.warning("file server %s/%s: address unknown yet: %s", workspace, name, exc.message)
            return out
        if not private:
            return out
        mount = {"mountPoint": fs.MOUNT_POINT, "fileServerInternalIP": private}
        if public:
            mount["fileServerPublicIP"] = public
        return {**out, "provisioningState": "succeeded", "mountSettings": mount}
