"""The speaker: an always-open sounddevice output stream, and a recording double.

A playback is handed to the stream's callback, which copies it block by
block; the first block stamps when the audio really starts (the callback's
time plus the stream's output latency) and the last when it ends, so the
runtime can gate the microphone and start timers on real times.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from hardware.events import Clock
from host_device.base.errors import HostDeviceError
from host_device.base.native import load_message
from host_device.base.sound import Samples
from host_device.base.text import one_line


class AudioDeviceError(HostDeviceError, RuntimeError):
    """No usable sound library or device (the message says what to install or choose).
    ``no_devices``: the machine has no sound device at all (the command line
    then suggests the same command with ``--audio null``)."""

    def __init__(self, message: str, no_devices: bool = False) -> None:
        super().__init__(message)
        self.no_devices = no_devices


NO_DEVICES = "звуковых устройств не найдено (подключены ли звуковая карта или USB-звук?)"


SOUND_LIBRARY = (  # what PortAudio and sounddevice say (their own English), in the club's words
    ("Error querying device -1", "звукового устройства по умолчанию нет"),
    ("Error querying device", "устройства с таким номером нет"),
    ("device matching", "устройства с таким именем нет"),
    ("devices found for", "под это имя подходят несколько устройств: укажите номер"),
    ("Not an input device", "у этого устройства нет входа: это не микрофон"),
    ("Not an output device", "у этого устройства нет выхода: это не динамик"),
    ("Invalid sample rate", "устройство не работает с этой частотой"),
    ("Device unavailable", "устройство занято другой программой или недоступно"),
    ("Invalid number of channels", "у устройства нет стольких каналов"),
    ("Invalid device", "такого устройства нет"),
)


def sound_reason(exc: Exception) -> str:
    """Why the sound library refused, in Russian; what it said in its own words
    when we do not know it (quoted: it names the fault for whoever looks further)."""
    text = str(exc)
    for said, words in SOUND_LIBRARY:
        if said.lower() in text.lower():
            return words
    return f"звуковая библиотека ответила «{one_line(text, 200)}»"


def devices_here(sd: Any) -> str:
    """The devices to choose from, for an error message; or that there are none."""
    listed = device_list(sd)
    return f"устройства здесь:\n{listed}" if listed else NO_DEVICES


@dataclass(eq=False)
class Playback:
    """One sound handed to the speaker, and when it really played."""

    samples: Samples
    rate: int
    label: str = ""
    handed_at: float | None = None  # first frame handed to the output stream (clock time)
    started: float | None = None  # first frame leaves the speaker (estimate incl. latency)
    ended: float | None = None  # last frame left, or the moment it was stopped
    stopped: bool = False
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)


class Speaker(Protocol):
    rate: int

    def play(self, playback: Playback) -> None: ...

    def stop(self) -> None: ...

    def set_bed(self, bed: Samples | None) -> None: ...

    def close(self) -> None: ...


def import_sounddevice() -> Any:
    try:
        import sounddevice

        return sounddevice
    except OSError as exc:  # PortAudio, or a library it needs, cannot be loaded
        raise AudioDeviceError(f"звук недоступен: {load_message('sounddevice', exc)}") from None


def device_list(sd: Any) -> str:
    """The sound devices, one a line: index, name, inputs, outputs."""
    lines = []
    for index, dev in enumerate(sd.query_devices()):
        lines.append(
            f"{index}\t{dev['name']}\tin {dev['max_input_channels']}\tout {dev['max_output_channels']}"
            f"\t{int(dev['default_samplerate'])} Hz"
        )
    return "\n".join(lines)


DUCK = 0.25  # the night's sound under a phrase, of its own level


def mix(phrase: Samples, bed: Samples, gain_from: float, gain_to: float) -> Samples:
    """One block of output: the phrase (may be shorter than the block, or
    empty) over the bed, whose gain moves from ``gain_from`` to ``gain_to``
    across the block (a ramp, so ducking makes no click)."""
    frames = len(bed)
    out = bed.astype(np.float64) * np.linspace(gain_from, gain_to, frames, endpoint=False)
    out[: len(phrase)] += phrase[:frames]
    return np.clip(out, -32768, 32767).astype(np.int16)


class SoundDeviceSpeaker:
    """Plays through a sounddevice OutputStream that stays open (silence when idle)."""

    BLOCK = 128  # frames per callback: 5.8 ms at 22050 Hz

    def __init__(self, rate: int, clock: Clock, device: int | str | None = None) -> None:
        self.rate = rate
        self.clock = clock
        self.device = device
        self._lock = threading.Lock()
        self._current: Playback | None = None
        self._pos = 0
        self._bed: Samples | None = None  # the night's sound, looped under the phrases
        self._bed_pos = 0
        self._bed_gain = 0.0
        self._bed_on = False
        self._open()

    def _open(self) -> None:
        sd = import_sounddevice()
        device, rate = self.device, self.rate
        try:
            self._stream = sd.OutputStream(
                samplerate=rate,
                channels=1,
                dtype="int16",
                blocksize=self.BLOCK,
                latency="low",
                device=device,
                callback=self._callback,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise AudioDeviceError(
                f"не удалось открыть динамик {device if device is not None else '(по умолчанию)'}: "
                f"{sound_reason(exc)}; "
                f"{devices_here(sd)}",
                no_devices=not device_list(sd),
            ) from None
        self.latency = float(self._stream.latency)

    @property
    def alive(self) -> bool:
        """Whether the output stream still runs (a pulled-out speaker stops it)."""
        return bool(self._stream.active)

    def reopen(self) -> bool:
        """Try to open the speaker again; True when it plays again."""
        with contextlib.suppress(Exception):
            self._stream.close()
        try:
            self._open()
        except AudioDeviceError:
            return False
        return True

    def _callback(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        with self._lock:
            playback = self._current
            chunk: Samples = np.zeros(0, dtype=np.int16)
            if playback is not None:
                now = self.clock()
                if playback.handed_at is None:
                    playback.handed_at = now
                    playback.started = now + max(0.0, time_info.outputBufferDacTime - time_info.currentTime)
                chunk = playback.samples[self._pos : self._pos + frames]
                self._pos += len(chunk)
                if self._pos >= len(playback.samples):
                    assert playback.started is not None
                    playback.ended = playback.started + playback.seconds
                    self._current = None
                    playback.done.set()
            if self._bed is None:
                outdata[: len(chunk), 0] = chunk
                outdata[len(chunk) :].fill(0)
                return
            bed = np.take(self._bed, range(self._bed_pos, self._bed_pos + frames), mode="wrap")
            self._bed_pos = (self._bed_pos + frames) % len(self._bed)
            target = 0.0 if not self._bed_on else DUCK if playback is not None else 1.0
            outdata[:, 0] = mix(chunk, bed, self._bed_gain, target)
            self._bed_gain = target
            if not self._bed_on:  # faded out over this block
                self._bed = None

    def set_bed(self, bed: Samples | None) -> None:
        """Start (a loop of samples) or stop (None) the night's sound; it fades
        in and out over one block and is ducked under every phrase."""
        with self._lock:
            if bed is not None:
                if self._bed is not bed:
                    self._bed, self._bed_pos = bed, 0
                self._bed_on = True
            else:
                self._bed_on = False

    def play(self, playback: Playback) -> None:
        with self._lock:
            self._finish_current(stopped=True)
            self._current, self._pos = playback, 0

    def stop(self) -> None:
        with self._lock:
            self._finish_current(stopped=True)

    def _finish_current(self, stopped: bool) -> None:
        if self._current is not None:
            self._current.stopped = stopped
            self._current.ended = self.clock()
            self._current.done.set()
            self._current = None

    def close(self) -> None:
        self.stop()
        self._stream.stop()
        self._stream.close()


class RecordingSpeaker:
    """A double: plays nothing, keeps every playback with its times on the
    given (virtual) clock, as if each played at once to its end. With
    ``keep=False`` it keeps nothing (the null speaker)."""

    def __init__(self, rate: int, clock: Clock, keep: bool = True) -> None:
        self.rate = rate
        self.clock = clock
        self.keep = keep
        self.played: list[Playback] = []
        self.beds: list[tuple[float, bool]] = []  # (clock time, the night's sound on)

    def play(self, playback: Playback) -> None:
        now = self.clock()
        playback.handed_at = playback.started = now
        playback.ended = now + playback.seconds
        playback.done.set()
        if self.keep:
            self.played.append(playback)

    def stop(self) -> None:
        pass

    def set_bed(self, bed: Samples | None) -> None:
        if self.keep:
            self.beds.append((self.clock(), bed is not None))

    def close(self) -> None:
        pass
