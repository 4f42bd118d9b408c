"""Mapping node paths to share locations, and expanding Batch AI's path variables."""

from __future__ import annotations

import re
from collections.abc import Mapping

MOUNT_ROOT_VAR = "AZ_BATCHAI_MOUNT_ROOT"
JOB_MOUNT_ROOT_VAR = "AZ_BATCHAI_JOB_MOUNT_ROOT"

_VAR = re.compile(r"\$(?:\{(?P<b>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<n>[A-Za-z_][A-Za-z0-9_]*))")


def expand(path: str, env: Mapping[str, str]) -> str:
    """Expand ``$VAR``/``${VAR}`` from ``env``; unknown variables stay as written."""

    def sub(m: re.Match[str]) -> str:
        name = m.group("b") or m.group("n")
        return env.get(name, m.group(0))

    return _VAR.sub(sub, path)


def share_location(
    path: str, mounts: Mapping[str, str], job_mounts: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """Where a node path such as ``$AZ_BATCHAI_MOUNT_ROOT/afs/logs`` lives: ``(share, path in share)``.

    ``mounts`` maps a cluster ``relativeMountPath`` to its share name, ``job_mounts`` the same for the
    job's own mount volumes. Returns None for paths that are not on a share (local disk, NFS), which
    Batch AI could not list either.
    """
    for var, table in ((MOUNT_ROOT_VAR, mounts), (JOB_MOUNT_ROOT_VAR, job_mounts or {})):
        for prefix in ("$" + var, "${" + var + "}"):
            if path == prefix or path.startswith(prefix + "/"):
                rest = path[len(prefix) :].strip("/")
                parts = [p for p in rest.split("/") if p not in ("", ".")]
                # The longest relative mount path wins ("data" vs "data/raw").
                for n in range(len(parts), 0, -1):
                    rel = "/".join(parts[:n])
                    if rel in table:
                        return table[rel], "/".join(parts[n:])
    return None
