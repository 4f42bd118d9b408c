"""Run every benchmark, each in its own interpreter, and leave all figures in bench/RESULTS.md.

    python bench/run_all.py [--quick] [--no-ray] [--summary-only]

Full: about 15 minutes on 2 cores; ``--quick``: about 5. Each benchmark rewrites its own section, every
figure beside a baseline measured in the same run; this script writes the header (machine, date) and a
"Summary" of every row that states a target. A benchmark that fails gets a section saying so; the others
still run.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import BENCH, RESULTS, machine, write_section  # noqa: E402

FULL: list[tuple[str, list[str]]] = [
    ("startup.py", ["--runs", "7"]),
    ("local_engine.py", ["--jobs", "200", "--runs", "10", "--idle-seconds", "10"]),
    ("log_streaming.py", ["--mb", "50", "--seconds", "15", "--azure-mb", "15", "--azure-seconds", "10"]),
    ("upload.py", ["--files", "1000", "--mib", "1024", "--rtt-ms", "0", "10"]),
    ("ray_jobs.py", ["--runs", "5", "--jobs", "20", "--lines", "100"]),
    ("journey.py", []),
]
QUICK: list[tuple[str, list[str]]] = [
    ("startup.py", ["--runs", "7"]),
    ("local_engine.py", ["--jobs", "60", "--runs", "5", "--idle-seconds", "5"]),
    ("log_streaming.py", ["--mb", "20", "--seconds", "8", "--azure-mb", "5", "--azure-seconds", "5"]),
    ("upload.py", ["--quick", "--rtt-ms", "0", "10"]),
    ("ray_jobs.py", ["--runs", "3", "--jobs", "8", "--lines", "50"]),
    ("journey.py", ["--train", "1000", "--test", "200", "--epochs", "1"]),
]
#: Section titles the benchmarks write (used for a "not run" or "failed" note in their place).
PRINTS = {"journey.py": "Fashion-MNIST journey"}


def header(mode: str, took: float | None) -> str:
    took_text = f" The suite took {took / 60:.1f} min." if took is not None else ""
    return ("# Benchmark results\n\n"
            f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d %H:%M')}. Mode: `python bench/run_all.py{mode}`."
            f"{took_text}\n\nEach section is rewritten by its benchmark (`bench/<name>.py`); every figure stands beside "
            "a baseline measured in the same run on the same machine, so noise from other load hits both.\n")


def summary(text: str) -> str:
    """Every table row that states a target, with its figure, its baseline and the verdict."""
    rows = []
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 4 and "target" in cells[-1] and cells[0] not in ("measure", "command"):
            verdict = "**NOT met**" if "NOT met" in cells[-1] else ("met" if "met" in cells[-1] else "?")
            rows.append(f"| {section}: {cells[0]} | {cells[1]} | {cells[2]} | {cells[-1]} | {verdict} |")
    if not rows:
        return "No targets were measured.\n"
    return ("| target (section: measure) | batchai-sdk | baseline (same run) | ratio / target | verdict |\n"
            "|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def rewrite_top(mode: str, took: float | None, keep_header: bool = False) -> None:
    text = RESULTS.read_text() if RESULTS.exists() else ""
    first = text.find("\n## ")
    sections = text[first + 1:] if first != -1 else ""
    sections = re.sub(r"## Summary\n.*?(?=^## |\Z)", "", sections, flags=re.S | re.M)
    top = text[:first + 1] if keep_header and first != -1 else header(mode, took) + "\n"
    RESULTS.write_text(top + "## Summary\n" + summary(sections) + "\n" + sections)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--summary-only", action="store_true",
                    help="only rebuild the Summary from the sections (after rerunning one benchmark by hand)")
    args = ap.parse_args()
    if args.summary_only:
        rewrite_top("", None, keep_header=True)
        return 0
    plan = QUICK if args.quick else FULL
    mode = (" --quick" if args.quick else "") + (" --no-ray" if args.no_ray else "")
    rewrite_top(mode, None)
    started = time.perf_counter()
    failures = 0
    for script, argv in plan:
        if script == "ray_jobs.py" and args.no_ray:
            continue
        if script == "journey.py" and not all(importlib.util.find_spec(m) for m in ("keras", "numpy")):
            write_section(PRINTS[script], "Not run: the `samples` extra (keras) is not installed.\n")
            continue
        print(f"==> {script} {' '.join(argv)}", flush=True)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, str(BENCH / script), *argv], capture_output=True, text=True)
        print(f"    {time.perf_counter() - t:.0f} s, exit {done.returncode}", flush=True)
        if done.returncode != 0:
            failures += 1
            write_section(PRINTS.get(script) or f"{script} (failed)", f"`python bench/{script} {' '.join(argv)}` failed "
                          f"(exit {done.returncode}):\n\n```\n{(done.stderr or done.stdout).strip()[-2000:]}\n```\n")
    rewrite_top(mode, time.perf_counter() - started)
    print(RESULTS.read_text())
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
