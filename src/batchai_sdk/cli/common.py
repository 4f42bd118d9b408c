"""What every command shares: the state (engine settings, the engine), common options, confirmation."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

from .engine import EngineSettings, make_backend
from .errors import CLIError

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class State:
    """Per-invocation state, kept on the click context (``ctx.obj``)."""

    settings: EngineSettings = field(default_factory=EngineSettings)
    debug: bool = False
    _resolved: EngineSettings | None = None
    _backend: Any = None

    @property
    def resolved(self) -> EngineSettings:
        if self._resolved is None:
            self._resolved = self.settings.resolve()
        return self._resolved

    @property
    def backend(self) -> Any:
        if self._backend is None:
            self._backend = make_backend(self.resolved)
        return self._backend

    @property
    def workspace(self) -> str:
        return str(self.resolved.workspace)

    @property
    def experiment(self) -> str:
        return str(self.resolved.experiment)

    @property
    def output(self) -> str:
        return str(self.resolved.output)

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()


pass_state = click.make_pass_decorator(State, ensure=True)


def _setter(attr: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is not None:
            state = ctx.ensure_object(State)
            setattr(state.settings, attr, value)
            state._resolved = None

    return callback


def workspace_option(f: F) -> F:
    return click.option("-w", "--workspace", expose_value=False, callback=_setter("workspace"),
                        help="Workspace name [env BATCHAI_WORKSPACE; default: default].")(f)


def experiment_option(f: F) -> F:
    return click.option("-e", "--experiment", expose_value=False, callback=_setter("experiment"),
                        help="Experiment name [env BATCHAI_EXPERIMENT; default: default].")(f)


def group_option(f: F) -> F:
    return click.option("-g", "--resource-group", expose_value=False, callback=_setter("resource_group"),
                        help="Resource group (azure engine) [env AZURE_RESOURCE_GROUP].")(f)


def output_option(f: F) -> F:
    return click.option("-o", "--output", expose_value=False, callback=_setter("output"),
                        type=click.Choice(["json", "table", "tsv"], case_sensitive=False),
                        help="Output format [env BATCHAI_OUTPUT; default: json].")(f)


def storage_options(f: F) -> F:
    f = click.option("--storage-account-key", expose_value=False, callback=_setter("storage_key"),
                     help="Storage account key [env AZURE_BATCHAI_STORAGE_KEY].")(f)
    return click.option("--storage-account-name", expose_value=False, callback=_setter("storage_account"),
                        help="Storage account name [env AZURE_BATCHAI_STORAGE_ACCOUNT].")(f)


def scoped(f: F) -> F:
    """-g, -w and -o: the options of every workspace-scoped command."""
    return group_option(workspace_option(output_option(f)))


def yes_option(f: F) -> F:
    return click.option("-y", "--yes", is_flag=True, help="Do not prompt for confirmation.")(f)


def no_wait_option(f: F) -> F:
    return click.option("--no-wait", is_flag=True, help="Do not wait for the long-running operation to finish.")(f)


def confirm(yes: bool, what: str) -> None:
    """Ask before a destructive command; without a terminal and without ``-y`` refuse."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise CLIError(f"refusing to {what} without confirmation (no terminal to ask on): pass -y/--yes")
    if not click.confirm(f"Are you sure you want to {what}?", default=False, err=True):
        raise CLIError(f"did not {what}: not confirmed")


def storage_account(state: State) -> tuple[str, str | None]:
    """(account, key) for mounts: options/environment/config, else what the engine has."""
    s = state.resolved
    backend = state.backend
    account = s.storage_account or getattr(backend, "storage_account_name", None)
    if not account:
        raise CLIError("no storage account: pass --storage-account-name or set AZURE_BATCHAI_STORAGE_ACCOUNT")
    key = s.storage_key
    if key is None and account == getattr(backend, "storage_account_name", None):
        key = backend.storage_account_key
    return str(account), key
