"""Reading the toolkit part of a job spec (wire JSON ``properties``, camelCase keys)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from . import env
from .errors import LaunchPlanError

logger = logging.getLogger("batchai_sdk.toolkits")

#: Settings key → ``toolType`` as the service reported it (``pytorch`` is not in the 2018-05-01 enum but was reported).
TOOLKIT_KEYS: dict[str, str] = {
    "customToolkitSettings": "custom",
    "customMpiSettings": "custommpi",
    "horovodSettings": "horovod",
    "cntkSettings": "cntk",
    "tensorFlowSettings": "tensorflow",
    "pyTorchSettings": "pytorch",
    "chainerSettings": "chainer",
    "caffeSettings": "caffe",
    "caffe2Settings": "caffe2",
}

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def toolkit_settings(job: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """The single ``*Settings`` object of ``job`` as ``(key, settings)``."""
    present = [key for key in TOOLKIT_KEYS if job.get(key) is not None]
    if not present:
        raise LaunchPlanError(
            "the job has no toolkit settings: set exactly one of " + ", ".join(TOOLKIT_KEYS)
        )
    if len(present) > 1:
        raise LaunchPlanError("the job sets more than one toolkit: " + ", ".join(present))
    key = present[0]
    settings = job[key]
    if not isinstance(settings, Mapping):
        raise LaunchPlanError(f"{key} must be an object, not {type(settings).__name__}")
    return key, settings


def tool_type(job: Mapping[str, Any]) -> str:
    """The Batch AI ``toolType`` of a job: ``custom``, ``custommpi``, ``horovod``, ``cntk``, ``tensorflow``,
    ``pytorch``, ``chainer``, ``caffe`` or ``caffe2``."""
    return TOOLKIT_KEYS[toolkit_settings(job)[0]]


def count(settings: Mapping[str, Any], field: str, where: str, default: int, *, minimum: int = 1) -> int:
    """An integer field of ``settings`` (``default`` when absent), at least ``minimum``."""
    value = settings.get(field)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise LaunchPlanError(f"{where}.{field} must be an integer, not {value!r}")
    if value < minimum:
        raise LaunchPlanError(f"{where}.{field} must be at least {minimum}, not {value}")
    return value


def text(settings: Mapping[str, Any], field: str, where: str, *, required: bool = False) -> str:
    """A string field of ``settings``, stripped; ``""`` when absent and not required."""
    value = settings.get(field)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise LaunchPlanError(f"{where}.{field} is required")
        return ""
    if not isinstance(value, str):
        raise LaunchPlanError(f"{where}.{field} must be a string, not {type(value).__name__}")
    return value.strip()


def python_command(settings: Mapping[str, Any], where: str, default_python: str) -> str:
    """``<python> <script> <args>``, with the user's text left unquoted so ``$VARS`` expand on the node."""
    interpreter = text(settings, "pythonInterpreterPath", where) or default_python
    script = text(settings, "pythonScriptFilePath", where, required=True)
    return join(interpreter, script, text(settings, "commandLineArgs", where))


def join(*parts: str) -> str:
    """Space-join the non-empty parts of a command line."""
    return " ".join(part for part in parts if part)


def node_count(job: Mapping[str, Any], nodes: Sequence[object]) -> int:
    """The job's node count, checked against the nodes allocated to it."""
    if not nodes:
        raise LaunchPlanError("a launch plan needs at least one node")
    declared = count(job, "nodeCount", "properties", len(nodes))
    if declared != len(nodes):
        raise LaunchPlanError(
            f"properties.nodeCount is {declared} but {len(nodes)} node(s) were allocated to the job"
        )
    return declared


def forwarded_names(job: Mapping[str, Any]) -> list[str]:
    """Variables an MPI launcher passes on to ranks on other nodes (names only, never values).

    The job's own ``environmentVariables`` and ``secrets`` are included by name; a name that is not a valid
    shell identifier is left out (and logged) because it would otherwise land in a command line.
    """
    names: list[str] = list(env.RUNTIME_FORWARDED)
    names += [
        env.NUM_NODES,
        env.NODE_LIST,
        env.MASTER_ADDR,
        env.MASTER_PORT,
        env.SHARED_JOB_TEMP,
        env.MPI_HOST_FILE,
    ]
    names += env.AGENT_SET
    for field, prefix in (
        ("inputDirectories", "AZ_BATCHAI_INPUT_"),
        ("outputDirectories", "AZ_BATCHAI_OUTPUT_"),
    ):
        for entry in _entries(job, field):
            if isinstance(entry.get("id"), str):
                names.append(prefix + entry["id"])
    for field in ("environmentVariables", "secrets"):
        for entry in _entries(job, field):
            if isinstance(entry.get("name"), str):
                names.append(entry["name"])
    result: list[str] = []
    for name in names:
        if not _ENV_NAME.match(name):
            logger.warning("not forwarding variable %r to MPI ranks: not a valid variable name", name)
        elif name not in result:
            result.append(name)
    return result


def _entries(job: Mapping[str, Any], field: str) -> list[Mapping[str, Any]]:
    value = job.get(field)
    if not isinstance(value, Sequence) or isinstance(value, str):
        return []
    return [entry for entry in value if isinstance(entry, Mapping)]
