"""The Azure engine: clusters as VM Scale Sets, shares as Azure file shares (``pip install batchai-sdk[azure]``).

Importing this package imports the Azure SDKs (about half a second); ``import batchai_sdk`` does not.
"""

from .backend import AzureBackend
from .errors import AllocationFailedError, AzureEngineError, QuotaExceededError, SkuNotAvailableError
from .store import AzureFilesStore

__all__ = [
    "AllocationFailedError",
    "AzureBackend",
    "AzureEngineError",
    "AzureFilesStore",
    "QuotaExceededError",
    "SkuNotAvailableError",
]
