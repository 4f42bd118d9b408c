"""Interactive use in a real terminal (tmux), the reference page, scale settings, the azure engine."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import SCRIPT, has_tmux

REPO = Path(__file__).resolve().parents[2]


def _pane(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout


@pytest.mark.slow
@pytest.mark.skipif(not has_tmux(), reason="tmux is not installed (apt-get install tmux)")
def test_file_stream_in_a_terminal_follows_until_the_job_ends(cli, tmp_path: Path) -> None:
    job = tmp_path / "job.json"
    job.write_text(json.dumps({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs",
                                              "customToolkitSettings": {"commandLine":
                                                  "for i in 1 2 3; do echo tick-$i; sleep 0.7; done"}}}))
    cli("share", "create", "-n", "afs")
    cli("cluster", "create", "-n", "tty", "-s", "x", "-t", "1", "--afs-name", "afs")
    session = f"batchai-test-{time.monotonic_ns()}"
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in cli.env.items() if k in ("BATCHAI_HOME", "BATCHAI_CONFIG", "HOME"))
    try:
        cli("job", "create", "-n", "ticker", "-c", "tty", "-f", str(job))
        subprocess.run(["tmux", "new-session", "-d", "-x", "200", "-y", "50", "-s", session, "bash", "--norc"], check=True)
        subprocess.run(["tmux", "send-keys", "-t", session,
                        f"env {env} {SCRIPT} job file stream -j ticker; echo \"STREAM-EXIT\"=$?", "Enter"], check=True)
        deadline = time.monotonic() + 30
        seen_partial = False
        while time.monotonic() < deadline:
            screen = _pane(session)
            if "tick-1" in screen and "STREAM-EXIT=" not in screen:
                seen_partial = True  # lines appear while the job still runs
            if "STREAM-EXIT=" in screen:
                break
            time.sleep(0.1)
        screen = _pane(session)
        assert seen_partial, screen
        assert all(f"tick-{i}" in screen for i in (1, 2, 3)), screen
        assert "STREAM-EXIT=0" in screen, screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        cli("cluster", "delete", "-n", "tty", "-y", ok=False)


def test_reference_page_matches_the_cli() -> None:
    gen = REPO / "docs" / "gen_cli_reference.py"
    result = subprocess.run([sys.executable, str(gen), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("target", "lo", "hi", "expect"), [
    (2, None, None, {"manual": {"targetNodeCount": 2}}),
    (None, 3, 3, {"manual": {"targetNodeCount": 3}}),
    (3, 3, 3, {"manual": {"targetNodeCount": 3}}),
    (1, 0, 4, {"autoScale": {"minimumNodeCount": 0, "maximumNodeCount": 4, "initialNodeCount": 1}}),
    (None, 1, 4, {"autoScale": {"minimumNodeCount": 1, "maximumNodeCount": 4, "initialNodeCount": 0}}),
])
def test_scale_settings_resolution_like_az(target, lo, hi, expect) -> None:  # type: ignore[no-untyped-def]
    from batchai_sdk.cli.cluster import scale_settings

    wire = scale_settings(target, lo, hi, None).serialize()
    for kind, fields in expect.items():
        for k, v in fields.items():
            assert wire[kind][k] == v


@pytest.mark.parametrize(("target", "lo", "hi"), [(None, None, None), (1, 2, None), (1, 5, 2)])
def test_scale_settings_refused(target, lo, hi) -> None:  # type: ignore[no-untyped-def]
    from batchai_sdk.cli.cluster import scale_settings
    from batchai_sdk.cli.errors import CLIError

    with pytest.raises(CLIError):
        scale_settings(target, lo, hi, None)


def test_azure_engine_with_fake_azure(cli) -> None:
    try:
        import batchai_sdk.engines.azure as azure_engine
    except ImportError as exc:
        pytest.skip(f"the azure engine does not exist yet ({exc})")
    if not hasattr(azure_engine, "AzureBackend"):
        pytest.skip("batchai_sdk.engines.azure has no AzureBackend yet")
    from batchai_sdk.testing import FakeAzure

    with FakeAzure() as fake:
        env = {"BATCHAI_ENGINE": "azure", "AZURE_SUBSCRIPTION_ID": fake.subscription_id,
               "AZURE_RESOURCE_GROUP": fake.resource_group, "AZURE_LOCATION": fake.location,
               "AZURE_BATCHAI_STORAGE_ACCOUNT": fake.account_name, "AZURE_BATCHAI_STORAGE_KEY": fake.account_key,
               "BATCHAI_ARM_ENDPOINT": fake.arm_url, "BATCHAI_FILES_ENDPOINT": fake.files_url,
               "REQUESTS_CA_BUNDLE": fake.ca_bundle}
        created = json.loads(cli("share", "create", "-n", "afs", env=env).out)
        assert created["name"] == "afs"
        listed = cli("share", "list", "-o", "tsv", env=env).out
        assert "afs\t" in listed and fake.account_key not in listed
