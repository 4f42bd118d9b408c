"""Shares as directories: the local engine's store."""

from __future__ import annotations

import glob
import os
import re
import shutil
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError

from ...agent.control_dir import create_exclusive, write_atomic
from ...agent.processes import pid_alive
from ...engines.base import FileEntry, ProgressCallback, Store

_CHUNK = 4 * 1024 * 1024


def _entry(name: str, st: os.stat_result, is_dir: bool) -> FileEntry:
    return FileEntry(
        name=name,
        is_directory=is_dir,
        size=None if is_dir else st.st_size,
        last_modified=datetime.fromtimestamp(st.st_mtime, tz=timezone.utc),
    )


def _same_file(a: Path, b: Path) -> bool:
    """rsync's quick check: same size and modification time."""
    try:
        sa, sb = a.stat(), b.stat()
    except FileNotFoundError:
        return False
    return sa.st_size == sb.st_size and int(sa.st_mtime) == int(sb.st_mtime)


_UPLOAD_TMP = re.compile(r"^\..+\.upload-(\d+)-")


def _remove_abandoned(dst: Path) -> None:
    """Temporary files of earlier copies to ``dst`` whose process is gone (a killed upload)."""
    for tmp in dst.parent.glob(f".{glob.escape(dst.name)}.upload-*"):
        m = _UPLOAD_TMP.match(tmp.name)
        if m and not pid_alive(int(m.group(1))):
            tmp.unlink(missing_ok=True)


def _copy(src: Path, dst: Path, progress: ProgressCallback | None) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    _remove_abandoned(dst)
    # The writer's pid in the name lets a later copy tell an abandoned temporary from a running one.
    fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}.upload-{os.getpid()}-")
    try:
        with open(src, "rb") as fin, os.fdopen(fd, "wb") as fout:
            while True:
                chunk = fin.read(_CHUNK)
                if not chunk:
                    break
                fout.write(chunk)
                if progress:
                    progress(len(chunk))
        shutil.copystat(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class LocalStore(Store):
    def __init__(self, shares_root: Path) -> None:
        self.shares_root = shares_root

    def share_dir(self, share: str) -> Path:
        return self.shares_root / share

    def _path(self, share: str, path: str) -> Path:
        base = self.share_dir(share)
        if not base.is_dir():
            raise ResourceNotFoundError(f"The share '{share}' does not exist.")
        parts = [p for p in path.split("/") if p not in ("", ".")]
        if ".." in parts:
            raise ValueError(f"path '{path}' leaves the share")
        return base.joinpath(*parts)

    # --- shares
    def create_share(self, share: str, *, quota_gb: int | None = None) -> None:
        self.shares_root.mkdir(parents=True, exist_ok=True)
        try:
            self.share_dir(share).mkdir()
        except FileExistsError:
            raise ResourceExistsError(f"The share '{share}' already exists.") from None

    def delete_share(self, share: str) -> None:
        d = self.share_dir(share)
        if not d.is_dir():
            raise ResourceNotFoundError(f"The share '{share}' does not exist.")
        shutil.rmtree(d)

    def list_shares(self) -> list[str]:
        if not self.shares_root.is_dir():
            return []
        return sorted(p.name for p in self.shares_root.iterdir() if p.is_dir())

    def share_exists(self, share: str) -> bool:
        return self.share_dir(share).is_dir()

    # --- paths
    def make_dirs(self, share: str, path: str) -> None:
        self._path(share, path).mkdir(parents=True, exist_ok=True)

    def list_dir(self, share: str, path: str) -> list[FileEntry]:
        d = self._path(share, path)
        try:
            with os.scandir(d) as it:
                out = []
                for e in it:
                    if _UPLOAD_TMP.match(e.name):
                        continue  # an upload in progress (or abandoned): not a file of the share yet
                    try:
                        out.append(_entry(e.name, e.stat(), e.is_dir()))
                    except FileNotFoundError:
                        continue  # removed while listing
        except (FileNotFoundError, NotADirectoryError):
            raise ResourceNotFoundError(f"The directory '{path}' does not exist in share '{share}'.") from None
        return sorted(out, key=lambda e: e.name)

    def stat(self, share: str, path: str) -> FileEntry | None:
        p = self._path(share, path)
        try:
            st = p.stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        return _entry(p.name, st, p.is_dir())

    def read(self, share: str, path: str, offset: int = 0, length: int | None = None) -> bytes:
        p = self._path(share, path)
        try:
            with open(p, "rb") as f:
                if offset:
                    f.seek(offset)
                return f.read() if length is None else f.read(length)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise ResourceNotFoundError(f"The file '{path}' does not exist in share '{share}'.") from None

    def write_atomic(self, share: str, path: str, data: bytes, *, private: bool = False) -> None:
        write_atomic(self._path(share, path), data, private=private)

    def create_exclusive(self, share: str, path: str, data: bytes) -> bool:
        return create_exclusive(self._path(share, path), data)

    def delete(self, share: str, path: str, *, recursive: bool = False) -> None:
        p = self._path(share, path)
        if p.is_dir() and not p.is_symlink():
            if recursive:
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.rmdir()
        else:
            p.unlink(missing_ok=True)

    # --- transfers
    def upload_file(
        self,
        share: str,
        path: str,
        local_path: Path,
        *,
        skip_unchanged: bool = True,
        progress: ProgressCallback | None = None,
        max_concurrency: int = 4,
        absent: bool = False,
    ) -> bool:
        dst = self._path(share, path)
        if skip_unchanged and not absent and _same_file(local_path, dst):
            return False
        _copy(local_path, dst, progress)
        return True

    def download_file(
        self,
        share: str,
        path: str,
        local_path: Path,
        *,
        skip_unchanged: bool = True,
        progress: ProgressCallback | None = None,
        max_concurrency: int = 4,
    ) -> bool:
        src = self._path(share, path)
        if not src.is_file():
            raise ResourceNotFoundError(f"The file '{path}' does not exist in share '{share}'.")
        if skip_unchanged and _same_file(src, local_path):
            return False
        _copy(src, local_path, progress)
        return True

    def download_url(self, share: str, path: str, *, expiry: timedelta) -> str:
        # A local file needs no signature; the expiry is meaningless here.
        return self._path(share, path).resolve().as_uri()
