"""The MPI family: custom MPI, Horovod, Chainer, CNTK and Caffe (and PyTorch with the MPI backend).

With more than one process (always, for custom MPI) the job is one ``mpirun`` on the master node that starts
``processCount`` ranks over the host file; the other nodes run nothing themselves (OpenMPI reaches them over
SSH, which the Azure engine sets up; locally every rank is a child of that ``mpirun``). With one process the
command runs directly, without MPI. Flags are OpenMPI's (``mpirun`` 4.x/5.x); Intel MPI images are not
launched by this module.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import env
from .context import LaunchContext, rank_env, single_process
from .errors import LaunchPlanError
from .hostfile import distribute
from .plan import NodePlan, ProcessPlan
from .spec import count, forwarded_names, join, python_command, text

MPI_KEYS = ("customMpiSettings", "horovodSettings", "chainerSettings", "cntkSettings", "caffeSettings")
STDOUT = "stdout.txt"
STDERR = "stderr.txt"

#: Loopback-only transport for local plans: every "node" is this machine.
LOCAL_FLAGS = (
    "--oversubscribe",
    "--mca btl self,tcp",
    "--mca btl_tcp_if_include lo",
    "--mca oob_tcp_if_include lo",
)
#: Docker's bridge is present on container hosts but does not connect the nodes (as the Batch AI recipes found).
REMOTE_FLAGS = ("--mca btl_tcp_if_exclude lo,docker0",)


@dataclass(frozen=True)
class MpiLaunch:
    """What an MPI-family job runs: ``command`` for each of ``process_count`` ranks."""

    command: str
    process_count: int
    #: False when one process runs directly (processCount 1 for the toolkits that allow it).
    use_mpirun: bool


def mpi_launch(key: str, settings: Mapping[str, Any], node_count: int, default_python: str) -> MpiLaunch:
    """The command and rank count of an MPI-family toolkit."""
    process_count = count(settings, "processCount", key, node_count)
    if key == "customMpiSettings":
        command = text(settings, "commandLine", key, required=True)
        # "executed by the MPI runtime": keep mpirun even for one rank, the command may expect MPI.
        return MpiLaunch(command, process_count, use_mpirun=True)
    if key in ("horovodSettings", "chainerSettings"):
        command = python_command(settings, key, default_python)
    elif key == "cntkSettings":
        command = _cntk_command(settings, default_python)
    elif key == "caffeSettings":
        command = _caffe_command(settings, default_python)
    else:
        raise LaunchPlanError(f"{key} is not an MPI-family toolkit")
    return MpiLaunch(command, process_count, use_mpirun=process_count > 1)


def plan_mpi_family(
    ctx: LaunchContext, job: Mapping[str, Any], key: str, settings: Mapping[str, Any]
) -> list[NodePlan]:
    launch = mpi_launch(key, settings, len(ctx.nodes), ctx.default_python)
    plans = ctx.empty_plans()
    if launch.use_mpirun:
        command = mpirun_command(ctx, job, launch.process_count, launch.command)
        plans[0].processes.append(launcher_process(command, launch.process_count))
    else:
        plans[0].processes.append(single_process(launch.command, "master", STDOUT, STDERR))
    return plans


def launcher_process(command: str, process_count: int, extra: Mapping[str, str] | None = None) -> ProcessPlan:
    """The ``mpirun`` process on the master node; it is rank 0's parent, so it carries rank 0's numbers."""
    return ProcessPlan(
        command=command,
        stdout=STDOUT,
        stderr=STDERR,
        name="mpirun",
        env={**rank_env(0, process_count, 0), **(extra or {})},
    )


def mpirun_command(
    ctx: LaunchContext,
    job: Mapping[str, Any],
    process_count: int,
    command: str,
    *,
    task_index: bool = False,
) -> str:
    """``mpirun -np <n> --hostfile <file> ... bash -c '<rank env>' batchai-rank <command>``.

    ``command`` stays outside the quoted wrapper so the launching shell expands its ``$VARS`` once, on the
    master node, as ``mpirun <commandLine>`` would. The wrapper gives every rank the generic contract
    (RANK, LOCAL_RANK, WORLD_SIZE, NODE_RANK) from OpenMPI's (or PMI's) own variables. ``-x`` forwards the
    job's variables to ranks on other nodes; the list is filtered to the variables that are set when the
    command runs, because OpenMPI warns on stderr for each unset one.
    """
    slots = distribute(process_count, len(ctx.nodes))
    flags = [
        f"-np {process_count}",
        f"--hostfile {shlex.quote(ctx.host_file)}",
        "--map-by slot",
        # ML frameworks manage their own threads; OpenMPI's default core binding would starve them.
        "--bind-to none",
    ]
    flags += LOCAL_FLAGS if ctx.local else REMOTE_FLAGS
    if ctx.as_root:
        flags.append("--allow-run-as-root")
    names = " ".join(forwarded_names(job))
    forward = f'$(for v in {names}; do [ -n "${{!v+x}}" ] && printf -- "-x %s " "$v"; done)'
    wrapper = shlex.quote(rank_wrapper(slots, process_count, task_index=task_index))
    return join("mpirun", *flags, forward, "bash -c", wrapper, "batchai-rank", command)


def rank_wrapper(slots: list[int], process_count: int, *, task_index: bool = False) -> str:
    """The bash snippet each rank runs before ``exec``-ing the command.

    NODE_RANK follows from block placement (``--map-by slot`` over the host file): the number of node
    boundaries at or below this rank.
    """
    bounds: list[int] = []
    total = 0
    for n in slots[:-1]:
        total += n
        if n and total < process_count:
            bounds.append(total)
    node_rank = " + ".join(f"(RANK >= {b})" for b in bounds) or "0"
    lines = [
        f'export {env.RANK}="${{OMPI_COMM_WORLD_RANK:-${{PMI_RANK:-0}}}}"',
        f'export {env.LOCAL_RANK}="${{OMPI_COMM_WORLD_LOCAL_RANK:-${{MPI_LOCALRANKID:-0}}}}"',
        f'export {env.WORLD_SIZE}="${{OMPI_COMM_WORLD_SIZE:-${{PMI_SIZE:-{process_count}}}}}"',
        f"export {env.NODE_RANK}=$(( {node_rank} ))",
    ]
    if task_index:
        lines.append(f'export {env.TASK_INDEX}="$RANK"')
    lines.append('exec "$@"')
    return "; ".join(lines)


def _cntk_command(settings: Mapping[str, Any], default_python: str) -> str:
    where = "cntkSettings"
    language = text(settings, "languageType", where).lower()
    if not language:
        # The recipes' Python jobs omit languageType; the script field says which one is meant.
        language = "brainscript" if settings.get("configFilePath") else "python"
    if language == "brainscript":
        config = text(settings, "configFilePath", where, required=True)
        return join("cntk", f"configFile={config}", text(settings, "commandLineArgs", where))
    if language == "python":
        return python_command(settings, where, default_python)
    raise LaunchPlanError(
        f"{where}.languageType must be 'BrainScript' or 'Python', not {settings['languageType']!r}"
    )


def _caffe_command(settings: Mapping[str, Any], default_python: str) -> str:
    where = "caffeSettings"
    config = text(settings, "configFilePath", where)
    script = text(settings, "pythonScriptFilePath", where)
    if config and script:
        raise LaunchPlanError(f"{where}: set configFilePath or pythonScriptFilePath, not both")
    if config:
        return join("caffe", "train", f"--solver={config}", text(settings, "commandLineArgs", where))
    if script:
        return python_command(settings, where, default_python)
    raise LaunchPlanError(f"{where}: configFilePath or pythonScriptFilePath is required")
