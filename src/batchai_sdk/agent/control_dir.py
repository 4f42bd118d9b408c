"""The control share as the agent sees it: a mounted directory, records written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


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
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix="." + p.name + ".")
        try:
            if not private:
                os.fchmod(fd, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(record, f, indent=1, sort_keys=True)
            os.replace(tmp, p)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def create_json(self, rel: str, record: Any) -> bool:
        """Exclusive create: True when this call made the record (a lock others can see)."""
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix="." + p.name + ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(record, f, indent=1, sort_keys=True)
            os.link(tmp, p)
            return True
        except FileExistsError:
            return False
        finally:
            Path(tmp).unlink(missing_ok=True)

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
