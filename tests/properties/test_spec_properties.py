"""Property-based tests over job and cluster specs: a ValidationError or success, never an unhandled
exception or a partial write."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from batchai_sdk import ClusterClient, JobClient, LocalBackend, ValidationError
from batchai_sdk import models as m
from batchai_sdk.engines.base import ProvisioningStatus


class QueueOnlyBackend(LocalBackend):
    """A local engine whose clusters get no nodes: submitted jobs stay queued, nothing runs."""

    def provision_cluster(self, workspace: str, cluster: str, record: dict[str, Any]) -> None:
        pass

    def deprovision_cluster(self, workspace: str, cluster: str, *, wait: bool = True) -> None:
        pass

    def provisioning_status(self, workspace: str, cluster: str, record: dict[str, Any]) -> ProvisioningStatus:
        return ProvisioningStatus(state="succeeded", target_node_count=0)


ODD = st.sampled_from(["", ".", "..", "../x", "a/b", "/abs", "a b", "x" * 65, "ok_name", "ok-2", "é", "a\nb", "$X", "AZ_BATCHAI_X"])
TEXT = st.one_of(ODD, st.text(min_size=0, max_size=12))
PATHS = st.one_of(
    st.sampled_from(["$AZ_BATCHAI_MOUNT_ROOT/afs", "$AZ_BATCHAI_MOUNT_ROOT/afs/x", "/tmp/abs", "../up", "relative",
                     "$AZ_BATCHAI_JOB_MOUNT_ROOT/j", ""]),
    st.text(max_size=10),
)
IDS = st.one_of(st.sampled_from(["MODEL", "DATA", "stdouterr", "bad-id", "1X", "_ok", "", "A" * 70]), st.text(max_size=6))


GOOD_NAME = st.from_regex(r"[A-Za-z0-9_-]{1,20}", fullmatch=True)
GOOD_ID = st.from_regex(r"[A-Z][A-Z0-9_]{0,5}", fullmatch=True)
GOOD_PATH = st.sampled_from(["$AZ_BATCHAI_MOUNT_ROOT/afs", "$AZ_BATCHAI_MOUNT_ROOT/afs/sub"])


@st.composite
def good_job_wire(draw: st.DrawFn, cluster_id: str) -> dict[str, Any]:
    """Specs that are valid unless a drawn detail breaks them (a duplicate id, say)."""
    ids = draw(st.lists(GOOD_ID, max_size=3))
    return {"properties": {
        "cluster": {"id": cluster_id},
        "nodeCount": draw(st.integers(1, 4)),
        "stdOutErrPathPrefix": draw(GOOD_PATH),
        "customToolkitSettings": {"commandLine": "true"},
        "outputDirectories": [{"id": i, "pathPrefix": draw(GOOD_PATH)} for i in ids],
        "environmentVariables": [{"name": "V_" + i, "value": draw(st.text(max_size=8))} for i in ids],
        "secrets": [{"name": "S_" + i, "value": draw(st.text(min_size=1, max_size=8))} for i in ids],
        "schedulingPriority": draw(st.sampled_from(["low", "normal", "high"])),
    }}


@st.composite
def job_wire(draw: st.DrawFn, cluster_id: str) -> dict[str, Any]:
    if draw(st.booleans()):
        return draw(good_job_wire(cluster_id))
    props: dict[str, Any] = {"cluster": {"id": draw(st.sampled_from([cluster_id, "", "nope", cluster_id]))}}
    if draw(st.booleans()):
        props["nodeCount"] = draw(st.integers(-2, 6))
    if draw(st.booleans()):
        props["stdOutErrPathPrefix"] = draw(PATHS)
    toolkits = {
        "customToolkitSettings": {"commandLine": "true"},
        "pyTorchSettings": {"pythonScriptFilePath": draw(PATHS), "processCount": draw(st.integers(-1, 5))},
        "tensorFlowSettings": {"pythonScriptFilePath": draw(PATHS), "workerCount": draw(st.integers(-1, 5)),
                               "parameterServerCount": draw(st.integers(-1, 5))},
        "customMpiSettings": {"commandLine": "true", "processCount": draw(st.integers(-1, 5))},
        "caffe2Settings": {"pythonScriptFilePath": draw(PATHS)},
    }
    for key in draw(st.lists(st.sampled_from(sorted(toolkits)), max_size=2, unique=True)):
        props[key] = toolkits[key]
    props["inputDirectories"] = draw(st.lists(st.fixed_dictionaries({"id": IDS, "path": PATHS}), max_size=3))
    props["outputDirectories"] = draw(st.lists(st.fixed_dictionaries(
        {"id": IDS, "pathPrefix": PATHS, "pathSuffix": st.one_of(st.none(), PATHS)}), max_size=3))
    props["environmentVariables"] = draw(st.lists(st.fixed_dictionaries({"name": TEXT, "value": TEXT}), max_size=3))
    props["secrets"] = draw(st.lists(st.fixed_dictionaries({"name": TEXT, "value": TEXT}), max_size=2))
    if draw(st.booleans()):
        props["containerSettings"] = {"imageSourceRegistry": {"image": draw(st.sampled_from(["", "ubuntu", "x/y:1"]))}}
    if draw(st.booleans()):
        props["schedulingPriority"] = draw(st.sampled_from(["low", "normal", "high", "urgent"]))
    return {"properties": props}


def _snapshot(backend: LocalBackend) -> list[str]:
    root = backend.share_dir(backend.control_share)
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    backend = QueueOnlyBackend(tmp_path_factory.mktemp("props") / "root")
    backend.store.create_share("afs")
    clusters = ClusterClient(backend)
    cluster = clusters.begin_create("c1", m.ClusterCreateParameters(
        vm_size="STANDARD_D2", user_account_settings=m.UserAccountSettings(admin_user_name="u"),
        scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=4)))).result()
    return backend, cluster.id


_counter = itertools.count()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), name=st.one_of(GOOD_NAME, ODD, st.text(max_size=10)))
def test_job_specs_validate_or_submit_never_crash(env, data, name: str) -> None:  # type: ignore[no-untyped-def]
    backend, cluster_id = env
    wire = data.draw(job_wire(cluster_id))
    jobs = JobClient(backend, experiment=f"e{next(_counter)}")
    before = _snapshot(backend)
    try:
        params = m.JobCreateParameters.from_dict(wire)
    except (ValidationError, ValueError, TypeError):
        return  # refused while loading: nothing touched
    try:
        jobs.begin_create(name, params)
    except ValidationError as exc:
        assert exc.errors and all(isinstance(p, str) and isinstance(msg, str) for p, msg in exc.errors)
        assert _snapshot(backend) == before, "a refused spec wrote to the control share"
        event("refused")
        return
    except Exception as exc:  # ResourceNotFoundError for an unknown cluster is the only other answer
        from batchai_sdk import ResourceNotFoundError

        assert isinstance(exc, ResourceNotFoundError), repr(exc)
        assert _snapshot(backend) == before
        return
    event("submitted")
    job = jobs.get(name)
    assert job.execution_state == "queued"
    assert ".." not in name and "/" not in name
    for secret in wire["properties"].get("secrets") or []:
        if secret["value"]:
            assert all(s.value is None for s in job.secrets or [])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.one_of(GOOD_NAME, ODD, st.text(max_size=10)),
    scale=st.one_of(
        st.fixed_dictionaries({"manual": st.fixed_dictionaries({"targetNodeCount": st.integers(-2, 5)})}),
        st.fixed_dictionaries({"autoScale": st.fixed_dictionaries(
            {"minimumNodeCount": st.integers(-2, 5), "maximumNodeCount": st.integers(-2, 5)})}),
        st.just({}),
        st.just({"manual": {"targetNodeCount": 1}, "autoScale": {"minimumNodeCount": 0, "maximumNodeCount": 1}}),
    ),
    rel=st.one_of(st.sampled_from(["afs", "afs", "data", "../up", "/abs", "a/../b", "", "ok/deeper"]), st.text(max_size=8)),
)
def test_cluster_specs_validate_or_create_never_crash(env, name: str, scale: dict, rel: str) -> None:  # type: ignore[no-untyped-def]
    backend, _ = env
    wire = {"properties": {
        "vmSize": "STANDARD_D2", "scaleSettings": scale, "userAccountSettings": {"adminUserName": "u"},
        "nodeSetup": {"mountVolumes": {"azureFileShares": [{
            "accountName": "batchailocal", "azureFileUrl": "https://batchailocal.file.core.windows.net/afs",
            "relativeMountPath": rel, "credentials": {"accountKey": "k"}}]}}}}
    clusters = ClusterClient(backend, workspace=f"w{next(_counter)}")
    params = m.ClusterCreateParameters.from_dict(wire)
    before = _snapshot(backend)
    try:
        clusters.begin_create(name, params).result()
    except ValidationError as exc:
        assert exc.errors
        assert _snapshot(backend) == before
        return
    assert ".." not in rel.split("/") and not rel.startswith("/")
    clusters.begin_delete(name).result()


@pytest.mark.parametrize("bad", ["../x", "a/b", "/abs", "a b", "", "x" * 65, "a\nb", "tab\t"])
def test_names_with_separators_and_odd_characters_are_refused(env, bad: str) -> None:  # type: ignore[no-untyped-def]
    backend, cluster_id = env
    params = m.JobCreateParameters(cluster=m.ResourceId(id=cluster_id), node_count=1, std_out_err_path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs",
                                   custom_toolkit_settings=m.CustomToolkitSettings(command_line="true"))
    before = _snapshot(backend)
    with pytest.raises(ValidationError):
        JobClient(backend, experiment="names").begin_create(bad, params)
    with pytest.raises(ValidationError):
        ClusterClient(backend).begin_create(bad, m.ClusterCreateParameters(
            vm_size="x", user_account_settings=m.UserAccountSettings(admin_user_name="u"),
            scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=1))))
    with pytest.raises(ValidationError):
        JobClient(backend, experiment=bad) if bad else (_ for _ in ()).throw(ValidationError([("x", "empty")]))
    assert _snapshot(backend) == before


@pytest.mark.parametrize("bad", ["../etc", "/etc/passwd", "a/../../b"])
def test_share_paths_leaving_the_share_are_refused(env, tmp_path: Path, bad: str) -> None:  # type: ignore[no-untyped-def]
    from batchai_sdk import FileShareClient

    backend, _ = env
    f = tmp_path / "f.txt"
    f.write_text("x")
    shares = FileShareClient(backend)
    with pytest.raises(ValidationError):
        shares.upload_file("afs", f, bad)
    with pytest.raises(ValidationError):
        shares.download_file("afs", bad, tmp_path / "out")
    assert not (backend.share_dir("afs").parent / "etc").exists()
