"""``batchai file-server``: managed single-node NFS servers (create, show, list, delete).

They need the SDK's ``FileServerClient``; engines without it answer with a one-line error."""

from __future__ import annotations

from typing import Any

import click

from .common import State, confirm, no_wait_option, pass_state, scoped, yes_option
from .errors import CLIError
from .output import FILE_SERVER_COLUMNS, emit


@click.group("file-server")
def file_server() -> None:
    """File servers: managed NFS servers that clusters mount with --nfs."""


def _client(state: State) -> Any:
    from .. import clients

    cls = getattr(clients, "FileServerClient", None)
    if cls is None:
        raise CLIError(f"file servers are not available on this engine yet ({state.resolved.engine}); "
                       "use a file share instead: batchai share create")
    return cls(state.backend, workspace=state.workspace)


@file_server.command("create")
@click.option("-n", "--name", required=True, help="File server name.")
@click.option("-f", "--config-file", type=click.Path(dir_okay=False), help="FileServerCreateParameters JSON.")
@click.option("-s", "--vm-size", help="VM size, e.g. Standard_D14.")
@click.option("--disk-count", type=click.IntRange(min=1), help="Number of data disks (RAID 0).")
@click.option("--disk-size", type=click.IntRange(min=1), help="Size of each disk, GB.")
@click.option("--caching-type", type=click.Choice(["none", "readonly", "readwrite"]), help="Disk caching.")
@click.option("--storage-sku", type=click.Choice(["Premium_LRS", "Standard_LRS"]), help="Disk SKU.")
@click.option("-u", "--user-name", help="Admin user name.")
@click.option("-k", "--ssh-key", help="SSH public key or its path.")
@click.option("-p", "--password", help="Admin password.")
@click.option("--generate-ssh-keys", is_flag=True, help="Create ~/.ssh/id_rsa{,.pub} if missing.")
@no_wait_option
@scoped
@pass_state
def create(state: State, name: str, config_file: str | None, vm_size: str | None, disk_count: int | None,
           disk_size: int | None, caching_type: str | None, storage_sku: str | None, user_name: str | None,
           ssh_key: str | None, password: str | None, generate_ssh_keys: bool, no_wait: bool) -> None:
    """Create a file server."""
    client = _client(state)
    from ..models import (
        DataDisks,
        FileServerCreateParameters,
        SshConfiguration,
        load_file_server_file,
        validate_resource_name,
    )
    from .cluster import _user_account

    validate_resource_name(name, "file server")
    params = load_file_server_file(config_file) if config_file else FileServerCreateParameters()
    if vm_size:
        params.vm_size = vm_size
    disks = params.data_disks or DataDisks(disk_size_in_gb=0, disk_count=0, storage_account_type="")
    for attr, value in (("disk_count", disk_count), ("disk_size_in_gb", disk_size), ("caching_type", caching_type),
                        ("storage_account_type", storage_sku)):
        if value is not None:
            setattr(disks, attr, value)
    missing = [opt for opt, value in (("-s/--vm-size", params.vm_size), ("--disk-count", disks.disk_count),
                                      ("--disk-size", disks.disk_size_in_gb), ("--storage-sku", disks.storage_account_type))
               if not value]
    if missing:
        raise CLIError("file server needs " + ", ".join(missing) + " (or a -f/--config-file that sets them)")
    params.data_disks = disks
    base = params.ssh_configuration.user_account_settings if params.ssh_configuration else None
    account = _user_account(state, base, user_name, ssh_key, password, generate_ssh_keys)
    if params.ssh_configuration is None:
        params.ssh_configuration = SshConfiguration(user_account_settings=account)
    params.ssh_configuration.user_account_settings = account
    poller = client.begin_create(name, params)
    if not no_wait:
        emit(poller.result(), state.output, FILE_SERVER_COLUMNS)


@file_server.command("show")
@click.option("-n", "--name", required=True, help="File server name.")
@scoped
@pass_state
def show(state: State, name: str) -> None:
    """Show a file server."""
    emit(_client(state).get(name), state.output, FILE_SERVER_COLUMNS)


@file_server.command("list")
@scoped
@pass_state
def list_(state: State) -> None:
    """List the file servers of a workspace."""
    emit(list(_client(state).list()), state.output, FILE_SERVER_COLUMNS)


@file_server.command("delete")
@click.option("-n", "--name", required=True, help="File server name.")
@yes_option
@no_wait_option
@scoped
@pass_state
def delete(state: State, name: str, yes: bool, no_wait: bool) -> None:
    """Delete a file server."""
    client = _client(state)
    confirm(yes, f"delete file server '{name}'")
    poller = client.begin_delete(name)
    if not no_wait:
        poller.result()
