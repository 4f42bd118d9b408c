"""``-o json|table|tsv``: az's JSON shape (camelCase attributes, ``resourceGroup`` added) and its table
columns. Secret values are dropped here too, though the records the clients return never hold them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

Column = tuple[str, Callable[[dict[str, Any]], Any]]

#: Keys whose values are secrets in Batch AI specs.
SECRET_KEYS = frozenset({"accountKey", "adminUserPassword", "password", "sasKey", "storageAccountKey", "key"})

_RG = re.compile(r"/resourceGroups/([^/]+)", re.IGNORECASE)
_WS = re.compile(r"/workspaces/([^/]+)", re.IGNORECASE)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def to_data(value: Any) -> Any:
    """A model (or list of models) as az printed it; plain values pass through."""
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if hasattr(value, "as_dict") and hasattr(value, "_attribute_map"):
        data = value.as_dict(keep_readonly=True, key_transformer=lambda key, desc, v: (_camel(key), v))
        rid = data.get("id")
        if isinstance(rid, str):
            m = _RG.search(rid)
            if m:
                data["resourceGroup"] = m.group(1)
        return scrub(data)
    return scrub(value)


def scrub(value: Any) -> Any:
    """Drop secret values (and ``secrets[].value``) from a JSON-like value."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in SECRET_KEYS and isinstance(v, str):
                continue
            if k == "secrets" and isinstance(v, list):
                v = [{kk: vv for kk, vv in s.items() if kk != "value"} if isinstance(s, dict) else s for s in v]
            out[k] = scrub(v)
        return out
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def dig(data: dict[str, Any], *path: str) -> Any:
    cur: Any = data
    for p in path:
        if not isinstance(cur, dict):
            return None
        cur = cur.get(p)
    return cur


def workspace_of(data: dict[str, Any], key: str = "id") -> str | None:
    m = _WS.search(str(data.get(key) or ""))
    return m.group(1) if m else None


def emit(value: Any, fmt: str, columns: Sequence[Column] | None = None) -> None:
    """Print a result in the chosen format (a single object too is a one-row table)."""
    if value is None:
        return
    data = to_data(value)
    if fmt == "json" or columns is None:
        click.echo(json.dumps(data, indent=2, sort_keys=False, default=str))
        return
    rows = data if isinstance(data, list) else [data]
    cells = [[_cell(fn(row)) for _, fn in columns] for row in rows]
    if fmt == "tsv":
        for line in cells:
            click.echo("\t".join(line))
        return
    click.echo(render_table([h for h, _ in columns], cells))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def render_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    rows = [list(r) for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------- az batchai table formats
WORKSPACE_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("Resource Group", lambda d: d.get("resourceGroup")),
    ("Location", lambda d: d.get("location")),
    ("State", lambda d: d.get("provisioningState")),
]

EXPERIMENT_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("Resource Group", lambda d: d.get("resourceGroup")),
    ("Workspace", lambda d: workspace_of(d)),
    ("State", lambda d: d.get("provisioningState")),
]


def _cluster_state(d: dict[str, Any]) -> Any:
    return "deleting" if d.get("provisioningState") == "deleting" else d.get("allocationState")


CLUSTER_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("Resource Group", lambda d: d.get("resourceGroup")),
    ("Workspace", lambda d: workspace_of(d)),
    ("VM Size", lambda d: d.get("vmSize")),
    ("State", _cluster_state),
    ("Idle", lambda d: dig(d, "nodeStateCounts", "idleNodeCount")),
    ("Running", lambda d: dig(d, "nodeStateCounts", "runningNodeCount")),
    ("Preparing", lambda d: dig(d, "nodeStateCounts", "preparingNodeCount")),
    ("Leaving", lambda d: dig(d, "nodeStateCounts", "leavingNodeCount")),
    ("Unusable", lambda d: dig(d, "nodeStateCounts", "unusableNodeCount")),
]


def _cluster_rg(d: dict[str, Any]) -> str | None:
    m = _RG.search(str(dig(d, "cluster", "id") or ""))
    return m.group(1) if m else None


def _cluster_name(d: dict[str, Any]) -> str:
    return str(dig(d, "cluster", "id") or "").rstrip("/").split("/")[-1]


JOB_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("Cluster", _cluster_name),
    ("Cluster RG", _cluster_rg),
    ("Cluster Workspace", lambda d: workspace_of(d.get("cluster") or {}, "id")),
    ("Tool", lambda d: d.get("toolType")),
    ("Nodes", lambda d: d.get("nodeCount")),
    ("State", lambda d: "deleting" if d.get("provisioningState") == "deleting" else d.get("executionState")),
    ("Exit code", lambda d: dig(d, "executionInfo", "exitCode")),
]

NODE_COLUMNS: list[Column] = [
    ("ID", lambda d: d.get("nodeId")),
    ("IP", lambda d: d.get("ipAddress")),
    ("SSH Port", lambda d: d.get("port")),
]

FILE_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("Type", lambda d: d.get("fileType")),
    ("Size", lambda d: dig(d, "contentLength") if "contentLength" in d else d.get("size")),
    ("Modified", lambda d: d.get("lastModified")),
]

FILE_SERVER_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("Resource Group", lambda d: d.get("resourceGroup")),
    ("Workspace", lambda d: workspace_of(d)),
    ("VM Size", lambda d: d.get("vmSize")),
    ("Disk Number", lambda d: dig(d, "dataDisks", "diskCount")),
    ("Disk Size", lambda d: dig(d, "dataDisks", "diskSizeInGb")),
    ("State", lambda d: d.get("provisioningState")),
]

SHARE_COLUMNS: list[Column] = [
    ("Name", lambda d: d.get("name")),
    ("URL", lambda d: d.get("url")),
]
