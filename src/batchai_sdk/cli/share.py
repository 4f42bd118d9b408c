"""``batchai share`` (ours; az left this to ``az storage``): create, upload, download, list, delete."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .common import State, confirm, output_option, pass_state, yes_option
from .errors import CLIError
from .output import FILE_COLUMNS, SHARE_COLUMNS, emit


@click.group()
def share() -> None:
    """File shares: where data, scripts, logs and outputs live (Azure Files; directories locally)."""


def _client(state: State) -> Any:
    from ..clients import FileShareClient

    return FileShareClient(state.backend)


def _progress(flag: bool | None) -> bool:
    return sys.stderr.isatty() if flag is None else flag


progress_option = click.option("--progress/--no-progress", default=None,
                               help="Show a progress bar (default: when stderr is a terminal).")


@share.command("create")
@click.option("-n", "--name", required=True, help="Share name (3-63 lowercase letters, digits, hyphens).")
@click.option("--quota", type=click.IntRange(min=1), help="Quota in GB.")
@click.option("--exist-ok", is_flag=True, help="Succeed when the share already exists.")
@output_option
@pass_state
def create(state: State, name: str, quota: int | None, exist_ok: bool) -> None:
    """Create a share; prints its URL (the azureFileUrl that mounts use)."""
    url = _client(state).create_share(name, exist_ok=exist_ok, quota_gb=quota)
    emit({"name": name, "url": url}, state.output, SHARE_COLUMNS)


@share.command("upload")
@click.option("-n", "--name", required=True, help="Share name.")
@click.argument("source", type=click.Path(exists=True))
@click.option("-p", "--path", "remote", help="Destination in the share (default: the source's name at the root).")
@progress_option
@output_option
@pass_state
def upload(state: State, name: str, source: str, remote: str | None, progress: bool | None) -> None:
    """Upload a file or a directory tree (unchanged files are skipped)."""
    client = _client(state)
    src = Path(source)
    if src.is_dir():
        summary = client.upload_directory(name, src, remote if remote is not None else src.name,
                                          progress=_progress(progress))
        emit({"files": summary.files, "transferred": summary.transferred, "skipped": summary.skipped,
              "bytes": summary.bytes_transferred}, state.output, None)
    else:
        did = client.upload_file(name, src, remote, progress=_progress(progress))
        emit({"files": 1, "transferred": int(did), "skipped": int(not did), "bytes": src.stat().st_size if did else 0},
             state.output, None)


@share.command("download")
@click.option("-n", "--name", required=True, help="Share name.")
@click.option("-p", "--path", "remote", required=True, help="File or directory in the share.")
@click.argument("destination", type=click.Path())
@progress_option
@output_option
@pass_state
def download(state: State, name: str, remote: str, destination: str, progress: bool | None) -> None:
    """Download a file or a directory tree from a share."""
    from ..clients.shares import share_path

    client = _client(state)
    rel = share_path(remote, "path")
    entry = state.backend.store.stat(name, rel) if rel else None
    if rel and entry is None:
        raise CLIError(f"'{remote}' does not exist in share '{name}' (see: batchai share list -n {name})")
    if entry is not None and not entry.is_directory:
        dst = client.download_file(name, rel, destination, progress=_progress(progress))
        emit({"files": 1, "paths": [str(dst)]}, state.output, None)
        return
    summary = client.download_directory(name, rel, destination, progress=_progress(progress))
    emit({"files": summary.files, "transferred": summary.transferred, "skipped": summary.skipped,
          "bytes": summary.bytes_transferred}, state.output, None)


@share.command("list")
@click.option("-n", "--name", help="Share whose files to list (default: list the shares).")
@click.option("-p", "--path", default=".", show_default=True, help="Directory in the share.")
@output_option
@pass_state
def list_(state: State, name: str | None, path: str) -> None:
    """List the shares, or the files of one share's directory."""
    client = _client(state)
    if name is None:
        hidden = state.backend.control_share
        emit([{"name": s, "url": client.get_share_url(s)} for s in client.list_shares() if s != hidden],
             state.output, SHARE_COLUMNS)
        return
    if not state.backend.store.share_exists(name):
        raise CLIError(f"share '{name}' not found (create it with: batchai share create -n {name})")
    entries = client.list_directory(name, path)
    emit([{"name": e.name, "fileType": "directory" if e.is_directory else "file", "contentLength": e.size,
           "lastModified": e.last_modified.isoformat() if e.last_modified else None} for e in entries],
         state.output, FILE_COLUMNS)


@share.command("delete")
@click.option("-n", "--name", required=True, help="Share name.")
@click.option("-p", "--path", help="Delete only this file or directory (recursively) in the share.")
@yes_option
@pass_state
def delete(state: State, name: str, path: str | None, yes: bool) -> None:
    """Delete a share, or a file or directory in it."""
    from ..clients.shares import share_path

    client = _client(state)
    if not state.backend.store.share_exists(name):
        raise CLIError(f"share '{name}' not found (list them with: batchai share list)")
    if path is None:
        confirm(yes, f"delete share '{name}' and all its files")
        client.delete_share(name)
        return
    rel = share_path(path, "path")
    entry = state.backend.store.stat(name, rel)
    if entry is None:
        raise CLIError(f"'{path}' does not exist in share '{name}'")
    confirm(yes, f"delete '{path}' from share '{name}'")
    if entry.is_directory:
        client.delete_directory(name, rel, recursive=True)
    else:
        client.delete_file(name, rel)
