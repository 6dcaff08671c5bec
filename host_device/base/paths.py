"""Where the device keeps its data."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """$HOST_DEVICE_DATA, else host-device in the XDG data home."""
    if os.environ.get("HOST_DEVICE_DATA"):
        return Path(os.environ["HOST_DEVICE_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "host-device"
