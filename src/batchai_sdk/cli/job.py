"""``batchai job``: create from a job file, show, list, wait, terminate, delete, file list/stream,
node list/exec."""

from __future__ import annotations

import time
from typing import Any

import click

from .cluster import add_mounts, mount_options
from .common import (
    State,
    confirm,
    experiment_option,
    no_wait_option,
    pass_state,
    scoped,
    storage_options,
    yes_option,
)
from .errors import CLIError, ExitCode
from .nodes import node_exec, node_list
from .output import FILE_COLUMNS, JOB_COLUMNS, NODE_COLUMNS, emit

FINAL = ("succeeded", "failed")


@click.group()
def job() -> None:
    """Jobs: a command line (or a toolkit) run on a cluster's nodes."""


def _client(state: State):  # type: ignore[no-untyped-def]
    from ..clients import JobClient

    return JobClient(state.backend, workspace=state.workspace, experiment=state.experiment)


def job_option(f: Any) -> Any:
    return click.option("-j", "--job", "-n", "--name", "name", required=True, help="Job name.")(f)


@job.command("create")
@click.option("-n", "--name", required=True, help="Job name.")
@click.option("-f", "--config-file", required=True, type=click.Path(dir_okay=False),
              help="Job JSON file (JobCreateParameters, as for az batchai job create).")
@click.option("-c", "--cluster", help="Cluster name or resource id (default: properties.cluster.id of the file).")
@mount_options
@storage_options
@no_wait_option
@experiment_option
@scoped
@pass_state
def create(state: State, name: str, config_file: str, cluster: str | None, afs_name: str | None, afs_mount_path: str,
           bfs_name: str | None, bfs_mount_path: str, nfs: str | None, nfs_mount_path: str, no_wait: bool) -> None:
    """Submit a job. <AZURE_BATCHAI_STORAGE_ACCOUNT>/<AZURE_BATCHAI_STORAGE_KEY> in the file are replaced and
    missing mount credentials filled, as az did; --afs-name/--bfs-name/--nfs add job-level mounts (under
    $AZ_BATCHAI_JOB_MOUNT_ROOT)."""
    from ..clients import ClusterClient
    from ..clients._records import parse_cluster_id
    from ..models import ResourceId, load_job_file, validate_resource_name

    validate_resource_name(name, "job")
    s = state.resolved
    params = load_job_file(config_file, storage_account_name=s.storage_account, storage_account_key=s.storage_key)
    ref = cluster or (params.cluster.id if params.cluster is not None else None)
    if not ref:
        raise CLIError("no cluster: pass -c/--cluster NAME, or set properties.cluster.id in the job file")
    try:
        cws, cname = parse_cluster_id(ref, state.workspace)
    except ValueError as exc:
        raise CLIError(f"-c/--cluster: {exc}") from None
    found = ClusterClient(state.backend, workspace=cws).get(cname)
    params.cluster = ResourceId(id=found.id)
    params.mount_volumes = add_mounts(state, params.mount_volumes, afs_name, afs_mount_path, bfs_name, bfs_mount_path,
                                      nfs, nfs_mount_path, state.workspace)
    client = _client(state)
    client.begin_create(name, params)
    emit(client.get(name), state.output, JOB_COLUMNS)


@job.command("show")
@job_option
@experiment_option
@scoped
@pass_state
def show(state: State, name: str) -> None:
    """Show a job."""
    emit(_client(state).get(name), state.output, JOB_COLUMNS)


@job.command("list")
@experiment_option
@scoped
@pass_state
def list_(state: State) -> None:
    """List the jobs of an experiment."""
    emit(list(_client(state).list()), state.output, JOB_COLUMNS)


@job.command("wait")
@job_option
@click.option("--interval", type=click.FloatRange(min=0.05), help="Seconds between checks (default: 15 on azure, 0.5 locally).")
@experiment_option
@scoped
@pass_state
def wait(state: State, name: str, interval: float | None) -> None:
    """Wait for a job to end; exit with its exit code (1 for a failed job without one)."""
    client = _client(state)
    if interval is None:
        interval = 0.5 if state.backend.kind == "local" else 15.0
    last = None
    while True:
        j = client.get(name)
        st = str(j.execution_state)
        if st != last:
            click.echo(f"job '{name}': {st}", err=True)
            last = st
        if st in FINAL:
            break
        time.sleep(interval)
    info = j.execution_info
    code = info.exit_code if info is not None else None
    if st == "succeeded":
        return
    for e in (info.errors if info is not None else None) or []:
        details = ", ".join(f"{d.name}={d.value}" for d in (e.details or []))
        click.echo(f"error: {e.code}: {e.message}" + (f" ({details})" if details else ""), err=True)
    raise ExitCode(code if code and code % 256 else 1)


@job.command("terminate")
@job_option
@yes_option
@no_wait_option
@experiment_option
@scoped
@pass_state
def terminate(state: State, name: str, yes: bool, no_wait: bool) -> None:
    """Terminate a queued or running job."""
    client = _client(state)
    client.get(name)
    confirm(yes, f"terminate job '{name}'")
    poller = client.begin_terminate(name)
    if not no_wait:
        poller.result()


@job.command("delete")
@job_option
@yes_option
@no_wait_option
@experiment_option
@scoped
@pass_state
def delete(state: State, name: str, yes: bool, no_wait: bool) -> None:
    """Delete a job (terminating it first); its files stay on the share."""
    client = _client(state)
    client.get(name)
    confirm(yes, f"delete job '{name}'")
    poller = client.begin_delete(name)
    if not no_wait:
        poller.result()


@job.group("file")
def file() -> None:
    """A job's output files (stdouterr: its logs)."""


def _dir_options(f: Any) -> Any:
    f = click.option("-p", "--path", default=".", show_default=True, help="Directory inside the output directory.")(f)
    return click.option("-d", "--output-directory-id", default="stdouterr", show_default=True,
                        help="Output directory id (stdouterr: the logs).")(f)


@file.command("list")
@job_option
@_dir_options
@click.option("--expiry", default=60, show_default=True, type=click.IntRange(5, 600), help="Download link expiry, minutes.")
@experiment_option
@scoped
@pass_state
def file_list(state: State, name: str, output_directory_id: str, path: str, expiry: int) -> None:
    """List a job's output files with download URLs."""
    files = _client(state).list_output_files(name, output_directory_id, path, link_expiry_minutes=expiry)
    emit(files, state.output, FILE_COLUMNS)


@file.command("stream")
@job_option
@click.option("-f", "--file-name", default="stdout.txt", show_default=True, help="File to follow.")
@_dir_options
@experiment_option
@scoped
@pass_state
def file_stream(state: State, name: str, file_name: str, output_directory_id: str, path: str) -> None:
    """Print a job's file as it grows, until the job ends (Ctrl+C stops following)."""
    client = _client(state)
    try:
        stream = client.stream_file(name, file_name, output_directory_id, path)
        announced = False
        while not _exists(stream):
            if client.get(name).execution_state in FINAL:
                if not _exists(stream):
                    click.echo(f'The file "{file_name}" not found for the completed job.', err=True)
                    return
                break
            if not announced:
                click.echo(f'The file "{file_name}" not found. Waiting for the job to generate it.', err=True)
                announced = True
            time.sleep(0.5)
        for line in stream:
            click.echo(line)
    except KeyboardInterrupt:
        # az stopped quietly on Ctrl+C (the job keeps running).
        return


def _exists(stream: Any) -> bool:
    return stream.store.stat(stream.share, stream.path) is not None


@job.group("node")
def node() -> None:
    """The nodes of a job's cluster."""


def _job_cluster(state: State, name: str) -> tuple[str, str]:
    from ..clients._records import parse_cluster_id

    j = _client(state).get(name)
    return parse_cluster_id(j.cluster.id, state.workspace)


@node.command("list")
@job_option
@experiment_option
@scoped
@pass_state
def node_list_cmd(state: State, name: str) -> None:
    """List the nodes of the job's cluster."""
    ws, cluster = _job_cluster(state, name)
    emit(node_list(state, ws, cluster), state.output, NODE_COLUMNS)


@node.command("exec")
@job_option
@click.option("--node-id", help="Node (default: the first).")
@click.option("--exec", "command", help="Command to run (default: an interactive shell on the local engine).")
@experiment_option
@scoped
@pass_state
def node_exec_cmd(state: State, name: str, node_id: str | None, command: str | None) -> None:
    """Run a command on a node of the job's cluster."""
    ws, cluster = _job_cluster(state, name)
    node_exec(state, ws, cluster, node_id, command)
