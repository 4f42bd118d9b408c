"""Shared helpers of the benchmarks: timing, statistics, a throwaway local engine, the results file."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "RESULTS.md"


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def subprocess_median(argv: list[str], runs: int = 7, env: dict[str, str] | None = None) -> float:
    subprocess.run(argv, capture_output=True, env=env, check=False)  # warm-up: .pyc files
    return median([timed(lambda: subprocess.run(argv, capture_output=True, env=env, check=True)) for _ in range(runs)])


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, Python {platform.python_version()}, {platform.system()} {platform.release()}"


class TempRoot:
    """A private local-engine root that is removed, with every process under it, afterwards."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="batchai-bench-"))
        return self.path / "root"

    def __exit__(self, *exc: object) -> None:
        sys.path.insert(0, str(BENCH.parent / "tests"))
        from process_helpers import kill_all_under

        kill_all_under(self.path)
        shutil.rmtree(self.path, ignore_errors=True)


def write_section(title: str, body: str) -> None:
    """Replace (or add) one ``## title`` section of bench/RESULTS.md."""
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n\nRun `python bench/run_all.py`; each section is rewritten by its benchmark.\n"
    header = f"## {title}\n"
    block = header + body.rstrip() + "\n"
    if header in text:
        start = text.index(header)
        nxt = text.find("\n## ", start + len(header))
        text = text[:start] + block + ("\n" + text[nxt + 1 :] if nxt != -1 else "")
    else:
        text = text.rstrip() + "\n\n" + block
    RESULTS.write_text(text)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"
