"""Running the installed ``batchai`` console script as a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

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


def has_tmux() -> bool:
    return shutil.which("tmux") is not None
