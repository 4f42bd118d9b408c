"""Caffe2: one ``<python> <script> <args>`` per node; shards meet through ``$AZ_BATCHAI_SHARED_JOB_TEMP``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import env
from .context import LaunchContext, rank_env
from .plan import NodePlan, ProcessPlan
from .spec import python_command

KEY = "caffe2Settings"


def plan_caffe2(ctx: LaunchContext, settings: Mapping[str, Any]) -> list[NodePlan]:
    command = python_command(settings, KEY, ctx.default_python)
    plans = ctx.empty_plans()
    node_count = len(plans)
    for index, plan in enumerate(plans):
        plan.processes.append(
            ProcessPlan(
                command=command,
                stdout=f"stdout-{index}.txt",
                stderr=f"stderr-{index}.txt",
                name=f"task {index}",
                env={env.TASK_INDEX: str(index), **rank_env(index, node_count, 0)},
            )
        )
    return plans
