"""Shares as Azure file shares: the Azure engine's store, over the Files REST API.

Atomicity comes from the service: a record is uploaded under a temporary name and renamed over its
target (``x-ms-file-rename-replace-if-exists``); an exclusive create is a rename *without* replace, which
the service refuses with 409 when the target exists.
"""

from __future__ import annotations

import hashlib
import logging
import os
import posixpath
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError
from azure.storage.fileshare import (
    ContentSettings,
    FileSasPermissions,
    ShareClient,
    ShareFileClient,
    ShareServiceClient,
    generate_file_sas,
)

from ..base import FileEntry, ProgressCallback, Store

log = logging.getLogger("batchai_sdk.azure")

#: File metadata key holding the uploader's local mtime (whole seconds): rsync's quick check.
MTIME_KEY = "batchaimtime"
_HASH_CHUNK = 4 * 1024 * 1024


def _parts(path: str) -> list[str]:
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ValueError(f"path '{path}' leaves the share")
    return parts


def _clean(path: str) -> str:
    return "/".join(_parts(path))


def _is_code(exc: HttpResponseError, *codes: str) -> bool:
    return (getattr(exc, "error_code", None) or "") in codes


def _progress_hook(progress: ProgressCallback | None) -> Any:
    """The SDK reports cumulative bytes; our callback takes increments."""
    if progress is None:
        return None
    seen = [0]

    def hook(current: int, _total: int | None) -> None:
        if current > seen[0]:
            progress(current - seen[0])
            seen[0] = current

    return hook


def _md5(path: Path) -> bytes:
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_HASH_CHUNK), b""):
            digest.update(chunk)
    return digest.digest()


#: Connections kept open per host. requests keeps 10 by default: parallel transfers with more threads than
#: that throw connections away and pay a new TLS handshake per request.
POOL_SIZE = 64


#: Azure Files' largest put-range (4 MiB): files up to this size go in one request.
_RANGE = 4 * 1024 * 1024
_CONNECTION_OPTIONS = ("connection_verify", "connection_cert", "connection_timeout", "read_timeout")


def _pooled_transport(**connection: Any) -> Any:
    import requests
    from azure.core.pipeline.transport import RequestsTransport

    session = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_connections=4, pool_maxsize=POOL_SIZE)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return RequestsTransport(session=session, session_owner=True, **connection)


class AzureFilesStore(Store):
    """:class:`~batchai_sdk.engines.base.Store` on Azure Files with a storage account key.

    :param account_url: ``https://<account>.file.core.windows.net`` (or a path-style test endpoint).
    :param client_options: passed to ``ShareServiceClient`` (``connection_verify``, ``retry_policy``, ...).
    """

    def __init__(self, account_url: str, account_name: str, account_key: str, **client_options: Any) -> None:
        self.account_url = account_url
        self.account_name = account_name
        self._key = account_key
        if "transport" not in client_options:
            connection = {k: client_options[k] for k in _CONNECTION_OPTIONS if k in client_options}
            client_options["transport"] = _pooled_transport(**connection)
        self._service = ShareServiceClient(
            account_url, credential={"account_name": account_name, "account_key": account_key}, **client_options
        )

    def __repr__(self) -> str:
        return f"AzureFilesStore(account_url={self.account_url!r})"

    def close(self) -> None:
        self._service.close()

    # ------------------------------------------------------------------ clients
    def _share(self, share: str) -> ShareClient:
        return self._service.get_share_client(share)

    def _file(self, share: str, path: str) -> ShareFileClient:
        return self._share(share).get_file_client(_clean(path))

    # --- shares
    def create_share(self, share: str, *, quota_gb: int | None = None) -> None:
        kwargs: dict[str, Any] = {"quota": quota_gb} if quota_gb else {}
        try:
            self._share(share).create_share(**kwargs)
        except ResourceExistsError:
            raise ResourceExistsError(f"The share '{share}' already exists.") from None

    def delete_share(self, share: str) -> None:
        try:
            self._share(share).delete_share()
        except ResourceNotFoundError:
            raise ResourceNotFoundError(f"The share '{share}' does not exist.") from None

    def list_shares(self) -> list[str]:
        return sorted(s.name for s in self._service.list_shares())

    def share_exists(self, share: str) -> bool:
        try:
            self._share(share).get_share_properties()
            return True
        except ResourceNotFoundError:
            return False

    # --- paths
    def make_dirs(self, share: str, path: str) -> None:
        parts = _parts(path)
        client = self._share(share)
        # Deepest first: one request when the parents exist (the common case for records).
        for depth in range(len(parts), 0, -1):
            try:
                client.get_directory_client("/".join(parts[:depth])).create_directory()
            except ResourceExistsError:
                pass
            except ResourceNotFoundError:
                continue  # a parent is missing: create it first, then come back down
            for deeper in range(depth + 1, len(parts) + 1):
                try:
                    client.get_directory_client("/".join(parts[:deeper])).create_directory()
                except ResourceExistsError:
                    pass
            return
        if parts:
            raise ResourceNotFoundError(f"The share '{share}' does not exist.")

    def list_dir(self, share: str, path: str) -> list[FileEntry]:
        rel = _clean(path)
        try:
            items = list(self._share(share).list_directories_and_files(directory_name=rel or None,
                                                                      include=["timestamps"]))
        except ResourceNotFoundError:
            raise ResourceNotFoundError(f"The directory '{path}' does not exist in share '{share}'.") from None
        out = []
        for item in items:
            is_dir = bool(item.get("is_directory"))
            modified = item.get("last_modified") or item.get("last_write_time")
            out.append(FileEntry(name=item["name"], is_directory=is_dir, size=None if is_dir else item.get("size"),
                                 last_modified=modified))
        return sorted(out, key=lambda e: e.name)

    def stat(self, share: str, path: str) -> FileEntry | None:
        rel = _clean(path)
        name = posixpath.basename(rel)
        if rel:
            try:
                props = self._file(share, rel).get_file_properties()
                return FileEntry(name=name, is_directory=False, size=props.size, last_modified=props.last_modified)
            except ResourceNotFoundError:
                pass
        try:
            dprops = self._share(share).get_directory_client(rel).get_directory_properties()
        except ResourceNotFoundError:
            return None
        return FileEntry(name=name, is_directory=True, size=None, last_modified=dprops.last_modified)

    def read(self, share: str, path: str, offset: int = 0, length: int | None = None) -> bytes:
        if length is not None and length <= 0:
            return b""
        try:
            stream = self._file(share, path).download_file(offset=offset, length=length)
            return stream.readall()
        except ResourceNotFoundError:
            raise ResourceNotFoundError(f"The file '{path}' does not exist in share '{share}'.") from None
        except HttpResponseError as exc:
            if exc.status_code == 416 or _is_code(exc, "InvalidRange"):
                return b""  # at or past the end: nothing new yet
            raise

    def _upload_temp(self, share: str, path: str, data: bytes) -> ShareFileClient:
        rel = _clean(path)
        parent, name = posixpath.split(rel)
        tmp = posixpath.join(parent, f".{name}.tmp-{uuid.uuid4().hex[:12]}")
        client = self._file(share, tmp)
        try:
            client.upload_file(data)
        except ResourceNotFoundError:
            if not parent:
                raise
            self.make_dirs(share, parent)
            client.upload_file(data)
        return client

    def _renamed_already(self, tmp: ShareFileClient) -> bool:
        """Whether an earlier try of a rename moved ``tmp`` although its answer was lost.

        The SDK repeats a rename whose connection dropped after the service had done it; the repeat then
        fails (source gone: 404; or target exists: 409) although the rename happened. Only we know the
        temporary's random name, so its absence proves the move was ours.
        """
        try:
            tmp.get_file_properties()
            return False
        except ResourceNotFoundError:
            return True

    def write_atomic(self, share: str, path: str, data: bytes, *, private: bool = False) -> None:
        # ``private`` has no REST equivalent: Azure Files keeps no POSIX mode; access is per share (see docs).
        tmp = self._upload_temp(share, path, data)
        try:
            tmp.rename_file(_clean(path), overwrite=True)
        except ResourceNotFoundError:
            if self._renamed_already(tmp):
                return  # a retried rename after the first one went through: the record is in place
            self._delete_quietly(tmp)
            raise
        except BaseException:
            self._delete_quietly(tmp)
            raise

    def create_exclusive(self, share: str, path: str, data: bytes) -> bool:
        tmp = self._upload_temp(share, path, data)
        try:
            tmp.rename_file(_clean(path), overwrite=False)
            return True
        except HttpResponseError as exc:
            if exc.status_code not in (404, 409):
                raise
            # A 409 on a retry may be our own first try's success (answer lost): without this check two
            # claimants could both lose a job claim, or a client could think its job name was taken.
            if self._renamed_already(tmp):
                return True
            if exc.status_code == 409:
                return False
            raise
        finally:
            self._delete_quietly(tmp)

    def _delete_quietly(self, client: ShareFileClient) -> None:
        try:
            client.delete_file()
        except ResourceNotFoundError:
            pass
        except HttpResponseError:
            log.debug("could not remove temporary file %s", client.file_path)

    def delete(self, share: str, path: str, *, recursive: bool = False) -> None:
        rel = _clean(path)
        if rel:
            try:
                self._file(share, rel).delete_file()
                return
            except ResourceNotFoundError:
                pass
        directory = self._share(share).get_directory_client(rel)
        if recursive:
            try:
                entries = self.list_dir(share, rel)
            except ResourceNotFoundError:
                return
            for e in entries:
                child = posixpath.join(rel, e.name) if rel else e.name
                if e.is_directory:
                    self.delete(share, child, recursive=True)
                else:
                    try:
                        self._file(share, child).delete_file()
                    except ResourceNotFoundError:
                        pass
        if not rel:
            return
        try:
            directory.delete_directory()
        except ResourceNotFoundError:
            pass

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
        st = os.stat(local_path)
        mtime = str(int(st.st_mtime))
        client = self._file(share, path)
        if skip_unchanged and not absent:
            try:
                props = client.get_file_properties()
                if props.size == st.st_size and (props.metadata or {}).get(MTIME_KEY) == mtime:
                    return False
            except ResourceNotFoundError:
                pass
        parent = posixpath.dirname(_clean(path))
        settings = ContentSettings(content_md5=bytearray(_md5(local_path)))

        def send() -> None:
            with open(local_path, "rb") as f:
                # Threads only pay off for files of several ranges; directory uploads already run files in parallel.
                workers = max_concurrency if st.st_size > _RANGE else 1
                client.upload_file(f, length=st.st_size, max_concurrency=workers, content_settings=settings,
                                   progress_hook=_progress_hook(progress))

        try:
            send()
        except ResourceNotFoundError:
            if not parent:
                raise
            self.make_dirs(share, parent)
            send()
        # The mtime goes on last: an interrupted upload (full size from its create) is never taken as done.
        client.set_file_metadata({MTIME_KEY: mtime})
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
        client = self._file(share, path)
        try:
            props = client.get_file_properties()
        except ResourceNotFoundError:
            raise ResourceNotFoundError(f"The file '{path}' does not exist in share '{share}'.") from None
        meta = (props.metadata or {}).get(MTIME_KEY)
        remote_mtime = int(meta) if meta and meta.isdigit() else int(props.last_modified.timestamp())
        local_path = Path(local_path)
        if skip_unchanged:
            try:
                lst = local_path.stat()
                if lst.st_size == props.size and int(lst.st_mtime) == remote_mtime:
                    return False
            except FileNotFoundError:
                pass
        local_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = local_path.with_name(f".{local_path.name}.download-{uuid.uuid4().hex[:8]}")
        try:
            with open(tmp, "wb") as f:
                client.download_file(max_concurrency=max_concurrency,
                                     progress_hook=_progress_hook(progress)).readinto(f)
            os.utime(tmp, (remote_mtime, remote_mtime))
            os.replace(tmp, local_path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return True

    def download_url(self, share: str, path: str, *, expiry: timedelta) -> str:
        client = self._file(share, path)
        sas = generate_file_sas(
            self.account_name,
            share,
            _parts(path),
            account_key=self._key,
            permission=FileSasPermissions(read=True),
            expiry=datetime.now(timezone.utc) + expiry,
        )
        return f"{client.url}?{sas}"
