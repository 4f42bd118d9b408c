"""HTTPS adapter: a ThreadingHTTPServer on 127.0.0.1 that feeds requests to FakeAzureState.handle."""

from __future__ import annotations

import logging
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ._http import DROP
from ._state import FakeAzureState

_LOG = logging.getLogger("batchai_sdk.testing")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    # Idle keep-alive connections give up after this long, so nothing can hang a shutdown forever.
    timeout = 60

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"
        response = self.server.state.handle(self.command, f"https://{host}{self.path}", dict(self.headers.items()), body)
        if response.status == DROP:
            self.close_connection = True
            return
        self.send_response(response.status)
        headers = dict(response.headers)
        if self.command == "HEAD":
            headers.setdefault("Content-Length", str(len(response.body)))
        elif response.status not in (204, 304):
            headers["Content-Length"] = str(len(response.body))
        for name, value in headers.items():
            if name.lower() not in ("date", "server"):
                self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD" and response.status not in (204, 304):
            self.wfile.write(response.body)

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = do_PATCH = do_OPTIONS = _serve

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - signature fixed by the base class
        _LOG.debug("fake-azure: " + format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True

    def __init__(self, state: FakeAzureState, cert: Path, key: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state
        self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self._context.load_cert_chain(str(cert), str(key))
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    def finish_request(self, request: Any, client_address: Any) -> None:
        # The TLS handshake happens here, in the connection's own thread, so a slow client cannot
        # stall the accept loop.
        try:
            tls = self._context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        with self._connections_lock:
            self._connections.add(tls)
        try:
            self.RequestHandlerClass(tls, client_address, self)  # type: ignore[arg-type]
        except (ConnectionError, ssl.SSLError, OSError):
            pass
        finally:
            with self._connections_lock:
                self._connections.discard(tls)
            try:
                tls.close()
            except OSError:
                pass

    def handle_error(self, request: Any, client_address: Any) -> None:
        _LOG.debug("fake-azure connection error from %s", client_address, exc_info=True)

    def close_connections(self) -> None:
        with self._connections_lock:
            connections = list(self._connections)
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class HttpsServer:
    """Runs the fake on 127.0.0.1 (port 0) until :meth:`close`."""

    def __init__(self, state: FakeAzureState, cert: Path, key: Path) -> None:
        self._server = _Server(state, cert, key)
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-azure-https", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._thread.join()
        self._server.close_connections()
        self._server.server_close()  # joins the per-connection threads (block_on_close)
