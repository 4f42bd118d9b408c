"""The fake's identity: a TokenCredential whose token the fake ARM and Files endpoints accept."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from azure.core.credentials import AccessToken


class FakeTokenCredential:
    """An ``azure.core.credentials.TokenCredential`` that returns one fixed bearer token for any scope."""

    def __init__(self, token: str) -> None:
        self._token = token
        self.scopes_requested: list[tuple[str, ...]] = []

    def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
        # Imported here so that loading the pytest plugin never pulls in azure.core.
        from azure.core.credentials import AccessToken

        self.scopes_requested.append(scopes)
        return AccessToken(self._token, int(time.time()) + 3600)

    def __repr__(self) -> str:
        return "FakeTokenCredential(<token hidden>)"
