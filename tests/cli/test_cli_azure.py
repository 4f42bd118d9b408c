"""The Fashion-MNIST-style walkthrough on the Azure engine: the installed ``batchai`` script, signed in with a
pre-fetched ARM token (``AZURE_ACCESS_TOKEN``), against FakeAzure whose scale set instances boot the real node
agent (simulated nodes run inside this pytest process; the CLI only talks HTTPS to the fake)."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Cli, Result

pytest.importorskip("azure.storage.fileshare")
pytest.importorskip("azure.mgmt.compute")
pytest.importorskip("azure.mgmt.network")
pytest.importorskip("cryptography")

TRAIN = """\
import os, sys
for epoch in range(3):
    print(f"epoch {epoch} loss {1.0 / (epoch + 1):.3f}", flush=True)
with open(os.path.join(sys.argv[1], "model.txt"), "w") as f:
    f.write("weights")
"""


def job_spec(command: str) -> dict[str, Any]:
    return {
        "$schema": "https://raw.githubusercontent.com/Azure/BatchAI/master/schemas/2018-05-01/job.json",
        "properties": {
            "nodeCount": 1,
            "stdOutErrPathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs",
            "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs"}],
            "mountVolumes": {"azureFileShares": [{
                "accountName": "<AZURE_BATCHAI_STORAGE_ACCOUNT>",
                "azureFileUrl": "https://<AZURE_BATCHAI_STORAGE_ACCOUNT>.file.core.windows.net/scripts",
                "credentials": {"accountKey": "<AZURE_BATCHAI_STORAGE_KEY>"},
                "relativeMountPath": "scripts"}]},
            "customToolkitSettings": {"commandLine": command},
        },
    }


@pytest.fixture
def sim_fake(tmp_path: Path) -> Iterator[Any]:
    """FakeAzure whose VMSS instances boot real node agents; leaving it stops them."""
    from batchai_sdk.engines.azure.simulated import start_simulated_node
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        fake.on_instance_running(lambda info: start_simulated_node(info, fake, work_root=tmp_path / "nodes"))
        yield fake


def azure_env(fake: Any) -> dict[str, str]:
    return {
        "BATCHAI_ENGINE": "azure",
        "AZURE_SUBSCRIPTION_ID": fake.subscription_id,
        "AZURE_RESOURCE_GROUP": fake.resource_group,
        "AZURE_LOCATION": fake.location,
        "AZURE_BATCHAI_STORAGE_ACCOUNT": fake.account_name,
        "AZURE_BATCHAI_STORAGE_KEY": fake.account_key,
        "AZURE_ACCESS_TOKEN": fake.state.token,
        "BATCHAI_ARM_ENDPOINT": fake.arm_url,
        "BATCHAI_FILES_ENDPOINT": fake.files_url,
        "REQUESTS_CA_BUNDLE": fake.ca_bundle,
        "BATCHAI_AZURE_POLLING_INTERVAL": "0.1",
    }


class AzureCli:
    """``cli`` with the fake's environment; remembers every output so secrets can be looked for at the end."""

    def __init__(self, cli: Cli, env: dict[str, str]) -> None:
        self.cli, self.env = cli, env
        self.results: list[Result] = []

    def __call__(self, *args: str, **kwargs: Any) -> Result:
        result = self.cli(*args, env=self.env, **kwargs)
        self.results.append(result)
        return result

    def assert_no_secrets(self, *secrets: str) -> None:
        for result in self.results:
            for secret in secrets:
                assert secret not in result.out and secret not in result.err


def _jwt(claims: dict[str, Any]) -> str:
    def part(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    return f"{part({'alg': 'RS256', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJl"


def test_static_token_credential_expiry_and_repr() -> None:
    from batchai_sdk.engines.azure.credentials import StaticTokenCredential

    jwt = _jwt({"aud": "https://management.azure.com/", "exp": 1_900_000_123})
    token = StaticTokenCredential(jwt + "\n").get_token("https://management.azure.com/.default")
    assert token.token == jwt and token.expires_on == 1_900_000_123
    opaque = StaticTokenCredential("not-a-jwt-secret")
    assert abs(opaque.get_token("scope").expires_on - (time.time() + 3600)) < 60
    bad_claims = StaticTokenCredential(_jwt({"exp": "tomorrow"}))
    assert abs(bad_claims.expires_on - (time.time() + 3600)) < 60
    assert "not-a-jwt-secret" not in repr(opaque) and jwt not in repr(StaticTokenCredential(jwt))
    with pytest.raises(ValueError):
        StaticTokenCredential("  ")


def test_refused_token_and_bad_setting_are_one_line_errors(cli: Cli) -> None:
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        env = {**azure_env(fake), "AZURE_ACCESS_TOKEN": "expired-token-0123456789"}
        refused = cli("cluster", "create", "-n", "nc6", "-s", "STANDARD_NC6", "-t", "1", "-u", "me",
                      "-p", "Pa55word!x", env=env, ok=False)
        assert refused.rc == 1 and "InvalidAuthenticationToken" in refused.err
        assert len(refused.err.strip().splitlines()) == 1
        bad = cli("cluster", "list", env={**azure_env(fake), "BATCHAI_AZURE_POLLING_INTERVAL": "soon"}, ok=False)
        assert bad.rc == 1 and "BATCHAI_AZURE_POLLING_INTERVAL" in bad.err
        for result in (refused, bad):
            for secret in ("expired-token-0123456789", fake.state.token, fake.account_key):
                assert secret not in result.out + result.err


@pytest.mark.slow
def test_walkthrough_on_azure(cli: Cli, sim_fake: Any, tmp_path: Path) -> None:
    fake = sim_fake
    az = AzureCli(cli, azure_env(fake))
    src = tmp_path / "fashion"
    src.mkdir()
    (src / "train.py").write_text(TRAIN)
    train = "python $AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/fashion/train.py $AZ_BATCHAI_OUTPUT_MODEL"
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(job_spec(train), indent=2))
    failing_file = tmp_path / "fail.json"
    failing_file.write_text(json.dumps(job_spec("echo giving up; exit 3")))
    vmss = ""
    try:
        az("share", "create", "-n", "afs")
        az("share", "create", "-n", "scripts")
        up = json.loads(az("share", "upload", "-n", "scripts", str(src), "--no-progress").out)
        assert up["transferred"] == 1
        assert (fake.share_root("scripts") / "fashion" / "train.py").read_text() == TRAIN

        created = json.loads(az("cluster", "create", "-n", "nc6", "-s", "STANDARD_NC6", "-i", "UbuntuLTS",
                                "-t", "2", "--afs-name", "afs", "-u", "me", "-p", "Pa55word!x", timeout=120).out)
        assert created["name"] == "nc6" and created["scaleSettings"]["manual"]["targetNodeCount"] == 2
        assert created["virtualMachineConfiguration"]["imageReference"]["publisher"] == "Canonical"
        [vmss] = {r.url.split("virtualMachineScaleSets/")[1].split("?")[0].split("/")[0]
                  for r in fake.requests if r.operation == "arm.vmss.put"}
        assert len(fake.node_handles(vmss)) == 2

        job = json.loads(az("job", "create", "-n", "fashion1", "-c", "nc6", "-f", str(job_file)).out)
        assert job["cluster"]["id"].endswith("/workspaces/default/clusters/nc6")
        assert job["mountVolumes"]["azureFileShares"][0]["accountName"] == fake.account_name

        streamed = az("job", "file", "stream", "-j", "fashion1", "-f", "stdout.txt", timeout=120)
        assert streamed.out.splitlines() == ["epoch 0 loss 1.000", "epoch 1 loss 0.500", "epoch 2 loss 0.333"], (
            streamed.err, az("job", "show", "-n", "fashion1").out)
        assert az("job", "wait", "-n", "fashion1", timeout=120).rc == 0

        table = az("job", "file", "list", "-j", "fashion1", "-o", "table").out.splitlines()
        assert table[0].split() == ["Name", "Type", "Size", "Modified"]
        assert {"stdout.txt", "stderr.txt"} <= {line.split()[0] for line in table[2:]}
        models = json.loads(az("job", "file", "list", "-j", "fashion1", "-d", "MODEL").out)
        assert [m["name"] for m in models] == ["model.txt"]

        out_dir = tmp_path / "downloaded"
        segment = job["jobOutputDirectoryPathSegment"]
        az("share", "download", "-n", "afs", "-p", f"{segment}/outputs", str(out_dir), "--no-progress")
        assert (out_dir / "model.txt").read_text() == "weights"

        az("job", "create", "-n", "broken", "-c", "nc6", "-f", str(failing_file))
        assert az("job", "wait", "-n", "broken", ok=False, timeout=120).rc == 3
        assert az("job", "file", "stream", "-j", "broken", "-f", "stdout.txt").out == "giving up\n"

        resized = json.loads(az("cluster", "resize", "-n", "nc6", "-t", "1", timeout=120).out)
        assert resized["scaleSettings"]["manual"]["targetNodeCount"] == 1
        deadline = time.monotonic() + 30
        while len(fake.node_handles(vmss)) != 1 and time.monotonic() < deadline:
            # Azure finishes removing the instance whether or not the exited CLI polls; the fake only on a poll.
            fake.complete_operations()
            time.sleep(0.1)
        assert len(fake.node_handles(vmss)) == 1
    finally:
        deleted = cli("cluster", "delete", "-n", "nc6", "-y", env=az.env, ok=False, timeout=120)
        az.results.append(deleted)
    assert deleted.rc == 0, deleted.err
    assert json.loads(az("cluster", "list").out) == []
    assert not fake.node_handles(vmss)
    az.assert_no_secrets(fake.account_key, fake.state.token, "Pa55word!x")
