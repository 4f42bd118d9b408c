"""The one request-handling core behind both the HTTPS server and the ``responses`` adapter."""

from __future__ import annotations

import base64
import logging
import secrets
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ._arm import ArmService
from ._faults import Fault, FaultPlan
from ._files import FilesService
from ._http import DROP, FakeRequest, FakeResponse, http_date, json_error, xml_error

_LOG = logging.getLogger("batchai_sdk.testing")

_DEFAULT_CODES = {
    400: "InvalidInput",
    403: "AuthorizationFailure",
    404: "ResourceNotFound",
    409: "Conflict",
    412: "ConditionNotMet",
    429: "TooManyRequests",
    500: "InternalError",
    502: "BadGateway",
    503: "ServerBusy",
    504: "GatewayTimeout",
}


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    url: str
    host: str
    operation: str
    status: int


class FakeAzureState:
    """Azure Files + ARM state and its request handler, independent of any transport."""

    def __init__(
        self,
        root: Path,
        *,
        account_name: str = "fakeaccount",
        account_key: str | None = None,
        subscription_id: str = "00000000-0000-0000-0000-000000000000",
        resource_group: str = "batchai-rg",
        location: str = "eastus",
        token: str | None = None,
    ) -> None:
        self.account_name = account_name
        self.account_key = account_key or base64.b64encode(secrets.token_bytes(64)).decode()
        self.token = token or "fake-token-" + secrets.token_hex(16)
        self.subscription_id = subscription_id
        self.resource_group = resource_group
        self.location = location
        self.faults = FaultPlan()
        self.files = FilesService(root, account_name, self.account_key, self.token)
        self.arm = ArmService(subscription_id, resource_group, location, account_name, self.account_key, self.token)
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def handle(self, method: str, url: str, headers: Mapping[str, str], body: bytes) -> FakeResponse:
        """Answer one request. ``status == DROP`` (0) asks the transport to close without answering."""
        request = FakeRequest.parse(method, url, headers, body)
        first = request.raw_path.lstrip("/").split("/", 1)[0].lower()
        is_arm = first in ("subscriptions", "providers")
        operation = self.arm.operation(request) if is_arm else self.files.operation(request)
        delay = self.faults.delay_for(operation)
        if delay:
            time.sleep(delay)
        fault = self.faults.take(operation)
        if fault is not None:
            response = self._fault_response(fault, is_arm)
        else:
            denied = self.arm.authorize(request) if is_arm else self.files.authorize(request, operation)
            if denied is not None:
                response = denied
            elif is_arm:
                response = self.arm.handle(request, operation)
            else:
                response = self.files.handle(request, operation)
        with self._lock:
            self._requests.append(RecordedRequest(request.method, url, request.host, operation, response.status))
        _LOG.debug("%s %s -> %s (%s)", request.method, request.raw_path, response.status, operation)
        if response.status == DROP:
            return response
        extra = {"x-ms-request-id": str(uuid.uuid4()), "Date": http_date(time.time())}
        if not is_arm:
            extra["x-ms-version"] = request.header("x-ms-version") or "2026-10-06"
        # HEAD answers carry headers only, errors included (the service sends no error body there).
        body = b"" if request.method == "HEAD" else response.body
        return FakeResponse(response.status, {**extra, **response.headers}, body)

    @staticmethod
    def _fault_response(fault: Fault, is_arm: bool) -> FakeResponse:
        if fault.status == "drop":
            return FakeResponse(DROP, {}, b"")
        status = int(fault.status)
        code = fault.error_code or _DEFAULT_CODES.get(status, "InternalError")
        extra = {} if fault.retry_after is None else {"Retry-After": str(fault.retry_after)}
        message = f"Injected fault: {code}."
        if is_arm:
            return json_error(status, code, message, extra)
        return xml_error(status, code, message, extra)
