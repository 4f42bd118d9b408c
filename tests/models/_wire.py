"""Helpers for the wire round-trip tests: what serialize() must give back for a given JSON body."""

from __future__ import annotations

from typing import Any

from msrest.serialization import Deserializer, Serializer

import batchai_sdk.models as models

META_KEYS = ("$", "_")


def _is_meta(key: str) -> bool:
    return key.startswith(META_KEYS) or key.rstrip("0123456789") == "comment"


def expected_wire(model_cls: Any, data: Any, *, keep_readonly: bool) -> Any:
    """``data`` minus comment keys, unknown keys, nulls and (unless ``keep_readonly``) read-only keys."""
    if not isinstance(data, dict):
        return data
    if "properties" not in data and any(
        desc["key"].startswith("properties.") for desc in model_cls._attribute_map.values()
    ):
        top = {desc["key"] for desc in model_cls._attribute_map.values()}
        data = {
            **{k: v for k, v in data.items() if k in top},
            "properties": {k: v for k, v in data.items() if k not in top},
        }
    out: dict[str, Any] = {}
    for attr, desc in model_cls._attribute_map.items():
        if not keep_readonly and model_cls._validation.get(attr, {}).get("readonly"):
            continue
        node: Any = data
        for part in desc["key"].split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            continue
        value = _expected_value(desc["type"], node, keep_readonly)
        if value is None:
            continue
        target = out
        parts = desc["key"].split(".")
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value
    return out


def _expected_value(type_name: str, value: Any, keep_readonly: bool) -> Any:
    if type_name == "iso-8601" and isinstance(value, str):
        # msrest writes milliseconds ("...:19.000Z"); compare the instant, not the spelling.
        return Serializer.serialize_iso(Deserializer.deserialize_iso(value))
    if type_name.startswith("[") and isinstance(value, list):
        return [_expected_value(type_name[1:-1], item, keep_readonly) for item in value]
    if type_name.startswith("{") and isinstance(value, dict):
        return {k: v for k, v in value.items() if v is not None}
    cls = getattr(models, type_name, None)
    if isinstance(cls, type) and isinstance(value, dict):
        return expected_wire(cls, value, keep_readonly=keep_readonly)
    return value
