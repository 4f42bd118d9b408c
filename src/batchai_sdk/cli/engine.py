"""Which engine the CLI talks to: option, then environment, then the config file, then the default.

The config file is INI (read with :mod:`configparser`, the same on every Python version, like az's own
``~/.azure/config``): ``$BATCHAI_CONFIG``, else ``~/.batchai/config``::

    [defaults]
    engine = local          ; or azure
    workspace = default
    experiment = default
    output = json           ; table, tsv

    [local]
    root = ~/.batchai

    [azure]
    subscription = 00000000-0000-0000-0000-000000000000
    resource_group = my-rg
    location = eastus
    storage_account = mystorage
    storage_key = ...       ; better: AZURE_BATCHAI_STORAGE_KEY
    polling_interval = 30   ; seconds between ARM long-running-operation polls

The azure engine signs in with ``AZURE_ACCESS_TOKEN`` when it is set (a pre-fetched ARM token, as
``az account get-access-token --query accessToken -o tsv`` prints; never put it in the file), else with
``DefaultAzureCredential``.
"""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CLIError

ENGINES = ("local", "azure")


def config_path(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    return Path(env.get("BATCHAI_CONFIG") or Path.home() / ".batchai" / "config").expanduser()


def load_config(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    if path.is_file():
        try:
            parser.read(path, encoding="utf-8")
        except configparser.Error as exc:
            first = str(exc).splitlines()[0]
            raise CLIError(f"cannot read the config file {path}: {first} (fix it or point BATCHAI_CONFIG elsewhere)") from None
    return parser


@dataclass
class EngineSettings:
    """Everything needed to build an engine; filled from options, environment and config."""

    engine: str | None = None
    root: str | None = None
    subscription: str | None = None
    resource_group: str | None = None
    location: str | None = None
    storage_account: str | None = None
    storage_key: str | None = field(default=None, repr=False)
    access_token: str | None = field(default=None, repr=False)
    polling_interval: str | None = None
    arm_endpoint: str | None = None
    files_endpoint: str | None = None
    ca_bundle: str | None = None
    workspace: str | None = None
    experiment: str | None = None
    output: str | None = None

    def resolve(self, env: dict[str, str] | None = None, config: configparser.ConfigParser | None = None) -> EngineSettings:
        """Fill what the options left unset from the environment, then from the config file."""
        env = dict(os.environ) if env is None else env
        cfg = config if config is not None else load_config(config_path(env))

        def pick(current: str | None, env_name: str | None, section: str, key: str) -> str | None:
            if current:
                return current
            if env_name and env.get(env_name):
                return env[env_name]
            value = cfg.get(section, key, fallback=None)
            return value or None

        return EngineSettings(
            engine=(pick(self.engine, "BATCHAI_ENGINE", "defaults", "engine") or "local").lower(),
            root=pick(self.root, "BATCHAI_HOME", "local", "root"),
            subscription=pick(self.subscription, "AZURE_SUBSCRIPTION_ID", "azure", "subscription"),
            resource_group=pick(self.resource_group, "AZURE_RESOURCE_GROUP", "azure", "resource_group"),
            location=pick(self.location, "AZURE_LOCATION", "azure", "location"),
            storage_account=pick(self.storage_account, "AZURE_BATCHAI_STORAGE_ACCOUNT", "azure", "storage_account"),
            storage_key=pick(self.storage_key, "AZURE_BATCHAI_STORAGE_KEY", "azure", "storage_key"),
            # Never read from the config file: a token belongs in the pipeline's secret store, not on disk.
            access_token=(self.access_token or env.get("AZURE_ACCESS_TOKEN") or "").strip() or None,
            polling_interval=pick(self.polling_interval, "BATCHAI_AZURE_POLLING_INTERVAL", "azure", "polling_interval"),
            arm_endpoint=pick(self.arm_endpoint, "BATCHAI_ARM_ENDPOINT", "azure", "arm_endpoint"),
            files_endpoint=pick(self.files_endpoint, "BATCHAI_FILES_ENDPOINT", "azure", "files_endpoint"),
            ca_bundle=pick(self.ca_bundle, "REQUESTS_CA_BUNDLE", "azure", "ca_bundle"),
            workspace=pick(self.workspace, "BATCHAI_WORKSPACE", "defaults", "workspace") or "default",
            experiment=pick(self.experiment, "BATCHAI_EXPERIMENT", "defaults", "experiment") or "default",
            output=(pick(self.output, "BATCHAI_OUTPUT", "defaults", "output") or "json").lower(),
        )


def make_backend(settings: EngineSettings) -> Any:
    """Build the engine the settings name (imports the SDK: call only from a command)."""
    if settings.engine == "local":
        from ..engines.local import LocalBackend

        return LocalBackend(settings.root)
    if settings.engine != "azure":
        raise CLIError(f"unknown engine '{settings.engine}' (use --engine local or --engine azure)")
    missing = [f"{opt} or {var}" for value, opt, var in (
        (settings.subscription, "--subscription", "AZURE_SUBSCRIPTION_ID"),
        (settings.resource_group, "-g/--resource-group", "AZURE_RESOURCE_GROUP"),
        (settings.location, "-l/--location", "AZURE_LOCATION"),
        (settings.storage_account, "--storage-account-name", "AZURE_BATCHAI_STORAGE_ACCOUNT"),
    ) if not value]
    if missing:
        raise CLIError("the azure engine needs " + ", ".join(missing) + " (or the [azure] section of "
                       f"{config_path()})")
    try:
        from ..engines.azure import AzureBackend
    except ImportError as exc:
        raise CLIError(f"the azure engine is not available ({exc}); install it with: pip install 'batchai-sdk[azure]'") from None
    kwargs: dict[str, Any] = {"storage_account": settings.storage_account,
                              "storage_account_key": settings.storage_key}
    if settings.arm_endpoint:
        kwargs["arm_endpoint"] = settings.arm_endpoint
    if settings.files_endpoint:
        kwargs["files_endpoint"] = settings.files_endpoint
    if settings.ca_bundle:
        kwargs["connection_verify"] = settings.ca_bundle
    if settings.polling_interval:
        kwargs["polling_interval"] = _seconds(settings.polling_interval, "BATCHAI_AZURE_POLLING_INTERVAL")
    if settings.access_token:
        from ..engines.azure.credentials import StaticTokenCredential

        kwargs["credential"] = StaticTokenCredential(settings.access_token)
    return AzureBackend(str(settings.subscription), str(settings.resource_group), str(settings.location), **kwargs)


def _seconds(value: str, name: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise CLIError(f"{name} (or [azure] polling_interval) must be a number of seconds >= 0, not '{value}'")
    return seconds
