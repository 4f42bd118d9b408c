"""ARM errors turned into exceptions that name the problem and the fix.

Every class is an ``azure.core.exceptions.HttpResponseError`` (404 → ``ResourceNotFoundError``, 409 →
``ResourceExistsError``), so callers that catch the SDK's exceptions keep working; ``error_code`` is the
ARM code the clients copy into the cluster's ``errors``.
"""

from __future__ import annotations

from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError

_FIXES = {
    "SkuNotAvailable": "pick another vm_size or location (`az vm list-skus --location <loc> --size <size> "
                       "--output table` lists what is offered), or use a different vm_priority",
    "QuotaExceeded": "request a quota increase for this VM family (Azure portal → Subscriptions → Usage + quotas), "
                     "use fewer nodes, or a smaller vm_size",
    "OperationNotAllowed": "the request exceeds a subscription limit (often the regional vCPU quota): request a "
                           "quota increase or use fewer or smaller nodes",
    "AllocationFailed": "Azure has no capacity for this size right now: retry later, use another location or size, "
                        "or fewer nodes",
    "ZonalAllocationFailed": "Azure has no capacity for this size right now: retry later or use another location",
    "ResourceGroupNotFound": "create it (`az group create -n <group> -l <location>`) or pass an existing one",
    "SubscriptionNotFound": "check the subscription id and that the credential can see it (`az account list`)",
    "AuthorizationFailed": "grant the credential Contributor on the resource group",
    "InvalidParameter": "check the cluster parameters named in the message",
}


class AzureEngineError(HttpResponseError):
    """A provisioning failure reported by Azure, with ``error_code`` and the fix in the message."""


class SkuNotAvailableError(AzureEngineError):
    pass


class QuotaExceededError(AzureEngineError):
    pass


class AllocationFailedError(AzureEngineError):
    pass


_CLASSES: dict[str, type[HttpResponseError]] = {
    "SkuNotAvailable": SkuNotAvailableError,
    "QuotaExceeded": QuotaExceededError,
    "OperationNotAllowed": QuotaExceededError,
    "AllocationFailed": AllocationFailedError,
    "ZonalAllocationFailed": AllocationFailedError,
}


def error_code_of(exc: HttpResponseError) -> str | None:
    err = getattr(exc, "error", None)
    code = getattr(err, "code", None) or getattr(exc, "error_code", None)
    return str(code) if code else None


def _message_of(exc: HttpResponseError) -> str:
    err = getattr(exc, "error", None)
    return str(getattr(err, "message", None) or exc.message or exc)


def map_arm_error(exc: HttpResponseError, what: str) -> HttpResponseError:
    """A clearer exception for ``exc`` raised while doing ``what`` (e.g. "creating scale set x")."""
    code = error_code_of(exc)
    status = getattr(exc, "status_code", None)
    detail = _message_of(exc)
    fix = _FIXES.get(code or "")
    text = f"{what} failed: ({code or status}) {detail}"
    if fix:
        text += f" Fix: {fix}."
    cls: type[HttpResponseError]
    if code in _CLASSES:
        cls = _CLASSES[code]
    elif status == 404 or code in ("ResourceGroupNotFound", "ResourceNotFound", "NotFound"):
        cls = ResourceNotFoundError
    elif status == 409:
        cls = ResourceExistsError
    else:
        cls = AzureEngineError
    mapped = cls(message=text)
    mapped.response = getattr(exc, "response", None)
    mapped.error = getattr(exc, "error", None)
    mapped.error_code = code  # type: ignore[attr-defined]
    mapped.status_code = status
    mapped.message = text
    return mapped
