"""The same trivial-job latency, log latency and throughput on Ray Jobs and on batchai-sdk's local engine.

    python bench/ray_jobs.py [--runs 5] [--jobs 20] [--lines 100]

Ray lives only in a benchmark virtual environment (bench/_work/ray-venv, created here with
``pip install 'ray[default]'``; never a project dependency). A local head is started on 127.0.0.1 with
usage stats off, driven through ``JobSubmissionClient`` by bench/_ray_driver.py, and ``ray stop --force``
ends every Ray process, also on failure. The local-engine figures are measured first in the same run
(before Ray's daemons exist, so neither side pays for the other's idle processes).
Writes the "Ray Jobs vs local engine" section of bench/RESULTS.md; if Ray cannot be installed or started,
the section says so with the error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import BENCH, TempRoot, machine, median, pct, write_section  # noqa: E402
from local_engine import cluster_params, job  # noqa: E402

VENV = BENCH / "_work" / "ray-venv"
RAY_PY = VENV / "bin" / "python"
RAY = VENV / "bin" / "ray"
GCS_PORT = 6390
DASHBOARD_PORT = 8265


def local_figures(runs: int, jobs: int, lines: int) -> dict[str, object]:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient, LocalBackend

    out: dict[str, object] = {}
    with TempRoot() as root:
        backend = LocalBackend(root)
        url = FileShareClient(backend).create_share("afs")
        clusters = ClusterClient(backend)
        cluster = clusters.begin_create("ray", cluster_params(url, 2)).result()
        clusters.wait_for_nodes("ray", 2, timeout=60)
        client = JobClient(backend, experiment="ray")
        trivial = []
        for i in range(runs):
            t = time.perf_counter()
            client.begin_create(f"t{i}", job(cluster.id, "true")).result()
            trivial.append(time.perf_counter() - t)
        out["trivial"] = trivial
        cmd = f"python -c \"import time\nfor i in range({lines}):\n print(repr(time.time()), flush=True); time.sleep(0.02)\""
        client.begin_create("logs", job(cluster.id, cmd))
        out["log_latency"] = [time.time() - float(line) for line in client.stream_file("logs")]
        t = time.perf_counter()
        for i in range(jobs):
            client.begin_create(f"n{i}", job(cluster.id, "true"))
        out["submit_seconds"] = time.perf_counter() - t
        states = [client.wait(f"n{i}", timeout=600).execution_state for i in range(jobs)]
        out["throughput_seconds"] = time.perf_counter() - t
        out["failed"] = sum(s != "succeeded" for s in states)
        clusters.begin_delete("ray").result()
    return out


def ray_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "RAY_USAGE_STATS_ENABLED": "0",  # no usage report to the network
        "RAY_DISABLE_DOCKER_CPU_WARNING": "1",
        "RAY_TMPDIR": str(tmp),
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        "PATH": f"{VENV / 'bin'}:{env.get('PATH', '')}",
    })
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    return env


def ensure_venv() -> None:
    if RAY_PY.exists() and subprocess.run([str(RAY_PY), "-c", "import ray.job_submission"],
                                          capture_output=True).returncode == 0:
        return
    VENV.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True, capture_output=True, text=True)
    subprocess.run([str(RAY_PY), "-m", "pip", "install", "-q", "ray[default]"], check=True, capture_output=True,
                   text=True, timeout=900)


def ray_figures(runs: int, jobs: int, lines: int) -> dict[str, object]:
    tmp = Path(tempfile.mkdtemp(prefix="rayb-"))  # short: Ray's unix sockets have a 107-byte path limit
    env = ray_env(tmp)
    try:
        subprocess.run([str(RAY), "start", "--head", "--node-ip-address=127.0.0.1", "--dashboard-host=127.0.0.1",
                        f"--port={GCS_PORT}", "--include-dashboard=true", f"--dashboard-port={DASHBOARD_PORT}",
                        "--num-cpus=2", "--object-store-memory=200000000", f"--temp-dir={tmp / 'ray'}",
                        "--disable-usage-stats"], env=env, check=True, capture_output=True, text=True, timeout=180)
        address = f"http://127.0.0.1:{DASHBOARD_PORT}"
        deadline = time.monotonic() + 60
        while True:  # the dashboard's job API answers a little after `ray start` returns
            probe = subprocess.run([str(RAY_PY), "-c", "from ray.job_submission import JobSubmissionClient as C; "
                                    f"C({address!r}).list_jobs()"], env=env, capture_output=True, text=True)
            if probe.returncode == 0:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"Ray's job API did not answer: {probe.stderr.strip()[-500:]}")
            time.sleep(1)
        done = subprocess.run([str(RAY_PY), str(BENCH / "_ray_driver.py"), address, str(runs), str(jobs), str(lines)],
                              env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise RuntimeError(f"driver failed: {done.stderr.strip()[-1500:]}")
        return dict(json.loads(done.stdout.strip().splitlines()[-1]))
    finally:
        subprocess.run([str(RAY), "stop", "--force"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=20)
    ap.add_argument("--lines", type=int, default=100)
    args = ap.parse_args()
    head = (f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. `python bench/ray_jobs.py --runs {args.runs} "
            f"--jobs {args.jobs} --lines {args.lines}`. Ray: local head on 127.0.0.1 (`ray start --head`, 2 CPUs, "
            "usage stats off), driven by `JobSubmissionClient`; logs followed with `tail_job_logs`. batchai-sdk: "
            "local engine, 2-node cluster, logs followed with `stream_file`.")
    local = local_figures(args.runs, args.jobs, args.lines)
    try:
        ensure_venv()
        ray = ray_figures(args.runs, args.jobs, args.lines)
    except Exception as exc:
        detail = getattr(exc, "stderr", None) or ""
        body = (f"{head}\n\nRay could not be measured here: `{type(exc).__name__}: {exc}`"
                f"{' ' + str(detail).strip()[-800:] if detail else ''}\n\nbatchai-sdk local engine (same run): trivial "
                f"job {median(local['trivial']) * 1000:.0f} ms, log latency p95 "  # type: ignore[arg-type]
                f"{pct(local['log_latency'], 0.95) * 1000:.0f} ms.\n")  # type: ignore[arg-type]
        write_section("Ray Jobs vs local engine", body)
        print(body)
        return

    def lat(d: dict[str, object]) -> str:
        xs: list[float] = d["log_latency"]  # type: ignore[assignment]
        return f"{pct(xs, 0.5) * 1000:.0f} / {pct(xs, 0.95) * 1000:.0f} ms ({len(xs)} lines)"

    lt: list[float] = local["trivial"]  # type: ignore[assignment]
    rt: list[float] = ray["trivial"]  # type: ignore[assignment]
    l_tp = args.jobs / float(local["throughput_seconds"])  # type: ignore[arg-type]
    r_tp = args.jobs / float(ray["throughput_seconds"])  # type: ignore[arg-type]
    l95 = pct(local["log_latency"], 0.95)  # type: ignore[arg-type]
    r95 = pct(ray["log_latency"], 0.95)  # type: ignore[arg-type]
    rows = [
        (f"trivial job submit → succeeded (median of {args.runs})", f"{median(lt) * 1000:.0f} ms",
         f"{median(rt) * 1000:.0f} ms", f"Ray / batchai-sdk {median(rt) / median(lt):.1f}x"),
        ("log line written → seen by the follower, p50 / p95", lat(local), lat(ray), f"p95 Ray / batchai-sdk {r95 / l95:.1f}x"),
        (f"{args.jobs} trivial jobs, submit all then wait", f"{l_tp:.1f} jobs/s ({local['failed']} failed)",
         f"{r_tp:.1f} jobs/s ({ray['failed']} failed)", f"batchai-sdk / Ray {l_tp / r_tp:.1f}x"),
    ]
    table = f"| measure | batchai-sdk local engine | Ray Jobs {ray['ray']} (same run) | ratio |\n|---|---|---|---|\n" + "\n".join(
        f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    body = f"{head}\n\n{table}\n"
    write_section("Ray Jobs vs local engine", body)
    print(body)


if __name__ == "__main__":
    main()
