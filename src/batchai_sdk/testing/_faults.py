"""Fault injection: scripted failures, random failure rates and slow operations."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase

#: Every operation name the fake reports to the fault plan (patterns such as ``"files.*"`` match them).
OPERATIONS: tuple[str, ...] = (
    "files.share.list",
    "files.share.create",
    "files.share.get",
    "files.share.delete",
    "files.directory.create",
    "files.directory.get",
    "files.directory.delete",
    "files.list",
    "files.create",
    "files.put_range",
    "files.get",
    "files.get_properties",
    "files.set_properties",
    "files.set_metadata",
    "files.delete",
    "files.rename",
    "arm.resource_group.get",
    "arm.resource_group.put",
    "arm.vmss.put",
    "arm.vmss.get",
    "arm.vmss.patch",
    "arm.vmss.delete",
    "arm.vmss.list",
    "arm.vmss.action",
    "arm.vmss.instances",
    "arm.vmss.instance_view",
    "arm.vmss.run_command",
    "arm.vmss.delete_instances",
    "arm.poll",
    "arm.storage.list_keys",
    "arm.resource.put",
    "arm.resource.get",
    "arm.resource.delete",
)


@dataclass
class Fault:
    """A failure to inject into one request. ``status == "drop"`` closes the connection."""

    status: int | str
    retry_after: float | None = None
    error_code: str | None = None


@dataclass
class _Scripted:
    pattern: str
    fault: Fault
    remaining: int


def _matches(pattern: str, operation: str) -> bool:
    return pattern == operation or fnmatchcase(operation, pattern)


class FaultPlan:
    """Thread-safe record of the faults a test asked for."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scripted: list[_Scripted] = []
        self._rate = 0.0
        self._rate_statuses: tuple[int | str, ...] = ()
        self._rate_operations: tuple[str, ...] | None = None
        self._random = random.Random(0)
        self._slow: list[tuple[str, float]] = []

    def fail_next(
        self,
        operation: str,
        status: int | str = 503,
        count: int = 1,
        retry_after: float | None = None,
        error_code: str | None = None,
    ) -> None:
        with self._lock:
            self._scripted.append(_Scripted(operation, Fault(status, retry_after, error_code), count))

    def fault_rate(
        self,
        rate: float,
        statuses: Iterable[int | str] = (429, 500, 503, "drop"),
        operations: Iterable[str] | None = None,
        seed: int = 0,
    ) -> None:
        with self._lock:
            self._rate = rate
            self._rate_statuses = tuple(statuses)
            self._rate_operations = None if operations is None else tuple(operations)
            self._random = random.Random(seed)

    def slow(self, operation: str, seconds: float) -> None:
        with self._lock:
            self._slow.append((operation, seconds))

    def clear(self) -> None:
        with self._lock:
            self._scripted.clear()
            self._slow.clear()
            self._rate = 0.0

    def delay_for(self, operation: str) -> float:
        with self._lock:
            return sum(seconds for pattern, seconds in self._slow if _matches(pattern, operation))

    def take(self, operation: str) -> Fault | None:
        """Return the fault this request must suffer, consuming a scripted one if any."""
        with self._lock:
            for entry in self._scripted:
                if entry.remaining > 0 and _matches(entry.pattern, operation):
                    entry.remaining -= 1
                    if entry.remaining == 0:
                        self._scripted.remove(entry)
                    return entry.fault
            if self._rate <= 0 or not self._rate_statuses:
                return None
            if self._rate_operations is not None and not any(
                _matches(p, operation) for p in self._rate_operations
            ):
                return None
            if self._random.random() >= self._rate:
                return None
            status = self._random.choice(self._rate_statuses)
            return Fault(status, retry_after=1 if status == 429 else None)
