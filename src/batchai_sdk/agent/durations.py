"""ISO 8601 durations as msrest writes them (``P7D``, ``PT1H30M``, ``P1DT2H``)."""

from __future__ import annotations

import re

_DURATION = re.compile(
    r"^P(?:(?P<w>\d+(?:\.\d+)?)W)?(?:(?P<d>\d+(?:\.\d+)?)D)?"
    r"(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?)?$"
)
_TIMESPAN = re.compile(r"^(?:(?P<d>\d+)\.)?(?P<h>\d+):(?P<m>\d+):(?P<s>\d+(?:\.\d+)?)$")


def parse_seconds(value: str | None) -> float | None:
    """Seconds in an ISO 8601 duration, or a .NET TimeSpan ("7.00:00:00") as old job files carry."""
    if not value:
        return None
    m = _DURATION.match(value)
    if m and any(m.groupdict().values()):
        g = {k: float(v) if v else 0.0 for k, v in m.groupdict().items()}
        return g["w"] * 604800 + g["d"] * 86400 + g["h"] * 3600 + g["m"] * 60 + g["s"]
    t = _TIMESPAN.match(value)
    if t:
        return float(t["d"] or 0) * 86400 + float(t["h"]) * 3600 + float(t["m"]) * 60 + float(t["s"])
    return None
