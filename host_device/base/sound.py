"""Sound as numpy arrays of mono 16-bit samples, and WAV files of them."""

from __future__ import annotations

import struct
import wave
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from host_device.base.errors import SoundFileError, os_reason
from host_device.base.files import replacing

Samples = npt.NDArray[np.int16]

MIN_RATE, MAX_RATE = 8000, 192000  # sample rates of the WAV files read


BLOCK_FRAMES = 1 << 16  # read and resampled a block at a time


def read_wav(path: Path, max_seconds: float | None = None, to: int | None = None) -> tuple[Samples, int]:
    """The samples and sample rate of a mono 16-bit WAV file; one longer
    than ``max_seconds`` is refused from its header, before it is read.
    ``to``: resampled to that rate as it is read, a block at a time (a
    minute at 192 kHz is 23 MB of samples, and several times that as floats
    resampled whole); the rate returned is then ``to``."""
    try:
        with wave.open(str(path), "rb") as w:
            if w.getnchannels() != 1 or w.getsampwidth() != 2:
                raise SoundFileError(
                    f"{path}: каналов {w.getnchannels()}, {8 * w.getsampwidth()} бит; нужен WAV: моно, 16 бит"
                )
            rate = w.getframerate()
            if not MIN_RATE <= rate <= MAX_RATE:
                raise SoundFileError(
                    f"{path}: частота {rate} Гц; здесь WAV бывает от {MIN_RATE} до {MAX_RATE} Гц"
                )
            seconds = w.getnframes() / rate
            if max_seconds is not None and seconds > max_seconds:
                raise SoundFileError(
                    f"{path}: длина {seconds:.0f} с; здесь можно не больше {max_seconds:g} с; укоротите"
                )
            if to is not None and to != rate:
                return resampled(_blocks(w), w.getnframes(), rate, to), to
            data = w.readframes(w.getnframes())
    except SoundFileError:
        raise
    except (wave.Error, EOFError, RuntimeError, ValueError, struct.error) as exc:  # wave fails many ways
        raise SoundFileError(f"{path}: WAV-файл не читается ({exc or type(exc).__name__})") from None
    except OSError as exc:
        raise SoundFileError(f"{path}: не удалось прочитать: {os_reason(exc)}") from None
    return _samples(data), rate


def _samples(data: bytes) -> Samples:
    data = data[: len(data) - len(data) % 2]  # a file cut inside its last sample: that sample is dropped
    return np.frombuffer(data, dtype="<i2").astype(np.int16)


def _blocks(w: wave.Wave_read) -> Iterator[Samples]:
    while data := w.readframes(BLOCK_FRAMES):
        yield _samples(data)


def resampled(blocks: Iterable[Samples], frames: int, rate: int, to: int) -> Samples:
    """``frames`` samples at ``rate``, arriving in blocks, at ``to`` by linear
    interpolation; only the result and one block are held at a time. Fewer
    samples than ``frames`` (a file cut short): what they reach."""
    n = round(frames * to / rate)
    out = np.empty(n, dtype=np.int16)
    step = (frames - 1) / (n - 1) if n > 1 else 0.0
    done, start = 0, 0  # outputs made; the index of the block's first sample
    before: Samples = np.zeros(0, dtype=np.int16)  # the previous block's last sample
    for block in blocks:
        x = np.concatenate((before, block)).astype(np.float64)
        first, end = start - len(before), start + len(block)  # end: one past the block's last sample
        upto = n if end >= frames or not step else min(n, int((end - 1) / step) + 1)
        if upto > done:
            at = np.arange(done, upto) * step
            if upto == n and end >= frames and n > 1:
                at[-1] = frames - 1  # as numpy's linspace ends: exactly on the last sample
            out[done:upto] = np.round(np.interp(at, np.arange(first, end), x)).astype(np.int16)
            done = upto
        before, start = block[-1:], end
    return out[:done]


def write_wav(path: Path, samples: Samples, rate: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp, tmp.open("wb") as f, wave.open(f, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())
