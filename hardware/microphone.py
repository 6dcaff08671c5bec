"""The microphone: 16 kHz mono 16-bit blocks on a bounded queue, stamped with
the runtime's clock; and its doubles (a WAV file, silence).

Capture never blocks: the callback only stamps, converts and puts. A full
queue drops the new block and counts an overflow (as does the driver's own
overflow flag); a stream that stops by itself puts a MicrophoneLost event on
the runtime's queue.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from hardware.events import Clock, HardwareEvent, MicrophoneLost
from hardware.speaker import AudioDeviceError, device_list, devices_here, import_sounddevice, sound_reason

RATE = 16000


@dataclass(frozen=True)
class AudioBlock:
    samples: bytes  # int16 little-endian, mono, at the microphone's rate (16 kHz unless asked)
    at: float  # clock time of the first sample
    index: int


class Microphone(Protocol):
    rate: int
    blocks: queue.Queue[AudioBlock]
    overflows: int

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def poll(self) -> None: ...


class _Blocks:
    """The bounded queue and its overflow count, shared by every microphone."""

    def __init__(self, max_blocks: int, rate: int = RATE) -> None:
        self.rate = rate
        self.blocks: queue.Queue[AudioBlock] = queue.Queue(maxsize=max_blocks)
        self.overflows = 0
        self._index = 0

    def put(self, samples: bytes, at: float) -> None:
        try:
            self.blocks.put_nowait(AudioBlock(samples, at, self._index))
        except queue.Full:
            self.overflows += 1
        self._index += 1


def to_rate(samples: np.ndarray[Any, Any], rate: int, to: int = RATE) -> bytes:
    """int16 samples at ``rate`` as little-endian bytes at ``to`` (16 kHz)."""
    if rate != to and len(samples):
        n = round(len(samples) * to / rate)
        samples = np.interp(np.linspace(0, len(samples) - 1, n), np.arange(len(samples)), samples)
        samples = np.round(samples).astype(np.int16)
    return np.asarray(samples, dtype="<i2").tobytes()


class SoundDeviceMicrophone(_Blocks):
    def __init__(
        self,
        clock: Clock,
        events: queue.Queue[HardwareEvent] | None = None,
        device: int | str | None = None,
        block_s: float = 0.1,
        max_blocks: int = 100,
        rate: int = RATE,
    ) -> None:
        super().__init__(max_blocks, rate)
        if not 0.1 <= block_s <= 0.25:
            raise ValueError(f"block_s {block_s}: blocks are 0.1 to 0.25 s")
        self.sd = import_sounddevice()
        self.clock = clock
        self.events = events
        self.device = device
        self.block_s = block_s
        self._stream: Any = None
        self._stopping = False
        self._lost = False

    def start(self) -> None:
        sd = self.sd
        try:
            self._stream = self._open(self.rate)
        except sd.PortAudioError:  # the device lacks our rate: take its own and convert
            try:
                rate = int(sd.query_devices(self.device, "input")["default_samplerate"])
                self._stream = self._open(rate)
            except (sd.PortAudioError, ValueError) as exc:
                raise self._error(exc) from None
        except ValueError as exc:
            raise self._error(exc) from None
        self._stopping = False
        self._stream.start()

    def _error(self, exc: Exception) -> AudioDeviceError:
        name = self.device if self.device is not None else "(по умолчанию)"
        return AudioDeviceError(
            f"не удалось открыть микрофон {name}: {sound_reason(exc)}; {devices_here(self.sd)}",
            no_devices=not device_list(self.sd),
        )

    def _open(self, rate: int) -> Any:
        def callback(indata: Any, frames: int, time_info: Any, status: Any) -> None:
            now = self.clock()
            if status.input_overflow:
                self.overflows += 1
            samples = np.frombuffer(bytes(indata), dtype="<i2")
            latency = max(0.0, time_info.currentTime - time_info.inputBufferAdcTime)
            self.put(to_rate(samples, rate, self.rate), now - latency)

        return self.sd.RawInputStream(
            samplerate=rate,
            channels=1,
            dtype="int16",
            blocksize=int(rate * self.block_s),
            device=self.device,
            callback=callback,
            finished_callback=self._finished,
        )

    def _finished(self) -> None:
        if not self._stopping:
            self._report_lost("the input stream stopped")

    def _report_lost(self, reason: str) -> None:
        if not self._lost:
            self._lost = True
            if self.events is not None:
                self.events.put(MicrophoneLost(at=self.clock(), reason=reason))

    def poll(self) -> None:
        """Notice a stream that died without telling (the runtime calls this regularly)."""
        if self._stream is not None and not self._stopping and not self._stream.active:
            self._report_lost("the input stream is no longer active")

    def stop(self) -> None:
        self._stopping = True
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None


class WavMicrophone(_Blocks):
    """A double: a WAV file played as the microphone, in real time or as fast as
    possible; blocks are stamped as if said from the moment ``start`` ran."""

    def __init__(
        self,
        path: Path,
        clock: Clock,
        realtime: bool = True,
        block_s: float = 0.1,
        max_blocks: int = 100_000,
        rate: int = RATE,
    ) -> None:
        super().__init__(max_blocks, rate)
        from host_device.base.sound import read_wav

        samples, wav_rate = read_wav(path)
        self.audio = to_rate(samples, wav_rate, rate)
        self.clock = clock
        self.realtime = realtime
        self.block_bytes = 2 * int(rate * block_s)
        self.block_s = block_s
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Real time: blocks come from a thread at the audio's pace. As fast as
        possible: every block is on the queue when ``start`` returns."""
        self._stop.clear()
        self.done.clear()
        if self.realtime:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        else:
            self._run()

    def _run(self) -> None:
        t0 = self.clock()
        wall0 = time.monotonic()
        for n, offset in enumerate(range(0, len(self.audio), self.block_bytes)):
            if self._stop.is_set():
                break
            if self.realtime:
                time.sleep(max(0.0, wall0 + (n + 1) * self.block_s - time.monotonic()))
            self.put(self.audio[offset : offset + self.block_bytes], t0 + n * self.block_s)
        self.done.set()

    def poll(self) -> None:
        pass

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def take(
    microphone: Microphone, stop: threading.Event, max_seconds: float
) -> tuple[np.ndarray[Any, Any], int]:
    """Record from ``microphone`` until ``stop`` is set or ``max_seconds`` pass."""
    chunks: list[bytes] = []
    end = time.monotonic() + max_seconds
    microphone.start()
    try:
        while not stop.is_set() and time.monotonic() < end:
            try:
                chunks.append(microphone.blocks.get(timeout=0.05).samples)
            except queue.Empty:
                continue
    finally:
        microphone.stop()
    while not microphone.blocks.empty():
        chunks.append(microphone.blocks.get_nowait().samples)
    return np.frombuffer(b"".join(chunks), dtype="<i2").astype(np.int16), microphone.rate


class NullMicrophone(_Blocks):
    """A double that hears nothing."""

    def __init__(self) -> None:
        super().__init__(1)

    def start(self) -> None:
        pass

    def poll(self) -> None:
        pass

    def stop(self) -> None:
        pass
