"""Time the Fashion-MNIST training run directly and as a batchai-sdk job on the local engine.

    python bench/journey.py [--train 6000] [--test 1000] [--epochs 2]

Both runs use the same synthetic data, so the difference is the SDK's overhead: upload, cluster and
node start, job scheduling, job preparation, log streaming, download and the model reload.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "fashion_mnist"


def _timed(command: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(
            f"{command[1]} failed ({result.returncode}):\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        )
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--train", type=int, default=6000)
    parser.add_argument("--test", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()

    sys.path.insert(0, str(SAMPLE))
    import make_fashion_mnist

    env = {**os.environ, "KERAS_BACKEND": os.environ.get("KERAS_BACKEND", "jax")}
    with tempfile.TemporaryDirectory(prefix="journey-bench-") as tmp:
        work = Path(tmp)
        data = work / "data"
        make_fashion_mnist.write_dataset(data, train=args.train, test=args.test)
        epochs = ["--epochs", str(args.epochs)]

        direct = _timed(
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
        job = _timed(
            [sys.executable, str(SAMPLE / "submit.py"), "--data", str(data), "--root", str(work / "state")]
            + ["--download-dir", str(work / "downloaded"), *epochs],
            env,
            work,
        )
    print(
        f"data: {args.train} train / {args.test} test, {args.epochs} epochs, backend {env['KERAS_BACKEND']}"
    )
    print(f"direct python:        {direct:7.1f} s")
    print(f"submit.py (local job): {job:6.1f} s")
    print(f"overhead:             {job - direct:7.1f} s  (ratio {job / direct:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
