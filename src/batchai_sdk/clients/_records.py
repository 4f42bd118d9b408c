"""The control share seen through an engine's store, and converting records to models."""

from __future__ import annotations

import json
import posixpath
from typing import Any

from azure.core.exceptions import ResourceNotFoundError

from ..control import records as r
from ..engines.base import Backend, Store

PROVIDER = "Microsoft.BatchAI"

#: Wire keys whose values are secrets: kept out of every record a get() returns.
SECRET_KEYS = frozenset({"accountKey", "adminUserPassword", "password", "instrumentationKey"})


class StoreRecords:
    """:class:`batchai_sdk.control.lifecycle.RecordIO` over a store (the clients' view of the control share)."""

    def __init__(self, store: Store, share: str) -> None:
        self.store = store
        self.share = share

    def read_json(self, rel: str) -> Any | None:
        try:
            data = self.store.read(self.share, rel)
        except ResourceNotFoundError:
            return None
        try:
            return json.loads(data)
        except ValueError:
            return None

    def write_json(self, rel: str, record: Any, *, private: bool = False) -> None:
        self.store.write_atomic(self.share, rel, r.dumps(record), private=private)

    def create_json(self, rel: str, record: Any) -> bool:
        return self.store.create_exclusive(self.share, rel, r.dumps(record))

    def listdir(self, rel: str) -> list[str]:
        try:
            return [e.name for e in self.store.list_dir(self.share, rel) if not e.name.startswith(".")]
        except ResourceNotFoundError:
            return []

    def list_entries(self, rel: str) -> list[Any]:
        try:
            return [e for e in self.store.list_dir(self.share, rel) if not e.name.startswith(".")]
        except ResourceNotFoundError:
            return []

    def exists(self, rel: str) -> bool:
        return self.store.stat(self.share, rel) is not None

    def remove(self, rel: str) -> None:
        self.store.delete(self.share, rel)

    def remove_tree(self, rel: str) -> None:
        self.store.delete(self.share, rel, recursive=True)


def strip_secrets(wire: Any) -> tuple[Any, dict[str, Any]]:
    """A copy of a wire spec without secret values, and the values by their wire path.

    ``secrets`` lists keep their names (value ``None``, as Batch AI's GET returned them).
    """
    found: dict[str, Any] = {}

    def walk(node: Any, path: str) -> Any:
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                p = f"{path}.{k}" if path else k
                if k in SECRET_KEYS and v is not None:
                    found[p] = v
                    continue
                if k == "secrets" and isinstance(v, list):
                    items = []
                    for i, item in enumerate(v):
                        item = dict(item)
                        if item.get("value") is not None:
                            found[f"{p}[{i}]"] = {"name": item.get("name"), "value": item["value"]}
                        item["value"] = None
                        items.append(item)
                    out[k] = items
                    continue
                out[k] = walk(v, p)
            return out
        if isinstance(node, list):
            return [walk(x, f"{path}[{i}]") for i, x in enumerate(node)]
        return node

    return walk(wire, ""), found


def secret_env(found: dict[str, Any], prefix: str) -> dict[str, str]:
    """Secret environment variables (name → value) under one wire path prefix."""
    out = {}
    for path, v in found.items():
        if path.startswith(prefix) and isinstance(v, dict):
            out[str(v["name"])] = str(v["value"])
    return out


def resource_id(backend: Backend, *parts: str) -> str:
    """``/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.BatchAI/<parts>``."""
    return (
        f"/subscriptions/{backend.subscription_id}/resourceGroups/{backend.resource_group}"
        f"/providers/{PROVIDER}/" + "/".join(parts)
    )


def parse_cluster_id(cluster_id: str, default_workspace: str) -> tuple[str, str]:
    """(workspace, cluster) from a cluster resource id; a bare name means this workspace."""
    parts = [p for p in cluster_id.split("/") if p]
    if len(parts) == 1:
        return default_workspace, parts[0]
    lower = [p.lower() for p in parts]
    try:
        ws = parts[lower.index("workspaces") + 1]
        name = parts[lower.index("clusters") + 1]
    except (ValueError, IndexError):
        raise ValueError(f"'{cluster_id}' is not a cluster resource id") from None
    return ws, name


def iso(ts: float | None) -> str | None:
    return r.iso(ts)


def join(*parts: str) -> str:
    cleaned = [p.strip("/") for p in parts if p and p.strip("/") not in ("", ".")]
    return posixpath.join(*cleaned) if cleaned else ""
