"""``batchai workspace``: create, show, list, delete."""

from __future__ import annotations

import click

from .common import State, confirm, no_wait_option, output_option, pass_state, scoped, yes_option
from .output import WORKSPACE_COLUMNS, emit


@click.group()
def workspace() -> None:
    """Workspaces: the containers of clusters, experiments and file servers."""


def _client(state: State):  # type: ignore[no-untyped-def]
    from ..clients import WorkspaceClient

    return WorkspaceClient(state.backend)


@workspace.command("create")
@click.option("-n", "--name", required=True, help="Workspace name.")
@click.option("-l", "--location", help="Location (default: the engine's location).")
@output_option
@pass_state
def create(state: State, name: str, location: str | None) -> None:
    """Create a workspace."""
    emit(_client(state).create(name, location=location), state.output, WORKSPACE_COLUMNS)


@workspace.command("show")
@click.option("-n", "--name", required=True, help="Workspace name.")
@output_option
@pass_state
def show(state: State, name: str) -> None:
    """Show a workspace."""
    emit(_client(state).get(name), state.output, WORKSPACE_COLUMNS)


@workspace.command("list")
@output_option
@pass_state
def list_(state: State) -> None:
    """List workspaces."""
    emit(list(_client(state).list()), state.output, WORKSPACE_COLUMNS)


@workspace.command("delete")
@click.option("-n", "--name", required=True, help="Workspace name.")
@yes_option
@no_wait_option
@scoped
@pass_state
def delete(state: State, name: str, yes: bool, no_wait: bool) -> None:
    """Delete a workspace with its clusters, experiments and jobs."""
    client = _client(state)
    client.get(name)
    confirm(yes, f"delete workspace '{name}' with its clusters and jobs")
    client.delete(name)
