"""A client killed mid-upload: rerunning the same upload completes, the share matches the source byte for
byte, and no temporary file is left visible in listings. Both engines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from fault_helpers import digests, faulty_azure_backend, make_tree

#: Uploads argv[1] to share "data" under "tree", slowed per chunk (a slow link) so it can be killed mid-file.
UPLOADER = textwrap.dedent("""\
    import json, os, sys, time
    from batchai_sdk import FileShareClient
    cfg = json.loads(os.environ["FAULT_UPLOAD_CFG"])
    if cfg["engine"] == "local":
        from batchai_sdk import LocalBackend
        backend = LocalBackend(cfg["root"])
    else:
        from batchai_sdk.engines.azure import AzureBackend
        from batchai_sdk.testing._credential import FakeTokenCredential
        backend = AzureBackend(cfg["sub"], cfg["rg"], cfg["location"], storage_account=cfg["account"],
                               storage_account_key=cfg["key"], credential=FakeTokenCredential(cfg["token"]),
                               arm_endpoint=cfg["arm"], files_endpoint=cfg["files"], connection_verify=cfg["ca"],
                               retry_wait=0)
    store_upload = backend.store.upload_file

    def slow_upload(share, path, local_path, **kw):
        def progress(n):
            time.sleep(0.01)
        kw["progress"] = progress
        return store_upload(share, path, local_path, **kw)

    backend.store.upload_file = slow_upload
    FileShareClient(backend).upload_directory("data", sys.argv[1], "tree", max_concurrency=2)
    print("finished", flush=True)
""")


def _kill_mid_upload(src: Path, dest: Path, cfg: dict[str, Any], after: int) -> None:
    env = {**os.environ, "FAULT_UPLOAD_CFG": json.dumps(cfg)}
    proc = subprocess.Popen([sys.executable, "-c", UPLOADER, str(src)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if dest.is_dir() and sum(1 for p in dest.rglob("*") if p.is_file()) >= after:
                break
            time.sleep(0.01)
        assert proc.poll() is None, f"the upload ended before the kill: {proc.communicate()}"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.communicate()
    assert digests(dest) != digests(src), "the kill came too late to interrupt anything"


def _visible(shares: Any, share: str) -> list[str]:
    return sorted(shares.walk(share, ""))


def _check_rerun(shares: Any, src: Path, dest: Path) -> None:
    summary = shares.upload_directory("data", src, "tree")
    assert summary.transferred >= 1
    assert digests(dest) == digests(src)
    visible = _visible(shares, "data")
    assert visible == sorted(f"tree/{rel}" for rel in digests(src)), "temporary files are visible"
    assert shares.upload_directory("data", src, "tree").transferred == 0


def _tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "src", files=24, big=3 * 1024 * 1024, seed=11)


@pytest.mark.slow
def test_local_upload_killed_and_rerun(backend: Any, local_root: Path, tmp_path: Path) -> None:
    from batchai_sdk import FileShareClient

    shares = FileShareClient(backend)
    shares.create_share("data")
    src = _tree(tmp_path)
    dest = backend.share_dir("data") / "tree"
    _kill_mid_upload(src, dest, {"engine": "local", "root": str(local_root)}, after=6)
    _check_rerun(shares, src, dest)


@pytest.mark.slow
def test_azure_upload_killed_and_rerun(tmp_path: Path) -> None:
    pytest.importorskip("azure.storage.fileshare")
    from batchai_sdk import FileShareClient
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        backend = faulty_azure_backend(fake)
        try:
            shares = FileShareClient(backend)
            shares.create_share("data")
            src = _tree(tmp_path)
            cfg = {"engine": "azure", "sub": fake.subscription_id, "rg": fake.resource_group,
                   "location": fake.location, "account": fake.account_name, "key": fake.account_key,
                   "token": fake.state.token, "arm": fake.arm_url, "files": fake.files_url, "ca": fake.ca_bundle}
            dest = fake.share_root("data") / "tree"
            _kill_mid_upload(src, dest, cfg, after=6)
            _check_rerun(shares, src, dest)
        finally:
            backend.close()
