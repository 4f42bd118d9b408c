"""Azure Resource Manager: resource groups, VM scale sets (with their LRO contract), storage keys and a
generic store for ``Microsoft.Network/*`` and other resources."""

from __future__ import annotations

import base64
import copy
import json
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ._http import FakeRequest, FakeResponse, json_error, json_response
from ._nodes import NodeInfo, RunCommandOutput, run_locally

_LOG = logging.getLogger("batchai_sdk.testing")
_VMSS = "microsoft.compute/virtualmachinescalesets"
_API = "2026-04-01"

NodeLauncher = Callable[[NodeInfo], Any]
RunCommandHandler = Callable[[NodeInfo, list[str], list[dict[str, Any]]], RunCommandOutput]

#: Provisioning failures answered synchronously by the PUT (status), as the real service does.
_SYNC_FAILURES = {"SkuNotAvailable": 409, "QuotaExceeded": 409, "OperationNotAllowed": 409}


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> None:
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


@dataclass
class _Operation:
    op_id: str
    polls_left: int
    on_success: Callable[[], None] = lambda: None
    result: Callable[[], Any] = lambda: None
    error: dict[str, str] | None = None
    status: str = "InProgress"
    worker: threading.Thread | None = None
    started: str = field(default_factory=_now_iso)


@dataclass
class _Instance:
    instance_id: str
    computer_name: str
    provisioning: str = "Creating"
    power: str = "starting"
    handle: Any = None


@dataclass
class _ScaleSet:
    name: str
    model: dict[str, Any]
    instances: dict[str, _Instance] = field(default_factory=dict)
    next_id: int = 0
    pending: _Operation | None = None


class ArmService:
    """The ARM half of :class:`~batchai_sdk.testing.FakeAzureState`."""

    def __init__(
        self,
        subscription_id: str,
        resource_group: str,
        location: str,
        account_name: str,
        account_key: str,
        bearer_token: str,
    ) -> None:
        self.subscription_id = subscription_id
        self.location = location
        self.account_name = account_name
        self.account_key = account_key
        self.bearer_token = bearer_token
        self.files_url = ""
        self.node_launcher: NodeLauncher | None = None
        self.run_command_handler: RunCommandHandler | None = None
        #: Status checks an operation answers "InProgress" before it ends.
        self.lro_polls = 1
        #: LRO style of VMSS create: "async" (201 + Azure-AsyncOperation, the real one), "location"
        #: (201 + Location), "body" (201, provisioningState only) or "sync" (200, already Succeeded).
        self.vmss_create_style = "async"
        #: Retry-After seconds on LRO responses; None sends none (any non-zero value slows clients).
        self.retry_after: int | None = None
        self._lock = threading.RLock()
        self._groups: dict[str, dict[str, Any]] = {}
        self._scale_sets: dict[str, _ScaleSet] = {}
        self._resources: dict[str, dict[str, Any]] = {}
        self._operations: dict[str, _Operation] = {}
        self._provisioning_failures: list[tuple[str | None, str, str]] = []
        self._to_launch: list[tuple[_ScaleSet, _Instance]] = []
        self._to_stop: list[Any] = []
        self._to_notify: list[Callable[[], None]] = []
        self._failure_watch: dict[str, Callable[[], None]] = {}
        self._put_group(resource_group, {"location": location})

    # ------------------------------------------------------------------ public helpers (used by FakeAzure)

    def fail_provisioning(self, vmss: str | None, code: str, mode: str = "auto") -> None:
        with self._lock:
            self._provisioning_failures.append((vmss, code, mode))

    def instance_handles(self, vmss: str) -> dict[str, Any]:
        with self._lock:
            scale_set = self._scale_sets.get(vmss.lower())
            return {} if scale_set is None else {i: inst.handle for i, inst in scale_set.instances.items()}

    def evict(self, vmss: str, instance_id: str) -> None:
        with self._lock:
            scale_set = self._scale_sets[vmss.lower()]
            inst = scale_set.instances[str(instance_id)]
            policy = scale_set.model.get("properties", {}).get("virtualMachineProfile", {}).get("evictionPolicy")
            if (policy or "Deallocate").lower() == "delete":
                del scale_set.instances[inst.instance_id]
                sku = scale_set.model.setdefault("sku", {})
                sku["capacity"] = max(0, int(sku.get("capacity", 1)) - 1)
            else:
                inst.power = "deallocated"
            # A node that asked to hear of evictions (Azure's Scheduled Events "Preempt") is told first.
            notice = getattr(inst.handle, "evicted", None)
            if callable(notice):
                self._to_notify.append(notice)
            self._stop(inst)
        self._flush()

    def shutdown(self) -> None:
        with self._lock:
            for scale_set in self._scale_sets.values():
                for inst in scale_set.instances.values():
                    self._stop(inst)
        self._flush()

    # ------------------------------------------------------------------ dispatch

    def operation(self, request: FakeRequest) -> str:
        parts = [p for p in request.raw_path.split("/") if p]
        low = [p.lower() for p in parts]
        m = request.method
        if "operations" in low[:-1] or "operationresults" in low[:-1]:
            return "arm.poll"
        if len(low) <= 4 and "resourcegroups" in low:
            return "arm.resource_group.put" if m == "PUT" else "arm.resource_group.get"
        if "virtualmachinescalesets" in low:
            i = low.index("virtualmachinescalesets")
            tail = low[i + 1 :]
            if not tail:
                return "arm.vmss.list"
            if len(tail) == 1:
                return {"PUT": "arm.vmss.put", "PATCH": "arm.vmss.patch", "DELETE": "arm.vmss.delete"}.get(m, "arm.vmss.get")
            if tail[1] == "virtualmachines":
                if len(tail) >= 4 and tail[3] == "runcommand":
                    return "arm.vmss.run_command"
                if len(tail) >= 4 and tail[3] == "instanceview":
                    return "arm.vmss.instance_view"
                if m == "DELETE":
                    return "arm.vmss.delete_instances"
                return "arm.vmss.action" if m == "POST" else "arm.vmss.instances"
            if tail[1] == "instanceview":
                return "arm.vmss.instance_view"
            if tail[1] == "delete":
                return "arm.vmss.delete_instances"
            return "arm.vmss.action"
        if low and low[-1] == "listkeys":
            return "arm.storage.list_keys"
        return {"PUT": "arm.resource.put", "DELETE": "arm.resource.delete"}.get(m, "arm.resource.get")

    def authorize(self, request: FakeRequest) -> FakeResponse | None:
        if request.header("authorization") == "Bearer " + self.bearer_token:
            return None
        return json_error(
            401, "InvalidAuthenticationToken", "The access token is invalid or missing."
        )

    def handle(self, request: FakeRequest, operation: str) -> FakeResponse:
        try:
            with self._lock:
                response = self._dispatch(request, operation)
        except (ValueError, KeyError, TypeError) as exc:
            response = json_error(400, "InvalidRequestContent", f"The request content was invalid: {exc!r}")
        self._flush()
        return response

    def _dispatch(self, request: FakeRequest, operation: str) -> FakeResponse:
        parts = [p for p in request.raw_path.split("/") if p]
        low = [p.lower() for p in parts]
        if len(parts) < 2 or low[0] != "subscriptions":
            return json_error(404, "InvalidResourceType", "The resource type could not be found.")
        if parts[1] != self.subscription_id:
            return json_error(404, "SubscriptionNotFound", f"The subscription '{parts[1]}' could not be found.")
        if operation == "arm.poll":
            return self._poll(request, low)
        if len(parts) >= 4 and low[2] == "resourcegroups":
            group = parts[3]
            if operation.startswith("arm.resource_group"):
                return self._group_op(request, group)
            if group.lower() not in self._groups:
                return json_error(404, "ResourceGroupNotFound", f"Resource group '{group}' could not be found.")
            rest, rest_low = parts[4:], low[4:]
            if len(rest) >= 3 and rest_low[0] == "providers" and f"{rest_low[1]}/{rest_low[2]}" == _VMSS:
                return self._vmss(request, operation, group, rest[3:])
            if operation == "arm.storage.list_keys":
                return self._list_keys(rest)
            return self._generic(request, parts)
        if len(low) >= 5 and f"{low[3]}/{low[4]}" == _VMSS:
            return json_response(200, {"value": [self._vmss_view(s) for s in self._scale_sets.values()]})
        return json_error(404, "InvalidResourceType", "The resource type could not be found.")

    # ------------------------------------------------------------------ LRO plumbing

    def _new_op(self, polls: int | None = None) -> _Operation:
        op = _Operation(uuid.uuid4().hex, self.lro_polls if polls is None else polls)
        self._operations[op.op_id] = op
        return op

    def _op_urls(self, request: FakeRequest, op: _Operation, namespace: str = "Microsoft.Compute") -> tuple[str, str]:
        base = f"{request.base_url}/subscriptions/{self.subscription_id}/providers/{namespace}/locations/{self.location}"
        api = request.query.get("api-version", _API)
        return (
            f"{base}/operations/{op.op_id}?api-version={api}",
            f"{base}/operationResults/{op.op_id}?api-version={api}&monitor=true",
        )

    def _lro(
        self,
        request: FakeRequest,
        status: int,
        body: Any,
        op: _Operation,
        style: str,
        namespace: str = "Microsoft.Compute",
    ) -> FakeResponse:
        async_url, location_url = self._op_urls(request, op, namespace)
        headers: dict[str, str] = {}
        if style in ("async", "both"):
            headers["Azure-AsyncOperation"] = async_url
        if style in ("location", "both"):
            headers["Location"] = location_url
        if self.retry_after is not None and style != "body":
            headers["Retry-After"] = str(self.retry_after)
        return json_response(status, body, headers)

    def _advance(self, op: _Operation) -> None:
        if op.status != "InProgress":
            return
        if op.polls_left > 0:
            op.polls_left -= 1
            return
        if op.worker is not None and op.worker.is_alive():
            return
        if op.error is not None:
            op.status = "Failed"
        else:
            op.status = "Succeeded"
            op.on_success()

    def complete_all(self) -> None:
        """Finish every pending operation now (as if polled to the end)."""
        with self._lock:
            for op in list(self._operations.values()):
                if op.worker is not None:
                    op.worker.join()
                op.polls_left = 0
                self._advance(op)
        self._flush()

    def _poll(self, request: FakeRequest, low: list[str]) -> FakeResponse:
        op = self._operations.get(low[-1])
        if op is None:
            return json_error(404, "OperationNotFound", "The operation could not be found.")
        self._advance(op)
        if low[-2] == "operations":
            body: dict[str, Any] = {"name": op.op_id, "status": op.status, "startTime": op.started}
            if op.status != "InProgress":
                body["endTime"] = _now_iso()
            if op.error is not None and op.status == "Failed":
                body["error"] = op.error
            headers = {"Retry-After": str(self.retry_after)} if self.retry_after is not None and op.status == "InProgress" else {}
            return json_response(200, body, headers)
        if op.status == "InProgress":
            _, location_url = self._op_urls(request, op)
            return json_response(202, None, {"Location": location_url})
        if op.status == "Failed" and op.error is not None:
            return json_error(409 if op.error["code"] != "AllocationFailed" else 500, op.error["code"], op.error["message"])
        result = op.result()
        return FakeResponse(204, {}, b"") if result is None else json_response(200, result)

    # ------------------------------------------------------------------ resource groups and storage

    def _put_group(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        group = {
            "id": f"/subscriptions/{self.subscription_id}/resourceGroups/{name}",
            "name": name,
            "type": "Microsoft.Resources/resourceGroups",
            "location": body.get("location", self.location),
            "tags": body.get("tags", {}),
            "properties": {"provisioningState": "Succeeded"},
        }
        self._groups[name.lower()] = group
        return group

    def _group_op(self, request: FakeRequest, name: str) -> FakeResponse:
        existing = self._groups.get(name.lower())
        if request.method == "PUT":
            return json_response(200 if existing else 201, self._put_group(name, json.loads(request.body or b"{}")))
        if existing is None:
            return json_error(404, "ResourceGroupNotFound", f"Resource group '{name}' could not be found.")
        if request.method == "HEAD":
            return FakeResponse(204, {}, b"")
        return json_response(200, existing)

    def _list_keys(self, rest: list[str]) -> FakeResponse:
        if len(rest) < 5 or rest[3].lower() != self.account_name.lower():
            return json_error(404, "ResourceNotFound", "The storage account was not found.")
        keys = [
            {"keyName": "key1", "value": self.account_key, "permissions": "FULL"},
            {"keyName": "key2", "value": base64.b64encode(b"fake-secondary-key").decode(), "permissions": "FULL"},
        ]
        return json_response(200, {"keys": keys})

    # ------------------------------------------------------------------ generic resources

    def _generic(self, request: FakeRequest, parts: list[str]) -> FakeResponse:
        rid = "/" + "/".join(parts)
        key = rid.lower()
        namespace = parts[5] if len(parts) > 5 else "Microsoft.Resources"
        if request.method == "PUT":
            body = json.loads(request.body or b"{}")
            created = key not in self._resources
            self._store(rid, parts, body)
            if parts[5].lower() == "microsoft.storage" and len(parts) == 8:
                self._resources[key]["properties"].setdefault("primaryEndpoints", {"file": self.files_url + "/"})
            op = self._new_op(polls=0)
            return self._lro(request, 201 if created else 200, self._resources[key], op, "async", namespace)
        if request.method == "DELETE":
            if key not in self._resources:
                return FakeResponse(204, {}, b"")
            for child in [k for k in self._resources if k == key or k.startswith(key + "/")]:
                del self._resources[child]
            op = self._new_op(polls=0)
            return self._lro(request, 202, None, op, "both", namespace)
        if key in self._resources:
            return json_response(200, self._resources[key])
        if len(parts) == 8 and parts[5].lower() == "microsoft.storage" and parts[7].lower() == self.account_name.lower():
            self._store(rid, parts, {"location": self.location, "kind": "StorageV2", "sku": {"name": "Standard_LRS"},
                                     "properties": {"primaryEndpoints": {"file": self.files_url + "/"}}})
            return json_response(200, self._resources[key])
        if len(parts) % 2 == 1:  # a collection: .../providers/NS/type or .../type/name/childType
            values = [r for k, r in self._resources.items() if k.startswith(key + "/") and k.count("/") == key.count("/") + 1]
            return json_response(200, {"value": values})
        return json_error(404, "ResourceNotFound", f"The Resource '{'/'.join(parts[5:])}' was not found.")

    def _store(self, rid: str, parts: list[str], body: dict[str, Any]) -> None:
        types = [parts[6]] + [parts[i] for i in range(8, len(parts), 2)]
        resource = copy.deepcopy(body)
        resource.update({"id": rid, "name": parts[-1], "type": parts[5] + "/" + "/".join(types)})
        if len(parts) == 8:
            resource.setdefault("location", self.location)
        resource["etag"] = 'W/"' + uuid.uuid4().hex + '"'
        props = resource.setdefault("properties", {})
        props["provisioningState"] = "Succeeded"
        self._resources[rid.lower()] = resource
        # Children declared inline (subnets of a virtual network, ...) become addressable resources.
        for child_type, children in list(props.items()):
            if isinstance(children, list) and children and all(isinstance(c, dict) and c.get("name") for c in children):
                for child in children:
                    child_id = f"{rid}/{child_type}/{child['name']}"
                    child["id"] = child_id
                    child.setdefault("properties", {})["provisioningState"] = "Succeeded"
                    self._resources[child_id.lower()] = {**child, "type": resource["type"] + "/" + child_type}

    # ------------------------------------------------------------------ scale sets

    def _vmss_view(self, scale_set: _ScaleSet) -> dict[str, Any]:
        view = copy.deepcopy(scale_set.model)
        profile = view.get("properties", {}).get("virtualMachineProfile", {})
        # Like ARM, never echo secrets (protected settings, passwords, custom data).
        profile.get("osProfile", {}).pop("adminPassword", None)
        profile.get("osProfile", {}).pop("customData", None)
        for ext in profile.get("extensionProfile", {}).get("extensions", []) or []:
            ext.get("properties", {}).pop("protectedSettings", None)
        return view

    def _vmss(self, request: FakeRequest, operation: str, group: str, rest: list[str]) -> FakeResponse:
        if not rest:
            return json_response(200, {"value": [self._vmss_view(s) for s in self._scale_sets.values()]})
        name = rest[0]
        scale_set = self._scale_sets.get(name.lower())
        if operation == "arm.vmss.put":
            return self._vmss_put(request, group, name, scale_set)
        if scale_set is None:
            if operation == "arm.vmss.delete":
                return FakeResponse(204, {}, b"")
            return json_error(
                404, "ResourceNotFound",
                f"The Resource 'Microsoft.Compute/virtualMachineScaleSets/{name}' under resource group '{group}' was not found.",
            )
        if operation == "arm.vmss.get":
            if scale_set.pending is not None:
                self._advance(scale_set.pending)
            return json_response(200, self._vmss_view(scale_set))
        if operation == "arm.vmss.patch":
            patch = json.loads(request.body or b"{}")
            _merge(scale_set.model, patch)
            return self._vmss_change(request, scale_set, 200, "async")
        if operation == "arm.vmss.delete":
            op = self._new_op()

            def gone() -> None:
                for inst in scale_set.instances.values():
                    self._stop(inst)
                self._scale_sets.pop(name.lower(), None)

            op.on_success = gone
            scale_set.model["properties"]["provisioningState"] = "Deleting"
            return self._lro(request, 202, None, op, "both")
        if len(rest) >= 2 and rest[1].lower() == "instanceview" and len(rest) == 2:
            return json_response(200, self._vmss_instance_view(scale_set))
        if len(rest) >= 2 and rest[1].lower() == "virtualmachines":
            return self._instances(request, operation, scale_set, rest[2:])
        if len(rest) == 2 and request.method == "POST":
            body = json.loads(request.body or b"{}")
            ids = [str(i) for i in body.get("instanceIds") or scale_set.instances]
            return self._action(request, scale_set, rest[1].lower(), ids)
        return json_error(404, "ResourceNotFound", "Unsupported scale set sub-resource.")

    def _take_failure(self, name: str) -> tuple[str, str] | None:
        for entry in self._provisioning_failures:
            target, code, mode = entry
            if target is None or target.lower() == name.lower():
                self._provisioning_failures.remove(entry)
                if mode == "auto":
                    mode = "sync" if code in _SYNC_FAILURES else "lro"
                return code, mode
        return None

    def _vmss_put(self, request: FakeRequest, group: str, name: str, existing: _ScaleSet | None) -> FakeResponse:
        body = json.loads(request.body or b"{}")
        failure = self._take_failure(name)
        if failure is not None and failure[1] == "sync":
            code = failure[0]
            return json_error(_SYNC_FAILURES.get(code, 400), code, _failure_message(code, body))
        model = copy.deepcopy(body)
        model.update(
            {
                "id": f"/subscriptions/{self.subscription_id}/resourceGroups/{group}/providers/Microsoft.Compute/virtualMachineScaleSets/{name}",
                "name": name,
                "type": "Microsoft.Compute/virtualMachineScaleSets",
                "location": body.get("location", self.location),
            }
        )
        props = model.setdefault("properties", {})
        props.setdefault("orchestrationMode", "Uniform")
        if existing is None:
            props["uniqueId"] = str(uuid.uuid4())
            props["timeCreated"] = _now_iso()
            scale_set = self._scale_sets[name.lower()] = _ScaleSet(name, model)
            style = self.vmss_create_style
            status = 200 if style == "sync" else 201
        else:
            props["uniqueId"] = existing.model.get("properties", {}).get("uniqueId", str(uuid.uuid4()))
            existing.model = model
            scale_set = existing
            status, style = 200, "async"
        response = self._vmss_change(request, scale_set, status, style)
        if failure is not None and scale_set.pending is not None:
            scale_set.pending.error = {"code": failure[0], "message": _failure_message(failure[0], body)}
        return response

    def _vmss_change(self, request: FakeRequest, scale_set: _ScaleSet, status: int, style: str) -> FakeResponse:
        """Start an update of ``scale_set`` towards its model's capacity."""
        props = scale_set.model.setdefault("properties", {})
        props["provisioningState"] = "Creating" if not scale_set.instances else "Updating"
        op = self._new_op(polls=0 if style == "sync" else None)
        scale_set.pending = op
        capacity = int(scale_set.model.get("sku", {}).get("capacity", 0))
        for _ in range(max(0, capacity - len(scale_set.instances))):
            self._add_instance(scale_set)

        def done() -> None:
            props["provisioningState"] = "Succeeded"
            scale_set.pending = None
            ids = sorted(scale_set.instances, key=int)
            for extra in ids[capacity:]:  # scale-in removes the highest instance ids
                self._stop(scale_set.instances.pop(extra))
            for inst in scale_set.instances.values():
                if inst.provisioning != "Succeeded":
                    inst.provisioning, inst.power = "Succeeded", "running"
                    self._to_launch.append((scale_set, inst))

        def failed_result() -> None:
            props["provisioningState"] = "Failed"
            for inst in scale_set.instances.values():
                if inst.provisioning != "Succeeded":
                    inst.provisioning, inst.power = "Failed", "stopped"

        op.on_success = done
        op.result = lambda: self._vmss_view(scale_set)
        def watch_failure() -> None:
            if op.status == "Failed":
                failed_result()

        self._failure_watch[op.op_id] = watch_failure
        if style == "sync":
            self._advance(op)
        return self._lro(request, status, self._vmss_view(scale_set), op, style)

    def _add_instance(self, scale_set: _ScaleSet) -> _Instance:
        instance_id = str(scale_set.next_id)
        scale_set.next_id += 1
        prefix = (
            scale_set.model.get("properties", {}).get("virtualMachineProfile", {}).get("osProfile", {}).get("computerNamePrefix")
            or scale_set.name
        )
        inst = _Instance(instance_id, f"{prefix}{_base36(int(instance_id)):0>6}")
        scale_set.instances[instance_id] = inst
        return inst

    def _instance_body(self, scale_set: _ScaleSet, inst: _Instance) -> dict[str, Any]:
        return {
            "id": f"{scale_set.model['id']}/virtualMachines/{inst.instance_id}",
            "name": f"{scale_set.name}_{inst.instance_id}",
            "type": "Microsoft.Compute/virtualMachineScaleSets/virtualMachines",
            "instanceId": inst.instance_id,
            "location": scale_set.model.get("location", self.location),
            "sku": {"name": scale_set.model.get("sku", {}).get("name"), "tier": "Standard"},
            "tags": scale_set.model.get("tags", {}),
            "properties": {
                "latestModelApplied": True,
                "provisioningState": inst.provisioning,
                "vmId": str(uuid.uuid5(uuid.NAMESPACE_URL, scale_set.name + inst.instance_id)),
                "osProfile": {"computerName": inst.computer_name},
                "instanceView": self._instance_view(inst),
            },
        }

    def _instance_view(self, inst: _Instance) -> dict[str, Any]:
        display = {"running": "VM running", "deallocated": "VM deallocated", "stopped": "VM stopped",
                   "starting": "VM starting", "deallocating": "VM deallocating"}
        return {
            "computerName": inst.computer_name,
            "osName": "ubuntu",
            "statuses": [
                {"code": f"ProvisioningState/{inst.provisioning.lower()}", "level": "Info" if inst.provisioning != "Failed" else "Error",
                 "displayStatus": f"Provisioning {inst.provisioning.lower()}"},
                {"code": f"PowerState/{inst.power}", "level": "Info", "displayStatus": display.get(inst.power, inst.power)},
            ],
        }

    def _vmss_instance_view(self, scale_set: _ScaleSet) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for inst in scale_set.instances.values():
            code = f"PowerState/{inst.power}"
            counts[code] = counts.get(code, 0) + 1
        return {
            "virtualMachine": {"statusesSummary": [{"code": c, "count": n} for c, n in sorted(counts.items())]},
            "statuses": [{"code": f"ProvisioningState/{scale_set.model['properties']['provisioningState'].lower()}", "level": "Info"}],
        }

    def _instances(self, request: FakeRequest, operation: str, scale_set: _ScaleSet, rest: list[str]) -> FakeResponse:
        if not rest:
            return json_response(200, {"value": [self._instance_body(scale_set, i) for i in scale_set.instances.values()]})
        inst = scale_set.instances.get(rest[0])
        if inst is None:
            return json_error(404, "NotFound", f"The entity was not found: instance {rest[0]}.")
        tail = rest[1].lower() if len(rest) > 1 else ""
        if operation == "arm.vmss.run_command":
            return self._run_command(request, scale_set, inst)
        if tail == "instanceview":
            return json_response(200, self._instance_view(inst))
        if tail == "networkinterfaces":
            nic = {"name": "nic", "properties": {"ipConfigurations": [{"name": "ipconfig", "properties": {"privateIPAddress": "127.0.0.1", "primary": True}}]}}
            return json_response(200, {"value": [nic]})
        if request.method == "DELETE":
            return self._action(request, scale_set, "delete", [inst.instance_id])
        if request.method == "POST" and tail:
            return self._action(request, scale_set, tail, [inst.instance_id])
        return json_response(200, self._instance_body(scale_set, inst))

    def _action(self, request: FakeRequest, scale_set: _ScaleSet, action: str, ids: list[str]) -> FakeResponse:
        missing = [i for i in ids if i not in scale_set.instances]
        if missing:
            return json_error(400, "InvalidParameter", f"Instance ids {missing} are not valid.")
        op = self._new_op()

        def apply() -> None:
            for instance_id in ids:
                inst = scale_set.instances.get(instance_id)
                if inst is None:
                    continue
                if action == "delete":
                    self._stop(scale_set.instances.pop(instance_id))
                    sku = scale_set.model.setdefault("sku", {})
                    sku["capacity"] = max(0, int(sku.get("capacity", 1)) - 1)
                elif action in ("deallocate", "poweroff"):
                    inst.power = "deallocated" if action == "deallocate" else "stopped"
                    self._stop(inst)
                elif action in ("start", "restart", "reimage"):
                    self._stop(inst)
                    inst.power = "running"
                    self._to_launch.append((scale_set, inst))

        op.on_success = apply
        return self._lro(request, 202, None, op, "both")

    def _run_command(self, request: FakeRequest, scale_set: _ScaleSet, inst: _Instance) -> FakeResponse:
        body = json.loads(request.body or b"{}")
        script = list(body.get("script") or [])
        parameters = list(body.get("parameters") or [])
        info = self._node_info(scale_set, inst)
        op = self._new_op()
        outcome: dict[str, RunCommandOutput] = {}
        handler = self.run_command_handler
        handle = inst.handle

        def work() -> None:
            try:
                if handle is not None and hasattr(handle, "run_command"):
                    outcome["out"] = handle.run_command(script, parameters)
                elif handler is not None:
                    outcome["out"] = handler(info, script, parameters)
                else:
                    outcome["out"] = run_locally(script, parameters)
            except Exception as exc:  # the real service reports script trouble in the message, never as an error
                outcome["out"] = RunCommandOutput("", f"{type(exc).__name__}: {exc}")

        op.worker = threading.Thread(target=work, name=f"fake-runcommand-{inst.instance_id}", daemon=True)
        op.worker.start()

        def result() -> dict[str, Any]:
            out = outcome.get("out", RunCommandOutput("", ""))
            message = f"Enable succeeded: \n[stdout]\n{out.stdout[-4096:]}\n[stderr]\n{out.stderr[-4096:]}\n"
            return {"value": [{"code": "ProvisioningState/succeeded", "level": "Info",
                               "displayStatus": "Provisioning succeeded", "message": message}]}

        op.result = result
        return self._lro(request, 202, None, op, "both")

    # ------------------------------------------------------------------ simulated nodes

    def _node_info(self, scale_set: _ScaleSet, inst: _Instance) -> NodeInfo:
        profile = scale_set.model.get("properties", {}).get("virtualMachineProfile", {})
        custom = profile.get("osProfile", {}).get("customData")
        extensions = []
        for ext in profile.get("extensionProfile", {}).get("extensions", []) or []:
            props = ext.get("properties", {})
            extensions.append({
                "name": ext.get("name"),
                "publisher": props.get("publisher"),
                "type": props.get("type"),
                "typeHandlerVersion": props.get("typeHandlerVersion"),
                "settings": copy.deepcopy(props.get("settings")),
                "protectedSettings": copy.deepcopy(props.get("protectedSettings")),
            })
        return NodeInfo(
            vmss_name=scale_set.name,
            instance_id=inst.instance_id,
            computer_name=inst.computer_name,
            private_ip="127.0.0.1",
            custom_data=base64.b64decode(custom) if custom else None,
            extensions=extensions,
            tags=dict(scale_set.model.get("tags") or {}),
            priority=profile.get("priority") or "Regular",
            model=copy.deepcopy(scale_set.model),
        )

    def _stop(self, inst: _Instance) -> None:
        if inst.handle is not None:
            self._to_stop.append(inst.handle)
            inst.handle = None

    def _flush(self) -> None:
        """Run launcher and stop calls outside the lock: they may take time or call back into the fake."""
        with self._lock:
            for op_id, watch in list(self._failure_watch.items()):
                op = self._operations.get(op_id)
                if op is not None and op.status != "InProgress":
                    del self._failure_watch[op_id]
                    watch()
            launches, self._to_launch = self._to_launch, []
            stops, self._to_stop = self._to_stop, []
            notices, self._to_notify = self._to_notify, []
            infos = [(s, i, self._node_info(s, i)) for s, i in launches]
        for notice in notices:
            try:
                notice()
            except Exception:
                _LOG.exception("eviction notice to a simulated node failed")
        for handle in stops:
            try:
                handle.stop()
            except Exception:
                _LOG.exception("stopping a simulated node failed")
        launcher = self.node_launcher
        if launcher is None:
            return
        for _scale_set, inst, info in infos:
            try:
                handle = launcher(info)
            except Exception:
                _LOG.exception("node launcher failed for %s/%s", info.vmss_name, info.instance_id)
                continue
            with self._lock:
                if inst.power == "running" and inst.handle is None:
                    inst.handle = handle
                    handle = None
            if handle is not None and hasattr(handle, "stop"):
                handle.stop()  # the instance went away while it was booting


def _failure_message(code: str, body: dict[str, Any]) -> str:
    sku = body.get("sku", {}).get("name", "the requested size")
    return {
        "SkuNotAvailable": f"The requested VM size {sku} is currently not available in this location.",
        "QuotaExceeded": f"Operation could not be completed as it results in exceeding approved quota for {sku}.",
        "OperationNotAllowed": "Operation could not be completed as it results in exceeding approved Total Regional Cores quota.",
        "AllocationFailed": "Allocation failed. We do not have sufficient capacity for the requested VM size in this region.",
    }.get(code, f"Provisioning failed with {code}.")


def _base36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rem = divmod(value, 36)
        out = digits[rem] + out
        if value == 0:
            return out.upper()

