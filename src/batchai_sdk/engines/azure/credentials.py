"""A credential for an ARM access token fetched beforehand (``az account get-access-token``), as CI pipelines have."""

from __future__ import annotations

import base64
import binascii
import json
import time
from typing import Any

from azure.core.credentials import AccessToken

#: How long a token whose expiry cannot be read is trusted: ARM access tokens live 60-90 minutes.
DEFAULT_LIFETIME_S = 3600


def jwt_expiry(token: str) -> int | None:
    """The ``exp`` claim of a JWT (seconds since the epoch), or None when ``token`` is not a readable JWT.

    The signature is not checked: the service does that; the client only needs to know when to stop using it.
    """
    parts = token.split(".")
    if len(parts) != 3:
        return None
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    try:
        claims = json.loads(base64.urlsafe_b64decode(payload.encode("ascii")))
    except (ValueError, UnicodeError, binascii.Error):
        return None
    exp = claims.get("exp") if isinstance(claims, dict) else None
    if isinstance(exp, bool) or not isinstance(exp, (int, float)):
        return None
    return int(exp)


class StaticTokenCredential:
    """An ``azure.core.credentials.TokenCredential`` that hands out one pre-fetched bearer token for any scope.

    ``expires_on`` defaults to the token's JWT ``exp`` claim, else one hour from now. The token cannot be
    refreshed: once it expires ARM answers 401 and the caller must fetch a new one.
    """

    def __init__(self, token: str, expires_on: int | None = None) -> None:
        token = token.strip()
        if not token:
            raise ValueError("the access token is empty")
        self._token = token
        if expires_on is None:
            expires_on = jwt_expiry(token)
        self.expires_on = expires_on if expires_on is not None else int(time.time()) + DEFAULT_LIFETIME_S

    def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
        return AccessToken(self._token, self.expires_on)

    def close(self) -> None:
        """Nothing to release; present because clients close their credential."""

    def __enter__(self) -> StaticTokenCredential:
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"StaticTokenCredential(<token hidden>, expires_on={self.expires_on})"
