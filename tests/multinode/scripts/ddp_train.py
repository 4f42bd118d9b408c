"""Two-rank DistributedDataParallel over gloo: an all-reduce, then a few steps of linear regression."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
dist.init_process_group(backend=os.environ["AZ_BATCHAI_PYTORCH_BACKEND"],
                        init_method=os.environ["AZ_BATCHAI_PYTORCH_INIT_METHOD"], rank=rank, world_size=world)
print(f"rank={dist.get_rank()} world={dist.get_world_size()} node_rank={os.environ['NODE_RANK']} "
      f"node={os.environ['AZ_BATCHAI_NODE_ID']} gloo_ifname={os.environ.get('GLOO_SOCKET_IFNAME', '')} "
      f"master={os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}", flush=True)

t = torch.tensor([float(rank + 1)])
dist.all_reduce(t)
print(f"allreduce={t.item():g}", flush=True)

torch.manual_seed(rank)  # each rank sees different data; DDP keeps their weights equal
x = torch.randn(64, 1)
y = 2 * x + 1
model = DistributedDataParallel(torch.nn.Linear(1, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.2)
first = last = 0.0
for step in range(40):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    first = loss.item() if step == 0 else first
    last = loss.item()
w, b = model.module.weight.item(), model.module.bias.item()
print(f"first_loss={first:.6f} final_loss={last:.6f} weight={w:.6f} bias={b:.6f}", flush=True)
dist.barrier()  # leave together: a rank tearing gloo down while its peer still talks can abort (SIGABRT)
dist.destroy_process_group()
