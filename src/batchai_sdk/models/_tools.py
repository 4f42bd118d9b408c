"""Which toolkit a job uses, derived the way the service derived ``toolType``."""

from __future__ import annotations

from typing import Any

from ._enums import ToolType

# Python attribute of each *Settings object → the toolType the service reported for it.
TOOLKIT_SETTINGS_ATTRIBUTES: dict[str, ToolType] = {
    "cntk_settings": ToolType.CNTK,
    "py_torch_settings": ToolType.PYTORCH,
    "tensor_flow_settings": ToolType.TENSORFLOW,
    "caffe_settings": ToolType.CAFFE,
    "caffe2_settings": ToolType.CAFFE2,
    "chainer_settings": ToolType.CHAINER,
    "custom_toolkit_settings": ToolType.CUSTOM,
    "custom_mpi_settings": ToolType.CUSTOMMPI,
    "horovod_settings": ToolType.HOROVOD,
}


def present_toolkits(job: Any) -> list[str]:
    """Python attribute names of the ``*Settings`` objects set on ``job``."""
    return [attr for attr in TOOLKIT_SETTINGS_ATTRIBUTES if getattr(job, attr, None) is not None]


def tool_type_of(job: Any) -> str:
    """Return the toolType (``'cntk'``, ..., ``'pytorch'``) of a ``JobCreateParameters`` or ``Job``.

    The one ``*Settings`` object present decides; a ``Job`` without any falls back to its reported
    ``tool_type``. Raises :class:`~batchai_sdk.exceptions.ValidationError` when none or several are set.
    """
    from ..exceptions import ValidationError

    present = present_toolkits(job)
    if len(present) == 1:
        return TOOLKIT_SETTINGS_ATTRIBUTES[present[0]].value
    if not present:
        reported = getattr(job, "tool_type", None)
        if reported:
            return str(getattr(reported, "value", reported)).lower()
        raise ValidationError([("properties", "no toolkit settings (e.g. customToolkitSettings) given")])
    names = ", ".join(_wire_name(job, attr) for attr in present)
    raise ValidationError([("properties", f"exactly one toolkit settings object allowed, found {names}")])


def _wire_name(job: Any, attr: str) -> str:
    key: str = type(job)._attribute_map[attr]["key"]
    return key.rsplit(".", 1)[-1]
