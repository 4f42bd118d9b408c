"""``batchai cluster``: create (the options of ``az batchai cluster create``), resize, auto-scale, show,
list, delete, node list/exec, file list."""

from __future__ import annotations

import getpass
import subprocess
from pathlib import Path
from typing import Any

import click

from .common import State, confirm, no_wait_option, pass_state, scoped, storage_options, yes_option
from .errors import CLIError
from .nodes import node_exec, node_list
from .output import CLUSTER_COLUMNS, FILE_COLUMNS, NODE_COLUMNS, emit


@click.group()
def cluster() -> None:
    """Clusters: pools of nodes that run jobs."""


def _client(state: State):  # type: ignore[no-untyped-def]
    from ..clients import ClusterClient

    return ClusterClient(state.backend, workspace=state.workspace)


def scale_settings(target: int | None, minimum: int | None, maximum: int | None, from_file: Any) -> Any:
    """az's ``_get_scale_settings``: manual when min == max, else auto-scale; the file when nothing given."""
    from ..models import AutoScaleSettings, ManualScaleSettings, ScaleSettings

    if target is None and minimum is None and maximum is None:
        if from_file is None or (from_file.manual is None and from_file.auto_scale is None):
            raise CLIError("no scale settings: pass -t/--target (or --min and --max), or put scaleSettings in the config file")
        return from_file
    if (minimum is None) != (maximum is None):
        raise CLIError("provide both --min and --max for auto-scale, or neither")
    if minimum is not None and maximum is not None and minimum > maximum:
        raise CLIError(f"--min ({minimum}) must not be larger than --max ({maximum})")
    if minimum == maximum and (minimum is None or target is None or target == minimum):
        count = target if target is not None else minimum
        return ScaleSettings(manual=ManualScaleSettings(target_node_count=int(count or 0)))
    return ScaleSettings(auto_scale=AutoScaleSettings(minimum_node_count=int(minimum or 0), maximum_node_count=int(maximum or 0),
                                                      initial_node_count=target or 0))


def _ssh_key(value: str | None, generate: bool) -> str | None:
    default = Path.home() / ".ssh" / "id_rsa.pub"
    if generate and not default.exists():
        default.parent.mkdir(mode=0o700, exist_ok=True)
        try:
            subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(default.with_suffix(""))],
                           check=True, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise CLIError(f"cannot generate an SSH key with ssh-keygen ({exc}); pass -k/--ssh-key instead") from None
    if value is None:
        return default.read_text().strip() if default.is_file() else None
    path = Path(value).expanduser()
    text = path.read_text().strip() if path.is_file() else value.strip()
    if not text.startswith(("ssh-rsa ", "ssh-ed25519 ", "ecdsa-sha2-")):
        raise CLIError(f"-k/--ssh-key: '{value}' is neither a public key file nor an ssh-rsa public key")
    return text


def _user_account(state: State, base: Any, user: str | None, key: str | None, password: str | None, generate: bool) -> Any:
    from ..models import UserAccountSettings

    name = user or (base.admin_user_name if base is not None else None) or getpass.getuser()
    account = base or UserAccountSettings(admin_user_name=name)
    account.admin_user_name = name
    if password:
        account.admin_user_password = password
    if key or generate or not (account.admin_user_password or account.admin_user_ssh_public_key):
        pub = _ssh_key(key, generate) if (key or generate or not password) else None
        if pub:
            account.admin_user_ssh_public_key = pub
    if not (account.admin_user_password or account.admin_user_ssh_public_key):
        if state.backend.kind != "local":
            raise CLIError("no admin credentials: pass -k/--ssh-key, -p/--password or --generate-ssh-keys")
        # Local nodes are processes of this user: nobody logs in, so a throwaway password satisfies the spec.
        import secrets

        account.admin_user_password = secrets.token_urlsafe(16)
    return account


def add_mounts(state: State, volumes: Any, afs: str | None, afs_path: str, bfs: str | None, bfs_path: str,
               nfs: str | None, nfs_path: str, workspace: str) -> Any:
    """Add ``--afs-name/--bfs-name/--nfs`` mounts to a ``MountVolumes`` (made if None)."""
    from ..models import (
        AzureBlobFileSystemReference,
        AzureFileShareReference,
        AzureStorageCredentialsInfo,
        FileServerReference,
        MountVolumes,
        ResourceId,
    )

    if not (afs or bfs or nfs):
        return volumes
    volumes = volumes or MountVolumes()
    if afs or bfs:
        from .common import storage_account

        account, key = storage_account(state)
        creds = AzureStorageCredentialsInfo(account_key=key)
        if afs:
            url = state.backend.share_url(afs) if account == getattr(state.backend, "storage_account_name", None) \
                else f"https://{account}.file.core.windows.net/{afs}"
            volumes.azure_file_shares = list(volumes.azure_file_shares or []) + [AzureFileShareReference(
                account_name=account, azure_file_url=url, credentials=creds, relative_mount_path=afs_path)]
        if bfs:
            volumes.azure_blob_file_systems = list(volumes.azure_blob_file_systems or []) + [AzureBlobFileSystemReference(
                account_name=account, container_name=bfs, credentials=creds, relative_mount_path=bfs_path)]
    if nfs:
        from ..clients._records import resource_id

        fs_id = nfs if nfs.startswith("/") else resource_id(state.backend, "workspaces", workspace, "fileServers", nfs)
        volumes.file_servers = list(volumes.file_servers or []) + [FileServerReference(
            file_server=ResourceId(id=fs_id), relative_mount_path=nfs_path, mount_options="rw")]
    return volumes


def mount_options(f: Any) -> Any:
    for opt in reversed([
        click.option("--afs-name", help="Azure File share to mount (see: batchai share create)."),
        click.option("--afs-mount-path", default="afs", show_default=True, help="Relative mount path of the share."),
        click.option("--bfs-name", help="Blob container to mount."),
        click.option("--bfs-mount-path", default="bfs", show_default=True, help="Relative mount path of the container."),
        click.option("--nfs", help="File server (name in the workspace, or resource id) to mount."),
        click.option("--nfs-mount-path", default="nfs", show_default=True, help="Relative mount path of the file server."),
    ]):
        f = opt(f)
    return f


@cluster.command("create")
@click.option("-n", "--name", required=True, help="Cluster name.")
@click.option("-f", "--config-file", type=click.Path(dir_okay=False), help="ClusterCreateParameters JSON; options override it.")
@click.option("-s", "--vm-size", help="VM size, e.g. STANDARD_NC6.")
@click.option("-i", "--image", help="Alias (UbuntuLTS, UbuntuDSVM) or publisher:offer:sku[:version].")
@click.option("--vm-priority", type=click.Choice(["dedicated", "lowpriority"], case_sensitive=False), help="VM priority.")
@click.option("-t", "--target", type=click.IntRange(min=0), help="Target node count (manual scale).")
@click.option("--min", "minimum", type=click.IntRange(min=0), help="Minimum node count (auto-scale).")
@click.option("--max", "maximum", type=click.IntRange(min=0), help="Maximum node count (auto-scale).")
@click.option("-u", "--user-name", help="Admin user name (default: config file, else your user name).")
@click.option("-k", "--ssh-key", help="SSH public key, or the path of one (default: ~/.ssh/id_rsa.pub).")
@click.option("-p", "--password", help="Admin password.")
@click.option("--generate-ssh-keys", is_flag=True, help="Create ~/.ssh/id_rsa{,.pub} if missing and use it.")
@mount_options
@click.option("--setup-task", help="Command line run on every node when it joins.")
@click.option("--setup-task-output", help="Where the setup task's output goes, e.g. $AZ_BATCHAI_MOUNT_ROOT/afs.")
@storage_options
@no_wait_option
@scoped
@pass_state
def create(state: State, name: str, config_file: str | None, vm_size: str | None, image: str | None,
           vm_priority: str | None, target: int | None, minimum: int | None, maximum: int | None,
           user_name: str | None, ssh_key: str | None, password: str | None, generate_ssh_keys: bool,
           afs_name: str | None, afs_mount_path: str, bfs_name: str | None, bfs_mount_path: str,
           nfs: str | None, nfs_mount_path: str, setup_task: str | None, setup_task_output: str | None,
           no_wait: bool) -> None:
    """Create a cluster."""
    from ..models import (
        ClusterCreateParameters,
        NodeSetup,
        SetupTask,
        VirtualMachineConfiguration,
        load_cluster_file,
        validate_resource_name,
    )

    validate_resource_name(name, "cluster")
    s = state.resolved
    if config_file:
        params = load_cluster_file(config_file, storage_account_name=s.storage_account, storage_account_key=s.storage_key)
    else:
        params = ClusterCreateParameters()
    if vm_size:
        params.vm_size = vm_size
    if not params.vm_size:
        raise CLIError("no VM size: pass -s/--vm-size (e.g. -s STANDARD_NC6)")
    if image:
        from ..images import resolve_image

        vmc = params.virtual_machine_configuration or VirtualMachineConfiguration()
        vmc.image_reference = resolve_image(image)
        params.virtual_machine_configuration = vmc
    if vm_priority:
        params.vm_priority = vm_priority.lower()
    params.scale_settings = scale_settings(target, minimum, maximum, params.scale_settings)
    params.user_account_settings = _user_account(state, params.user_account_settings, user_name, ssh_key, password,
                                                 generate_ssh_keys)
    if setup_task and not setup_task_output:
        raise CLIError("--setup-task needs --setup-task-output (where its logs go, e.g. $AZ_BATCHAI_MOUNT_ROOT/afs)")
    node_setup = params.node_setup or NodeSetup()
    if setup_task:
        node_setup.setup_task = SetupTask(command_line=setup_task, std_out_err_path_prefix=str(setup_task_output))
    node_setup.mount_volumes = add_mounts(state, node_setup.mount_volumes, afs_name, afs_mount_path, bfs_name,
                                          bfs_mount_path, nfs, nfs_mount_path, state.workspace)
    if node_setup.setup_task or node_setup.mount_volumes or node_setup.performance_counters_settings:
        params.node_setup = node_setup
    client = _client(state)
    poller = client.begin_create(name, params)
    if not no_wait:
        poller.result()
        emit(client.get(name), state.output, CLUSTER_COLUMNS)


@cluster.command("resize")
@click.option("-n", "--name", required=True, help="Cluster name.")
@click.option("-t", "--target", required=True, type=click.IntRange(min=0), help="Target node count.")
@scoped
@pass_state
def resize(state: State, name: str, target: int) -> None:
    """Resize a cluster to a fixed number of nodes."""
    emit(_client(state).resize(name, target), state.output, CLUSTER_COLUMNS)


@cluster.command("auto-scale")
@click.option("-n", "--name", required=True, help="Cluster name.")
@click.option("--min", "minimum", required=True, type=click.IntRange(min=0), help="Minimum node count.")
@click.option("--max", "maximum", required=True, type=click.IntRange(min=0), help="Maximum node count.")
@scoped
@pass_state
def auto_scale(state: State, name: str, minimum: int, maximum: int) -> None:
    """Let a cluster scale between --min and --max nodes with its queue."""
    from ..models import AutoScaleSettings, ScaleSettings

    if minimum > maximum:
        raise CLIError(f"--min ({minimum}) must not be larger than --max ({maximum})")
    settings = ScaleSettings(auto_scale=AutoScaleSettings(minimum_node_count=minimum, maximum_node_count=maximum))
    emit(_client(state).update(name, scale_settings=settings), state.output, CLUSTER_COLUMNS)


@cluster.command("show")
@click.option("-n", "--name", required=True, help="Cluster name.")
@scoped
@pass_state
def show(state: State, name: str) -> None:
    """Show a cluster."""
    emit(_client(state).get(name), state.output, CLUSTER_COLUMNS)


@cluster.command("list")
@scoped
@pass_state
def list_(state: State) -> None:
    """List the clusters of a workspace."""
    emit(list(_client(state).list()), state.output, CLUSTER_COLUMNS)


@cluster.command("delete")
@click.option("-n", "--name", required=True, help="Cluster name.")
@yes_option
@no_wait_option
@scoped
@pass_state
def delete(state: State, name: str, yes: bool, no_wait: bool) -> None:
    """Delete a cluster (its running jobs fail)."""
    client = _client(state)
    client.get(name)
    confirm(yes, f"delete cluster '{name}'")
    poller = client.begin_delete(name)
    if not no_wait:
        poller.result()


@cluster.group("node")
def node() -> None:
    """The nodes of a cluster."""


@node.command("list")
@click.option("-c", "--cluster", "name", required=True, help="Cluster name.")
@scoped
@pass_state
def node_list_cmd(state: State, name: str) -> None:
    """List a cluster's nodes and their login addresses."""
    emit(node_list(state, state.workspace, name), state.output, NODE_COLUMNS)


@node.command("exec")
@click.option("-c", "--cluster", "name", required=True, help="Cluster name.")
@click.option("--node-id", help="Node (default: the first).")
@click.option("--exec", "command", help="Command to run (default: an interactive shell on the local engine).")
@scoped
@pass_state
def node_exec_cmd(state: State, name: str, node_id: str | None, command: str | None) -> None:
    """Run a command on a node, in the node's environment (AZ_BATCHAI_MOUNT_ROOT ...)."""
    node_exec(state, state.workspace, name, node_id, command)


@cluster.group("file")
def file() -> None:
    """Files of a cluster's setup task."""


@file.command("list")
@click.option("-c", "--cluster", "name", required=True, help="Cluster name.")
@click.option("-p", "--path", default=".", show_default=True, help="Directory below the setup task output.")
@click.option("--expiry", default=60, show_default=True, type=click.IntRange(5, 600), help="Download link expiry, minutes.")
@scoped
@pass_state
def file_list(state: State, name: str, path: str, expiry: int) -> None:
    """List the setup task's output files (when it writes to a mounted share)."""
    from datetime import timedelta

    from ..clients._records import join
    from ..clients.jobs import _mount_table
    from ..clients.shares import share_path
    from ..control.paths import share_location
    from ..models import File

    c = _client(state).get(name)
    task = c.node_setup.setup_task if c.node_setup else None
    if task is None:
        raise CLIError(f"cluster '{name}' has no setup task, so it has no files (see --setup-task)")
    volumes = c.node_setup.mount_volumes.serialize() if c.node_setup.mount_volumes else {}
    loc = share_location(task.std_out_err_path_prefix or "", _mount_table(volumes, state.backend))
    if loc is None:
        raise CLIError(f"the setup task output '{task.std_out_err_path_prefix}' is not on a mounted file share, "
                       "so it cannot be listed (use $AZ_BATCHAI_MOUNT_ROOT/<afs mount path>)")
    share, inside = loc
    where = join(inside, task.std_out_err_path_suffix or "", share_path(path, "path"))
    store = state.backend.store
    files = []
    for e in store.list_dir(share, where) if store.stat(share, where) else []:
        wire: dict[str, Any] = {"name": e.name, "fileType": "directory" if e.is_directory else "file"}
        if not e.is_directory:
            wire["downloadUrl"] = store.download_url(share, f"{where}/{e.name}", expiry=timedelta(minutes=expiry))
            wire["properties"] = {"lastModified": e.last_modified.isoformat() if e.last_modified else None,
                                  "contentLength": e.size}
        files.append(File.deserialize(wire))
    emit(files, state.output, FILE_COLUMNS)

