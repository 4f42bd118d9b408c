"""Azure Files REST: shares, directories and files backed by a directory on disk.

File bytes live on disk (so simulated nodes can "mount" a share by using its directory); ETags,
content headers and metadata live in memory, keyed by path.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote
from xml.sax.saxutils import escape, quoteattr

from ._auth import SasError, verify_sas, verify_shared_key
from ._http import FakeRequest, FakeResponse, http_date, xml_error

_CONTENT_SETTINGS = {
    "x-ms-content-type": "Content-Type",
    "x-ms-content-encoding": "Content-Encoding",
    "x-ms-content-language": "Content-Language",
    "x-ms-cache-control": "Cache-Control",
    "x-ms-content-disposition": "Content-Disposition",
    "x-ms-content-md5": "Content-MD5",
}


@dataclass
class _Entry:
    generation: int = 0
    content: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    file_id: str = field(default_factory=lambda: str(uuid.uuid4().int % 10**19))
    created: float = field(default_factory=time.time)


@dataclass
class _Target:
    share: str | None
    path: str
    kind: str  # "service", "share", "directory" or "file"


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f0Z")


def _parse_range(value: str | None) -> tuple[int, int | None] | None:
    if not value or not value.startswith("bytes="):
        return None
    start, _, end = value[len("bytes=") :].partition("-")
    return int(start), (int(end) if end else None)


class FilesService:
    """The Azure Files half of :class:`~batchai_sdk.testing.FakeAzureState`."""

    def __init__(self, root: Path, account_name: str, account_key: str, bearer_token: str) -> None:
        self.root = root
        self.account_name = account_name
        self.account_key = account_key
        self.bearer_token = bearer_token
        self._lock = threading.RLock()
        self._entries: dict[tuple[str, str], _Entry] = {}
        self._quota: dict[str, int] = {}

    # ------------------------------------------------------------------ helpers

    def share_root(self, share: str) -> Path:
        return self.root / share

    def create_share(self, share: str, quota: int = 5120) -> Path:
        with self._lock:
            path = self.share_root(share)
            path.mkdir(parents=True, exist_ok=True)
            self._quota.setdefault(share, quota)
            return path

    def _entry(self, share: str, path: str) -> _Entry:
        key = (share, path)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        return entry

    def _bump(self, share: str, path: str) -> None:
        self._entry(share, path).generation += 1

    def _etag(self, share: str, path: str, disk: Path) -> str:
        st = disk.stat()
        gen = self._entry(share, path).generation
        digest = hashlib.sha1(f"{st.st_mtime_ns}:{st.st_size}:{st.st_ino}:{gen}".encode()).hexdigest()
        return '"0x8D' + digest[:13].upper() + '"'

    def _stamp(self, share: str, path: str, disk: Path) -> dict[str, str]:
        return {"ETag": self._etag(share, path, disk), "Last-Modified": http_date(disk.stat().st_mtime)}

    def _disk(self, share: str, path: str) -> Path:
        disk = (self.root / share / path) if path else self.root / share
        # Refuse '..' tricks: every served path stays inside the share's directory.
        if os.path.commonpath([str(disk.resolve()), str((self.root / share).resolve())]) != str(
            (self.root / share).resolve()
        ):
            raise ValueError(path)
        return disk

    def target(self, request: FakeRequest) -> _Target:
        segments = request.raw_path.lstrip("/").split("/", 1) if request.raw_path.strip("/") else []
        host = request.host.split(":")[0]
        if not host.startswith(self.account_name + ".") and segments:
            # Path-style account URL (127.0.0.1/localhost): the account is the first segment.
            rest = segments[1] if len(segments) > 1 else ""
            segments = rest.split("/", 1) if rest else []
        if not segments or not segments[0]:
            return _Target(None, "", "service")
        share = unquote(segments[0])
        path = unquote(segments[1]).strip("/") if len(segments) > 1 else ""
        restype = request.query.get("restype")
        if restype == "share":
            return _Target(share, "", "share")
        if restype == "directory" or not path:
            return _Target(share, path, "directory")
        return _Target(share, path, "file")

    def operation(self, request: FakeRequest) -> str:
        t = self.target(request)
        m, comp = request.method, request.query.get("comp")
        if t.kind == "service":
            return "files.share.list"
        if t.kind == "share":
            return {"PUT": "files.share.create", "DELETE": "files.share.delete"}.get(m, "files.share.get")
        if t.kind == "directory":
            if comp == "list":
                return "files.list"
            if comp == "rename":
                return "files.rename"
            return {"PUT": "files.directory.create", "DELETE": "files.directory.delete"}.get(
                m, "files.directory.get"
            )
        if m in ("GET",):
            return "files.get"
        if m == "HEAD":
            return "files.get_properties"
        if m == "DELETE":
            return "files.delete"
        return {
            "range": "files.put_range",
            "properties": "files.set_properties",
            "metadata": "files.set_metadata",
            "rename": "files.rename",
        }.get(comp or "", "files.create")

    # ------------------------------------------------------------------ auth

    def authorize(self, request: FakeRequest, operation: str) -> FakeResponse | None:
        if "sig" in request.query:
            t = self.target(request)
            write_ops = {"files.create": "cw", "files.put_range": "w", "files.set_properties": "w",
                         "files.set_metadata": "w", "files.rename": "w", "files.directory.create": "cw",
                         "files.share.create": "cw"}
            if operation.endswith("delete"):
                perm = "d"
            elif operation in ("files.list", "files.share.list"):
                perm = "l"
            else:
                perm = write_ops.get(operation, "r")
            srt = {"service": "s", "share": "c"}.get(t.kind, "o")
            try:
                verify_sas(request, self.account_name, self.account_key, t.share, t.path, perm, srt)
            except SasError as exc:
                return xml_error(403, exc.code, str(exc))
            return None
        auth = request.header("authorization") or ""
        if auth.startswith("SharedKey "):
            if verify_shared_key(request, self.account_name, self.account_key):
                return None
            return xml_error(
                403,
                "AuthenticationFailed",
                "Server failed to authenticate the request. Make sure the value of Authorization header is "
                "formed correctly including the signature.",
            )
        if auth.startswith("Bearer "):
            if auth[len("Bearer ") :] == self.bearer_token:
                return None
            return xml_error(401, "InvalidAuthenticationInfo", "Authentication information is not valid.")
        return xml_error(401, "NoAuthenticationInformation", "Server failed to authenticate the request.")

    # ------------------------------------------------------------------ dispatch

    def handle(self, request: FakeRequest, operation: str) -> FakeResponse:
        t = self.target(request)
        try:
            with self._lock:
                if t.kind == "service":
                    return self._list_shares(request)
                assert t.share is not None
                share_dir = self.share_root(t.share)
                if t.kind == "share":
                    return self._share_op(request, t.share, share_dir)
                if not share_dir.is_dir():
                    return xml_error(404, "ShareNotFound", "The specified share does not exist.")
                if t.kind == "directory":
                    return self._directory_op(request, operation, t.share, t.path)
                return self._file_op(request, operation, t.share, t.path)
        except ValueError:
            return xml_error(400, "InvalidResourceName", "The specifed resource name contains invalid characters.")

    # ------------------------------------------------------------------ shares

    def _list_shares(self, request: FakeRequest) -> FakeResponse:
        if request.query.get("comp") != "list":
            return xml_error(400, "InvalidQueryParameterValue", "Unsupported service operation.")
        prefix = request.query.get("prefix", "")
        names = sorted(p.name for p in self.root.iterdir() if p.is_dir() and p.name.startswith(prefix))
        items = []
        for name in names:
            disk = self.share_root(name)
            stamp = self._stamp(name, "", disk)
            items.append(
                f"<Share><Name>{escape(name)}</Name><Properties><Last-Modified>{stamp['Last-Modified']}"
                f"</Last-Modified><Etag>{stamp['ETag']}</Etag><Quota>{self._quota.get(name, 5120)}</Quota>"
                "</Properties></Share>"
            )
        body = (
            f'<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint={quoteattr(request.base_url)}>'
            f"<Shares>{''.join(items)}</Shares><NextMarker /></EnumerationResults>"
        )
        return FakeResponse(200, {"Content-Type": "application/xml"}, body.encode())

    def _share_op(self, request: FakeRequest, share: str, share_dir: Path) -> FakeResponse:
        m = request.method
        if m == "PUT" and request.query.get("comp") is None:
            if share_dir.exists():
                return xml_error(409, "ShareAlreadyExists", "The specified share already exists.")
            self.create_share(share, int(request.header("x-ms-share-quota") or 5120))
            self._entry(share, "").metadata = _metadata_from(request)
            return FakeResponse(201, self._stamp(share, "", share_dir), b"")
        if not share_dir.is_dir():
            return xml_error(404, "ShareNotFound", "The specified share does not exist.")
        if m == "DELETE":
            shutil.rmtree(share_dir)
            for key in [k for k in self._entries if k[0] == share]:
                del self._entries[key]
            self._quota.pop(share, None)
            return FakeResponse(202, {}, b"")
        if m == "PUT" and request.query.get("comp") == "metadata":
            self._entry(share, "").metadata = _metadata_from(request)
            self._bump(share, "")
            return FakeResponse(200, self._stamp(share, "", share_dir), b"")
        if m == "PUT":
            if request.header("x-ms-share-quota"):
                self._quota[share] = int(request.header("x-ms-share-quota") or 0)
            return FakeResponse(200, self._stamp(share, "", share_dir), b"")
        headers = self._stamp(share, "", share_dir)
        headers["x-ms-share-quota"] = str(self._quota.get(share, 5120))
        headers.update(_metadata_headers(self._entry(share, "").metadata))
        return FakeResponse(200, headers, b"")

    # ------------------------------------------------------------------ directories

    def _directory_op(self, request: FakeRequest, operation: str, share: str, path: str) -> FakeResponse:
        disk = self._disk(share, path)
        m = request.method
        if operation == "files.list":
            if not disk.is_dir():
                return xml_error(404, "ResourceNotFound", "The specified resource does not exist.")
            return self._list(request, share, path, disk)
        if operation == "files.rename":
            return self._rename(request, share, path, directory=True)
        if m == "PUT" and request.query.get("comp") is None:
            if disk.exists():
                return xml_error(409, "ResourceAlreadyExists", "The specified resource already exists.")
            if not disk.parent.is_dir():
                return xml_error(404, "ParentNotFound", "The specified parent path does not exist.")
            disk.mkdir()
            self._entries[(share, path)] = _Entry(metadata=_metadata_from(request))
            return FakeResponse(201, self._dir_headers(share, path, disk), b"")
        if not disk.is_dir():
            return xml_error(404, "ResourceNotFound", "The specified resource does not exist.")
        if m == "DELETE":
            if any(disk.iterdir()):
                return xml_error(409, "DirectoryNotEmpty", "The specified directory is not empty.")
            disk.rmdir()
            self._entries.pop((share, path), None)
            return FakeResponse(202, {}, b"")
        if m == "PUT":  # comp=metadata or comp=properties
            if request.query.get("comp") == "metadata":
                self._entry(share, path).metadata = _metadata_from(request)
            self._bump(share, path)
            return FakeResponse(200, self._dir_headers(share, path, disk), b"")
        headers = self._dir_headers(share, path, disk)
        headers.update(_metadata_headers(self._entry(share, path).metadata))
        return FakeResponse(200, headers, b"")

    def _dir_headers(self, share: str, path: str, disk: Path) -> dict[str, str]:
        headers = self._stamp(share, path, disk)
        entry = self._entry(share, path)
        headers.update(
            {
                "x-ms-file-attributes": "Directory",
                "x-ms-file-id": entry.file_id,
                "x-ms-file-parent-id": "0",
                "x-ms-file-creation-time": _iso(entry.created),
                "x-ms-file-last-write-time": _iso(disk.stat().st_mtime),
                "x-ms-file-change-time": _iso(disk.stat().st_mtime),
                "x-ms-file-permission-key": "4066528134148476695*1",
                "x-ms-request-server-encrypted": "true",
            }
        )
        return headers

    def _list(self, request: FakeRequest, share: str, path: str, disk: Path) -> FakeResponse:
        prefix = request.query.get("prefix", "")
        marker = request.query.get("marker", "")
        max_results = int(request.query.get("maxresults") or 5000)
        include = request.query.get("include", "").lower()
        names = sorted(e.name for e in os.scandir(disk) if e.name.startswith(prefix) and e.name >= marker)
        page, rest = names[:max_results], names[max_results:]
        items = []
        for name in page:
            child = disk / name
            child_path = f"{path}/{name}" if path else name
            try:
                st = child.stat()
            except FileNotFoundError:
                continue  # removed by a simulated node between scandir and stat
            entry = self._entry(share, child_path)
            props = ""
            if not child.is_dir():
                props += f"<Content-Length>{st.st_size}</Content-Length>"
            if "timestamps" in include:
                props += (
                    f"<CreationTime>{_iso(entry.created)}</CreationTime><LastAccessTime>{_iso(st.st_atime)}"
                    f"</LastAccessTime><LastWriteTime>{_iso(st.st_mtime)}</LastWriteTime><ChangeTime>"
                    f"{_iso(st.st_mtime)}</ChangeTime><Last-Modified>{http_date(st.st_mtime)}</Last-Modified>"
                )
            if "etag" in include:
                props += f"<Etag>{self._etag(share, child_path, child)}</Etag>"
            tag = "Directory" if child.is_dir() else "File"
            extra = ""
            if "attributes" in include:
                extra += f"<Attributes>{'Directory' if tag == 'Directory' else 'Archive'}</Attributes>"
            items.append(
                f"<{tag}><Name>{escape(name)}</Name><FileId>{entry.file_id}</FileId>"
                f"<Properties>{props}</Properties>{extra}</{tag}>"
            )
        next_marker = f"<NextMarker>{escape(rest[0])}</NextMarker>" if rest else "<NextMarker />"
        query_echo = ""
        if prefix:
            query_echo += f"<Prefix>{escape(prefix)}</Prefix>"
        if marker:
            query_echo += f"<Marker>{escape(marker)}</Marker>"
        if "maxresults" in request.query:
            query_echo += f"<MaxResults>{max_results}</MaxResults>"
        body = (
            '<?xml version="1.0" encoding="utf-8"?><EnumerationResults '
            f"ServiceEndpoint={quoteattr(request.base_url + '/')} ShareName={quoteattr(share)} "
            f"DirectoryPath={quoteattr(path)}>{query_echo}<Entries>{''.join(items)}</Entries>"
            f"{next_marker}</EnumerationResults>"
        )
        return FakeResponse(200, {"Content-Type": "application/xml"}, body.encode())

    # ------------------------------------------------------------------ files

    def _file_op(self, request: FakeRequest, operation: str, share: str, path: str) -> FakeResponse:
        disk = self._disk(share, path)
        if operation == "files.create":
            return self._create(request, share, path, disk)
        if operation == "files.rename":
            return self._rename(request, share, path, directory=False)
        if not disk.is_file():
            if disk.is_dir() and request.method in ("GET", "HEAD"):
                return xml_error(404, "ResourceNotFound", "The specified resource does not exist.")
            code = "ParentNotFound" if not disk.parent.is_dir() else "ResourceNotFound"
            return xml_error(404, code, "The specified resource does not exist.")
        if operation == "files.put_range":
            return self._put_range(request, share, path, disk)
        if operation == "files.delete":
            disk.unlink()
            self._entries.pop((share, path), None)
            return FakeResponse(202, {}, b"")
        if operation == "files.set_properties":
            size = request.header("x-ms-content-length")
            if size is not None:
                os.truncate(disk, int(size))
            entry = self._entry(share, path)
            entry.content = {k: v for k, v in request.headers.items() if k in _CONTENT_SETTINGS}
            entry.generation += 1
            return FakeResponse(200, self._file_headers(share, path, disk, with_content=False), b"")
        if operation == "files.set_metadata":
            entry = self._entry(share, path)
            entry.metadata = _metadata_from(request)
            entry.generation += 1
            return FakeResponse(200, self._stamp(share, path, disk), b"")
        return self._get(request, share, path, disk)

    def _file_headers(self, share: str, path: str, disk: Path, with_content: bool = True) -> dict[str, str]:
        headers = self._stamp(share, path, disk)
        entry = self._entry(share, path)
        st = disk.stat()
        headers.update(
            {
                "x-ms-type": "File",
                "x-ms-file-attributes": "Archive",
                "x-ms-file-id": entry.file_id,
                "x-ms-file-parent-id": "0",
                "x-ms-file-creation-time": _iso(entry.created),
                "x-ms-file-last-write-time": _iso(st.st_mtime),
                "x-ms-file-change-time": _iso(st.st_mtime),
                "x-ms-file-permission-key": "4066528134148476695*1",
                "x-ms-server-encrypted": "true",
                "Accept-Ranges": "bytes",
            }
        )
        if with_content:
            headers["Content-Type"] = "application/octet-stream"
            for key, value in entry.content.items():
                headers[_CONTENT_SETTINGS[key]] = value
            headers.update(_metadata_headers(entry.metadata))
        return headers

    def _create(self, request: FakeRequest, share: str, path: str, disk: Path) -> FakeResponse:
        if not disk.parent.is_dir():
            return xml_error(404, "ParentNotFound", "The specified parent path does not exist.")
        if disk.is_dir():
            return xml_error(409, "ResourceAlreadyExists", "The specified resource already exists.")
        size = int(request.header("x-ms-content-length") or 0)
        with open(disk, "wb") as handle:
            handle.truncate(size)
        old = self._entries.get((share, path))
        entry = self._entries[(share, path)] = _Entry(
            generation=(old.generation + 1) if old else 0,
            content={k: v for k, v in request.headers.items() if k in _CONTENT_SETTINGS},
            metadata=_metadata_from(request),
        )
        del entry
        headers = self._file_headers(share, path, disk, with_content=False)
        headers["x-ms-request-server-encrypted"] = "true"
        return FakeResponse(201, headers, b"")

    def _put_range(self, request: FakeRequest, share: str, path: str, disk: Path) -> FakeResponse:
        rng = _parse_range(request.header("x-ms-range") or request.header("range"))
        if rng is None or rng[1] is None:
            return xml_error(400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in the correct format.")
        start, end = rng[0], rng[1]
        size = disk.stat().st_size
        if end >= size or start > end:
            return xml_error(416, "InvalidRange", "The range specified is invalid for the current size of the resource.")
        length = end - start + 1
        write = (request.header("x-ms-write") or "update").lower()
        headers: dict[str, str] = {}
        with open(disk, "r+b") as handle:
            handle.seek(start)
            if write == "clear":
                handle.write(b"\0" * length)
            else:
                if len(request.body) != length:
                    return xml_error(400, "InvalidHeaderValue", "The range length does not match the body length.")
                handle.write(request.body)
                headers["Content-MD5"] = base64.b64encode(hashlib.md5(request.body).digest()).decode()
        self._bump(share, path)
        headers.update(self._stamp(share, path, disk))
        headers["x-ms-request-server-encrypted"] = "true"
        return FakeResponse(201, headers, b"")

    def _get(self, request: FakeRequest, share: str, path: str, disk: Path) -> FakeResponse:
        size = disk.stat().st_size
        headers = self._file_headers(share, path, disk)
        entry = self._entry(share, path)
        if request.method == "HEAD":
            headers["Content-Length"] = str(size)
            return FakeResponse(200, headers, b"")
        rng = _parse_range(request.header("x-ms-range") or request.header("range"))
        if rng is None:
            return FakeResponse(200, headers, disk.read_bytes())
        start, end = rng
        if start >= size:
            return xml_error(
                416,
                "InvalidRange",
                "The range specified is invalid for the current size of the resource.",
                {"Content-Range": f"bytes */{size}"},
            )
        end = size - 1 if end is None or end >= size else end
        with open(disk, "rb") as handle:
            handle.seek(start)
            data = handle.read(end - start + 1)
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"
        whole_md5 = headers.pop("Content-MD5", None) or entry.content.get("x-ms-content-md5")
        if whole_md5:
            headers["x-ms-content-md5"] = whole_md5
        if (request.header("x-ms-range-get-content-md5") or "").lower() == "true":
            headers["Content-MD5"] = base64.b64encode(hashlib.md5(data).digest()).decode()
        return FakeResponse(206, headers, data)

    def _rename(self, request: FakeRequest, share: str, path: str, directory: bool) -> FakeResponse:
        source_url = request.header("x-ms-file-rename-source") or ""
        source_req = FakeRequest.parse("GET", source_url if "://" in source_url else request.base_url + source_url, {}, b"")
        source_req.host = source_req.host or request.host
        src = self.target(source_req)
        if src.share != share or not src.path:
            return xml_error(400, "InvalidHeaderValue", "The rename source is invalid.")
        src_disk, dst_disk = self._disk(share, src.path), self._disk(share, path)
        if not src_disk.exists() or (directory and not src_disk.is_dir()):
            return xml_error(404, "ResourceNotFound", "The specified resource does not exist.")
        if not dst_disk.parent.is_dir():
            return xml_error(404, "ParentNotFound", "The specified parent path does not exist.")
        replace = (request.header("x-ms-file-rename-replace-if-exists") or "").lower() == "true"
        if dst_disk.exists() and (not replace or dst_disk.is_dir()):
            return xml_error(409, "ResourceAlreadyExists", "The specified resource already exists.")
        os.replace(src_disk, dst_disk)
        moved = {k: v for k, v in self._entries.items() if k[0] == share and (k[1] == src.path or k[1].startswith(src.path + "/"))}
        for key, entry in moved.items():
            del self._entries[key]
            entry.generation += 1
            self._entries[(share, path + key[1][len(src.path) :])] = entry
        headers = self._dir_headers(share, path, dst_disk) if directory else self._file_headers(share, path, dst_disk, False)
        return FakeResponse(200, headers, b"")


def _metadata_from(request: FakeRequest) -> dict[str, str]:
    return {k[len("x-ms-meta-") :]: v for k, v in request.headers.items() if k.startswith("x-ms-meta-")}


def _metadata_headers(metadata: dict[str, str]) -> dict[str, str]:
    return {"x-ms-meta-" + k: v for k, v in metadata.items()}


