"""One-line errors: what went wrong and how to fix it, never a traceback (unless ``--debug``)."""

from __future__ import annotations

import re
from typing import IO, Any

import click

_NOT_FOUND = re.compile(r"The (cluster|job|experiment|workspace|file server|share|file|directory) '([^']+)'"
                        r"(?: was not found| does not exist)(?: in (?:experiment '([^']+)' of )?workspace '([^']+)')?")

_CREATE_HINT = {
    "cluster": "batchai cluster create -n {name} -s <vm size> ...",
    "job": "batchai job create -n {name} -c <cluster> -f job.json",
    "experiment": "batchai experiment create -n {name}",
    "workspace": "batchai workspace create -n {name}",
    "share": "batchai share create -n {name}",
}


class CLIError(click.ClickException):
    """An error the user can fix: printed as ``error: <message>``, exit status 1."""

    exit_code = 1

    def __init__(self, message: str, *, extra: list[str] | None = None) -> None:
        super().__init__(message)
        self.extra = extra or []

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.message}", err=True)
        for line in self.extra:
            click.echo(f"error: {line}", err=True)


class ExitCode(click.exceptions.Exit):
    """Leave with a status of a job or a node command (no message)."""


def translate(exc: BaseException) -> CLIError | None:
    """The CLI error for an SDK exception, or None when it is a bug (then the traceback matters)."""
    from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError

    from ..exceptions import ValidationError

    if isinstance(exc, ValidationError):
        lines = [f"{path}: {message}" if path else message for path, message in exc.errors]
        head = f"{exc.subject} is invalid" if exc.subject else "invalid input"
        if len(lines) == 1:
            return CLIError(f"{head}: {lines[0]}")
        return CLIError(f"{head} ({len(lines)} problems):", extra=lines)
    if isinstance(exc, ResourceNotFoundError):
        return CLIError(not_found_message(exc))
    if isinstance(exc, ResourceExistsError):
        return CLIError(f"{_first_line(exc)} (pick another name, or delete it first)")
    if isinstance(exc, HttpResponseError):
        return CLIError(f"the service refused the request: {_first_line(exc)}")
    if isinstance(exc, (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)):
        return CLIError(str(exc))
    if isinstance(exc, TimeoutError):
        return CLIError(f"{exc} (try again with a longer timeout)")
    return None


def not_found_message(exc: BaseException) -> str:
    text = _first_line(exc)
    m = _NOT_FOUND.search(text)
    if not m:
        return text
    kind, name, experiment, workspace = m.groups()
    where = ""
    if experiment:
        where = f" in experiment '{experiment}' of workspace '{workspace}'"
    elif workspace:
        where = f" in workspace '{workspace}'"
    hint = _CREATE_HINT.get(kind)
    fix = f" (create it with: {hint.format(name=name)})" if hint else f" (list them with: batchai {kind.replace(' ', '-')} list)"
    return f"{kind} '{name}' not found{where}{fix}"


def _first_line(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc)
    return str(message).strip().splitlines()[0] if str(message).strip() else type(exc).__name__
