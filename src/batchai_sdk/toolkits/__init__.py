"""Toolkit settings → per-node launch plans (stdlib only; runs on bare VMs).

:func:`build_launch_plan` turns a job spec (wire JSON ``properties``) and the nodes allocated to it into one
:class:`NodePlan` per node; the node agent runs them. Nothing here starts a process. The environment contract
the plans implement is documented in ``docs/environment.md``.
"""

from .errors import LaunchPlanError
from .hostfile import hostfile_text
from .launch import build_launch_plan, hostfile_slots, ports_needed
from .plan import NodePlan, NodeSlot, ProcessPlan
from .spec import TOOLKIT_KEYS, tool_type

__all__ = [
    "LaunchPlanError",
    "NodePlan",
    "NodeSlot",
    "ProcessPlan",
    "TOOLKIT_KEYS",
    "build_launch_plan",
    "hostfile_slots",
    "hostfile_text",
    "ports_needed",
    "tool_type",
]
