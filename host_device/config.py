"""The config file (TOML): the panel's pins and the sound devices.

    [panel]            # see hardware/pinmap.py; leave out for the default pins
    debounce_ms = 30
    stuck_after_s = 5
    [audio]
    microphone = "USB PnP Sound Device"   # a name (or part of one) or an index
    speaker = 0

The file is $HOST_DEVICE_CONFIG, else ~/.config/host-device/config.toml; a
missing file means every default.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import HostDeviceError
from hardware.pinmap import PinMap, pinmap_from_config


class ConfigError(HostDeviceError, ValueError):
    pass


@dataclass(frozen=True)
class Config:
    path: Path | None
    panel: dict[str, Any] = field(default_factory=dict)
    microphone: int | str | None = None
    speaker: int | str | None = None

    def pinmap(self, seats: int) -> PinMap:
        where = f"{self.path}: [panel]" if self.path else "[panel]"
        return pinmap_from_config(self.panel, seats, where)


def default_config_path() -> Path:
    if os.environ.get("HOST_DEVICE_CONFIG"):
        return Path(os.environ["HOST_DEVICE_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "host-device" / "config.toml"


def load_config(path: Path | None = None) -> Config:
    explicit = path is not None
    path = path or default_config_path()
    if not path.exists():
        if explicit:
            raise ConfigError(f"{path}: no such config file")
        return Config(None)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    unknown = sorted(set(data) - {"panel", "audio"})
    if unknown:
        raise ConfigError(f"{path}: [{unknown[0]}]: unknown section; sections: audio, panel")
    audio = data.get("audio", {})
    for key in audio:
        if key not in ("microphone", "speaker"):
            raise ConfigError(f"{path}: [audio].{key}: unknown setting; settings: microphone, speaker")
        if isinstance(audio[key], bool) or not isinstance(audio[key], int | str):
            raise ConfigError(f"{path}: [audio].{key}: a device name or index, not {audio[key]!r}")
    return Config(path, data.get("panel", {}), audio.get("microphone"), audio.get("speaker"))
