"""The msrest base class of every model: readable, secret-free ``repr`` and tolerant loading.

msrest already reads flattened ``properties.*`` keys, with or without the ``properties`` wrapper (its key
extractors fall back to the outer object), and ignores keys it does not know. On top of that this base
drops comment keys (``$schema``, ``$comment``, ``comment``, ``_x``) before msrest sees them, so they never end
up in ``additional_properties``, and accepts JSON text as well as dicts.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
import re
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, ClassVar, TypeVar

import isodate
from msrest.exceptions import DeserializationError
from msrest.serialization import Model

_LOGGER = logging.getLogger("batchai_sdk.models")

_SEVEN_DAYS = datetime.timedelta(days=7)

# Keys that annotate a JSON file rather than describe the resource: JSON-schema keys, and the comment keys
# the Batch AI documentation and recipes used.
_META_KEY = re.compile(r"^(?:[$_].*|comment\d*)$")

# .NET TimeSpan text ("7.00:00:00", "01:30:00"): the 7.0.0 default for maxWallClockTime, which 7.0.0
# itself could not serialize (quirk Q3).
_TIMESPAN = re.compile(r"^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$")

M = TypeVar("M", bound="_Model")


def _as_duration(value: Any) -> datetime.timedelta | None:
    """Accept a timedelta, an ISO-8601 duration (``P7D``) or a .NET TimeSpan (``7.00:00:00``)."""
    if value is None or isinstance(value, datetime.timedelta):
        return value
    if isinstance(value, isodate.Duration):
        return value.totimedelta(start=datetime.datetime(2000, 1, 1))
    if isinstance(value, str):
        match = _TIMESPAN.match(value.strip())
        if match:
            days, hours, minutes, seconds, fraction = match.groups()
            return datetime.timedelta(
                days=int(days or 0),
                hours=int(hours),
                minutes=int(minutes),
                seconds=int(seconds),
                microseconds=int((fraction or "0").ljust(7, "0")[:6]),
            )
        try:
            parsed = isodate.parse_duration(value.strip())
        except (isodate.ISO8601Error, ValueError) as err:
            raise ValueError(
                f"not a duration: {value!r} (use a timedelta, ISO-8601 like 'P7D' or 'd.hh:mm:ss')"
            ) from err
        return _as_duration(parsed)
    raise TypeError(f"not a duration: {type(value).__name__}")


def _short(value: Any) -> str:
    if isinstance(value, Enum):
        return repr(value.value)
    if isinstance(value, list):
        return "[" + ", ".join(_short(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_short(item)}" for key, item in value.items()) + "}"
    if isinstance(value, datetime.datetime):
        return repr(value.isoformat())
    if isinstance(value, datetime.timedelta):
        return repr(isodate.duration_isoformat(value))
    return repr(value)


@functools.cache
def _package_models() -> dict[str, type]:
    # msrest resolves type names through the package namespace; building that dict on every serialize()
    # call is what makes tight loops over hundreds of specs slow, so it is built once.
    from batchai_sdk import models

    return {name: value for name, value in vars(models).items() if isinstance(value, type)}


class _WireTree:
    """Per-class view of ``_attribute_map`` keyed by wire key (flattened keys nested under their bag)."""

    __slots__ = ("children", "lower", "types")

    def __init__(self) -> None:
        self.types: dict[str, str] = {}
        self.children: dict[str, _WireTree] = {}
        self.lower: dict[str, str] = {}

    def add(self, parts: list[str], type_name: str) -> None:
        head = parts[0]
        self.lower[head.lower().replace("_", "")] = head
        if len(parts) == 1:
            self.types[head] = type_name
        else:
            self.children.setdefault(head, _WireTree()).add(parts[1:], type_name)


@functools.cache
def _wire_tree(cls: type) -> _WireTree:
    tree = _WireTree()
    for desc in cls._attribute_map.values():  # type: ignore[attr-defined]
        if desc["key"]:
            tree.add(desc["key"].split("."), desc["type"])
    return tree


def clean_wire(
    cls: type,
    data: Any,
    *,
    path: str = "",
    on_unknown: Callable[[str], None] | None = None,
    on_renamed: Callable[[str, str], None] | None = None,
) -> Any:
    """Return a copy of ``data`` (wire JSON for ``cls``) without comment keys.

    Walks the model schema, so free-form dicts (``tags``, ``Operation.properties``) keep their keys. A key
    that only differs from a known one by case or underscores (``process_count``) is renamed to the wire
    spelling and reported through ``on_renamed``; other unknown keys stay (msrest ignores them) and are
    reported through ``on_unknown``. A body given without its ``properties`` wrapper is wrapped.
    """
    if not isinstance(data, Mapping):
        return data
    tree = _wire_tree(cls)
    bag = tree.children.get("properties")
    if bag is not None and "properties" not in data:
        # Flat body (the recipes' fragments, CLI-style files): move the bag's keys into the wrapper.
        outer = {k: v for k, v in data.items() if k in tree.types or _META_KEY.match(k)}
        inner = {k: v for k, v in data.items() if k not in outer}
        data = {**outer, "properties": inner} if inner else outer
    return _clean_tree(tree, data, path, on_unknown, on_renamed)


def _clean_tree(
    tree: _WireTree,
    data: Mapping[str, Any],
    path: str,
    on_unknown: Callable[[str], None] | None,
    on_renamed: Callable[[str, str], None] | None,
) -> dict[str, Any]:
    models = _package_models()
    out: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str) or _META_KEY.match(key):
            continue
        here = f"{path}.{key}" if path else key
        wire_key = key
        if key not in tree.types and key not in tree.children:
            known = tree.lower.get(key.lower().replace("_", ""))
            if known is None:
                if on_unknown is not None:
                    on_unknown(here)
                out[key] = value
                continue
            wire_key = known
            if on_renamed is not None:
                on_renamed(here, known)
            here = f"{path}.{known}" if path else known
        if wire_key in tree.children:
            sub = tree.children[wire_key]
            out[wire_key] = (
                _clean_tree(sub, value, here, on_unknown, on_renamed) if isinstance(value, Mapping) else value
            )
            continue
        out[wire_key] = _clean_value(tree.types[wire_key], value, here, models, on_unknown, on_renamed)
    return out


def _clean_value(
    type_name: str,
    value: Any,
    path: str,
    models: dict[str, type],
    on_unknown: Callable[[str], None] | None,
    on_renamed: Callable[[str, str], None] | None,
) -> Any:
    if type_name.startswith("[") and isinstance(value, list):
        inner = type_name[1:-1]
        return [
            _clean_value(inner, item, f"{path}[{index}]", models, on_unknown, on_renamed)
            for index, item in enumerate(value)
        ]
    model_cls = models.get(type_name)
    if model_cls is not None and isinstance(value, Mapping):
        return _clean_tree(_wire_tree(model_cls), value, path, on_unknown, on_renamed)
    return value


def _parse_if_text(data: Any) -> Any:
    if isinstance(data, (str, bytes, bytearray)):
        try:
            return json.loads(data)
        except ValueError as err:
            raise DeserializationError(f"not JSON: {err}") from err
    return data


class _Model(Model):
    """Base of every Batch AI model (an ``msrest.serialization.Model``)."""

    _attribute_map: dict[str, dict[str, Any]] = {}
    _validation: dict[str, dict[str, Any]] = {}
    # Attributes whose value is a secret: shown as '***' by repr()/str().
    _secret_attributes: ClassVar[frozenset[str]] = frozenset()

    def __repr__(self) -> str:
        parts = []
        for attr in self._attribute_map:
            value = getattr(self, attr, None)
            if value is None:
                continue
            shown = "'***'" if attr in self._secret_attributes else _short(value)
            parts.append(f"{attr}={shown}")
        return f"{type(self).__name__}({', '.join(parts)})"

    __str__ = __repr__

    @classmethod
    def _infer_class_models(cls) -> dict[str, type]:
        return _package_models()

    @classmethod
    def deserialize(cls: type[M], data: Any, content_type: str | None = None) -> M:
        """Read wire JSON (a dict or JSON text); comment keys are ignored, ``properties`` optional."""
        data = clean_wire(cls, _parse_if_text(data))
        result: M = super().deserialize(data, content_type=content_type)
        return result

    @classmethod
    def from_dict(cls: type[M], data: Any, key_extractors: Any = None, content_type: str | None = None) -> M:
        """Read a dict keyed by wire names or Python attribute names (msrest's case-insensitive rules)."""
        data = clean_wire(cls, _parse_if_text(data))
        result: M = super().from_dict(data, key_extractors=key_extractors, content_type=content_type)
        return result


class _CreateParametersModel(_Model):
    """A request body: ``validate()`` adds the Batch AI rules to msrest's required/min/max checks."""

    def validate(self) -> list[Any]:
        """Return every problem as a list of ``msrest.exceptions.ValidationError``.

        msrest's own entries (required, minimum, maximum; targets like ``'JobCreateParameters.cluster'``)
        come first, then one :class:`~batchai_sdk.models.SpecValidationError` per Batch AI rule that fails,
        whose ``target`` is the wire path (``properties.outputDirectories[1].id``). An empty list means valid.
        """
        from ._validation import SpecValidationError, semantic_errors

        result: list[Any] = list(super().validate())
        result.extend(SpecValidationError(path, message) for path, message in semantic_errors(self))
        return result
