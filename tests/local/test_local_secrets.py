"""Secrets never reach a log, an exception, a repr or a record that get() returns."""

from __future__ import annotations

import hashlib
import logging
import stat

import pytest
from local_helpers import cluster_params, job_params

from batchai_sdk import ClusterClient, JobClient
from batchai_sdk import models as m

ACCOUNT_KEY = "S3cr3tAccountKey=="
ADMIN_PASSWORD = "Adm1n-Passw0rd-XYZ"
SECRET_VALUE = "secret-env-value-123"
SETUP_SECRET = "setup-secret-456"


def test_secrets_stay_out_of_logs_reprs_and_records(backend, shares, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="batchai_sdk")
    params = cluster_params(shares.get_share_url("afs"), 1, setup="echo setup")
    params.node_setup.mount_volumes.azure_file_shares[0].credentials.account_key = ACCOUNT_KEY
    params.user_account_settings.admin_user_password = ADMIN_PASSWORD
    params.node_setup.setup_task.secrets = [m.EnvironmentVariableWithSecretValue(name="SETUP_TOKEN", value=SETUP_SECRET)]
    params.node_setup.setup_task.command_line = 'printf %s "$SETUP_TOKEN" | sha256sum'
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", params).result()
    clusters.wait_for_nodes("c1", 1, timeout=60)
    jobs = JobClient(backend, experiment="exp")
    job_spec = job_params(cluster.id, 'printf %s "$TOKEN" | sha256sum',
                          secrets=[m.EnvironmentVariableWithSecretValue(name="TOKEN", value=SECRET_VALUE)])
    # The secrets did their job on the nodes...
    assert jobs.begin_create("j", job_spec).result().execution_state == "succeeded"
    assert list(jobs.stream_file("j"))[0].split()[0] == hashlib.sha256(SECRET_VALUE.encode()).hexdigest()
    setup_out = next((backend.share_dir("afs") / clusters.get("c1").node_setup.setup_task.std_out_err_path_suffix).glob("stdout-*"))
    assert setup_out.read_text().split()[0] == hashlib.sha256(SETUP_SECRET.encode()).hexdigest()
    # ...but are nowhere a user or a log reader can see them.
    secrets = (ACCOUNT_KEY, ADMIN_PASSWORD, SECRET_VALUE, SETUP_SECRET)
    seen = [repr(params), str(params), repr(job_spec), repr(clusters.get("c1")), repr(jobs.get("j")),
            str(clusters.get("c1").serialize(keep_readonly=True)), str(jobs.get("j").serialize(keep_readonly=True)),
            caplog.text]
    control = backend.share_dir(backend.control_share)
    records = [p for p in control.rglob("*") if p.is_file() and p.name != "secrets.json"]
    seen += [p.read_text(errors="replace") for p in records]
    seen += [p.read_text(errors="replace") for p in (backend.root / "clusters").rglob("*") if p.is_file()]
    for text in seen:
        for secret in secrets:
            assert secret not in text
    # The values the nodes need are kept in private files only.
    for p in control.rglob("secrets.json"):
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
