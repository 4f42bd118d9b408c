"""Print where this rank runs."""

import os

print(" ".join(f"{k}={os.environ[k]}" for k in ("RANK", "WORLD_SIZE", "NODE_RANK", "AZ_BATCHAI_NODE_ID",
                                                 "GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME")), flush=True)
