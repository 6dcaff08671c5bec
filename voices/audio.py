"""Mono 16-bit audio as numpy arrays: trimming, loudness, joining.

Every clip is trimmed of its leading and trailing silence, brought to one
loudness, and given short fades, so that clips joined with pauses of digital
silence play without clicks.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from host_device.base.sound import Samples, resampled

TARGET_RMS_DBFS = -20.0
PEAK_LIMIT_DBFS = -1.0
SILENCE_BELOW_DB = -40.0  # relative to the clip's loudest 10 ms
MARGIN_MS = 15
FADE_MS = 5


def _frames_db(x: npt.NDArray[np.float64], frame: int) -> npt.NDArray[np.float64]:
    n = len(x) // frame
    if n == 0:
        return np.array([-120.0])
    rms = np.sqrt(np.mean(x[: n * frame].reshape(n, frame) ** 2, axis=1))
    return np.asarray(20 * np.log10(np.maximum(rms, 1e-9) / 32768.0), dtype=np.float64)


def trim(samples: Samples, rate: int) -> Samples:
    """Cut leading and trailing silence, keeping a short margin."""
    x = samples.astype(np.float64)
    frame = max(1, rate // 100)
    db = _frames_db(x, frame)
    loud = np.nonzero(db > db.max() + SILENCE_BELOW_DB)[0]
    if db.max() < -80 or len(loud) == 0:
        return samples[:0]
    margin = rate * MARGIN_MS // 1000
    start = max(0, loud[0] * frame - margin)
    end = min(len(samples), (loud[-1] + 1) * frame + margin)
    return samples[start:end]


def normalise(samples: Samples) -> Samples:
    """Bring the clip to the target loudness (RMS), never past the peak limit."""
    x = samples.astype(np.float64)
    if len(x) == 0 or not np.any(x):
        return samples
    rms = np.sqrt(np.mean(x**2))
    gain = 10 ** (TARGET_RMS_DBFS / 20) * 32768.0 / rms
    peak_gain = 10 ** (PEAK_LIMIT_DBFS / 20) * 32767.0 / np.max(np.abs(x))
    y = x * float(min(gain, peak_gain))
    out: Samples = np.clip(np.round(y), -32768, 32767).astype(np.int16)
    return out


def fade(samples: Samples, rate: int) -> Samples:
    """Raised-cosine fades at both ends, so a clip starts and ends at zero."""
    n = min(len(samples) // 2, rate * FADE_MS // 1000)
    if n == 0:
        return samples
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, n))
    y = samples.astype(np.float64)
    y[:n] *= ramp
    y[-n:] *= ramp[::-1]
    return np.round(y).astype(np.int16)


def prepare(samples: Samples, rate: int) -> Samples:
    """What every clip goes through before it enters a pack."""
    return fade(normalise(trim(samples, rate)), rate)


def silence(ms: int, rate: int) -> Samples:
    return np.zeros(rate * ms // 1000, dtype=np.int16)


def tone(rate: int, hz: float = 880.0, ms: int = 150, dbfs: float = -12.0) -> Samples:
    """A short sine beep with fades (the ten-second warning)."""
    t = np.arange(rate * ms // 1000) / rate
    y = np.sin(2 * np.pi * hz * t) * 10 ** (dbfs / 20) * 32767
    return fade(np.round(y).astype(np.int16), rate)


def join(parts: list[Samples]) -> Samples:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)


def resample(samples: Samples, rate: int, to: int) -> Samples:
    """Linear resampling (recordings made at the microphone's rate)."""
    if rate == to or len(samples) == 0:
        return samples
    return resampled((samples,), len(samples), rate, to)
