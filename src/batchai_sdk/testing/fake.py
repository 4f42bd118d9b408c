"""FakeAzure (HTTPS on 127.0.0.1) and mock_azure (``responses``, no sockets): one state, two transports."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from ._arm import NodeLauncher, RunCommandHandler
from ._credential import FakeTokenCredential
from ._http import DROP
from ._state import FakeAzureState, RecordedRequest

DEFAULT_SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"


class _FakeBase:
    """What FakeAzure and mock_azure share: the state, the knobs and the attributes clients need."""

    files_url: str
    arm_url: str
    ca_bundle: str | None

    def __init__(
        self,
        *,
        account_name: str = "fakeaccount",
        account_key: str | None = None,
        subscription_id: str = DEFAULT_SUBSCRIPTION,
        resource_group: str = "batchai-rg",
        location: str = "eastus",
        node_launcher: NodeLauncher | None = None,
        lro_polls: int = 1,
    ) -> None:
        self._options: dict[str, Any] = {
            "account_name": account_name,
            "account_key": account_key,
            "subscription_id": subscription_id,
            "resource_group": resource_group,
            "location": location,
        }
        self._node_launcher = node_launcher
        self._lro_polls = lro_polls
        self._tmp: Path | None = None
        self._state: FakeAzureState | None = None

    # ------------------------------------------------------------------ lifecycle

    def _start_state(self) -> FakeAzureState:
        self._tmp = Path(tempfile.mkdtemp(prefix="batchai-fake-azure-"))
        (self._tmp / "shares").mkdir()
        state = FakeAzureState(self._tmp / "shares", **self._options)
        state.arm.node_launcher = self._node_launcher
        state.arm.lro_polls = self._lro_polls
        self._state = state
        self.credential = FakeTokenCredential(state.token)
        return state

    def _stop_state(self) -> None:
        if self._state is not None:
            self._state.arm.shutdown()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    @property
    def state(self) -> FakeAzureState:
        if self._state is None:
            raise RuntimeError("the fake is not running: use it as a context manager")
        return self._state

    # ------------------------------------------------------------------ attributes

    @property
    def account_name(self) -> str:
        return self.state.account_name

    @property
    def account_key(self) -> str:
        return self.state.account_key

    @property
    def subscription_id(self) -> str:
        return self.state.subscription_id

    @property
    def resource_group(self) -> str:
        return self.state.resource_group

    @property
    def location(self) -> str:
        return self.state.location

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request served so far (method, url, host, operation, status)."""
        return self.state.requests

    def share_root(self, share: str) -> Path:
        """The directory holding ``share``'s files (what a simulated node mounts)."""
        return self.state.files.share_root(share)

    def create_share(self, share: str, quota: int = 5120) -> Path:
        """Create ``share`` directly (no request) and return its backing directory."""
        return self.state.files.create_share(share, quota)

    # ------------------------------------------------------------------ faults and behaviour

    def fail_next(
        self,
        operation: str,
        status: int | str = 503,
        count: int = 1,
        retry_after: float | None = None,
        error_code: str | None = None,
    ) -> None:
        """Make the next ``count`` requests of ``operation`` (a name or glob from OPERATIONS) fail.

        ``status="drop"`` closes the connection without an answer.
        """
        self.state.faults.fail_next(operation, status, count, retry_after, error_code)

    def fault_rate(
        self,
        rate: float,
        statuses: Iterable[int | str] = (429, 500, 503, "drop"),
        operations: Iterable[str] | None = None,
        seed: int = 0,
    ) -> None:
        """Fail a random ``rate`` of requests (reproducibly for a given ``seed``); 429s carry Retry-After: 1."""
        self.state.faults.fault_rate(rate, statuses, operations, seed)

    def slow(self, operation: str, seconds: float) -> None:
        """Delay every request of ``operation`` by ``seconds`` before answering."""
        self.state.faults.slow(operation, seconds)

    def clear_faults(self) -> None:
        self.state.faults.clear()

    def fail_provisioning(self, vmss: str | None, code: str = "AllocationFailed", mode: str = "auto") -> None:
        """Make the next PUT of scale set ``vmss`` (any when None) fail with ``code``.

        ``mode="auto"`` answers SkuNotAvailable/QuotaExceeded/OperationNotAllowed with a synchronous 409 and
        ends other codes (AllocationFailed) as a Failed long-running operation; "sync"/"lro" force either.
        """
        self.state.arm.fail_provisioning(vmss, code, mode)

    def evict(self, vmss: str, instance_id: str | int) -> None:
        """Spot-evict an instance: deallocated or deleted per the model's evictionPolicy; its node is stopped."""
        self.state.arm.evict(vmss, str(instance_id))

    def on_instance_running(self, launcher: NodeLauncher | None) -> None:
        """Call ``launcher(NodeInfo)`` whenever an instance reaches "running"; keep its ``.stop()``-able result."""
        self.state.arm.node_launcher = launcher

    def on_run_command(self, handler: RunCommandHandler | None) -> None:
        """Answer run command with ``handler(NodeInfo, script, parameters) -> RunCommandOutput``."""
        self.state.arm.run_command_handler = handler

    def node_handles(self, vmss: str) -> dict[str, Any]:
        return self.state.arm.instance_handles(vmss)

    def complete_operations(self) -> None:
        """Finish every pending long-running operation now."""
        self.state.arm.complete_all()

    def set_lro_style(self, vmss_create: str = "async", retry_after: int | None = None) -> None:
        """Choose how a VMSS create answers: "async", "location", "body" or "sync"; and LRO Retry-After."""
        self.state.arm.vmss_create_style = vmss_create
        self.state.arm.retry_after = retry_after

    # ------------------------------------------------------------------ wiring

    def azure_backend(self, **kwargs: Any) -> Any:
        """Build ``batchai_sdk.engines.azure.AzureBackend`` wired to this fake."""
        try:
            from batchai_sdk.engines.azure import AzureBackend  # type: ignore[attr-defined]
        except ImportError as exc:
            raise RuntimeError(
                "The Azure engine (batchai_sdk.engines.azure.AzureBackend) is not available: " f"{exc}"
            ) from exc
        options: dict[str, Any] = {
            "subscription_id": self.subscription_id,
            "resource_group": self.resource_group,
            "location": self.location,
            "storage_account": self.account_name,
            "storage_account_key": self.account_key,
            "credential": self.credential,
            "arm_endpoint": self.arm_url,
            "files_endpoint": self.files_url,
            "connection_verify": self.ca_bundle if self.ca_bundle else True,
            "polling_interval": 0,
        }
        options.update(kwargs)
        return AzureBackend(**options)

    @contextlib.contextmanager
    def patch_env(self) -> Iterator[None]:
        """Point ``requests`` at the fake's CA for code that cannot take ``connection_verify``."""
        if not self.ca_bundle:
            yield
            return
        names = ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")
        saved = {n: os.environ.get(n) for n in names}
        try:
            for name in names:
                os.environ[name] = self.ca_bundle
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    def __repr__(self) -> str:
        return f"{type(self).__name__}(files_url={getattr(self, 'files_url', None)!r}, arm_url={getattr(self, 'arm_url', None)!r})"


class FakeAzure(_FakeBase):
    """Azure Files + Compute served over HTTPS on 127.0.0.1 with a throwaway certificate.

    Use as a context manager; clients take ``connection_verify=fake.ca_bundle`` (and ARM clients
    ``polling_interval=0``).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._server: Any = None
        self.ca_bundle = None

    def __enter__(self) -> FakeAzure:
        from ._cert import make_certificate
        from ._server import HttpsServer

        state = self._start_state()
        assert self._tmp is not None
        try:
            cert, key = make_certificate(self._tmp)
            self._server = HttpsServer(state, cert, key)
        except BaseException:
            self._stop_state()
            raise
        self.ca_bundle = str(cert)
        base = f"https://127.0.0.1:{self._server.port}"
        self.files_url = f"{base}/{state.account_name}"
        self.arm_url = base
        state.arm.files_url = self.files_url
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        self._stop_state()

    @property
    def port(self) -> int:
        return int(self._server.port)


class MockAzure(_FakeBase):
    """The same fake served through ``responses`` (no sockets); see :func:`mock_azure`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._mock: Any = None
        self.ca_bundle = None

    def __enter__(self) -> MockAzure:
        import requests
        import responses
        from urllib3.exceptions import ProtocolError

        state = self._start_state()
        self.files_url = f"https://{state.account_name}.file.core.windows.net"
        self.arm_url = "https://management.azure.com"
        state.arm.files_url = self.files_url
        hosts = {f"{state.account_name}.file.core.windows.net", "management.azure.com"}

        def callback(request: Any) -> tuple[int, dict[str, str], bytes]:
            from urllib.parse import urlsplit

            if urlsplit(request.url).hostname not in hosts:
                raise requests.ConnectionError(f"mock_azure refuses a request to {request.url}")
            response = state.handle(request.method, request.url, dict(request.headers), _body_bytes(request.body))
            if response.status == DROP:
                raise requests.ConnectionError(ProtocolError("Connection aborted.", ConnectionResetError()))
            headers = dict(response.headers)
            return response.status, headers, response.body

        mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        import re

        for method in ("GET", "PUT", "POST", "DELETE", "HEAD", "PATCH"):
            mock.add_callback(method, re.compile(r".*"), callback=callback)
        mock.start()
        self._mock = mock
        return self

    @property
    def calls(self) -> Any:
        """``responses``' call list: every request with its headers and body (for exact assertions)."""
        if self._mock is None:
            raise RuntimeError("the mock is not running: use it as a context manager")
        return self._mock.calls

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._mock is not None:
            self._mock.stop()
            self._mock.reset()
            self._mock = None
        self._stop_state()


def mock_azure(**kwargs: Any) -> MockAzure:
    """The fake's state machine behind ``responses`` callbacks: same attributes as FakeAzure, no sockets.

    URLs are production-shaped (``https://<account>.file.core.windows.net``, ``https://management.azure.com``);
    any other URL raises ``requests.ConnectionError``, so nothing reaches the network.
    """
    return MockAzure(**kwargs)


def _body_bytes(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    if hasattr(body, "read"):
        data = body.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return b"".join(chunk.encode() if isinstance(chunk, str) else bytes(chunk) for chunk in body)
