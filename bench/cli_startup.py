"""Start-up time of the ``batchai`` console script: ``--help`` must not import the SDK's heavy parts.

Prints the median of 7 runs of ``python -c pass``, ``batchai --help`` and ``batchai job --help`` and their
ratios to the bare interpreter. Target: under 300 ms for both help commands.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 7


def median_ms(argv: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    script = Path(sys.executable).parent / "batchai"
    if not script.exists():
        print(f"{script} not found: pip install -e . first", file=sys.stderr)
        return 1
    base = median_ms([sys.executable, "-c", "pass"])
    print(f"python -c pass        {base:7.1f} ms")
    worst = 0.0
    for args in (["--help"], ["job", "--help"]):
        ms = median_ms([str(script), *args])
        worst = max(worst, ms)
        print(f"batchai {' '.join(args):<13} {ms:7.1f} ms  ({ms / base:.1f}x python -c pass)")
    print(f"target 300 ms: {'met' if worst < 300 else 'MISSED'}")
    return 0 if worst < 300 else 1


if __name__ == "__main__":
    sys.exit(main())
