"""Drive the installed ``batchai`` console script as a user would, against a private local engine root."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from cli_helpers import SCRIPT, Cli  # noqa: E402


@pytest.fixture
def cli(local_root: Path, tmp_path: Path) -> Iterator[Cli]:
    """The CLI on a private root; clusters left behind are deleted (and their processes killed) by the
    suite's ``local_root`` fixture at teardown."""
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed at {SCRIPT} (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    yield Cli(local_root, home)
