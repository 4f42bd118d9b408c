"""The Azure SDKs load only with the Azure engine."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("azure.mgmt", "azure.storage", "azure.identity")


def _loaded(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(sorted({{m.split('.')[0] + '.' + m.split('.')[1] for m in sys.modules if m.startswith({HEAVY!r})}}))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return eval(out)  # noqa: S307 - our own printed list


def test_import_batchai_sdk_loads_no_azure_sdk() -> None:
    assert _loaded("import batchai_sdk") == []


def test_the_engine_loads_files_only_until_it_provisions() -> None:
    # Compute, network and identity load on first use (a listing of shares needs none of them).
    assert _loaded("import batchai_sdk.engines.azure") == ["azure.storage"]
    assert "azure.mgmt.network" not in subprocess.run(
        [sys.executable, "-c", "import sys, batchai_sdk.engines.azure; print(list(sys.modules))"],
        capture_output=True, text=True, check=True).stdout
