"""resolve_image: aliases, URNs and custom image ids."""

from __future__ import annotations

import pytest

from batchai_sdk.exceptions import ValidationError
from batchai_sdk.images import IMAGE_ALIASES, resolve_image


def test_aliases() -> None:
    assert set(IMAGE_ALIASES) == {"UbuntuLTS", "UbuntuDSVM"}
    lts = resolve_image("UbuntuLTS")
    assert (lts.publisher, lts.offer, lts.sku, lts.version) == (
        "Canonical",
        "ubuntu-24_04-lts",
        "server",
        "latest",
    )
    dsvm = resolve_image("ubuntudsvm")
    assert (dsvm.publisher, dsvm.offer, dsvm.sku) == ("microsoft-dsvm", "ubuntu-2204", "2204-gen2")
    assert resolve_image("UbuntuLTS") is not resolve_image("UbuntuLTS")


def test_urns() -> None:
    ref = resolve_image("microsoft-dsvm:ubuntu-hpc:2204:22.04.2024")
    assert ref.serialize() == {
        "publisher": "microsoft-dsvm",
        "offer": "ubuntu-hpc",
        "sku": "2204",
        "version": "22.04.2024",
    }
    assert resolve_image("a:b:c").version == "latest"


def test_custom_image_id() -> None:
    image_id = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Compute/images/myimage"
    ref = resolve_image(image_id)
    assert ref.serialize()["virtualMachineImageId"] == image_id
    assert ref.publisher == "Canonical"  # the base image 2018-05-01 still requires
    gallery = (
        "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/galleries/g/images/i/versions/1.0.0"
    )
    assert resolve_image(gallery, base="UbuntuDSVM").offer == "ubuntu-2204"


@pytest.mark.parametrize(
    "bad", ["", "Ubuntu", "a:b", "a:b:c:d:e", "a::c", "/subscriptions/x/images", "a b:c:d"]
)
def test_bad_values_name_value_and_forms(bad: str) -> None:
    with pytest.raises(ValidationError) as info:
        resolve_image(bad)
    text = str(info.value)
    assert (
        repr(bad) in text
        and "UbuntuLTS" in text
        and "publisher:offer:sku" in text
        and "/subscriptions/" in text
    )
