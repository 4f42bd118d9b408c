"""Storage retry policies that also repeat 429 Too Many Requests.

The storage SDK's retry policies repeat 5xx answers and dropped connections but give up at once on 429
(Azure Storage usually throttles with 503 ``ServerBusy``, yet a proxy, a gateway or Files' per-share
throttling can answer 429). A throttled request is as safe to repeat as a 503 one: the service did not
act on it. Everything else (backoff, body rewinding, secondary hosts) is the SDK's own.
"""

from __future__ import annotations

from typing import Any

from azure.core.exceptions import AzureError
from azure.storage.fileshare import ExponentialRetry, LinearRetry
from azure.storage.fileshare._shared.authentication import AzureSigningError
from azure.storage.fileshare._shared.policies import is_checksum_retry, is_retry, retry_hook

THROTTLED = 429


def _should_retry(response: Any, mode: Any) -> bool:
    return bool(response.http_response.status_code == THROTTLED or is_retry(response, mode)
                or is_checksum_retry(response))


class _ThrottleAware:
    """``send`` of ``StorageRetryPolicy`` with 429 added to the retryable answers."""

    def send(self, request: Any) -> Any:
        policy: Any = self
        response = None
        settings = policy.configure_retries(request)
        while True:
            try:
                response = policy.next.send(request)
                if _should_retry(response, settings["mode"]) and policy.increment(
                        settings, request=request.http_request, response=response.http_response):
                    retry_hook(settings, request=request.http_request, response=response.http_response, error=None)
                    policy.sleep(settings, request.context.transport)
                    continue
                break
            except AzureError as err:
                if isinstance(err, AzureSigningError):
                    raise
                if policy.increment(settings, request=request.http_request, error=err):
                    retry_hook(settings, request=request.http_request, response=None, error=err)
                    policy.sleep(settings, request.context.transport)
                    continue
                raise err
        if settings["history"]:
            response.context["history"] = settings["history"]
        response.http_response.location_mode = settings["mode"]
        return response


class ThrottleAwareLinearRetry(_ThrottleAware, LinearRetry):
    """``LinearRetry`` that also repeats 429 answers."""


class ThrottleAwareExponentialRetry(_ThrottleAware, ExponentialRetry):
    """``ExponentialRetry`` (the SDK's default policy) that also repeats 429 answers."""
