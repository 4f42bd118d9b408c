"""``batchai file-server`` on the local engine, through the installed console script."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from cli_helpers import SCRIPT, Cli  # noqa: E402

PASSWORD = "Cli-Fs-Pa55word!"


@pytest.fixture
def cli(local_root: Path, tmp_path: Path) -> Iterator[Cli]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed at {SCRIPT} (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    yield Cli(local_root, home)


def _json(result: Any) -> Any:
    return json.loads(result.out)


def test_create_show_list_delete(cli: Cli, local_root: Path) -> None:
    created = _json(cli("file-server", "create", "-n", "nfs1", "-s", "Standard_D14", "--disk-count", "2",
                        "--disk-size", "64", "--storage-sku", "Premium_LRS", "--caching-type", "readonly",
                        "-u", "fsadmin", "-p", PASSWORD, "-o", "json"))
    volume = local_root / "shares" / "fileserver-nfs1"
    assert created["provisioningState"] == "succeeded"
    assert created["mountSettings"]["mountPoint"] == str(volume) and volume.is_dir()
    assert created["dataDisks"]["diskCount"] == 2 and created["dataDisks"]["cachingType"] == "readonly"

    shown = cli("file-server", "show", "-n", "nfs1", "-o", "json")
    assert _json(shown)["id"] == created["id"] and PASSWORD not in shown.out
    table = cli("file-server", "list", "-o", "table").out
    assert "nfs1" in table and "Standard_D14" in table and "succeeded" in table

    cli("file-server", "delete", "-n", "nfs1", "-y")
    assert not volume.exists()
    gone = cli("file-server", "show", "-n", "nfs1", ok=False)
    assert gone.rc != 0 and "nfs1" in gone.err and "not found" in gone.err
    assert _json(cli("file-server", "list", "-o", "json")) == []


def test_missing_options_are_named(cli: Cli, local_root: Path) -> None:
    result = cli("file-server", "create", "-n", "nfs1", "-s", "Standard_D14", "-u", "fsadmin", "-p", PASSWORD,
                 ok=False)
    assert result.rc != 0
    for option in ("--disk-count", "--disk-size", "--storage-sku"):
        assert option in result.err
    assert not (local_root / "shares" / "fileserver-nfs1").exists()
