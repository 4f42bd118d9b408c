"""Shared fixtures for the Fashion-MNIST sample's tests.

The sample is a folder of plain scripts (it is uploaded to a file share as files), not a package, so
the tests load its modules by path.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = REPO_ROOT / "samples" / "fashion_mnist"


def load_sample_module(name: str) -> ModuleType:
    """Import ``samples/fashion_mnist/<name>.py`` once, under its own name."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SAMPLE_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def generator() -> ModuleType:
    return load_sample_module("make_fashion_mnist")


@pytest.fixture(scope="session")
def trainer() -> ModuleType:
    return load_sample_module("Keras_fashionmnist")


@pytest.fixture(scope="session")
def submit_module() -> ModuleType:
    """submit.py; importing it does not import batchai_sdk or keras (both load on first use)."""
    return load_sample_module("submit")


@pytest.fixture(scope="session")
def small_dataset(tmp_path_factory: pytest.TempPathFactory, generator: ModuleType) -> Path:
    """2000 train / 500 test synthetic images: enough for a CNN to beat chance by far in two epochs."""
    directory = tmp_path_factory.mktemp("fashion-small")
    generator.write_dataset(directory, train=2000, test=500, seed=7)
    return directory


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return SAMPLE_DIR


@pytest.fixture
def sample_env(tmp_path: Path) -> dict[str, str]:
    """Environment for sample subprocesses: src/ importable, engine state in tmp, KERAS_BACKEND unset.

    Unsetting KERAS_BACKEND exercises the sample's own default (jax) rather than the caller's shell.
    """
    env = dict(os.environ)
    env.pop("KERAS_BACKEND", None)
    src = str(REPO_ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["BATCHAI_HOME"] = str(tmp_path / "batchai-home")
    return env
