"""GPUs on this machine, split across a local cluster's nodes."""

from __future__ import annotations

import os
import shutil
import subprocess


def detect_gpus() -> list[str]:
    """GPU ids visible to this process: ``CUDA_VISIBLE_DEVICES`` if set, else ``nvidia-smi -L``."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return [g for g in (x.strip() for x in visible.split(",")) if g and g != "-1"]
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [str(i) for i, line in enumerate(out.splitlines()) if line.startswith("GPU ")]


def split(gpus: list[str], nodes: int, index: int) -> list[str] | None:
    """The GPUs node ``index`` of ``nodes`` owns; None on a machine without GPUs.

    Each node gets a disjoint block; with fewer GPUs than nodes, later nodes get none (an empty list,
    so CUDA_VISIBLE_DEVICES hides every GPU from them rather than sharing one by accident).
    """
    if not gpus:
        return None
    per = max(1, len(gpus) // max(1, nodes))
    block = gpus[index * per : (index + 1) * per]
    return block
