"""``batchai_sdk.toolkits`` runs on bare VMs: importing it must load nothing outside the standard library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "src" / "batchai_sdk"

# The parent package is replaced by an empty stand-in so that what is measured is the toolkits' own imports,
# whatever ``batchai_sdk/__init__.py`` (client side) pulls in.
PROBE = r"""
import json, sys, types
before = set(sys.modules)
parent = types.ModuleType("batchai_sdk")
parent.__path__ = [sys.argv[1]]
sys.modules["batchai_sdk"] = parent
import batchai_sdk.toolkits
for name in list(batchai_sdk.toolkits.__all__):
    getattr(batchai_sdk.toolkits, name)
new = {name.split(".")[0] for name in set(sys.modules) - before}
foreign = sorted(n for n in new if n != "batchai_sdk" and n not in sys.stdlib_module_names)
loaded = sorted(n for n in sys.modules if n.startswith("batchai_sdk."))
print(json.dumps({"foreign": foreign, "loaded": loaded}))
"""


def test_toolkits_import_only_the_standard_library() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(PACKAGE_DIR)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(result.stdout)
    assert report["foreign"] == [], f"batchai_sdk.toolkits imports non-stdlib modules: {report['foreign']}"
    # Only the toolkits themselves were loaded, never a sibling such as batchai_sdk.models.
    assert all(name.startswith("batchai_sdk.toolkits") for name in report["loaded"]), report["loaded"]
    assert "batchai_sdk.toolkits.launch" in report["loaded"]
