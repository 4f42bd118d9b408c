"""Drive the installed ``batchai`` console script as a user would, against a private local engine root."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "batchai"


@dataclass
class Result:
    rc: int
    out: str
    err: str


class Cli:
    """``cli("job", "show", "-n", "j1")`` runs the console script with this test's environment."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("BATCHAI_", "AZURE_")) and k != "REQUESTS_CA_BUNDLE"}
        self.env.update({"BATCHAI_HOME": str(root), "BATCHAI_CONFIG": str(home / "config"), "HOME": str(home)})

    def __call__(self, *args: str, ok: bool = True, timeout: float = 60, env: dict[str, str] | None = None,
                 stdin: str | None = None) -> Result:
        proc = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout,
                              env={**self.env, **(env or {})}, input=stdin,
                              stdin=None if stdin is not None else subprocess.DEVNULL)
        result = Result(proc.returncode, proc.stdout, proc.stderr)
        if ok and proc.returncode != 0:
            raise AssertionError(f"batchai {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
        return result


@pytest.fixture
def cli(local_root: Path, tmp_path: Path) -> Iterator[Cli]:
    """The CLI on a private root; clusters left behind are deleted (and their processes killed) by the
    suite's ``local_root`` fixture at teardown."""
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed at {SCRIPT} (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    yield Cli(local_root, home)


def has_tmux() -> bool:
    return shutil.which("tmux") is not None
