"""The control share as the agent sees it: a mounted directory, records written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_atomic(path: Path, data: bytes, *, private: bool = False) -> None:
    """Replace ``path`` so that no reader sees half of it (a temporary name, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".")
    try:
        if not private:
            os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def create_exclusive(path: Path, data: bytes) -> bool:
    """Create ``path`` only if absent; True when this call created it.

    Written under a temporary name and hard-linked into place: readers never see a half-written record,
    and link() fails atomically when the name exists.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        Path(tmp).unlink(missing_ok=True)


class ControlDir:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path(self, rel: str) -> Path:
        return self.root / rel

    def read_json(self, rel: str) -> Any | None:
        try:
            return json.loads(self.path(rel).read_bytes())
        except (FileNotFoundError, NotADirectoryError):
            return None
        except ValueError:
            # A record is replaced by rename, so a parse error means a foreign or corrupt file.
            return None

    def write_json(self, rel: str, record: Any, *, private: bool = False) -> None:
        write_atomic(self.path(rel), json.dumps(record, indent=1, sort_keys=True).encode("utf-8"), private=private)

    def create_json(self, rel: str, record: Any) -> bool:
        """Exclusive create: True when this call made the record (a lock others can see)."""
        return create_exclusive(self.path(rel), json.dumps(record, indent=1, sort_keys=True).encode("utf-8"))

    def exists(self, rel: str) -> bool:
        return self.path(rel).exists()

    def listdir(self, rel: str) -> list[str]:
        try:
            return sorted(n for n in os.listdir(self.path(rel)) if not n.startswith("."))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def remove(self, rel: str) -> None:
        try:
            self.path(rel).unlink()
        except (FileNotFoundError, IsADirectoryError):
            pass
