"""Custom toolkit: ``commandLine`` once, on the master node; the other nodes stay reserved for the job.

The reserved nodes are listed in ``$AZ_BATCHAI_MPI_HOST_FILE``, so the command may start its own ``mpirun``
over them (as the original Horovod recipe did).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .context import LaunchContext, single_process
from .plan import NodePlan
from .spec import text

KEY = "customToolkitSettings"


def plan_custom(ctx: LaunchContext, settings: Mapping[str, Any]) -> list[NodePlan]:
    command = text(settings, "commandLine", KEY, required=True)
    plans = ctx.empty_plans()
    plans[0].processes.append(single_process(command, "master", "stdout.txt", "stderr.txt"))
    return plans
