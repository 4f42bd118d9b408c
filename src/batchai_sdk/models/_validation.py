"""Validation beyond msrest's required/minimum/maximum: the rules the Batch AI service enforced.

Every problem is a ``(wire path, message)`` pair, the path in wire form (``properties.outputDirectories[1].id``).
Messages never contain secret values (keys, passwords, secret environment values).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from msrest.exceptions import ClientException
from msrest.exceptions import ValidationError as MsrestValidationError

from ..exceptions import ValidationError
from ._tools import present_toolkits

__all__ = [
    "SpecValidationError",
    "validate_model",
    "raise_if_invalid",
    "semantic_errors",
    "validate_resource_name",
    "validate_share_name",
]

Problem = tuple[str, str]

# Compiled once: clients validate hundreds of specs in a loop.
_RESOURCE_NAME = re.compile(r"^[-\w]{1,64}$", re.ASCII)
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SHARE_NAME = re.compile(r"^(?=.{3,63}$)[a-z0-9](?:[a-z0-9]|-(?!-))*[a-z0-9]$")
_AZURE_FILE_URL = re.compile(r"^https?://([^./]+)\.file\.[^/]+/([^/]+)/?$", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"<AZURE_BATCHAI_STORAGE_(?:ACCOUNT|KEY)>")
_RESERVED_PREFIX = "AZ_BATCHAI_"
_STDOUTERR_ID = "stdouterr"
# Settings whose processCount launches that many processes over the job's nodes.
_PROCESS_COUNT_TOOLKITS = (
    "cntk_settings",
    "caffe_settings",
    "chainer_settings",
    "horovod_settings",
    "custom_mpi_settings",
    "py_torch_settings",
)
# Required fields that only matter when the storage is real Azure storage.
_STORAGE_REQUIRED = {
    ("AzureFileShareReference", "credentials"),
    ("AzureFileShareReference", "account_name"),
    ("AzureBlobFileSystemReference", "credentials"),
    ("AzureBlobFileSystemReference", "account_name"),
}


class SpecValidationError(MsrestValidationError):
    """One failed Batch AI rule, in msrest's ``ValidationError`` shape (``rule='batchai'``).

    ``target`` is the wire path, ``reason`` the message; ``str()`` is ``Parameter '<path>' <reason>``.
    """

    def __init__(self, path: str, reason: str) -> None:
        self.rule = "batchai"
        self.target = path
        self.reason = reason
        ClientException.__init__(self, f"Parameter {path!r} {reason}")


class _Context:
    __slots__ = ("generic", "problems", "storage")

    def __init__(self, *, generic: bool, storage: bool) -> None:
        self.generic = generic
        self.storage = storage
        self.problems: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append((path, message))


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _p(model: Any, attr: str, path: str) -> str:
    return _join(path, type(model)._attribute_map[attr]["key"])


def validate_model(model: Any, *, storage_credentials: bool = True) -> list[Problem]:
    """Return every problem of ``model`` (any Batch AI model) as ``(wire path, message)``; empty if valid.

    Checks required fields (including those 7.0.0 lost, Q1), ``minimum``/``maximum``, and the rules
    listed in ``docs/models.md``. ``storage_credentials=False`` skips what only real Azure storage needs
    (mount account names and credentials, unsubstituted storage placeholders), for the local engine.
    """
    ctx = _Context(generic=True, storage=storage_credentials)
    _walk(model, "", ctx)
    return ctx.problems


def semantic_errors(model: Any, *, storage_credentials: bool = True) -> list[Problem]:
    """Only the Batch AI rules (not required/min/max, which msrest's ``validate()`` already reports)."""
    ctx = _Context(generic=False, storage=storage_credentials)
    _walk(model, "", ctx)
    return ctx.problems


def raise_if_invalid(model: Any, subject: str | None = None, *, storage_credentials: bool = True) -> None:
    """Raise :class:`~batchai_sdk.exceptions.ValidationError` listing every problem of ``model``."""
    problems = validate_model(model, storage_credentials=storage_credentials)
    if problems:
        raise ValidationError(problems, subject or type(model).__name__)


def validate_resource_name(name: str, kind: str) -> str:
    """Return ``name`` if it is a valid Batch AI resource name, else raise ``ValidationError``.

    ``kind`` is what is named (``"cluster"``, ``"job"``, ``"workspace"``, ``"experiment"``, ``"file server"``).
    Rule: 1 to 64 ASCII letters, digits, ``-`` and ``_`` (the REST path pattern ``^[-\\w_]+$``).
    """
    if not isinstance(name, str) or not _RESOURCE_NAME.match(name):
        raise ValidationError(
            [(f"{kind} name", f"{name!r} must be 1 to 64 characters of letters, digits, '-' and '_'")],
            f"{kind} name",
        )
    return name


def validate_share_name(name: str) -> str:
    """Return ``name`` if it is a valid Azure file share (or blob container) name, else raise.

    Rule: 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit.
    """
    problem = _share_name_problem(name)
    if problem:
        raise ValidationError([("share name", problem)], "share name")
    return name


def _share_name_problem(name: Any) -> str | None:
    if isinstance(name, str) and _SHARE_NAME.match(name):
        return None
    return (
        f"{name!r} must be 3 to 63 lowercase letters, digits and single hyphens, "
        "starting and ending with a letter or digit"
    )


def _walk(model: Any, path: str, ctx: _Context) -> None:
    cls = type(model)
    validation = cls._validation
    for attr, desc in cls._attribute_map.items():
        rules = validation.get(attr)
        if rules and rules.get("readonly"):
            continue
        value = getattr(model, attr, None)
        here = _join(path, desc["key"]) if desc["key"] else path
        if value is None:
            if (
                ctx.generic
                and rules
                and rules.get("required")
                and (ctx.storage or (cls.__name__, attr) not in _STORAGE_REQUIRED)
            ):
                ctx.add(here, "is required")
            continue
        if ctx.generic and rules and isinstance(value, int):
            if "minimum" in rules and value < rules["minimum"]:
                ctx.add(here, f"must be at least {rules['minimum']}")
            if "maximum" in rules and value > rules["maximum"]:
                ctx.add(here, f"must be at most {rules['maximum']}")
        if hasattr(value, "_attribute_map"):
            _walk(value, here, ctx)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if hasattr(item, "_attribute_map"):
                    _walk(item, f"{here}[{index}]", ctx)
    rule = _RULES.get(cls.__name__)
    if rule is not None:
        rule(model, path, ctx)


# --- rules per class ---------------------------------------------------------------------------------


def _job(job: Any, path: str, ctx: _Context) -> None:
    present = present_toolkits(job)
    if len(present) != 1:
        found = ", ".join(_p(job, attr, "").rsplit(".", 1)[-1] for attr in present) or "none"
        ctx.add(
            _join(path, "properties"),
            f"exactly one toolkit settings object (cntkSettings, tensorFlowSettings, ...) is required, found {found}",
        )
    node_count = job.node_count
    if node_count is not None and node_count < 1:
        ctx.add(_p(job, "node_count", path), "must be at least 1")
        node_count = None
    for attr in present:
        _toolkit_counts(job, attr, getattr(job, attr), node_count, _p(job, attr, path), ctx)
    _directory_ids(job.input_directories, _p(job, "input_directories", path), "INPUT", ctx)
    _directory_ids(job.output_directories, _p(job, "output_directories", path), "OUTPUT", ctx)
    for index, out in enumerate(job.output_directories or []):
        if out.path_suffix is not None:
            _relative(out.path_suffix, f"{_p(job, 'output_directories', path)}[{index}].pathSuffix", ctx)
    _environment(job, path, ctx)
    if job.std_out_err_path_prefix is not None and not job.std_out_err_path_prefix.strip():
        ctx.add(_p(job, "std_out_err_path_prefix", path), "must not be empty")
    constraints = job.constraints
    if constraints is not None and isinstance(constraints.max_wall_clock_time, datetime.timedelta):
        if constraints.max_wall_clock_time <= datetime.timedelta(0):
            ctx.add(_join(_p(job, "constraints", path), "maxWallClockTime"), "must be positive")


def _toolkit_counts(job: Any, attr: str, settings: Any, nodes: int | None, path: str, ctx: _Context) -> None:
    if attr in _PROCESS_COUNT_TOOLKITS:
        count = settings.process_count
        if count is None:
            return
        if count < 1:
            ctx.add(_join(path, "processCount"), "must be at least 1")
        elif nodes is not None and count < nodes:
            ctx.add(
                _join(path, "processCount"),
                f"({count}) is less than nodeCount ({nodes}): nodes would be allocated and left idle",
            )
    elif attr == "tensor_flow_settings":
        workers, servers = settings.worker_count, settings.parameter_server_count
        if workers is not None and workers < 1:
            ctx.add(_join(path, "workerCount"), "must be at least 1")
        if servers is not None:
            if servers < 1:
                ctx.add(_join(path, "parameterServerCount"), "must be at least 1")
            elif nodes is not None and servers > nodes:
                ctx.add(
                    _join(path, "parameterServerCount"),
                    f"({servers}) must not exceed nodeCount ({nodes})",
                )


def _directory_ids(items: list[Any] | None, base: str, kind: str, ctx: _Context) -> None:
    seen: dict[str, str] = {}
    for index, item in enumerate(items or []):
        ident = item.id
        if ident is None:
            continue
        here = f"{base}[{index}].id"
        if not _ENV_NAME.match(ident):
            ctx.add(
                here,
                f"{ident!r} must be usable in AZ_BATCHAI_{kind}_<id>: letters, digits and '_', "
                "not starting with a digit",
            )
        if kind == "OUTPUT" and ident.lower() == _STDOUTERR_ID:
            ctx.add(here, f"{ident!r} is reserved for the job's standard output and error")
        if ident in seen:
            ctx.add(here, f"duplicate {kind.lower()} directory id {ident!r} (also at {seen[ident]})")
        else:
            seen[ident] = here


def _environment(owner: Any, path: str, ctx: _Context) -> None:
    seen: dict[str, str] = {}
    for attr in ("environment_variables", "secrets"):
        base = _p(owner, attr, path)
        for index, item in enumerate(getattr(owner, attr) or []):
            name = item.name
            if name is None:
                continue
            here = f"{base}[{index}].name"
            if not _ENV_NAME.match(name):
                ctx.add(
                    here,
                    f"{name!r} is not a valid environment variable name "
                    "(letters, digits and '_', not starting with a digit)",
                )
            elif name.upper().startswith(_RESERVED_PREFIX):
                ctx.add(here, f"{name!r} would override a variable Batch AI sets (AZ_BATCHAI_*)")
            if name in seen:
                ctx.add(here, f"duplicate environment variable {name!r} (also at {seen[name]})")
            else:
                seen[name] = here


def _relative(value: str, path: str, ctx: _Context) -> None:
    if not value.strip():
        ctx.add(path, "must not be empty")
    elif value.startswith(("/", "\\")):
        ctx.add(path, f"{value!r} must be a relative path")
    elif ".." in re.split(r"[/\\]", value):
        ctx.add(path, f"{value!r} must not contain '..'")


def _mount_volumes(volumes: Any, path: str, ctx: _Context) -> None:
    seen: dict[str, str] = {}
    for attr in ("azure_file_shares", "azure_blob_file_systems", "file_servers", "unmanaged_file_systems"):
        base = _p(volumes, attr, path)
        for index, item in enumerate(getattr(volumes, attr) or []):
            mount = item.relative_mount_path
            if mount is None:
                continue
            here = f"{base}[{index}].relativeMountPath"
            _relative(mount, here, ctx)
            key = mount.strip("/")
            if key in seen:
                ctx.add(here, f"{mount!r} is already mounted by {seen[key]}")
            else:
                seen[key] = here


def _azure_file_share(share: Any, path: str, ctx: _Context) -> None:
    url = share.azure_file_url
    if url is None:
        return
    here = _p(share, "azure_file_url", path)
    if ctx.storage and _PLACEHOLDER.search(url):
        ctx.add(
            here, "contains <AZURE_BATCHAI_STORAGE_ACCOUNT>: give storage_account_name or set the variable"
        )
        return
    match = _AZURE_FILE_URL.match(url)
    if not match:
        ctx.add(here, f"{url!r} must look like https://<account>.file.core.windows.net/<share>")
        return
    account, share_name = match.groups()
    problem = _share_name_problem(share_name)
    if problem and not _PLACEHOLDER.search(url):
        ctx.add(here, "share name " + problem)
    name = share.account_name
    if ctx.storage and name is not None and not _PLACEHOLDER.search(url) and name.lower() != account.lower():
        ctx.add(
            _p(share, "account_name", path),
            f"{name!r} does not match the account {account!r} of azureFileUrl",
        )


def _blob_file_system(blob: Any, path: str, ctx: _Context) -> None:
    if blob.container_name is not None:
        problem = _share_name_problem(blob.container_name)
        if problem:
            ctx.add(_p(blob, "container_name", path), problem)
    if ctx.storage and blob.account_name is not None and _PLACEHOLDER.search(blob.account_name):
        ctx.add(
            _p(blob, "account_name", path),
            "is <AZURE_BATCHAI_STORAGE_ACCOUNT>: give storage_account_name or set the variable",
        )


def _storage_credentials(creds: Any, path: str, ctx: _Context) -> None:
    if not ctx.storage:
        return
    if (creds.account_key is None) == (creds.account_key_secret_reference is None):
        ctx.add(path, "give exactly one of accountKey and accountKeySecretReference")
    elif creds.account_key is not None and _PLACEHOLDER.search(creds.account_key):
        ctx.add(
            _p(creds, "account_key", path),
            "is <AZURE_BATCHAI_STORAGE_KEY>: give storage_account_key or set the variable",
        )


def _one_of(first: str, second: str) -> Callable[[Any, str, _Context], None]:
    def rule(model: Any, path: str, ctx: _Context) -> None:
        if (getattr(model, first) is None) == (getattr(model, second) is None):
            keys = type(model)._attribute_map
            ctx.add(path, f"give exactly one of {keys[first]['key']} and {keys[second]['key']}")

    return rule


def _script_or_config(model: Any, path: str, ctx: _Context) -> None:
    has_config = model.config_file_path is not None
    has_script = model.python_script_file_path is not None
    if has_config == has_script:
        ctx.add(path, "give exactly one of configFilePath and pythonScriptFilePath")
        return
    if has_config and model.python_interpreter_path is not None:
        ctx.add(_p(model, "python_interpreter_path", path), "is only used with pythonScriptFilePath")
    language = getattr(model, "language_type", None)
    if language is not None:
        expected = "brainscript" if has_config else "python"
        if str(language).lower() not in ("brainscript", "python"):
            ctx.add(_p(model, "language_type", path), f"{language!r} must be 'BrainScript' or 'Python'")
        elif str(language).lower() != expected:
            given = "configFilePath" if has_config else "pythonScriptFilePath"
            ctx.add(_p(model, "language_type", path), f"{language!r} does not match {given}")


def _custom_toolkit(model: Any, path: str, ctx: _Context) -> None:
    if not (model.command_line or "").strip():
        ctx.add(_p(model, "command_line", path), "is required")


def _image_source(model: Any, path: str, ctx: _Context) -> None:
    if model.image is not None and not model.image.strip():
        ctx.add(_p(model, "image", path), "must name a container image")


def _manual_scale(model: Any, path: str, ctx: _Context) -> None:
    if model.target_node_count is not None and model.target_node_count < 0:
        ctx.add(_p(model, "target_node_count", path), "must be at least 0")


def _auto_scale(model: Any, path: str, ctx: _Context) -> None:
    low, high, initial = model.minimum_node_count, model.maximum_node_count, model.initial_node_count
    if low is not None and low < 0:
        ctx.add(_p(model, "minimum_node_count", path), "must be at least 0")
    if high is not None and high < 1:
        ctx.add(_p(model, "maximum_node_count", path), "must be at least 1")
    if low is not None and high is not None and low > high:
        ctx.add(path, f"minimumNodeCount ({low}) must not exceed maximumNodeCount ({high})")
    if initial is not None and initial < 0:
        ctx.add(_p(model, "initial_node_count", path), "must be at least 0")
    elif initial is not None and high is not None and initial > high:
        ctx.add(
            _p(model, "initial_node_count", path), f"({initial}) must not exceed maximumNodeCount ({high})"
        )


def _data_disks(model: Any, path: str, ctx: _Context) -> None:
    for attr in ("disk_count", "disk_size_in_gb"):
        value = getattr(model, attr)
        if value is not None and value < 1:
            ctx.add(_p(model, attr, path), "must be at least 1")


_RULES: dict[str, Callable[[Any, str, _Context], None]] = {
    "JobCreateParameters": _job,
    "SetupTask": _environment,
    "MountVolumes": _mount_volumes,
    "AzureFileShareReference": _azure_file_share,
    "AzureBlobFileSystemReference": _blob_file_system,
    "AzureStorageCredentialsInfo": _storage_credentials,
    "EnvironmentVariableWithSecretValue": _one_of("value", "value_secret_reference"),
    "PrivateRegistryCredentials": _one_of("password", "password_secret_reference"),
    "ScaleSettings": _one_of("manual", "auto_scale"),
    "CNTKsettings": _script_or_config,
    "CaffeSettings": _script_or_config,
    "CustomToolkitSettings": _custom_toolkit,
    "ImageSourceRegistry": _image_source,
    "ManualScaleSettings": _manual_scale,
    "AutoScaleSettings": _auto_scale,
    "DataDisks": _data_disks,
}
