"""``batchai experiment``: create, show, list, delete."""

from __future__ import annotations

import click

from .common import State, confirm, no_wait_option, pass_state, scoped, yes_option
from .output import EXPERIMENT_COLUMNS, emit


@click.group()
def experiment() -> None:
    """Experiments: named groups of jobs in a workspace."""


def _client(state: State):  # type: ignore[no-untyped-def]
    from ..clients import ExperimentClient

    return ExperimentClient(state.backend, workspace=state.workspace)


@experiment.command("create")
@click.option("-n", "--name", required=True, help="Experiment name.")
@scoped
@pass_state
def create(state: State, name: str) -> None:
    """Create an experiment."""
    emit(_client(state).create(name), state.output, EXPERIMENT_COLUMNS)


@experiment.command("show")
@click.option("-n", "--name", required=True, help="Experiment name.")
@scoped
@pass_state
def show(state: State, name: str) -> None:
    """Show an experiment."""
    emit(_client(state).get(name), state.output, EXPERIMENT_COLUMNS)


@experiment.command("list")
@scoped
@pass_state
def list_(state: State) -> None:
    """List the experiments of a workspace."""
    emit(list(_client(state).list()), state.output, EXPERIMENT_COLUMNS)


@experiment.command("delete")
@click.option("-n", "--name", required=True, help="Experiment name.")
@yes_option
@no_wait_option
@scoped
@pass_state
def delete(state: State, name: str, yes: bool, no_wait: bool) -> None:
    """Delete an experiment and its jobs (running jobs are terminated)."""
    client = _client(state)
    client.get(name)
    confirm(yes, f"delete experiment '{name}' and its jobs")
    client.delete(name)
