"""The one error the toolkits raise."""

from __future__ import annotations


class LaunchPlanError(ValueError):
    """A job spec (or the nodes given for it) cannot be turned into a launch plan.

    The message names the offending field, e.g. ``tensorFlowSettings.workerCount``.
    """
