"""The training script, run as a user runs it: `python Keras_fashionmnist.py OUT --data DIR`."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None or importlib.util.find_spec("jax") is None,
    reason="needs the samples extra (keras, jax)",
)

EPOCH_LINE = re.compile(
    r"^Epoch (\d+)/2 - loss: [\d.]+ - accuracy: [\d.]+ - val_loss: [\d.]+ - val_accuracy: [\d.]+"
)


@pytest.mark.slow
def test_trains_prints_one_line_per_epoch_and_saves_a_loadable_h5(
    sample_dir: Path, small_dataset: Path, sample_env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "model"
    result = subprocess.run(
        [sys.executable, str(sample_dir / "Keras_fashionmnist.py"), str(out), "--data", str(small_dataset)]
        + ["--epochs", "2", "--batch-size", "64"],
        env=sample_env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert "\r" not in result.stdout, "progress must be line-based so a streamed stdout.txt reads well"
    assert "backend jax" in result.stdout, "KERAS_BACKEND unset must mean the sample's default, jax"
    assert [int(m.group(1)) for line in lines if (m := EPOCH_LINE.match(line))] == [1, 2]
    accuracy = float(re.search(r"^Test accuracy: ([\d.]+)$", result.stdout, re.M).group(1))  # type: ignore[union-attr]
    assert accuracy > 0.5
    model = out / "Keras_MNIST.h5"
    assert model.read_bytes()[:8] == b"\x89HDF\r\n\x1a\n"

    # Reloaded in a fresh process, the model must score like the run reported.
    check = (
        "import sys, keras, numpy as np\n"
        f"sys.path.insert(0, {str(sample_dir)!r})\n"
        "from Keras_fashionmnist import load_fashion_mnist\n"
        f"(_, _), (x, y) = load_fashion_mnist({str(small_dataset)!r})\n"
        f"m = keras.models.load_model({str(model)!r}, compile=False)\n"
        "print((m.predict(x[..., None] / 255.0, verbose=0).argmax(1) == y).mean())\n"
    )
    reloaded = subprocess.run(
        [sys.executable, "-c", check],
        env={**sample_env, "KERAS_BACKEND": "jax"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert reloaded.returncode == 0, reloaded.stderr[-3000:]
    assert float(reloaded.stdout.strip().splitlines()[-1]) == pytest.approx(accuracy, abs=0.01)


def test_a_missing_backend_fails_loudly_instead_of_falling_back(
    sample_dir: Path, small_dataset: Path, sample_env: dict[str, str], tmp_path: Path
) -> None:
    # The walkthrough's own backend, tensorflow, is not installed by any extra (a 600 MB wheel).
    if importlib.util.find_spec("tensorflow") is not None:
        pytest.skip("tensorflow is installed, so it cannot stand in for a missing backend")
    result = subprocess.run(
        [
            sys.executable,
            str(sample_dir / "Keras_fashionmnist.py"),
            str(tmp_path / "out"),
            "--data",
            str(small_dataset),
        ],
        env={**sample_env, "KERAS_BACKEND": "tensorflow"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "KERAS_BACKEND=tensorflow" in result.stderr and "not installed" in result.stderr
    assert "Epoch" not in result.stdout
