"""Names of the environment variables a job sees (the contract of ``docs/environment.md``)."""

from __future__ import annotations

# The generic multi-node contract, set for every toolkit.
NODE_RANK = "NODE_RANK"
NUM_NODES = "NUM_NODES"
#: Comma list of the job's node addresses in NODE_RANK order (the one node-list name we document).
NODE_LIST = "AZ_BATCHAI_NODE_LIST"
MASTER_ADDR = "MASTER_ADDR"
MASTER_PORT = "MASTER_PORT"
WORLD_SIZE = "WORLD_SIZE"
RANK = "RANK"
LOCAL_RANK = "LOCAL_RANK"

# Batch AI's own names (BATCHAI-SERVICE.md Part C 4.1).
SHARED_JOB_TEMP = "AZ_BATCHAI_SHARED_JOB_TEMP"
MPI_HOST_FILE = "AZ_BATCHAI_MPI_HOST_FILE"
TASK_INDEX = "AZ_BATCHAI_TASK_INDEX"
PS_HOSTS = "AZ_BATCHAI_PS_HOSTS"
WORKER_HOSTS = "AZ_BATCHAI_WORKER_HOSTS"
TF_CONFIG = "TF_CONFIG"
PYTORCH_INIT_METHOD = "AZ_BATCHAI_PYTORCH_INIT_METHOD"
PYTORCH_BACKEND = "AZ_BATCHAI_PYTORCH_BACKEND"

# Set by the node agent, not by a launch plan; listed so MPI ranks on other nodes receive them.
AGENT_SET = (
    "AZ_BATCHAI_MOUNT_ROOT",
    "AZ_BATCHAI_JOB_MOUNT_ROOT",
    "AZ_BATCHAI_STDOUTERR_DIR",
    "AZ_BATCHAI_JOB_TEMP",
    "AZ_BATCHAI_JOB_TEMP_DIR",
    "AZ_BATCHAI_NUM_GPUS",
    "AZ_BATCHAI_JOB_ATTEMPT",
    "AZ_BATCHAI_JOB_NAME",
    "AZ_BATCHAI_CLUSTER_NAME",
)

#: Process-environment variables every MPI rank needs to find its interpreter and libraries.
RUNTIME_FORWARDED = ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH")
