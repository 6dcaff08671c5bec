"""Mono 16-bit audio as numpy arrays: trimming, loudness, joining.

Every clip is trimmed of its leading and trailing silence, brought to one
loudness (LUFS, ITU-R BS.1770, its peaks limited), and given short fades,
so that clips joined with pauses of digital silence play without clicks.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from host_device.base.sound import Samples, resampled

PROCESSING = "lufs-20"  # how clips are processed, in a pack's source: a pack made otherwise is remade
TARGET_LUFS = -20.0  # every clip of every pack: the speaker's volume means the same for each voice
PEAK_LIMIT_DBFS = -1.0
LIMITER_MS = 5  # the peak limiter's hold and smoothing (a limited peak is a 10 ms dip in gain)
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


# ITU-R BS.1770's K-weighting at 48 kHz (a high shelf, then a high-pass), as biquad (b, a)
_K_WEIGHTING = (
    ((1.53512485958697, -2.69169618940638, 1.19839281085285), (1.0, -1.69065929318241, 0.73248077421585)),
    ((1.0, -2.0, 1.0), (1.0, -1.99004745483398, 0.99007225036621)),
)
_BLOCK_S = 0.4  # BS.1770's gating block (75 % overlap); a shorter clip is one block
_ABSOLUTE_GATE = -70.0
_RELATIVE_GATE = -10.0


def _k_weighted(x: npt.NDArray[np.float64], rate: int) -> npt.NDArray[np.float64]:
    """``x`` through the K-weighting's magnitude response (its phase does not change the
    loudness), applied in the frequency domain at any rate: the 48 kHz filters' response
    at each frequency of the clip's spectrum."""
    size = 1 << int(np.ceil(np.log2(2 * len(x))))
    freqs = np.fft.rfftfreq(size, 1 / rate)
    z = np.exp(-2j * np.pi * freqs / 48000)
    response = np.ones_like(z)
    for b, a in _K_WEIGHTING:
        response *= (b[0] + b[1] * z + b[2] * z * z) / (a[0] + a[1] * z + a[2] * z * z)
    return np.fft.irfft(np.fft.rfft(x, size) * np.abs(response), size)[: len(x)]


def _lufs(x: npt.NDArray[np.float64], rate: int) -> float:
    y = _k_weighted(x / 32768.0, rate)
    block = max(1, min(len(y), round(_BLOCK_S * rate)))
    starts = np.arange(0, len(y) - block + 1, max(1, block // 4))
    energy = np.concatenate([[0.0], np.cumsum(y**2)])
    power = (energy[starts + block] - energy[starts]) / block
    levels = -0.691 + 10 * np.log10(np.maximum(power, 1e-12))
    kept = power[levels > _ABSOLUTE_GATE]
    if not len(kept):
        return _ABSOLUTE_GATE
    relative = -0.691 + 10 * np.log10(np.mean(kept)) + _RELATIVE_GATE
    kept = kept[-0.691 + 10 * np.log10(kept) > relative]
    return float(-0.691 + 10 * np.log10(np.mean(kept)))


def loudness(samples: Samples, rate: int) -> float:
    """The clip's integrated loudness in LUFS (ITU-R BS.1770: K-weighted, gated), mono."""
    if len(samples) == 0:
        return _ABSOLUTE_GATE
    return _lufs(samples.astype(np.float64), rate)


def _running_min(a: npt.NDArray[np.float64], width: int) -> npt.NDArray[np.float64]:
    """The least of ``a[n : n + width]`` at each n (fewer at the end), in log2(width) passes."""
    out = a.copy()
    span = 1
    while 2 * span <= width:
        out[:-span] = np.minimum(out[:-span], out[span:])
        span *= 2
    if span < width:
        rest = width - span
        out[:-rest] = np.minimum(out[:-rest], out[rest:])
    return out


def _limited(x: npt.NDArray[np.float64], rate: int) -> npt.NDArray[np.float64]:
    """Peaks above PEAK_LIMIT_DBFS brought down by a smooth dip in gain (held, then
    averaged over LIMITER_MS), never by lowering the whole clip."""
    ceiling = 10 ** (PEAK_LIMIT_DBFS / 20) * 32767.0
    need = np.minimum(1.0, ceiling / np.maximum(np.abs(x), 1e-9))
    if need.min() >= 1.0:
        return x
    width = max(1, rate * LIMITER_MS // 1000)
    ones = np.ones(width)
    held = _running_min(np.concatenate([ones, need, ones]), 2 * width + 1)[: len(x)]
    sums = np.concatenate([[0.0], np.cumsum(np.concatenate([ones, held, ones]))])
    smooth = (sums[2 * width + 1 :] - sums[: -2 * width - 1]) / (2 * width + 1)
    out: npt.NDArray[np.float64] = x * np.minimum(smooth, need)
    return out


def normalise(samples: Samples, rate: int) -> Samples:
    """Bring the clip to TARGET_LUFS, its peaks limited to PEAK_LIMIT_DBFS (a clip whose
    peaks were limited is raised again until it reaches the target, within 0.1 LU)."""
    x = samples.astype(np.float64)
    if len(x) == 0 or not np.any(x):
        return samples
    gain = 10 ** ((TARGET_LUFS - _lufs(x, rate)) / 20)
    for _ in range(4):
        y = _limited(x * gain, rate)
        short = TARGET_LUFS - _lufs(y, rate)
        if short < 0.1:
            break
        gain *= 10 ** (short / 20)
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
    return fade(normalise(trim(samples, rate), rate), rate)


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
