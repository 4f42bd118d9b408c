"""Exit codes, one-line errors, secrets, confirmation, engine selection."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _job_file(tmp_path: Path, command: str) -> Path:
    path = tmp_path / "job.json"
    path.write_text(json.dumps({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs",
                                               "customToolkitSettings": {"commandLine": command}}}))
    return path


@pytest.fixture
def cluster(cli):  # type: ignore[no-untyped-def]
    cli("share", "create", "-n", "afs")
    cli("cluster", "create", "-n", "c1", "-s", "STANDARD_D1", "-t", "1", "--afs-name", "afs")
    yield "c1"
    cli("cluster", "delete", "-n", "c1", "-y", ok=False)


def test_job_wait_exits_with_the_jobs_exit_code(cli, cluster, tmp_path: Path) -> None:
    cli("job", "create", "-n", "three", "-c", cluster, "-f", str(_job_file(tmp_path, "echo bye; exit 3")))
    waited = cli("job", "wait", "-n", "three", ok=False)
    assert waited.rc == 3
    assert "failed" in waited.err and "Traceback" not in waited.err
    cli("job", "create", "-n", "ok", "-c", cluster, "-f", str(_job_file(tmp_path, "true")))
    assert cli("job", "wait", "-n", "ok").rc == 0


def test_terminated_job_without_exit_code_waits_non_zero(cli, cluster, tmp_path: Path) -> None:
    cli("job", "create", "-n", "long", "-c", cluster, "-f", str(_job_file(tmp_path, "sleep 60")))
    cli("job", "terminate", "-n", "long", "-y")
    assert cli("job", "wait", "-n", "long", ok=False).rc != 0


def _one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    assert result.rc == 1, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("error: ") and "Traceback" not in result.err
    return lines[0]


def test_unknown_cluster_names_it_and_the_fix(cli, tmp_path: Path) -> None:
    line = _one_line_error(cli("job", "create", "-n", "j", "-c", "nc6", "-f", str(_job_file(tmp_path, "true")), ok=False))
    assert "cluster 'nc6' not found in workspace 'default'" in line and "batchai cluster create -n nc6" in line
    line = _one_line_error(cli("cluster", "show", "-n", "nope", "-w", "ws1", ok=False))
    assert "'nope'" in line and "'ws1'" in line


def test_bad_json_reports_line_and_column(cli, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "properties": {\n    "nodeCount": 1,\n  }\n}\n')
    line = _one_line_error(cli("job", "create", "-n", "j", "-c", "c", "-f", str(bad), ok=False))
    assert "broken.json:4:3" in line


def test_invalid_names_are_refused(cli) -> None:
    line = _one_line_error(cli("cluster", "create", "-n", "bad name!", "-s", "x", "-t", "1", ok=False))
    assert "'bad name!'" in line and "letters, digits" in line
    line = _one_line_error(cli("share", "create", "-n", "Bad_Share", ok=False))
    assert "Bad_Share" in line


def test_usage_errors_exit_2(cli) -> None:
    assert cli("job", "wait", ok=False).rc == 2
    assert cli("cluster", "create", "-n", "c", "--min", "1", "-s", "x", ok=False).rc == 1  # --min without --max


def test_debug_shows_the_traceback(cli) -> None:
    result = cli("--debug", "cluster", "show", "-n", "nope", ok=False)
    assert result.rc == 1 and "Traceback" in result.err


def test_delete_without_terminal_and_without_yes_refuses(cli, cluster) -> None:
    line = _one_line_error(cli("cluster", "delete", "-n", cluster, ok=False))
    assert "-y/--yes" in line
    assert json.loads(cli("cluster", "show", "-n", cluster).out)["name"] == cluster


@pytest.mark.slow
def test_storage_key_never_printed(cli, tmp_path: Path) -> None:
    secret = "SECRETKEY0123456789=="
    cli("share", "create", "-n", "afs")
    outputs = [cli("cluster", "create", "-n", "c9", "-s", "x", "--min", "0", "--max", "1", "-p", "Pa55word!x", "--afs-name", "afs",
                   "--storage-account-name", "batchailocal", "--storage-account-key", secret)]
    try:
        job = _job_file(tmp_path, "true")
        outputs.append(cli("job", "create", "-n", "j", "-c", "c9", "-f", str(job), "--afs-name", "afs",
                           "--storage-account-key", secret, "--storage-account-name", "batchailocal"))
        for fmt in ("json", "table", "tsv"):
            outputs += [cli("cluster", "show", "-n", "c9", "-o", fmt), cli("cluster", "list", "-o", fmt),
                        cli("job", "show", "-n", "j", "-o", fmt), cli("job", "list", "-o", fmt)]
        outputs.append(cli("--debug", "cluster", "show", "-n", "c9"))
        for r in outputs:
            assert secret not in r.out and secret not in r.err
            assert "Pa55word!x" not in r.out and "Pa55word!x" not in r.err
        shown = json.loads(cli("cluster", "show", "-n", "c9").out)
        assert shown["nodeSetup"]["mountVolumes"]["azureFileShares"][0]["accountName"] == "batchailocal"
    finally:
        cli("job", "delete", "-n", "j", "-y", ok=False)
        cli("cluster", "delete", "-n", "c9", "-y", ok=False)


def test_engine_from_config_file_and_environment(cli) -> None:
    Path(cli.env["BATCHAI_CONFIG"]).write_text("[defaults]\nengine = azure\n")
    line = _one_line_error(cli("cluster", "list", ok=False))
    assert "AZURE_SUBSCRIPTION_ID" in line and "AZURE_RESOURCE_GROUP" in line
    # The environment beats the config file, the option beats both.
    assert cli("cluster", "list", env={"BATCHAI_ENGINE": "local"}).out.strip() == "[]"
    assert cli("--engine", "local", "cluster", "list").out.strip() == "[]"
    Path(cli.env["BATCHAI_CONFIG"]).write_text("[defaults]\nengine = local\noutput = table\n")
    assert cli("cluster", "list").out.splitlines()[0].split()[:2] == ["Name", "Resource"]


def test_help_imports_no_azure_and_no_msrest() -> None:
    probe = (
        "import sys\nfrom batchai_sdk.cli import main\n"
        "for argv in (['--help'], ['job', '--help'], ['cluster', 'create', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "print([m for m in sys.modules if m.split('.')[0] in ('azure', 'msrest', 'isodate', 'requests')"
        " or m.startswith(('batchai_sdk.models', 'batchai_sdk.clients', 'batchai_sdk.engines'))])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
