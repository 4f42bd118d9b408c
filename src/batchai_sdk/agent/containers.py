"""Running a job's processes in Docker when the job asks for a container and a Docker engine answers."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Mapping
from typing import Any


def docker_available(timeout: float = 5.0) -> bool:
    """True when a Docker engine answers (the client alone is not enough)."""
    docker = shutil.which("docker")
    if not docker:
        return False
    try:
        done = subprocess.run(
            [docker, "info", "--format", "{{.ServerVersion}}"],
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and bool(done.stdout.strip())


def image_name(container_settings: Mapping[str, Any]) -> str:
    reg = container_settings.get("imageSourceRegistry") or {}
    image = str(reg.get("image") or "")
    server = reg.get("serverUrl")
    if server and not image.startswith(str(server).rstrip("/") + "/"):
        host = str(server).split("://", 1)[-1].rstrip("/")
        image = f"{host}/{image}"
    return image


def docker_command(
    command: str,
    container_settings: Mapping[str, Any],
    *,
    name: str,
    env_names: list[str],
    volumes: list[str],
    workdir: str,
    gpus: bool,
) -> list[str]:
    """``docker run`` for one process: host network (ranks rendezvous by host address), the node's
    mount roots and job dirs bound at the same paths, the job environment passed by name."""
    args = ["docker", "run", "--rm", "--name", name, "--network", "host", "--ipc", "host", "-w", workdir]
    shm = container_settings.get("shmSize")
    if shm:
        args += ["--shm-size", str(shm)]
    if gpus:
        args += ["--gpus", "all"]
    for v in volumes:
        args += ["-v", f"{v}:{v}"]
    for n in env_names:
        args += ["-e", n]
    args += [image_name(container_settings), "bash", "-c", command]
    return args


def login_command(container_settings: Mapping[str, Any], password: str | None) -> list[str] | None:
    reg = container_settings.get("imageSourceRegistry") or {}
    creds = reg.get("credentials") or {}
    if not creds.get("username") or password is None:
        return None
    server = str(reg.get("serverUrl") or "")
    return ["docker", "login", "--username", str(creds["username"]), "--password-stdin"] + ([server] if server else [])


def describe(args: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in args)
