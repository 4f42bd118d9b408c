"""Import time of ``batchai_sdk.models`` vs bare ``msrest``: medians of 5 fresh interpreters each.

Run: ``.venv/bin/python bench/import_models.py``
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
RUNS = 5


def _time(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": str(SRC)}, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main() -> None:
    for module in ("msrest", "batchai_sdk.models"):
        median = statistics.median(_time(module) for _ in range(RUNS))
        print(f"{module:20s} median of {RUNS}: {median * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
