"""Reading Batch AI JSON files the way ``az batchai`` did.

A file is ``{"$schema": ..., "properties": {...}}`` (or the body without the wrapper). Loading:

1. parses the JSON (errors name ``file:line:column``);
2. drops comment keys (``$schema``, ``$comment``, ``comment``...), renames recognisable misspellings such as
   ``process_count`` → ``processCount`` with a warning, and warns about other unknown keys;
3. substitutes ``<AZURE_BATCHAI_STORAGE_ACCOUNT>`` / ``<AZURE_BATCHAI_STORAGE_KEY>`` (arguments, else the
   environment variables of the same names); a placeholder with no value stays, and validation reports it;
4. completes the mounts (cluster ``nodeSetup.mountVolumes`` and job ``mountVolumes``): ``accountName``
   from ``azureFileUrl``, and missing ``credentials`` from the storage key when the mount's account is the
   given account (or no account was given);
5. deserializes into the requested model.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..exceptions import ValidationError
from ._base import _Model, clean_wire
from ._clusters import ClusterCreateParameters
from ._file_servers import FileServerCreateParameters
from ._jobs import JobCreateParameters

__all__ = ["load_spec", "load_job_file", "load_cluster_file", "load_file_server_file"]

_LOGGER = logging.getLogger("batchai_sdk.models.loading")

ACCOUNT_PLACEHOLDER = "<AZURE_BATCHAI_STORAGE_ACCOUNT>"
KEY_PLACEHOLDER = "<AZURE_BATCHAI_STORAGE_KEY>"
ACCOUNT_ENV = "AZURE_BATCHAI_STORAGE_ACCOUNT"
KEY_ENV = "AZURE_BATCHAI_STORAGE_KEY"

_FILE_URL_ACCOUNT = re.compile(r"^https?://([^./]+)\.file\.", re.IGNORECASE)

M = TypeVar("M", bound=_Model)


def load_spec(
    source: str | bytes | Mapping[str, Any],
    model_cls: type[M],
    *,
    storage_account_name: str | None = None,
    storage_account_key: str | None = None,
    source_name: str = "<spec>",
) -> M:
    """Build ``model_cls`` from JSON text or a dict in Batch AI wire form (see the module docstring).

    ``source_name`` names the input in messages (a file name). Invalid JSON raises
    :class:`~batchai_sdk.exceptions.ValidationError` with ``name:line:column: reason``. The result is not
    validated: call :func:`~batchai_sdk.models.raise_if_invalid` once the caller's arguments are applied.
    """
    data = _parse(source, source_name)
    if not isinstance(data, Mapping):
        raise ValidationError(
            [(source_name, f"must be a JSON object, not {type(data).__name__}")], source_name
        )
    account = storage_account_name if storage_account_name is not None else os.environ.get(ACCOUNT_ENV)
    key = storage_account_key if storage_account_key is not None else os.environ.get(KEY_ENV)

    def unknown(path: str) -> None:
        _LOGGER.warning("%s: unknown key %s ignored", source_name, path)

    def renamed(path: str, known: str) -> None:
        _LOGGER.warning("%s: key %s read as %s", source_name, path, known)

    wire = clean_wire(model_cls, data, on_unknown=unknown, on_renamed=renamed)
    wire = _substitute(wire, account, key)
    props = wire.get("properties")
    if isinstance(props, dict):
        _complete_mounts(props.get("mountVolumes"), account, key)
        node_setup = props.get("nodeSetup")
        if isinstance(node_setup, dict):
            _complete_mounts(node_setup.get("mountVolumes"), account, key)
    try:
        return model_cls.deserialize(wire)
    except Exception as err:  # msrest wraps type errors in DeserializationError
        raise ValidationError(
            [(source_name, f"cannot be read as {model_cls.__name__}: {err}")], source_name
        ) from err


def load_job_file(
    path: str | os.PathLike[str],
    *,
    storage_account_name: str | None = None,
    storage_account_key: str | None = None,
) -> JobCreateParameters:
    """Read a job JSON file (``az batchai job create -f``) into :class:`JobCreateParameters`."""
    return _load_file(path, JobCreateParameters, storage_account_name, storage_account_key)


def load_cluster_file(
    path: str | os.PathLike[str],
    *,
    storage_account_name: str | None = None,
    storage_account_key: str | None = None,
) -> ClusterCreateParameters:
    """Read a cluster JSON file (``az batchai cluster create -f``) into :class:`ClusterCreateParameters`."""
    return _load_file(path, ClusterCreateParameters, storage_account_name, storage_account_key)


def load_file_server_file(
    path: str | os.PathLike[str],
    *,
    storage_account_name: str | None = None,
    storage_account_key: str | None = None,
) -> FileServerCreateParameters:
    """Read a file server JSON file (``az batchai file-server create -f``)."""
    return _load_file(path, FileServerCreateParameters, storage_account_name, storage_account_key)


def _load_file(path: str | os.PathLike[str], model_cls: type[M], account: str | None, key: str | None) -> M:
    file = Path(path)
    text = file.read_text(encoding="utf-8-sig")
    return load_spec(
        text, model_cls, storage_account_name=account, storage_account_key=key, source_name=file.name
    )


def _parse(source: str | bytes | Mapping[str, Any], name: str) -> Any:
    if isinstance(source, Mapping):
        return source
    if isinstance(source, (bytes, bytearray)):
        source = source.decode("utf-8-sig")
    try:
        return json.loads(source)
    except json.JSONDecodeError as err:
        where = f"{name}:{err.lineno}:{err.colno}"
        raise ValidationError([(where, err.msg)], name) from None


def _substitute(value: Any, account: str | None, key: str | None) -> Any:
    if isinstance(value, str):
        if account is not None and ACCOUNT_PLACEHOLDER in value:
            value = value.replace(ACCOUNT_PLACEHOLDER, account)
        if key is not None and KEY_PLACEHOLDER in value:
            value = value.replace(KEY_PLACEHOLDER, key)
        return value
    if isinstance(value, dict):
        return {k: _substitute(v, account, key) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, account, key) for v in value]
    return value


def _complete_mounts(volumes: Any, account: str | None, key: str | None) -> None:
    if not isinstance(volumes, dict):
        return
    for share in volumes.get("azureFileShares") or []:
        if not isinstance(share, dict):
            continue
        if not share.get("accountName"):
            match = _FILE_URL_ACCOUNT.match(share.get("azureFileUrl") or "")
            if match:
                share["accountName"] = match.group(1)
        _fill_credentials(share, account, key)
    for blob in volumes.get("azureBlobFileSystems") or []:
        if not isinstance(blob, dict):
            continue
        if not blob.get("accountName") and account:
            blob["accountName"] = account
        _fill_credentials(blob, account, key)


def _fill_credentials(mount: dict[str, Any], account: str | None, key: str | None) -> None:
    if key is None or mount.get("credentials"):
        return
    name = mount.get("accountName")
    # The key only belongs to the given account: never hand it to a mount of another account.
    if account is None or name is None or name.lower() == account.lower():
        mount["credentials"] = {"accountKey": key}
