"""JobClient: submit, follow, terminate and delete jobs; list, download and stream their files."""

from __future__ import annotations

import builtins
import itertools
import logging
import os
import socket
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path, PurePosixPath
from typing import Any, TextIO

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError
from azure.core.paging import ItemPaged
from azure.core.polling import LROPoller

from ..agent.mounts import share_of
from ..agent.processes import pid_alive
from ..control import layout, lifecycle
from ..control import records as r
from ..control.paths import share_location
from ..engines.base import Backend
from ..exceptions import ValidationError
from ._base import WorkspaceClientBase
from ._polling import make_poller
from ._records import iso, join, parse_cluster_id, resource_id, secret_env, strip_secrets
from .clusters import max_nodes
from .shares import share_path
from .streaming import LogStream
from .workspaces import ensure_experiment, single_page

log = logging.getLogger("batchai_sdk")

STDOUTERR = "stdouterr"


class JobPoller(LROPoller):  # type: ignore[type-arg]
    """The poller of :meth:`JobClient.begin_create`: done when the job ends; iterating it yields the job's
    ``stdout.txt`` lines as they are written."""

    _stream_factory: Any = None

    def __iter__(self) -> Iterator[str]:
        if self._stream_factory is None:
            return iter(())
        return iter(self._stream_factory())


def _mount_table(volumes: dict[str, Any] | None, backend: Backend) -> dict[str, str]:
    """relativeMountPath → share, for the volumes that are shares of this engine."""
    table: dict[str, str] = {}
    for ref in (volumes or {}).get("azureFileShares") or []:
        table[str(ref["relativeMountPath"]).strip("/")] = backend.share_from_url(str(ref["azureFileUrl"]))
    for ref in (volumes or {}).get("azureBlobFileSystems") or []:
        if backend.kind == "local":
            table[str(ref["relativeMountPath"]).strip("/")] = str(ref["containerName"])
    for ref in (volumes or {}).get("fileServers") or []:
        # A local file server's volume is a share directory (an NFS export on Azure is not a share).
        share = share_of("fileServers", ref) if backend.kind == "local" else None
        if share:
            table[str(ref["relativeMountPath"]).strip("/")] = share
    return table


def _owner_alive(lock: dict[str, Any]) -> bool:
    """Whether the client that took a create lock may still be working (another host: trust the lock
    for 60 s)."""
    if lock.get("host") != socket.gethostname():
        return r.now() - float(lock.get("time", 0)) < 60
    try:
        return pid_alive(int(lock.get("pid", 0)))
    except ValueError:
        return True


class JobClient(WorkspaceClientBase):
    """Jobs of one experiment.

    :param backend: the engine (default: ``LocalBackend()``).
    :param workspace: the workspace (created on first use).
    :param experiment: the experiment (created on first use).
    """

    def __init__(self, backend: Backend | None = None, workspace: str = "default", experiment: str = "default") -> None:
        super().__init__(backend, workspace)
        from ..models import validate_resource_name

        self.experiment = validate_resource_name(experiment, "experiment")

    def __repr__(self) -> str:
        return f"JobClient(backend={self.backend!r}, workspace={self.workspace!r}, experiment={self.experiment!r})"

    # ------------------------------------------------------------------ records
    def _job_record(self, name: str) -> dict[str, Any]:
        rec = self._io.read_json(layout.job_record(self.workspace, self.experiment, name))
        if rec is None:
            raise ResourceNotFoundError(
                f"The job '{name}' was not found in experiment '{self.experiment}' of workspace '{self.workspace}'.")
        return rec  # type: ignore[no-any-return]

    def _status(self, rec: dict[str, Any], *, thorough: bool = True) -> dict[str, Any]:
        """The job's execution state. ``thorough`` also reads the attempt's end record, which is written
        just before the status: watchers do that every few polls only (each read is a request on Azure)."""
        io = self._io
        status = io.read_json(layout.job_status(self.workspace, self.experiment, rec["name"])) or {}
        if thorough and status.get("executionState") not in r.FINAL_STATES:
            # An attempt's end record is written before the status: trust it when the status lags behind.
            ended = lifecycle.attempt_ended(io, rec, int(status.get("attempt", 1)))
            if ended and not ended.get("requeued"):
                status = {**status, **ended}
        return status

    def _to_model(self, rec: dict[str, Any], status: dict[str, Any] | None = None) -> Any:
        from ..models import Job

        status = status if status is not None else self._status(rec)
        props = dict(rec["spec"].get("properties", {}))
        info: dict[str, Any] = {}
        if status.get("startTime"):
            info["startTime"] = iso(status["startTime"])
        if status.get("executionState") in r.FINAL_STATES:
            info["endTime"] = iso(status.get("endTime"))
            info["exitCode"] = status.get("exitCode")
        if status.get("errors"):
            info["errors"] = status["errors"]
        props.update({
            "toolType": rec.get("toolType"),
            "jobOutputDirectoryPathSegment": rec["segment"],
            "creationTime": iso(rec.get("creationTime")),
            "provisioningState": "succeeded",
            "provisioningStateTransitionTime": iso(rec.get("creationTime")),
            "executionState": status.get("executionState", r.QUEUED),
            "executionStateTransitionTime": iso(status.get("executionStateTransitionTime")),
            "executionInfo": info,
        })
        job = Job.deserialize({
            "id": resource_id(self.backend, "workspaces", self.workspace, "experiments", self.experiment, "jobs", rec["name"]),
            "name": rec["name"],
            "type": "Microsoft.BatchAI/workspaces/experiments/jobs",
            "properties": props,
        })
        job.attempt = int(status.get("attempt", 1))  # type: ignore[attr-defined]  # how many times the job was started (requeues)
        return job

    def _finished_check(self, rec: dict[str, Any]) -> Callable[[], bool]:
        """A cheap "has the job ended?" for watchers: the status record each call, the end record every
        fifth; a deleted job counts as ended."""
        calls = 0

        def finished() -> bool:
            nonlocal calls
            calls += 1
            thorough = calls % 5 == 0
            if thorough and self._io.read_json(layout.job_record(self.workspace, self.experiment, rec["name"])) is None:
                return True
            return self._status(rec, thorough=thorough).get("executionState") in r.FINAL_STATES

        return finished

    # ------------------------------------------------------------------ create
    def begin_create(self, name: str, parameters: Any, *, polling_interval: float | None = None) -> JobPoller:
        """Submit a job. The poller is done when the job ends (its result is the final
        :class:`~batchai_sdk.models.Job`); iterate it to follow ``stdout.txt``.

        Raises ``ValidationError`` for a bad spec or a job larger than its cluster can ever hold,
        ``ResourceNotFoundError`` for an unknown cluster, ``ResourceExistsError`` for a name in use.
        Nothing is written before the spec is accepted; an interrupted submission is completed by
        calling this again.
        """
        from ..models import JobCreateParameters, raise_if_invalid, tool_type_of, validate_resource_name

        validate_resource_name(name, "job")
        if not isinstance(parameters, JobCreateParameters):
            raise TypeError("parameters must be a batchai_sdk.models.JobCreateParameters")
        raise_if_invalid(parameters, f"job '{name}'", storage_credentials=self.backend.kind != "local")
        wire = parameters.serialize()
        props = wire["properties"]
        try:
            cws, cname = parse_cluster_id(str(props["cluster"]["id"]), self.workspace)
        except ValueError as exc:
            raise ValidationError([("properties.cluster.id", str(exc))], f"job '{name}'") from None
        io = self._io
        cluster = io.read_json(layout.cluster_record(cws, cname))
        if cluster is None or cluster.get("provisioningState") == "deleting":
            raise ResourceNotFoundError(f"The cluster '{cname}' was not found in workspace '{cws}'.")
        capacity = max_nodes((cluster.get("spec") or {}).get("properties", {}).get("scaleSettings") or {})
        if int(props.get("nodeCount") or 1) > capacity:
            raise ValidationError(
                [("properties.nodeCount", f"{props.get('nodeCount')} nodes requested but cluster '{cname}' can hold at "
                  f"most {capacity} (resize it or lower nodeCount)")], f"job '{name}'")
        clean, found = strip_secrets(wire)
        job_secrets = secret_env(found, "properties.secrets")
        ensure_experiment(io, self.workspace, self.experiment, self.backend.location)
        self._take_create_lock(name)
        cluster_props = (cluster.get("spec") or {}).get("properties", {})
        jid = str(uuid.uuid4())
        now = r.now()
        rec = {
            "name": name,
            "workspace": self.workspace,
            "experiment": self.experiment,
            "uuid": jid,
            "creationTime": now,
            "priority": str(props.get("schedulingPriority") or "normal").lower(),
            "cluster": {"workspace": cws, "name": cname, "id": props["cluster"]["id"]},
            "segment": layout.job_segment(self.backend.subscription_id, self.backend.resource_group, self.workspace,
                                          self.experiment, name, jid),
            "toolType": tool_type_of(parameters),
            "spec": clean,
            "mounts": _mount_table((cluster_props.get("nodeSetup") or {}).get("mountVolumes"), self.backend),
            "jobMounts": _mount_table(props.get("mountVolumes"), self.backend),
        }
        ws, exp = self.workspace, self.experiment
        # Order matters: everything the agents need first, job.json last. Until job.json exists the job is
        # invisible; a queue entry without it is skipped by the agents (and dropped when stale).
        io.write_json(layout.job_secrets(ws, exp, name), job_secrets, private=True)
        io.write_json(layout.job_status(ws, exp, name), lifecycle.queued_status(1, now=now))
        lifecycle.enqueue(io, rec, 1)
        io.write_json(layout.job_record(ws, exp, name), rec)
        log.info("job %s/%s/%s submitted to cluster %s", ws, exp, name, cname)
        try:
            self.backend.on_job_queued(cws, cname, cluster)
        except Exception:  # the job is queued; scaling is retried when the cluster is next read
            log.warning("cluster %s/%s: scaling for job %s failed", cws, cname, name, exc_info=True)
        return self._job_poller(name, polling_interval)

    def _take_create_lock(self, name: str) -> None:
        io = self._io
        ws, exp = self.workspace, self.experiment
        lock_path = layout.job_dir(ws, exp, name) + "/create.lock"
        owner = {"host": socket.gethostname(), "pid": os.getpid(), "time": r.now(), "token": str(uuid.uuid4())}
        for _ in range(2):
            if io.read_json(layout.job_record(ws, exp, name)) is not None:
                raise ResourceExistsError(f"The job '{name}' already exists in experiment '{exp}'.")
            if io.create_json(lock_path, owner):
                if io.read_json(layout.job_record(ws, exp, name)) is not None:
                    raise ResourceExistsError(f"The job '{name}' already exists in experiment '{exp}'.")
                return
            lock = io.read_json(lock_path) or {}
            if _owner_alive(lock):
                raise ResourceExistsError(f"The job '{name}' is being created by another client.")
            # The client that took the lock died before publishing the job: take over.
            io.remove(lock_path)
        raise ResourceExistsError(f"The job '{name}' is being created by another client.")

    def _job_poller(self, name: str, polling_interval: float | None) -> JobPoller:
        def check() -> tuple[bool, str, Any]:
            rec = self._job_record(name)
            status = self._status(rec)
            state = status.get("executionState", r.QUEUED)
            done = state in r.FINAL_STATES
            return done, state, self._to_model(rec, status) if done else None

        poller = make_poller(check, polling_interval or self.backend.poll_interval, cls=JobPoller)
        poller._stream_factory = lambda: self.stream_file(name)  # type: ignore[attr-defined]
        return poller  # type: ignore[return-value]

    # ------------------------------------------------------------------ read
    def get(self, name: str) -> Any:
        return self._to_model(self._job_record(name))

    def list(self) -> ItemPaged[Any]:
        out = []
        for n in self._io.listdir(layout.jobs_dir(self.workspace, self.experiment)):
            rec = self._io.read_json(layout.job_record(self.workspace, self.experiment, n))
            if rec:
                out.append(self._to_model(rec))
        out.sort(key=lambda j: j.creation_time or 0)
        return single_page(out)

    def wait(self, name: str, *, show_output: bool = False, timeout: float | None = None,
             output: TextIO | None = None) -> Any:
        """Block until the job ends; with ``show_output`` print its ``stdout.txt`` as it grows."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if show_output:
            out = output or sys.stdout
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            for line in self.stream_file(name, timeout=remaining):
                print(line, file=out, flush=True)
        rec = self._job_record(name)
        for polls in itertools.count():
            status = self._status(rec, thorough=polls % 5 == 0)
            if status.get("executionState") in r.FINAL_STATES:
                return self._to_model(self._job_record(name), status)
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"job '{name}' did not end within {timeout} s")
            time.sleep(self.backend.poll_interval)

    # ------------------------------------------------------------------ control
    def begin_terminate(self, name: str, *, polling_interval: float | None = None) -> LROPoller[None]:
        """Terminate a queued or running job (it ends ``failed``); a finished job is left as it is."""
        rec = self._job_record(name)
        io = self._io
        status = self._status(rec)
        if status.get("executionState") not in r.FINAL_STATES:
            io.create_json(layout.job_terminate(self.workspace, self.experiment, name), {"time": r.now()})
            attempt = int(status.get("attempt", 1))
            if io.read_json(layout.launch_record(self.workspace, self.experiment, name, attempt)) is None:
                # Not started: nobody runs it, so the client ends it (a starting node loses the race cleanly).
                lifecycle.end_attempt(io, rec, attempt, r.FAILED, by="client",
                                      errors=[r.error(r.JOB_TERMINATED, "The job was terminated by the user.")])

        def check() -> tuple[bool, str, None]:
            state = self._status(self._job_record(name)).get("executionState", r.QUEUED)
            return state in r.FINAL_STATES, state, None

        return make_poller(check, polling_interval or self.backend.poll_interval)

    def begin_delete(self, name: str, *, polling_interval: float | None = None) -> LROPoller[None]:
        """Delete a job, terminating it first if it has not ended. Its logs and outputs stay on the share."""
        self._job_record(name)
        terminate = self.begin_terminate(name, polling_interval=polling_interval)

        def check() -> tuple[bool, str, None]:
            if not terminate.done():
                return False, "deleting", None
            self._io.remove_tree(layout.job_dir(self.workspace, self.experiment, name))
            return True, "succeeded", None

        return make_poller(check, polling_interval or self.backend.poll_interval)

    # ------------------------------------------------------------------ files
    def _location(self, rec: dict[str, Any], output_directory_id: str, directory: str = ".") -> tuple[str, str]:
        """(share, path) of a job's output directory (``stdouterr`` for the logs)."""
        props = rec["spec"].get("properties", {})
        if output_directory_id.lower() == STDOUTERR:
            base = props.get("stdOutErrPathPrefix", "")
            tail: tuple[str, ...] = (rec["segment"], STDOUTERR)
            field = "properties.stdOutErrPathPrefix"
        else:
            match = [d for d in props.get("outputDirectories") or [] if d["id"] == output_directory_id]
            if not match:
                ids = [STDOUTERR] + [d["id"] for d in props.get("outputDirectories") or []]
                raise ValidationError([("output_directory_id", f"'{output_directory_id}' is not one of {ids}")])
            base = match[0]["pathPrefix"]
            tail = (rec["segment"], "outputs", str(match[0].get("pathSuffix") or ""))
            field = "properties.outputDirectories"
        loc = share_location(base, rec.get("mounts") or {}, rec.get("jobMounts") or {})
        if loc is None:
            raise ValidationError([(field, f"'{base}' is not on a mounted file share of this engine, so its files "
                                           "cannot be listed (Batch AI had the same limit)")])
        share, inside = loc
        return share, join(inside, *tail, share_path(directory, "directory"))

    def list_output_files(
        self,
        name: str,
        output_directory_id: str = STDOUTERR,
        directory: str = ".",
        *,
        link_expiry_minutes: int = 60,
        max_results: int = 1000,
    ) -> builtins.list[Any]:
        """Files and directories of an output directory (``stdouterr``: the logs) with download URLs."""
        from ..models import File

        if not 5 <= link_expiry_minutes <= 600:
            raise ValidationError([("linkexpiryinminutes", "must be between 5 and 600")])
        if not 1 <= max_results <= 1000:
            raise ValidationError([("maxresults", "must be between 1 and 1000")])
        rec = self._job_record(name)
        share, path = self._location(rec, output_directory_id, directory)
        try:
            entries = self.backend.store.list_dir(share, path)
        except ResourceNotFoundError:
            entries = []
        files = []
        for e in entries[:max_results]:
            if e.name.startswith("."):
                continue
            wire: dict[str, Any] = {"name": e.name, "fileType": "directory" if e.is_directory else "file"}
            if not e.is_directory:
                wire["downloadUrl"] = self.backend.store.download_url(
                    share, f"{path}/{e.name}", expiry=timedelta(minutes=link_expiry_minutes))
                wire["properties"] = {"lastModified": e.last_modified.isoformat() if e.last_modified else None,
                                      "contentLength": e.size}
            files.append(File.deserialize(wire))
        return files

    def download_outputs(
        self,
        name: str,
        output_directory_id: str,
        destination: str | os.PathLike[str],
        *,
        directory: str = ".",
        progress: bool = False,
    ) -> builtins.list[Path]:
        """Download an output directory (recursively) to ``destination``; returns the local files."""
        from .shares import FileShareClient

        rec = self._job_record(name)
        share, path = self._location(rec, output_directory_id, directory)
        shares = FileShareClient(self.backend)
        summary = shares.download_directory(share, path, destination, progress=progress)
        return sorted(Path(p) for p in summary.paths)

    def stream_file(
        self,
        name: str,
        file_name: str = "stdout.txt",
        output_directory_id: str = STDOUTERR,
        directory: str = ".",
        *,
        offset: int = 0,
        from_end: bool = False,
        timeout: float | None = None,
    ) -> LogStream:
        """Follow a job's file line by line while the job runs; ends once the job ended and the file was
        read to its end. Only new bytes are read. ``offset`` resumes from a saved ``LogStream.offset``;
        ``from_end`` skips what is already written."""
        rec = self._job_record(name)
        share, path = self._location(rec, output_directory_id, directory)
        rel = share_path(str(PurePosixPath(path) / file_name), "file_name")
        return LogStream(self.backend.store, share, rel, self._finished_check(rec), offset=offset, from_end=from_end,
                         intervals=self.backend.stream_poll_intervals, timeout=timeout)
