"""VM image aliases and image references, as ``az batchai cluster create -i`` accepted them.

Batch AI's aliases pointed at images that no longer exist (``UbuntuServer 16.04-LTS``, the ``microsoft-ads``
DSVM); they now resolve to the current equivalents (Ubuntu 24.04 LTS, Data Science VM Ubuntu 22.04).
"""

from __future__ import annotations

import re
from typing import NoReturn

from .exceptions import ValidationError
from .models import ImageReference

__all__ = ["IMAGE_ALIASES", "resolve_image"]

# alias → publisher:offer:sku:version
IMAGE_ALIASES: dict[str, str] = {
    "UbuntuLTS": "Canonical:ubuntu-24_04-lts:server:latest",
    "UbuntuDSVM": "microsoft-dsvm:ubuntu-2204:2204-gen2:latest",
}

_CUSTOM_IMAGE_ID = re.compile(
    r"^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.Compute/"
    r"(?:images/[^/]+|galleries/[^/]+/images/[^/]+(?:/versions/[^/]+)?)$",
    re.IGNORECASE,
)
_URN_PART = re.compile(r"^[^:\s]+$")
_ACCEPTED = (
    "an alias (" + ", ".join(IMAGE_ALIASES) + "), a URN 'publisher:offer:sku[:version]', "
    "or a custom image id '/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/images/<name>'"
)


def resolve_image(alias_or_urn_or_id: str, *, base: str = "UbuntuLTS") -> ImageReference:
    """Return the :class:`ImageReference` named by an alias, a URN or a custom image resource id.

    Aliases match case-insensitively. A URN without version means ``latest``. For a custom image the
    2018-05-01 API still requires ``publisher``/``offer``/``sku`` of the image it was derived from; they come
    from ``base`` (an alias or URN, default ``UbuntuLTS``) and ``virtual_machine_image_id`` carries the id.
    Anything else raises :class:`~batchai_sdk.exceptions.ValidationError` naming the value and the forms.
    """
    value = alias_or_urn_or_id.strip() if isinstance(alias_or_urn_or_id, str) else ""
    if value.startswith("/"):
        if not _CUSTOM_IMAGE_ID.match(value):
            _refuse(alias_or_urn_or_id)
        reference = resolve_image(base)
        reference.virtual_machine_image_id = value
        return reference
    for alias, urn in IMAGE_ALIASES.items():
        if value.lower() == alias.lower():
            value = urn
            break
    parts = value.split(":")
    if len(parts) not in (3, 4) or not all(_URN_PART.match(part) for part in parts):
        _refuse(alias_or_urn_or_id)
    publisher, offer, sku = parts[:3]
    version = parts[3] if len(parts) == 4 else "latest"
    return ImageReference(publisher=publisher, offer=offer, sku=sku, version=version)


def _refuse(value: object) -> NoReturn:
    raise ValidationError([("image", f"{value!r} is not {_ACCEPTED}")], "image")
