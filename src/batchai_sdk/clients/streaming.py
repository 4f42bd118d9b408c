"""Following a growing log file on a share: byte cursors, range reads of new bytes only, a final drain."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from azure.core.exceptions import ResourceNotFoundError

from ..engines.base import Store

#: Largest read of one poll; a fast writer is followed in several reads instead of one huge one.
READ_CHUNK = 4 * 1024 * 1024


class LogStream(Iterator[str]):
    """An iterator over the lines of a file that another process is still writing.

    Lines are yielded without their ``\\n``, exactly as written otherwise (a ``\\r`` progress bar stays
    inside its line). Iteration ends once ``is_finished()`` was true *before* a read that found no new
    bytes, so the lines written just before the job ended are never lost; a last line without a newline
    is yielded then too. ``offset`` is the byte position after the last yielded line: pass it back as
    ``offset=`` to resume after a restart.
    """

    def __init__(
        self,
        store: Store,
        share: str,
        path: str,
        is_finished: Callable[[], bool],
        *,
        offset: int = 0,
        from_end: bool = False,
        intervals: tuple[float, float] = (0.02, 0.1),
        timeout: float | None = None,
        encoding: str = "utf-8",
    ) -> None:
        self.store = store
        self.share = share
        self.path = path
        self._is_finished = is_finished
        if from_end:
            entry = store.stat(share, path)
            offset = entry.size or 0 if entry else 0
        self.offset = offset
        self._read_pos = offset
        self._buffer = b""
        self._pending: list[tuple[str, int]] = []
        self._fast, self._slow = intervals
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._encoding = encoding
        self._done = False
        self._last_finish_check: float | None = None
        #: Bytes read from the store so far (to check that only new bytes are fetched).
        self.bytes_read = 0
        self.reads = 0

    def __iter__(self) -> LogStream:
        return self

    def _read_new(self) -> bool:
        got = False
        while True:
            try:
                data = self.store.read(self.share, self.path, self._read_pos, READ_CHUNK)
            except ResourceNotFoundError:
                return got
            self.reads += 1
            if not data:
                return got
            got = True
            self.bytes_read += len(data)
            self._read_pos += len(data)
            self._buffer += data
            *lines, self._buffer = self._buffer.split(b"\n")
            for raw in lines:
                self._pending.append((raw.decode(self._encoding, "replace"), len(raw) + 1))
            if len(data) < READ_CHUNK:
                return got

    def _finish_check_due(self) -> bool:
        """Asking whether the job ended costs a request on Azure: at most once per slow interval."""
        now = time.monotonic()
        if self._last_finish_check is not None and now - self._last_finish_check < self._slow:
            return False
        self._last_finish_check = now
        return True

    def _emit(self) -> str:
        line, size = self._pending.pop(0)
        self.offset += size
        return line

    def __next__(self) -> str:
        interval = self._fast
        while True:
            if self._pending:
                return self._emit()
            if self._done:
                raise StopIteration
            if self._read_new():
                interval = self._fast
                continue
            # Nothing new. Only now ask whether the job ended (one request less per busy poll); if it did,
            # read once more: bytes written between the last read and the end are not lost.
            if self._finish_check_due() and self._is_finished():
                if self._read_new():
                    continue
                self._done = True
                if self._buffer:
                    tail = self._buffer
                    self._buffer = b""
                    self.offset += len(tail)
                    return tail.decode(self._encoding, "replace")
                raise StopIteration
            if self._deadline is not None and time.monotonic() > self._deadline:
                raise TimeoutError(f"no end of {self.path} within the timeout")
            time.sleep(interval)
            interval = min(self._slow, interval * 2)
