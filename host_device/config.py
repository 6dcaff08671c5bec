"""The config file (TOML): the panel's pins and the sound devices.

    [panel]            # see hardware/pinmap.py; leave out for the default pins
    debounce_ms = 30
    stuck_after_s = 5
    [audio]
    microphone = "USB PnP Sound Device"   # a name (or part of one) or an index
    speaker = 0
    [assist]           # assist mode (run --mode assist)
    auto_accept = false        # heard nominations take effect without the host's "y"
    votes = "buttons"          # or "counts": the host enters the hands counted
    night = "host"             # or "buttons": the device runs the night as in host mode
    timers = [90, 120]         # free timers (seconds) beyond 60 s, 30 s and the agreement minute

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
from host_device.runtime.assist import AssistSettings


class ConfigError(HostDeviceError, ValueError):
    pass


@dataclass(frozen=True)
class Config:
    path: Path | None
    panel: dict[str, Any] = field(default_factory=dict)
    microphone: int | str | None = None
    speaker: int | str | None = None
    assist: AssistSettings = field(default_factory=AssistSettings)

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
    unknown = sorted(set(data) - {"panel", "audio", "assist"})
    if unknown:
        raise ConfigError(f"{path}: [{unknown[0]}]: unknown section; sections: assist, audio, panel")
    audio = data.get("audio", {})
    for key in audio:
        if key not in ("microphone", "speaker"):
            raise ConfigError(f"{path}: [audio].{key}: unknown setting; settings: microphone, speaker")
        if isinstance(audio[key], bool) or not isinstance(audio[key], int | str):
            raise ConfigError(f"{path}: [audio].{key}: a device name or index, not {audio[key]!r}")
    assist = assist_settings(data.get("assist", {}), f"{path}: [assist]")
    return Config(path, data.get("panel", {}), audio.get("microphone"), audio.get("speaker"), assist)


ASSIST_CHOICES = {"votes": ("buttons", "counts"), "night": ("host", "buttons")}


def assist_settings(data: dict[str, Any], where: str) -> AssistSettings:
    for key, value in data.items():
        if key == "auto_accept":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.auto_accept: true or false, not {value!r}")
        elif key in ASSIST_CHOICES:
            if value not in ASSIST_CHOICES[key]:
                choices = " or ".join(f'"{c}"' for c in ASSIST_CHOICES[key])
                raise ConfigError(f"{where}.{key}: {choices}, not {value!r}")
        elif key == "timers":
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 3600 for v in value
            ):
                raise ConfigError(
                    f"{where}.timers: a list of seconds from 1 to 3600, like [90, 120], not {value!r}"
                )
        else:
            raise ConfigError(f"{where}.{key}: unknown setting; settings: auto_accept, night, timers, votes")
    return AssistSettings(
        auto_accept=data.get("auto_accept", False),
        votes=data.get("votes", "buttons"),
        night=data.get("night", "host"),
        timers=tuple(data.get("timers", ())),
    )
