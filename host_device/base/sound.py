"""Sound as numpy arrays of mono 16-bit samples, and WAV files of them."""

from __future__ import annotations

import struct
import wave
from pathlib import Path

import numpy as np
import numpy.typing as npt

from host_device.base.errors import SoundFileError, os_reason
from host_device.base.files import replacing

Samples = npt.NDArray[np.int16]

MIN_RATE, MAX_RATE = 8000, 192000  # sample rates of the WAV files read


def read_wav(path: Path, max_seconds: float | None = None) -> tuple[Samples, int]:
    """The samples and sample rate of a mono 16-bit WAV file; one longer
    than ``max_seconds`` is refused from its header, before it is read."""
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
            data = w.readframes(w.getnframes())
    except SoundFileError:
        raise
    except (wave.Error, EOFError, RuntimeError, ValueError, struct.error) as exc:  # wave fails many ways
        raise SoundFileError(f"{path}: WAV-файл не читается ({exc or type(exc).__name__})") from None
    except OSError as exc:
        raise SoundFileError(f"{path}: не удалось прочитать: {os_reason(exc)}") from None
    data = data[: len(data) - len(data) % 2]  # a file cut inside its last sample: that sample is dropped
    return np.frombuffer(data, dtype="<i2").astype(np.int16), rate


def write_wav(path: Path, samples: Samples, rate: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp, tmp.open("wb") as f, wave.open(f, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())
