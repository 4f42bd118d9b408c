"""Node and job mount volumes.

On the local engine a share is a directory, so "mounting" links ``<root>/<relativeMountPath>`` to it.
On Azure the node bootstrap mounts the cluster's volumes (SMB, blobfuse2, NFS) before the agent starts
(``mount_mode="prepared"``) and the agent only checks that the mount points exist.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


class MountError(RuntimeError):
    pass


def share_of(kind: str, ref: Mapping[str, Any]) -> str | None:
    """The share a mount volume reference names, on an engine whose shares are directories."""
    if kind == "azureFileShares":
        return str(ref.get("azureFileUrl", "")).rstrip("/").rsplit("/", 1)[-1] or None
    if kind == "azureBlobFileSystems":
        return str(ref.get("containerName") or "") or None
    if kind == "fileServers":
        fs_id = str((ref.get("fileServer") or {}).get("id", ""))
        name = fs_id.rstrip("/").rsplit("/", 1)[-1]
        sub = str(ref.get("sourceDirectory") or "").strip("/")
        return ("fileserver-" + name + ("/" + sub if sub else "")) if name else None
    return None


def mount_volumes(
    volumes: Mapping[str, Any] | None,
    root: Path,
    *,
    mode: str,
    shares_root: Path | None,
    note: Callable[[str], None],
) -> None:
    """Make every volume appear at ``root/<relativeMountPath>``; raise MountError naming the volume."""
    root.mkdir(parents=True, exist_ok=True)
    if not volumes:
        return
    for kind in ("azureFileShares", "azureBlobFileSystems", "fileServers", "unmanagedFileSystems"):
        for ref in volumes.get(kind) or []:
            rel = str(ref.get("relativeMountPath", "")).strip("/")
            target = root / rel
            if mode == "prepared":
                if not target.is_dir():
                    raise MountError(f"{kind} volume '{rel}' is not mounted at {target}")
                continue
            if kind == "unmanagedFileSystems":
                target.mkdir(parents=True, exist_ok=True)
                note(f"unmanaged file system '{rel}' is not mounted on the local engine "
                     f"(mount command not run); {target} is an empty directory")
                continue
            share = share_of(kind, ref)
            if not share or shares_root is None:
                raise MountError(f"{kind} volume '{rel}' names no share")
            source = shares_root / share
            if not source.is_dir():
                raise MountError(f"{kind} volume '{rel}': share '{share}' does not exist")
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.exists():
                if target.is_symlink() and os.readlink(target) == str(source):
                    continue
                if target.is_symlink():
                    target.unlink()
                else:
                    raise MountError(f"{kind} volume '{rel}': {target} is in the way")
            target.symlink_to(source, target_is_directory=True)
            note(f"mounted {kind} '{share}' at {target}")
