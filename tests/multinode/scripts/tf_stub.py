"""A TensorFlow-shaped task without TensorFlow: checks its cluster spec, listens on its port like a gRPC server.

Parameter servers then wait forever (as ``server.join()`` does); workers connect to every parameter server and
exit.
"""

import argparse
import json
import os
import socket
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--job_name", required=True)
parser.add_argument("--task_index", type=int, required=True)
parser.add_argument("--ps_hosts", default="")
parser.add_argument("--worker_hosts", required=True)
a = parser.parse_args()

config = json.loads(os.environ["TF_CONFIG"])
kind = {"worker": "worker", "ps": "ps"}[a.job_name]
problems = []
if config["task"] != {"type": kind, "index": a.task_index}:
    problems.append(f"task {config['task']} != {kind} {a.task_index}")
if int(os.environ["AZ_BATCHAI_TASK_INDEX"]) != a.task_index:
    problems.append("AZ_BATCHAI_TASK_INDEX differs from --task_index")
if config["cluster"].get("ps", []) != [h for h in a.ps_hosts.split(",") if h]:
    problems.append("TF_CONFIG ps differs from AZ_BATCHAI_PS_HOSTS")
if config["cluster"]["worker"] != a.worker_hosts.split(","):
    problems.append("TF_CONFIG worker differs from AZ_BATCHAI_WORKER_HOSTS")
if problems:
    print("BAD", *problems, sep="\n", flush=True)
    sys.exit(2)

me = config["cluster"][kind][a.task_index]
host, port = me.rsplit(":", 1)
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind((host, int(port)))
server.listen()
print(f"role={kind} index={a.task_index} node_rank={os.environ['NODE_RANK']} listening={me} ok", flush=True)

if kind == "ps":
    while True:  # serve until the agent stops us, like server.join()
        conn, _ = server.accept()
        conn.sendall(b"ps\n")
        conn.close()

# Later workers come late (as a slow node would): parameter servers must serve until the last worker is done.
time.sleep(1.5 * a.task_index)
for ps in config["cluster"].get("ps", []):
    h, p = ps.rsplit(":", 1)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection((h, int(p)), timeout=2) as c:
                print(f"connected={ps} got={c.recv(16).decode().strip()}", flush=True)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
