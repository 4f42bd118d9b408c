"""Rank 1 fails soon; every other rank would run for a minute."""

import os
import sys
import time

rank = int(os.environ["RANK"])
print(f"rank {rank} started on {os.environ['AZ_BATCHAI_NODE_ID']}", flush=True)
if rank == 1:
    time.sleep(0.5)
    print("rank 1 gives up", file=sys.stderr, flush=True)
    sys.exit(3)
time.sleep(60)
print(f"rank {rank} finished", flush=True)
