"""Transport-neutral request/response types shared by the HTTPS server and the ``responses`` adapter."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit
from xml.sax.saxutils import escape

#: Status that tells an adapter to drop the connection without answering.
DROP = 0


class FakeResponse(NamedTuple):
    """What :meth:`FakeAzureState.handle` returns; ``status == DROP`` means "close the socket"."""

    status: int
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeRequest:
    """One parsed request. ``raw_path`` and ``raw_query`` are exactly as sent (still percent-encoded)."""

    method: str
    url: str
    headers: dict[str, str]
    body: bytes
    scheme: str = "https"
    host: str = ""
    raw_path: str = "/"
    raw_query: str = ""
    query: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, method: str, url: str, headers: Mapping[str, str], body: bytes) -> FakeRequest:
        parts = urlsplit(url)
        lowered = {k.lower(): v for k, v in headers.items()}
        query: dict[str, str] = {}
        for item in parts.query.split("&") if parts.query else []:
            name, _, value = item.partition("=")
            query[unquote(name)] = unquote(value.replace("+", "%20"))
        return cls(
            method=method.upper(),
            url=url,
            headers=lowered,
            body=body,
            scheme=parts.scheme or "https",
            host=parts.netloc or lowered.get("host", ""),
            raw_path=parts.path or "/",
            raw_query=parts.query,
            query=query,
        )

    @property
    def base_url(self) -> str:
        return f"{self.scheme}://{self.host}"

    def header(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default)


def http_date(timestamp: float) -> str:
    return formatdate(timestamp, usegmt=True)


def xml_error(status: int, code: str, message: str, extra: Mapping[str, str] | None = None) -> FakeResponse:
    body = (
        '<?xml version="1.0" encoding="utf-8"?><Error><Code>'
        + escape(code)
        + "</Code><Message>"
        + escape(message)
        + "</Message></Error>"
    ).encode()
    headers = {"Content-Type": "application/xml", "x-ms-error-code": code}
    headers.update(extra or {})
    return FakeResponse(status, headers, body)


def json_response(status: int, payload: Any, extra: Mapping[str, str] | None = None) -> FakeResponse:
    headers = {"Content-Type": "application/json; charset=utf-8"}
    headers.update(extra or {})
    body = b"" if payload is None else json.dumps(payload).encode()
    return FakeResponse(status, headers, body)


def json_error(status: int, code: str, message: str, extra: Mapping[str, str] | None = None) -> FakeResponse:
    headers = {"x-ms-error-code": code}
    headers.update(extra or {})
    return json_response(status, {"error": {"code": code, "message": message}}, headers)
