"""Settings shared by the Azure engine tests."""

from __future__ import annotations

#: Agent and client timings that keep an end-to-end run at a few seconds.
FAST = {
    "retry_wait": 0,
    "heartbeat_interval": 0.5,
    "poll_interval": 0.05,
    "client_poll_interval": 0.05,
    "stream_poll_intervals": (0.05, 0.2),
    "terminate_grace": 2.0,
    "idle_timeout": 3.0,
}
