"""Server-side verification of Azure Storage SharedKey signatures and SAS tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime, timezone
from urllib.parse import unquote

from ._http import FakeRequest

_SIGNED_HEADERS = (
    "content-encoding",
    "content-language",
    "content-length",
    "content-md5",
    "content-type",
    "date",
    "if-modified-since",
    "if-match",
    "if-none-match",
    "if-unmodified-since",
    # The SDK asks for "byte_range", a name no real header has, so this slot is always empty.
    "byte_range",
)


def sign(account_key: str, string_to_sign: str) -> str:
    digest = hmac.new(base64.b64decode(account_key), string_to_sign.encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def _collation_key(name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    # The service sorts x-ms headers with a culture collation in which '-' is ignored at the
    # first level and only breaks ties later; mirror that instead of plain code-point order.
    primary = tuple(ord(c.lower()) for c in name if c not in "-'")
    secondary = tuple(1 for c in name if c in "-'")
    return primary, secondary


def shared_key_string_to_sign(request: FakeRequest, account_name: str) -> str:
    headers = {k: v for k, v in request.headers.items() if v}
    if headers.get("content-length") == "0":
        del headers["content-length"]
    parts = [request.method + "\n", "\n".join(headers.get(h, "") for h in _SIGNED_HEADERS) + "\n"]
    x_ms = sorted((k for k in request.headers if k.startswith("x-ms-")), key=_collation_key)
    parts.extend(f"{k}:{request.headers[k]}\n" for k in x_ms)
    parts.append("/" + account_name + request.raw_path)
    query: dict[str, str] = {}
    for item in request.raw_query.split("&") if request.raw_query else []:
        name, _, value = item.partition("=")
        query[name] = value
    for name, value in sorted(query.items()):
        parts.append("\n" + name.lower() + ":" + unquote(value))
    return "".join(parts)


def verify_shared_key(request: FakeRequest, account_name: str, account_key: str) -> bool:
    auth = request.header("authorization") or ""
    scheme, _, credential = auth.partition(" ")
    name, _, signature = credential.partition(":")
    if scheme != "SharedKey" or name != account_name:
        return False
    expected = sign(account_key, shared_key_string_to_sign(request, account_name))
    return hmac.compare_digest(expected, signature)


class SasError(Exception):
    """A SAS token was refused; ``code`` is the service's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(timezone.utc)


def verify_sas(
    request: FakeRequest,
    account_name: str,
    account_key: str,
    share: str | None,
    path: str,
    permission: str,
    resource_type: str,
) -> None:
    """Raise :class:`SasError` unless the SAS in the query grants ``permission`` on ``share/path``.

    ``resource_type`` is the account-SAS resource type the operation needs: ``s`` service, ``c`` share,
    ``o`` file or directory.
    """
    q = request.query
    now = datetime.now(timezone.utc)
    if "ss" in q:
        sts = account_name + "\n" + "".join(
            q.get(k, "") + "\n" for k in ("sp", "ss", "srt", "st", "se", "sip", "spr", "sv")
        ) + "\n"
    else:
        resource = "/file/" + account_name + "/" + (share or "")
        if q.get("sr") == "f":
            resource += "/" + path
        sts = "".join(q.get(k, "") + "\n" for k in ("sp", "st", "se")) + resource + "\n"
        sts += "".join(
            q.get(k, "") + "\n" for k in ("si", "sip", "spr", "sv", "rscc", "rscd", "rsce", "rscl", "rsct")
        )
        sts = sts[:-1]
    if not hmac.compare_digest(sign(account_key, sts), q.get("sig", "")):
        raise SasError("AuthenticationFailed", "Signature did not match. String to sign used was not valid.")
    if "se" not in q or _parse_time(q["se"]) < now:
        raise SasError("AuthenticationFailed", "Signed expiry time has passed.")
    if q.get("st") and _parse_time(q["st"]) > now:
        raise SasError("AuthenticationFailed", "Signed start time is in the future.")
    if "ss" in q:
        if "f" not in q["ss"] or resource_type not in q.get("srt", ""):
            raise SasError("AuthorizationResourceTypeMismatch", "This request is not authorized for this resource type.")
    else:
        # A share or file SAS names its resource in the signed string, so using it on another
        # share or file already failed the signature check above.
        if share is None:
            raise SasError("AuthorizationFailure", "This request is not authorized to perform this operation.")
    if not any(p in q.get("sp", "") for p in permission):
        raise SasError("AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission.")
