"""Start-up costs: imports and the console script, each the median of 7 fresh interpreters beside
``python -c pass`` measured in the same run.

    python bench/startup.py [--runs 7]

Writes the "Start-up" section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, subprocess_median, write_section  # noqa: E402

#: (label, argv after the interpreter or None for the console script, target in ms or None)
CASES: list[tuple[str, list[str], float | None]] = [
    ("`import batchai_sdk`", ["-c", "import batchai_sdk"], None),
    ("`import batchai_sdk.models`", ["-c", "import batchai_sdk.models"], None),
    ("`batchai --help`", ["<batchai>", "--help"], 300.0),
    ("`batchai job --help`", ["<batchai>", "job", "--help"], 300.0),
    ("`import batchai_sdk.engines.azure`", ["-c", "import batchai_sdk.engines.azure"], None),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    script = str(Path(sys.executable).parent / "batchai")
    base = subprocess_median([sys.executable, "-c", "pass"], runs=args.runs)
    rows = []
    for label, argv, target in CASES:
        full = [script, *argv[1:]] if argv[0] == "<batchai>" else [sys.executable, *argv]
        try:
            t = subprocess_median(full, runs=args.runs)
        except Exception as exc:  # e.g. the [azure] extra missing: say so, keep the other figures
            rows.append((label, "not measured", f"{type(exc).__name__}", ""))
            continue
        verdict = "" if target is None else f"; target < {target:.0f} ms: {'met' if t * 1000 < target else 'NOT met'}"
        rows.append((label, f"{t * 1000:.0f} ms", f"{base * 1000:.0f} ms", f"{t / base:.1f}x (+{(t - base) * 1000:.0f} ms){verdict}"))
    table = "| command | median | `python -c pass` (same run) | ratio |\n|---|---|---|---|\n" + "\n".join(
        f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    body = (f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. `python bench/startup.py --runs {args.runs}` "
            f"(median of {args.runs} fresh interpreters, after one warm-up run each).\n\n{table}\n")
    write_section("Start-up", body)
    print(body)


if __name__ == "__main__":
    main()
