"""The Batch AI 2018-05-01 object model.

Same class and attribute names as ``azure-mgmt-batchai`` 7.0.0 (msrest models; wire keys in
``_attribute_map``), with its quirks fixed: see ``docs/models.md``. Also here: loading the JSON files the
Batch AI CLI and recipes used (:func:`load_job_file`, :func:`load_spec`) and validation beyond msrest's
required/min/max (:func:`validate_model`, :func:`raise_if_invalid`).
"""

from ._clusters import *  # noqa: F403
from ._clusters import __all__ as _clusters_all
from ._common import *  # noqa: F403
from ._common import __all__ as _common_all
from ._enums import *  # noqa: F403
from ._enums import __all__ as _enums_all
from ._file_servers import *  # noqa: F403
from ._file_servers import __all__ as _file_servers_all
from ._jobs import *  # noqa: F403
from ._jobs import __all__ as _jobs_all
from ._loading import load_cluster_file, load_file_server_file, load_job_file, load_spec
from ._tools import TOOLKIT_SETTINGS_ATTRIBUTES, tool_type_of
from ._validation import (
    SpecValidationError,
    raise_if_invalid,
    validate_model,
    validate_resource_name,
    validate_share_name,
)
from ._workspaces import *  # noqa: F403
from ._workspaces import __all__ as _workspaces_all

__all__ = [
    *_common_all,
    *_clusters_all,
    *_file_servers_all,
    *_jobs_all,
    *_workspaces_all,
    *_enums_all,
    "load_spec",
    "load_job_file",
    "load_cluster_file",
    "load_file_server_file",
    "validate_model",
    "raise_if_invalid",
    "validate_resource_name",
    "validate_share_name",
    "SpecValidationError",
    "tool_type_of",
    "TOOLKIT_SETTINGS_ATTRIBUTES",
]
