"""FakeAzure in its own process, as a remote service would be: the client's threads do not share its GIL.

Prints one JSON line (files_url, account_name, account_key, ca_bundle, ...) then answers commands on stdin:
``counts`` (JSON: operation -> requests since the last ``reset``), ``reset``, ``slow SECONDS`` (every Files
request answers that much later: a network round trip; 0 clears it). Exits, removing its data, on EOF.
"""

from __future__ import annotations

import collections
import json
import sys

from batchai_sdk.testing import FakeAzure


def main() -> None:
    with FakeAzure() as fake:
        info = {k: getattr(fake, k) for k in ("files_url", "arm_url", "account_name", "account_key", "ca_bundle",
                                              "subscription_id", "resource_group", "location")}
        print(json.dumps(info), flush=True)
        seen = 0
        for line in sys.stdin:
            cmd = line.strip()
            reqs = fake.requests
            if cmd == "reset":
                seen = len(reqs)
                print("{}", flush=True)
            elif cmd.startswith("slow "):
                fake.clear_faults()
                if float(cmd.split()[1]) > 0:
                    fake.slow("files.*", float(cmd.split()[1]))
                print("{}", flush=True)
            elif cmd == "counts":
                print(json.dumps(collections.Counter(r.operation for r in reqs[seen:])), flush=True)


if __name__ == "__main__":
    main()
