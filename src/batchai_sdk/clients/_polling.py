"""Long-running operations as azure-core ``LROPoller`` objects, driven by reading the control share."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from azure.core.polling import LROPoller, PollingMethod

T = TypeVar("T")


class RecordPolling(PollingMethod, Generic[T]):  # type: ignore[type-arg]
    """Calls ``check()`` every ``interval`` seconds until it reports done; ``check`` returns
    ``(done, status, resource)``."""

    def __init__(self, check: Callable[[], tuple[bool, str, T | None]], interval: float, first: tuple[bool, str, T | None]):
        self._check = check
        self._interval = interval
        self._done, self._status, self._resource = first

    def initialize(self, client: Any, initial_response: Any, deserialization_callback: Any) -> None:
        pass

    def run(self) -> None:
        while not self._done:
            time.sleep(self._interval)
            self._done, self._status, self._resource = self._check()

    def status(self) -> str:
        return self._status

    def finished(self) -> bool:
        return self._done

    def resource(self) -> T | None:
        return self._resource

    def get_continuation_token(self) -> str:
        raise TypeError("batchai_sdk operations resume by name: call get() or wait() again instead")


def make_poller(
    check: Callable[[], tuple[bool, str, T | None]], interval: float, first: tuple[bool, str, T | None] | None = None,
    cls: type[LROPoller[Any]] = LROPoller,
) -> LROPoller[T]:
    method: RecordPolling[T] = RecordPolling(check, interval, first or check())
    return cls(None, None, lambda x: x, method)
