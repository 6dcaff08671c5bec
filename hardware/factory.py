"""Backends chosen by a setting: ``--panel gpio|keyboard|mock|web`` and
``--audio device|null|file``."""

from __future__ import annotations

import queue
from pathlib import Path

from hardware.events import Clock, HardwareEvent
from hardware.microphone import Microphone, NullMicrophone, SoundDeviceMicrophone, WavMicrophone
from hardware.panel import Panel
from hardware.pinmap import PinMap
from hardware.speaker import RecordingSpeaker, SoundDeviceSpeaker, Speaker
from host_device.base.errors import HostDeviceError

PANELS = ("gpio", "keyboard", "mock", "web")
AUDIO = ("device", "null", "file")


class BackendError(HostDeviceError, ValueError):
    pass


def make_panel(
    kind: str, pinmap: PinMap, clock: Clock, events: queue.Queue[HardwareEvent], draw: bool = True
) -> Panel:
    """``draw``: the keyboard panel draws its LEDs on the terminal (not when
    assist mode's host screen owns it)."""
    if kind == "keyboard":
        from hardware.keyboard_panel import KeyboardPanel

        return KeyboardPanel(pinmap.seat_count, clock, events, draw=draw)
    if kind == "web":
        from hardware.phone_panel import PhonePanel

        return PhonePanel(pinmap.seat_count, events)
    if kind in ("gpio", "mock"):
        from hardware.gpio_panel import GpioPanel, mock_pin_factory

        return GpioPanel(pinmap, clock, events, pin_factory=mock_pin_factory() if kind == "mock" else None)
    raise BackendError(f"--panel {kind}: нет такого пульта; пульты: {', '.join(PANELS)}")


def make_audio(
    kind: str,
    clock: Clock,
    events: queue.Queue[HardwareEvent],
    speaker_rate: int,
    microphone: int | str | None = None,
    speaker: int | str | None = None,
    wav: Path | None = None,
) -> tuple[Microphone, Speaker]:
    if kind == "device":
        return SoundDeviceMicrophone(clock, events, device=microphone), SoundDeviceSpeaker(
            speaker_rate, clock, device=speaker
        )
    if kind == "null":
        return NullMicrophone(), RecordingSpeaker(speaker_rate, clock, keep=False)
    if kind == "file":
        if wav is None:
            raise BackendError("--audio file — только с --wav FILE.wav (что услышит микрофон)")
        return WavMicrophone(wav, clock, realtime=True), RecordingSpeaker(speaker_rate, clock)
    raise BackendError(f"--audio {kind}: нет такого звука; есть: {', '.join(AUDIO)}")
