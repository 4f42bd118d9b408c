"""Time the Fashion-MNIST training run directly and as a batchai-sdk job on the local engine.

    python bench/journey.py [--train 6000] [--test 1000] [--epochs 2]

Both runs use the same synthetic data, so the difference is the SDK's overhead: upload, cluster and
node start, job scheduling, job preparation, log streaming, download and the model reload.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "fashion_mnist"


def _timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(
            f"{command[1]} failed ({result.returncode}):\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        )
    return elapsed, result.stdout


def _process_seconds(root: Path) -> float:
    """How long the job's own process ran, from the "job: started" and "job: ended" lines of execution.log."""
    from datetime import datetime

    log = next(root.glob("shares/*/**/stdouterr/execution.log")).read_text()
    stamps = {}
    for line in log.splitlines():
        stamp, _, message = line.partition(" ")
        for key in ("job: started", "job: ended"):
            if message.startswith(key):
                stamps[key] = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return (stamps["job: ended"] - stamps["job: started"]).total_seconds()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--train", type=int, default=6000)
    parser.add_argument("--test", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--no-results", action="store_true", help="print only, do not update bench/RESULTS.md")
    args = parser.parse_args()

    sys.path.insert(0, str(SAMPLE))
    import make_fashion_mnist

    env = {**os.environ, "KERAS_BACKEND": os.environ.get("KERAS_BACKEND", "jax")}
    with tempfile.TemporaryDirectory(prefix="journey-bench-") as tmp:
        work = Path(tmp)
        data = work / "data"
        make_fashion_mnist.write_dataset(data, train=args.train, test=args.test)
        epochs = ["--epochs", str(args.epochs)]

        direct, _ = _timed(
            [
                sys.executable,
                str(SAMPLE / "Keras_fashionmnist.py"),
                str(work / "direct"),
                "--data",
                str(data),
                *epochs,
            ],
            env,
            work,
        )
        job, out = _timed(
            [sys.executable, str(SAMPLE / "submit.py"), "--data", str(data), "--root", str(work / "state")]
            + ["--download-dir", str(work / "downloaded"), *epochs],
            env,
            work,
        )
        process_run = _process_seconds(work / "state")
    match = re.search(r"^Job wall time \(submit to end\): ([\d.]+) s$", out, re.M)
    job_only = float(match.group(1)) if match else float("nan")
    lines = [
        f"data: {args.train} train / {args.test} test, {args.epochs} epochs, backend {env['KERAS_BACKEND']}",
        f"- training run directly with python: {direct:.1f} s (baseline)",
        f"- the same training as a job, submit to end: {job_only:.1f} s "
        f"(ratio {job_only / direct:.3f}, overhead {100 * (job_only / direct - 1):+.1f} %; target within 5 %)",
        f"- of which the training process itself ran {process_run:.1f} s (execution.log): the SDK's share of the "
        f"job is {job_only - process_run:.2f} s ({100 * (job_only - process_run) / process_run:.1f} % of the run)",
        f"- the whole journey (submit.py: upload, cluster, job, stream, download, reload and evaluate, delete): "
        f"{job:.1f} s (ratio {job / direct:.2f})",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_results:
        sys.path.insert(0, str(REPO / "bench"))
        from _common import machine, write_section

        write_section("Fashion-MNIST journey", f"Machine: {machine()}. `python bench/journey.py`\n\n{body}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
