"""What the fake tells a node launcher about a VMSS instance that reached "running"."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from typing import Any, Protocol


class NodeHandle(Protocol):
    """Anything a node launcher returns; the fake calls ``stop()`` when the instance goes away."""

    def stop(self) -> None: ...


@dataclass(frozen=True)
class NodeInfo:
    """A simulated VMSS instance, as handed to ``FakeAzure(node_launcher=...)``.

    ``extensions`` are the scale set model's extensions with ``settings`` and ``protectedSettings`` (which
    the fake never echoes on GET, like the real service).
    """

    vmss_name: str
    instance_id: str
    computer_name: str
    private_ip: str
    custom_data: bytes | None
    extensions: list[dict[str, Any]] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    priority: str = "Regular"
    model: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunCommandOutput:
    stdout: str
    stderr: str


def run_locally(script: list[str], parameters: list[dict[str, Any]], timeout: float = 120.0) -> RunCommandOutput:
    """Default run-command behaviour: the simulated node is this machine, so run the script here."""
    env_prefix = "".join(f"export {p['name']}={_shell_quote(str(p.get('value', '')))}\n" for p in parameters)
    proc = subprocess.run(
        ["bash", "-c", env_prefix + "\n".join(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return RunCommandOutput(proc.stdout, proc.stderr)


def _shell_quote(value: str) -> str:
    return "'" + value.replace("'", "'\"'\"'") + "'"
