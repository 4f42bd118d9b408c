"""The unmodified azure-storage-file-share client against FakeAzure and mock_azure."""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from azure.core.exceptions import (
    ClientAuthenticationError,
    HttpResponseError,
    ResourceExistsError,
    ResourceModifiedError,
    ResourceNotFoundError,
    ServiceResponseError,
)
from azure.storage.fileshare import (
    AccountSasPermissions,
    LinearRetry,
    ResourceTypes,
    ShareClient,
    ShareServiceClient,
    generate_account_sas,
    generate_file_sas,
)

from batchai_sdk.testing import FakeAzure


@pytest.fixture(params=["fake", "mock"])
def azure(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue("fake_azure" if request.param == "fake" else "mock_azure")


def service(fake: Any, credential: Any = None, **kw: Any) -> ShareServiceClient:
    extra = {"connection_verify": fake.ca_bundle} if fake.ca_bundle else {}
    kw.setdefault("retry_policy", LinearRetry(backoff=0, random_jitter_range=0))
    cred = credential if credential is not None else {"account_name": fake.account_name, "account_key": fake.account_key}
    return ShareServiceClient(fake.files_url, credential=cred, **extra, **kw)


def share(fake: Any, name: str = "data", **kw: Any) -> ShareClient:
    client = service(fake, **kw).get_share_client(name)
    client.create_share()
    return client


def test_parallel_upload_download_byte_identical_and_ranges(azure: Any) -> None:
    client = share(azure)
    client.create_directory("d1")
    data = os.urandom(40 * 1024 * 1024 + 123)
    f = client.get_file_client("d1/big.bin")
    f.upload_file(data, max_concurrency=4)
    assert f.download_file(max_concurrency=4).readall() == data
    assert f.download_file(offset=5_000_000, length=1234).readall() == data[5_000_000:5_001_234]
    assert f.get_file_properties().size == len(data)
    # The bytes are on disk where a simulated node would see them.
    assert (azure.share_root("data") / "d1" / "big.bin").read_bytes() == data


def test_empty_file_and_properties(azure: Any) -> None:
    client = share(azure)
    f = client.get_file_client("empty.txt")
    f.create_file(0)
    assert f.download_file().readall() == b""
    etag = f.get_file_properties().etag
    f.upload_file(b"hello", metadata={"k": "v"})
    props = f.get_file_properties()
    assert props.etag != etag and props.metadata == {"k": "v"}
    from azure.storage.fileshare import ContentSettings

    f.set_http_headers(ContentSettings(content_type="text/plain"))
    assert f.get_file_properties().content_settings.content_type == "text/plain"
    f.set_file_metadata({"x": "1"})
    assert f.get_file_properties().metadata == {"x": "1"}
    f.rename_file("renamed.txt")
    assert client.get_file_client("renamed.txt").download_file().readall() == b"hello"
    assert not f.exists()


def test_etag_change_mid_download_is_detected(fake_azure: FakeAzure) -> None:
    client = share(fake_azure, max_single_get_size=1024 * 1024, max_chunk_get_size=1024 * 1024)
    f = client.get_file_client("f.bin")
    f.upload_file(os.urandom(4 * 1024 * 1024))
    downloader = f.download_file(max_concurrency=1)  # only the first 1 MiB chunk is fetched now
    # Another writer changes the file between chunk reads.
    f.upload_range(b"x" * 10, offset=0, length=10)
    with pytest.raises(ResourceModifiedError):
        downloader.readall()


def test_listing_pages_and_prefix(azure: Any) -> None:
    client = share(azure)
    for i in range(7):
        client.get_file_client(f"f{i}.txt").upload_file(b"x" * i)
    client.create_directory("sub")
    names = [item["name"] for item in client.list_directories_and_files(results_per_page=2)]
    # The SDK yields a page's directories before its files; the pages follow NextMarker in name order.
    assert sorted(names) == ["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt", "f6.txt", "sub"]
    assert len(names) == 8
    pages = [r for r in azure.requests if r.operation == "files.list"]
    assert len(pages) == 4
    assert [i["name"] for i in client.list_directories_and_files(name_starts_with="f6")] == ["f6.txt"]


def test_errors_map_to_azure_core_exceptions(azure: Any) -> None:
    client = share(azure)
    with pytest.raises(ResourceExistsError):
        client.create_share()
    with pytest.raises(ResourceNotFoundError) as missing:
        client.get_file_client("nope.txt").download_file()
    assert missing.value.error_code == "ResourceNotFound"
    with pytest.raises(ResourceNotFoundError) as parent:
        client.get_file_client("no/such/dir.txt").create_file(1)
    assert parent.value.error_code == "ParentNotFound"
    with pytest.raises(ResourceNotFoundError) as share_missing:
        service(azure).get_share_client("ghost").get_file_client("a").create_file(1)
    assert share_missing.value.error_code == "ShareNotFound"
    azure.fail_next("files.create", status=500, error_code="InternalError", count=5)
    with pytest.raises(HttpResponseError) as err:
        client.get_file_client("a.txt").create_file(1)
    assert err.value.error_code == "InternalError"


def test_transient_faults_are_retried(azure: Any) -> None:
    client = share(azure)
    azure.fail_next("files.put_range", status=503)
    azure.fail_next("files.create", status=500)
    client.get_file_client("a.txt").upload_file(b"abc")
    assert client.get_file_client("a.txt").download_file().readall() == b"abc"
    assert [r.status for r in azure.requests if r.operation == "files.put_range"] == [503, 201]


def test_dropped_connection_surfaces(azure: Any) -> None:
    client = share(azure, retry_policy=LinearRetry(retry_total=0, backoff=0, random_jitter_range=0))
    client.get_file_client("x").upload_file(b"1")
    azure.fail_next("files.get_properties", status="drop")
    with pytest.raises(ServiceResponseError):
        client.get_file_client("x").get_file_properties()
    assert client.get_file_client("x").get_file_properties().size == 1


def test_shared_key_with_wrong_key_is_rejected(azure: Any) -> None:
    import base64

    bad = {"account_name": azure.account_name, "account_key": base64.b64encode(b"wrong").decode()}
    with pytest.raises(ClientAuthenticationError) as err:
        service(azure, credential=bad).get_share_client("data").create_share()
    assert err.value.error_code == "AuthenticationFailed"


def test_sas_expiry_and_permissions(azure: Any) -> None:
    client = share(azure)
    client.get_file_client("a.txt").upload_file(b"data")
    soon = datetime.now(timezone.utc) + timedelta(hours=1)
    read_sas = generate_file_sas(azure.account_name, "data", ["a.txt"], azure.account_key, permission="r", expiry=soon)
    reader = service(azure, credential=read_sas).get_share_client("data").get_file_client("a.txt")
    assert reader.download_file().readall() == b"data"
    with pytest.raises(HttpResponseError) as denied:
        reader.upload_range(b"zz", offset=0, length=2)
    assert denied.value.error_code == "AuthorizationPermissionMismatch"
    past = datetime.now(timezone.utc) - timedelta(minutes=5)
    old = generate_file_sas(azure.account_name, "data", ["a.txt"], azure.account_key, permission="r", expiry=past)
    with pytest.raises(ClientAuthenticationError):
        service(azure, credential=old).get_share_client("data").get_file_client("a.txt").download_file()
    account_sas = generate_account_sas(azure.account_name, azure.account_key, ResourceTypes(container=True, object=True),
                                       AccountSasPermissions(read=True, write=True, create=True, list=True), soon)
    writer = service(azure, credential=account_sas).get_share_client("data")
    writer.get_file_client("b.txt").upload_file(b"ok")
    assert [i["name"] for i in writer.list_directories_and_files()] == ["a.txt", "b.txt"]


def test_no_request_leaves_loopback(fake_azure: FakeAzure, monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib3.util.connection

    def guard(original: Any) -> Any:
        def guarded(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
            if address[0] not in ("127.0.0.1", "localhost"):
                raise OSError(f"test refused a connection to {address[0]}")
            return original(address, *args, **kwargs)

        return guarded

    monkeypatch.setattr(socket, "create_connection", guard(socket.create_connection))
    monkeypatch.setattr(urllib3.util.connection, "create_connection", guard(urllib3.util.connection.create_connection))
    client = share(fake_azure)
    client.get_file_client("a.txt").upload_file(b"x")
    assert fake_azure.requests and all(r.host.startswith("127.0.0.1:") for r in fake_azure.requests)


def test_fake_stops_cleanly() -> None:
    with FakeAzure() as fake:
        root = fake.share_root("data").parent
        share(fake).get_file_client("a").upload_file(b"1")
        port = fake.port
    assert not root.exists()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
