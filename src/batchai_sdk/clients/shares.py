"""FileShareClient: shares, directories, and parallel incremental transfers with progress bars."""

from __future__ import annotations

import logging
import os
import posixpath
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError

from ..engines.base import Backend, FileEntry
from ..exceptions import ValidationError
from ._base import ClientBase

log = logging.getLogger("batchai_sdk")


@dataclass
class TransferSummary:
    """What an upload or download of several files did."""

    files: int = 0
    transferred: int = 0
    skipped: int = 0
    bytes_transferred: int = 0
    paths: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return (f"TransferSummary(files={self.files}, transferred={self.transferred}, skipped={self.skipped}, "
                f"bytes_transferred={self.bytes_transferred})")


def share_path(path: str | os.PathLike[str], what: str = "path") -> str:
    """A path inside a share: relative, POSIX, no ``..``."""
    text = str(path).replace("\\", "/")
    if text.startswith("/"):
        raise ValidationError([(what, f"'{path}' must be relative to the share root")])
    parts = [p for p in PurePosixPath(text).parts if p not in ("", ".")]
    if ".." in parts:
        raise ValidationError([(what, f"'{path}' must not contain '..'")])
    return "/".join(parts)


def _progress_bar(enabled: bool, total: int, desc: str):  # type: ignore[no-untyped-def]
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=desc, disable=not enabled, leave=False)


class FileShareClient(ClientBase):
    """Create, list and delete shares and directories; upload and download files and directory trees.

    :param backend: the engine (default: ``LocalBackend()``).
    :param max_concurrency: files transferred in parallel by directory transfers.
    """

    def __init__(self, backend: Backend | None = None, *, max_concurrency: int = 16) -> None:
        super().__init__(backend)
        self.max_concurrency = max_concurrency

    def __repr__(self) -> str:
        return f"FileShareClient(backend={self.backend!r})"

    # ------------------------------------------------------------------ shares
    def _share(self, name: str) -> str:
        from ..models import validate_share_name

        return validate_share_name(name)

    def create_share(self, name: str, *, exist_ok: bool = False, quota_gb: int | None = None) -> str:
        """Create a share; returns its URL (the ``azureFileUrl`` cluster and job specs mount)."""
        self._share(name)
        try:
            self.backend.store.create_share(name, quota_gb=quota_gb)
        except ResourceExistsError:
            if not exist_ok:
                raise
        return self.get_share_url(name)

    def delete_share(self, name: str) -> None:
        if name == self.backend.control_share:
            raise ValidationError([("share", f"'{name}' is the control share; delete clusters and jobs instead")])
        self.backend.store.delete_share(name)

    def list_shares(self) -> list[str]:
        return self.backend.store.list_shares()

    def get_share_url(self, name: str) -> str:
        return self.backend.share_url(name)

    # ------------------------------------------------------------------ directories
    def create_directory(self, share: str, path: str, *, exist_ok: bool = True) -> None:
        rel = share_path(path)
        if not exist_ok and self.backend.store.stat(share, rel) is not None:
            raise ResourceExistsError(f"The directory '{rel}' already exists in share '{share}'.")
        self.backend.store.make_dirs(share, rel)

    def delete_directory(self, share: str, path: str, *, recursive: bool = False) -> None:
        rel = share_path(path)
        if not rel:
            raise ValidationError([("path", "refusing to delete the share root; use delete_share")])
        entry = self.backend.store.stat(share, rel)
        if entry is None or not entry.is_directory:
            raise ResourceNotFoundError(f"The directory '{rel}' does not exist in share '{share}'.")
        if not recursive and self.backend.store.list_dir(share, rel):
            raise ValidationError([("path", f"'{rel}' is not empty; pass recursive=True")])
        self.backend.store.delete(share, rel, recursive=recursive)

    def list_directory(self, share: str, path: str = ".") -> list[FileEntry]:
        return self.backend.store.list_dir(share, share_path(path))

    def delete_file(self, share: str, path: str) -> None:
        rel = share_path(path)
        if self.backend.store.stat(share, rel) is None:
            raise ResourceNotFoundError(f"The file '{rel}' does not exist in share '{share}'.")
        self.backend.store.delete(share, rel)

    # ------------------------------------------------------------------ transfers
    def upload_file(
        self,
        share: str,
        local_path: str | os.PathLike[str],
        remote_path: str | None = None,
        *,
        progress: bool = False,
        skip_unchanged: bool = True,
    ) -> bool:
        """Upload one file (to ``remote_path``, default its name at the share root); False when skipped."""
        src = Path(local_path)
        if not src.is_file():
            raise FileNotFoundError(f"{src} is not a file")
        rel = share_path(remote_path if remote_path is not None else src.name, "remote_path")
        if not self.backend.store.share_exists(share):
            raise ResourceNotFoundError(f"The share '{share}' does not exist.")
        with _progress_bar(progress, src.stat().st_size, src.name) as bar:
            return self.backend.store.upload_file(share, rel, src, skip_unchanged=skip_unchanged, progress=bar.update)

    def upload_directory(
        self,
        share: str,
        local_dir: str | os.PathLike[str],
        remote_dir: str = "",
        *,
        progress: bool = False,
        skip_unchanged: bool = True,
        max_concurrency: int | None = None,
    ) -> TransferSummary:
        """Upload a directory tree in parallel; files the share already holds unchanged are skipped."""
        root = Path(local_dir)
        if not root.is_dir():
            raise FileNotFoundError(f"{root} is not a directory")
        base = share_path(remote_dir, "remote_dir")
        if not self.backend.store.share_exists(share):
            raise ResourceNotFoundError(f"The share '{share}' does not exist.")
        files = sorted(p for p in root.rglob("*") if p.is_file())
        dirs = sorted({base + ("/" if base else "") + p.parent.relative_to(root).as_posix() for p in files} | {base})
        for d in dirs:
            if d and d != ".":
                self.backend.store.make_dirs(share, d.rstrip("/.") if d.endswith("/.") else d)
        pairs = [(p, "/".join(x for x in (base, p.relative_to(root).as_posix()) if x)) for p in files]
        # One listing per directory tells which files are new: they need no per-file "unchanged?" look-up.
        present: set[str] = set()
        for d in {posixpath.dirname(dst) for _, dst in pairs}:
            try:
                present.update(posixpath.join(d, e.name) if d else e.name for e in self.backend.store.list_dir(share, d))
            except ResourceNotFoundError:
                pass
        return self._transfer(
            pairs, [p.stat().st_size for p in files], lambda src, dst, cb: self.backend.store.upload_file(
                share, dst, src, skip_unchanged=skip_unchanged, progress=cb, absent=dst not in present),
            progress, f"upload {root.name}", max_concurrency,
        )

    def download_file(
        self,
        share: str,
        remote_path: str,
        local_path: str | os.PathLike[str],
        *,
        progress: bool = False,
        skip_unchanged: bool = True,
    ) -> Path:
        rel = share_path(remote_path, "remote_path")
        entry = self.backend.store.stat(share, rel)
        if entry is None or entry.is_directory:
            raise ResourceNotFoundError(f"The file '{rel}' does not exist in share '{share}'.")
        dst = Path(local_path)
        if dst.is_dir():
            dst = dst / PurePosixPath(rel).name
        with _progress_bar(progress, entry.size or 0, PurePosixPath(rel).name) as bar:
            self.backend.store.download_file(share, rel, dst, skip_unchanged=skip_unchanged, progress=bar.update)
        return dst

    def download_directory(
        self,
        share: str,
        remote_dir: str,
        local_dir: str | os.PathLike[str],
        *,
        progress: bool = False,
        skip_unchanged: bool = True,
        max_concurrency: int | None = None,
    ) -> TransferSummary:
        base = share_path(remote_dir, "remote_dir")
        dest = Path(local_dir)
        entries = list(self.walk_entries(share, base))
        pairs = [(rel, dest / Path(*PurePosixPath(rel[len(base):].lstrip("/")).parts)) for rel, _ in entries]
        return self._transfer(
            pairs, [e.size or 0 for _, e in entries], lambda src, dst, cb: self.backend.store.download_file(share, src, dst, skip_unchanged=skip_unchanged, progress=cb),
            progress, f"download {base or share}", max_concurrency,
        )

    def walk(self, share: str, path: str = "") -> Iterable[str]:
        """Every file below ``path``, as share paths."""
        for rel, _ in self.walk_entries(share, path):
            yield rel

    def walk_entries(self, share: str, path: str = "") -> Iterable[tuple[str, FileEntry]]:
        rel = share_path(path)
        stack = [rel]
        while stack:
            d = stack.pop()
            for e in self.backend.store.list_dir(share, d):
                child = f"{d}/{e.name}" if d else e.name
                if e.is_directory:
                    stack.append(child)
                else:
                    yield child, e

    def _transfer(self, pairs, sizes, one, progress: bool, desc: str, max_concurrency: int | None) -> TransferSummary:  # type: ignore[no-untyped-def]
        summary = TransferSummary(files=len(pairs))
        size_of = {str(src): n for (src, _), n in zip(pairs, sizes, strict=True)}
        lock = threading.Lock()
        with _progress_bar(progress, sum(sizes), desc) as bar:

            def cb(n: int) -> None:
                with lock:
                    bar.update(n)
                    summary.bytes_transferred += n

            def run(pair):  # type: ignore[no-untyped-def]
                src, dst = pair
                did = one(src, dst, cb)
                with lock:
                    if did:
                        summary.transferred += 1
                    else:
                        summary.skipped += 1
                        bar.update(size_of.get(str(src), 0))
                    summary.paths.append(str(dst))

            workers = max(1, min(max_concurrency or self.max_concurrency, len(pairs) or 1))
            with ThreadPoolExecutor(workers, thread_name_prefix="batchai-transfer") as pool:
                for f in [pool.submit(run, p) for p in pairs]:
                    f.result()
        log.info("%s: %d files, %d transferred, %d skipped, %d bytes", desc, summary.files, summary.transferred,
                 summary.skipped, summary.bytes_transferred)
        return summary
