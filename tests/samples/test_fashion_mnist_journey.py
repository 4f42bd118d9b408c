"""The walkthrough end to end on the local engine: submit.py as a subprocess, and the notebook."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

if importlib.util.find_spec("keras") is None or importlib.util.find_spec("jax") is None:
    pytest.skip("needs the samples extra (keras, jax)", allow_module_level=True)

EPOCH_LINE = re.compile(r"^Epoch (\d+)/2 - loss: ", re.M)
SIZES = ["--train", "2000", "--test", "500", "--epochs", "2"]


def _number(pattern: str, text: str) -> float:
    match = re.search(pattern, text, re.M)
    assert match, f"{pattern!r} not in output:\n{text[-3000:]}"
    return float(match.group(1))


def _assert_journey_output(text: str) -> None:
    assert [int(n) for n in EPOCH_LINE.findall(text)] == [1, 2], (
        "both epochs must be streamed from stdout.txt"
    )
    assert _number(r"^Test accuracy: ([\d.]+)$", text) > 0.5
    model = Path(re.search(r"^Model downloaded to (.+)$", text, re.M).group(1).strip())  # type: ignore[union-attr]
    assert model.name == "Keras_MNIST.h5" and model.is_file()
    assert model.read_bytes()[:8] == b"\x89HDF\r\n\x1a\n"
    assert _number(r"^Reloaded model test accuracy: ([\d.]+)$", text) > 0.4  # chance is 0.1


@pytest.mark.slow
def test_submit_runs_the_walkthrough_and_brings_the_model_back(
    sample_dir: Path, sample_env: dict[str, str], tmp_path: Path
) -> None:
    result = subprocess.run(
        [sys.executable, str(sample_dir / "submit.py"), "--root", str(tmp_path / "state")]
        + ["--download-dir", str(tmp_path / "downloaded"), *SIZES],
        cwd=tmp_path,
        env=sample_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    _assert_journey_output(result.stdout)
    assert "Deleting cluster nc6" in result.stdout
    assert (tmp_path / "downloaded" / "Keras_MNIST.h5").is_file()


@pytest.mark.slow
def test_notebook_runs_top_to_bottom(
    sample_dir: Path, sample_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    for name, value in sample_env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("KERAS_BACKEND", raising=False)

    notebook = nbformat.read(sample_dir / "fashion_mnist.ipynb", as_version=4)
    index = next(i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", []))
    # Papermill-style injection: the cell after "parameters" overrides its defaults.
    notebook.cells.insert(
        index + 1,
        nbformat.v4.new_code_cell(
            f"SAMPLE_DIR = Path({str(sample_dir)!r})\n"
            f"WORK_DIR = Path({str(tmp_path / 'work')!r})\n"
            f"ROOT = Path({str(tmp_path / 'state')!r})\n"
            "TRAIN, TEST, EPOCHS = 2000, 500, 2\n"
        ),
    )
    nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()

    text = "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output.get("name") == "stdout"
    )
    _assert_journey_output(text)


def test_job_spec_is_the_walkthroughs_on_the_wire(submit_module: ModuleType) -> None:
    submit = submit_module
    cluster_id = (
        "/subscriptions/s/resourceGroups/g/providers/Microsoft.BatchAI/workspaces/default/clusters/nc6"
    )
    wire = submit.job_parameters(cluster_id, "azure", submit.training_command(3, 500, None)).serialize()[
        "properties"
    ]

    assert wire["customToolkitSettings"]["commandLine"] == (
        "KERAS_BACKEND=${KERAS_BACKEND:-jax} python $AZ_BATCHAI_INPUT_SCRIPT/Keras_fashionmnist.py "
        "$AZ_BATCHAI_OUTPUT_MODEL --data $AZ_BATCHAI_INPUT_DATASET --epochs 3 --train-limit 500"
    )
    assert wire["inputDirectories"] == [
        {"id": "SCRIPT", "path": "$AZ_BATCHAI_MOUNT_ROOT/afs/scripts"},
        {"id": "DATASET", "path": "$AZ_BATCHAI_MOUNT_ROOT/afs/data/fashion"},
    ]
    assert wire["outputDirectories"] == [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/afs"}]
    assert wire["stdOutErrPathPrefix"] == "$AZ_BATCHAI_MOUNT_ROOT/afs"
    assert wire["jobPreparation"]["commandLine"].startswith("pip install keras jax && ")
    assert wire["cluster"] == {"id": cluster_id} and wire["nodeCount"] == 1


@pytest.mark.slow
def test_a_failed_job_makes_submit_exit_1_and_show_stderr(
    sample_dir: Path, sample_env: dict[str, str], tmp_path: Path
) -> None:
    # The walkthrough's own backend, tensorflow, is not installed by any extra (a 600 MB wheel).
    if importlib.util.find_spec("tensorflow") is not None:
        pytest.skip("tensorflow is installed, so it cannot stand in for a missing backend")
    result = subprocess.run(
        [sys.executable, str(sample_dir / "submit.py"), "--root", str(tmp_path / "state"), "--train", "50"]
        + ["--test", "10", "--epochs", "1", "--download-dir", str(tmp_path / "downloaded")],
        cwd=tmp_path,
        env={**sample_env, "KERAS_BACKEND": "tensorflow"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    assert "Job state: failed" in result.stdout
    # The failure names its phase and shows why, without digging through the share.
    assert "JobPreparationFailed" in result.stderr and "No module named 'tensorflow'" in result.stderr
    assert "Deleting cluster nc6" in result.stdout, "the cluster must be deleted even when the job fails"
    assert not (tmp_path / "downloaded").exists()


def test_azure_engine_names_the_missing_environment_variables(
    submit_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    submit = submit_module
    for name in submit.AZURE_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AZURE_LOCATION", "eastus")
    with pytest.raises(
        SystemExit, match="AZURE_SUBSCRIPTION_ID, AZURE_RESOURCE_GROUP, AZURE_BATCHAI_STORAGE_ACCOUNT"
    ):
        submit.make_backend("azure", None)
