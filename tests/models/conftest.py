"""Fixtures of the model tests; makes ``src/`` importable when the project is not installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

REFERENCE = REPO / ".." / "shared" / "reference" / "batchai"


@pytest.fixture
def reference_dir() -> Path:
    if not REFERENCE.is_dir():
        pytest.skip(f"reference data not found at {REFERENCE} (CI keeps ../shared beside the checkout)")
    return REFERENCE
