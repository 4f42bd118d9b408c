"""Local engine figures, each beside a baseline measured in the same run (issue 3 / issue 9).

    python bench/local_engine.py [--jobs 500] [--runs 15]

Writes the "Local engine" section of bench/RESULTS.md and prints it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempRoot, machine, median, pct, verdict, write_section  # noqa: E402

from batchai_sdk import ClusterClient, FileShareClient, JobClient, LocalBackend  # noqa: E402
from batchai_sdk import models as m  # noqa: E402


def cluster_params(url: str, nodes: int) -> m.ClusterCreateParameters:
    return m.ClusterCreateParameters(
        vm_size="STANDARD_D2",
        scale_settings=m.ScaleSettings(manual=m.ManualScaleSettings(target_node_count=nodes)),
        user_account_settings=m.UserAccountSettings(admin_user_name="bench"),
        node_setup=m.NodeSetup(mount_volumes=m.MountVolumes(azure_file_shares=[m.AzureFileShareReference(
            account_name="batchailocal", azure_file_url=url, relative_mount_path="afs",
            credentials=m.AzureStorageCredentialsInfo(account_key="unused-locally"))])),
    )


def job(cluster_id: str, command: str) -> m.JobCreateParameters:
    return m.JobCreateParameters(cluster=m.ResourceId(id=cluster_id), node_count=1,
                                 std_out_err_path_prefix="$AZ_BATCHAI_MOUNT_ROOT/afs",
                                 custom_toolkit_settings=m.CustomToolkitSettings(command_line=command))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=500)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    args = ap.parse_args()
    rows: list[tuple[str, str, str, str]] = []
    with TempRoot() as root:
        backend = LocalBackend(root)
        shares = FileShareClient(backend)
        url = shares.create_share("afs")
        clusters = ClusterClient(backend)
        cluster = clusters.begin_create("bench", cluster_params(url, 2)).result()
        clusters.wait_for_nodes("bench", 2, timeout=60)
        jobs = JobClient(backend, experiment="bench")

        # --- submit → running, and a trivial job's submit → succeeded
        to_running, to_done, baseline_spawn, baseline_run = [], [], [], []
        for i in range(args.runs):
            t = time.perf_counter()
            subprocess.Popen(["bash", "-c", "true"]).wait()
            baseline_spawn.append(time.perf_counter() - t)
            t = time.perf_counter()
            subprocess.run(["bash", "-c", "true"], check=True)
            baseline_run.append(time.perf_counter() - t)
            t = time.perf_counter()
            jobs.begin_create(f"lat{i}", job(cluster.id, "true"))
            while jobs.get(f"lat{i}").execution_state == "queued":
                time.sleep(0.002)
            to_running.append(time.perf_counter() - t)
            jobs.wait(f"lat{i}")
            t = time.perf_counter()
            jobs.begin_create(f"triv{i}", job(cluster.id, "true")).result()
            to_done.append(time.perf_counter() - t)
        overhead = median(to_done) - median(baseline_run)
        rows.append(("submit → running latency (median)", f"{median(to_running) * 1000:.0f} ms",
                     f"bash spawn {median(baseline_spawn) * 1000:.1f} ms", f"target ≤ 100 ms: {verdict(median(to_running) <= 0.1)}"))
        rows.append(("trivial job submit → succeeded (median)", f"{median(to_done) * 1000:.0f} ms",
                     f"subprocess.run {median(baseline_run) * 1000:.1f} ms",
                     f"overhead {overhead * 1000:.0f} ms; target ≤ 250 ms: {verdict(overhead <= 0.25)}"))

        # --- stream_file line latency
        n_lines = 200
        cmd = (f"python -c \"import time\nfor i in range({n_lines}):\n print(repr(time.time()), flush=True); time.sleep(0.02)\"")
        jobs.begin_create("stream", job(cluster.id, cmd))
        lat = []
        for line in jobs.stream_file("stream"):
            lat.append(time.time() - float(line))
        assert len(lat) == n_lines, len(lat)
        rows.append(("stream_file line latency p50 / p95", f"{pct(lat, 0.5) * 1000:.0f} / {pct(lat, 0.95) * 1000:.0f} ms",
                     "poll interval 20-100 ms", f"target p95 ≤ 100 ms: {verdict(pct(lat, 0.95) <= 0.1)}"))

        # --- idle CPU of the nodes (agents) and the supervisor
        recs = [n for n in (backend.share_dir(backend.control_share) / ".batchai/workspaces/default/clusters/bench/nodes").glob("*.json")]
        import json

        pids = [json.loads(p.read_text())["pid"] for p in recs if json.loads(p.read_text()).get("state") == "idle"]
        sup = int((root / "clusters/default/bench/supervisor.pid").read_text())
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        time.sleep(1.0)
        before = {p: cpu_seconds(p) for p in pids + [sup, sleeper.pid]}
        time.sleep(args.idle_seconds)
        after = {p: cpu_seconds(p) for p in before}
        sleeper.kill()
        per_node = [100 * (after[p] - before[p]) / args.idle_seconds for p in pids]
        sup_pct = 100 * (after[sup] - before[sup]) / args.idle_seconds
        base_pct = 100 * (after[sleeper.pid] - before[sleeper.pid]) / args.idle_seconds
        rows.append(("idle CPU per node agent (of one core)", f"{max(per_node):.2f} %",
                     f"sleeping python {base_pct:.2f} %", f"supervisor {sup_pct:.2f} % per cluster; target ≤ 1 %: {verdict(max(per_node) <= 1)}"))

        # --- throughput: N trivial jobs drained by 2 nodes
        t = time.perf_counter()
        for i in range(args.jobs):
            jobs.begin_create(f"many{i}", job(cluster.id, "true"))
        submitted = time.perf_counter() - t
        jobs.wait(f"many{args.jobs - 1}", timeout=600)
        while any(jobs.get(f"many{i}").execution_state not in ("succeeded", "failed") for i in range(args.jobs - 5, args.jobs)):
            time.sleep(0.05)
        total = time.perf_counter() - t
        t = time.perf_counter()
        for _ in range(args.jobs):
            subprocess.run(["bash", "-c", "true"], check=True)
        seq = time.perf_counter() - t
        rows.append((f"{args.jobs} trivial jobs on a 2-node cluster", f"{args.jobs / total:.1f} jobs/s",
                     f"sequential subprocess.run {args.jobs / seq:.0f} jobs/s",
                     f"submit {args.jobs / submitted:.0f} jobs/s; target ≥ 20 jobs/s: {verdict(args.jobs / total >= 20)}"))
        clusters.begin_delete("bench").result()

    table = "| measure | batchai-sdk | baseline (same run) | note |\n|---|---|---|---|\n" + "\n".join(
        f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    body = f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. `python bench/local_engine.py --jobs {args.jobs} --runs {args.runs}`\n\n{table}\n"
    write_section("Local engine", body)
    print(body)


if __name__ == "__main__":
    main()
