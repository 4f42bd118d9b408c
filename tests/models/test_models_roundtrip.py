"""Every REST example and recipe job file reads into the models and serializes back to the same wire JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _wire import expected_wire

import batchai_sdk.models as models
from batchai_sdk.exceptions import ValidationError

REFERENCE = Path(__file__).resolve().parents[2] / ".." / "shared" / "reference" / "batchai"

# example name → (request body model, response body model)
EXAMPLES: dict[str, tuple[str | None, str | None]] = {
    "PutCluster": ("ClusterCreateParameters", "Cluster"),
    "GetCluster": (None, "Cluster"),
    "PatchCluster": ("ClusterUpdateParameters", "Cluster"),
    "ListCluster": (None, "ClusterListResult"),
    "ListClusterByResourceGroup": (None, "ClusterListResult"),
    "ListClusterByWorkspace": (None, "ClusterListResult"),
    "ClusterListRemoteLoginInfo": (None, "RemoteLoginInformationListResult"),
    "JobListRemoteLoginInfo": (None, "RemoteLoginInformationListResult"),
    "PutExperiment": (None, "Experiment"),
    "GetExperiment": (None, "Experiment"),
    "ListExperimentByWorkspace": (None, "ExperimentListResult"),
    "PutFileServer": ("FileServerCreateParameters", "FileServer"),
    "GetFileServer": (None, "FileServer"),
    "ListFileServer": (None, "FileServerListResult"),
    "ListFileServerByResourceGroup": (None, "FileServerListResult"),
    "ListFileServerByWorkspace": (None, "FileServerListResult"),
    "PutJob": ("JobCreateParameters", "Job"),
    "GetJob": (None, "Job"),
    "ListJob": (None, "JobListResult"),
    "ListJobByResourceGroup": (None, "JobListResult"),
    "ListJobByExperiment": (None, "JobListResult"),
    "ListOutputFiles": (None, "FileListResult"),
    "ListOperation": (None, "OperationListResult"),
    "OperationList": (None, "OperationListResult"),
    "ListUsages": (None, "ListUsagesResult"),
    "PutWorkspace": ("WorkspaceCreateParameters", "Workspace"),
    "PatchWorkspace": ("WorkspaceUpdateParameters", "Workspace"),
    "GetWorkspace": (None, "Workspace"),
    "ListWorkspace": (None, "WorkspaceListResult"),
    "ListWorkspaceByResourceGroup": (None, "WorkspaceListResult"),
}
NO_BODY = {
    "DeleteCluster",
    "DeleteExperiment",
    "DeleteFileServer",
    "DeleteJob",
    "DeleteWorkspace",
    "TerminateJob",
}


def _files(pattern: str) -> list[Path]:
    return sorted(REFERENCE.glob(pattern)) if REFERENCE.is_dir() else []


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]


EXAMPLE_FILES = _files("spec-examples/*/*.json")
JOB_FILES = _files("recipes/jobs/*.json")
DOC_BODIES = [p for p in _files("recipes/docs/*.json") if p.name.endswith(("__job.json", "__cluster.json"))]


def _roundtrip(model_cls: Any, body: Any, *, keep_readonly: bool, strict: bool = True) -> None:
    expected = expected_wire(model_cls, body, keep_readonly=keep_readonly)
    for read in (model_cls.deserialize, model_cls.from_dict):
        model = read(body)
        assert isinstance(model, model_cls)
        assert model.serialize(keep_readonly=keep_readonly) == expected, read.__name__
        if strict:  # 2018-03-01 bodies carry keys 2018-05-01 dropped (location, priority)
            assert not model.additional_properties


def test_reference_present(reference_dir: Path) -> None:
    assert len(EXAMPLE_FILES) == 51
    assert len(JOB_FILES) == 19


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=_ids(EXAMPLE_FILES))
def test_rest_example_roundtrip(path: Path) -> None:
    name = path.stem
    strict = path.parent.name == "2018-05-01"
    example = json.loads(path.read_text())
    if name in NO_BODY:
        assert not any("body" in r for r in example["responses"].values())
        return
    request_model, response_model = EXAMPLES[name]
    if request_model is not None:
        _roundtrip(
            getattr(models, request_model),
            example["parameters"]["parameters"],
            keep_readonly=False,
            strict=strict,
        )
    bodies = [r["body"] for r in example["responses"].values() if "body" in r]
    assert bodies and response_model is not None
    for body in bodies:
        _roundtrip(getattr(models, response_model), body, keep_readonly=True, strict=strict)
        # A response read back as a request drops exactly the read-only keys.
        _roundtrip(getattr(models, response_model), body, keep_readonly=False, strict=strict)


@pytest.mark.parametrize("path", JOB_FILES, ids=_ids(JOB_FILES))
def test_recipe_job_roundtrip(path: Path) -> None:
    body = json.loads(path.read_text())
    assert "$schema" in body and "properties" in body
    _roundtrip(models.JobCreateParameters, body, keep_readonly=False)
    # The same body without the envelope reads identically.
    wrapped = models.JobCreateParameters.deserialize(body)
    assert models.JobCreateParameters.deserialize(body["properties"]) == wrapped


@pytest.mark.parametrize("path", JOB_FILES, ids=_ids(JOB_FILES))
def test_recipe_job_loads_and_validates(path: Path) -> None:
    job = models.load_job_file(path, storage_account_name="recipeacct", storage_account_key="c2VjcmV0")
    job.cluster = models.ResourceId(
        id="/subscriptions/s/resourceGroups/g/providers/Microsoft.BatchAI/workspaces/w/clusters/c"
    )
    assert models.validate_model(job) == []
    assert "<AZURE_BATCHAI" not in json.dumps(job.serialize())
    assert "c2VjcmV0" not in repr(job)
    assert models.tool_type_of(job) in {t.value for t in models.ToolType}


@pytest.mark.parametrize("path", DOC_BODIES, ids=_ids(DOC_BODIES))
def test_documentation_bodies(path: Path) -> None:
    model_cls = (
        models.ClusterCreateParameters if path.name.endswith("__cluster.json") else models.JobCreateParameters
    )
    text = path.read_text()
    try:
        body = json.loads(text)
    except ValueError:
        # Bodies quoted with literal "..." are not JSON: the loader must say where.
        with pytest.raises(ValidationError) as info:
            models.load_spec(text, model_cls, source_name=path.name)
        assert f"{path.name}:" in str(info.value)
        return
    _roundtrip(model_cls, body, keep_readonly=False)
