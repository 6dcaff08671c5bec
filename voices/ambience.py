"""The night's sound: a quiet bed played under every night phase so that
the mafia's button clicks and moves are not heard; ducked under the
announcer's phrases.

The bed is generated here (filtered noise with a slow swell, like wind or
distant rain: nothing copyrighted ships with the project) or read from the
club's own WAV (``[ambience] file``). Either way it is a fixed loop, chosen
before the game: what plays never depends on a secret, and it starts and
stops with the night phases, whose times do not depend on one either.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from host_device.base.errors import SoundFileError
from host_device.base.sound import Samples, read_wav
from voices.errors import PackError
from voices.folder import regular_fault

BED_SECONDS = 12.0  # one loop
FADE_S = 1.0  # a club's file: its tail is cross-faded into its head
BED_RMS_DBFS = -18.0  # the bed at volume 1.0; the config's volume scales it
SEED = 2026  # the same bed every night and every game
MAX_BED_S = 60.0  # a club's loop, at most (read a block at a time; the bed is held at the speaker's rate)


def generated_bed(rate: int, seconds: float = BED_SECONDS) -> Samples:
    """Soft noise (pink, from 80 Hz, falling off above 3 kHz: like wind or
    distant rain) with two slow swells a loop. Made in the frequency domain,
    so the loop is seamless by construction."""
    n = int(rate * seconds)
    rng = np.random.default_rng(SEED)
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / rate)
    shape = np.zeros_like(f)
    band = f >= 80.0
    shape[band] = 1 / np.sqrt(f[band]) / (1 + (f[band] / 3000.0) ** 2)
    x = np.fft.irfft(spectrum * shape, n)
    t = np.arange(n) / rate
    x *= 0.75 + 0.25 * np.sin(2 * np.pi * 2 * t / seconds)  # whole periods: the loop stays seamless
    return np.clip(_at_level(x, BED_RMS_DBFS), -32768, 32767).astype(np.int16)


def _at_level(x: npt.NDArray[np.float64], dbfs: float) -> npt.NDArray[np.float64]:
    rms = float(np.sqrt(np.mean(x**2))) or 1.0
    return x * (32768 * 10 ** (dbfs / 20) / rms)


def _loop(x: npt.NDArray[np.float64], rate: int) -> Samples:
    """Cross-fade the tail into the head so the loop can repeat without a click."""
    fade = int(FADE_S * rate)
    if len(x) <= 2 * fade:
        return np.clip(x, -32768, 32767).astype(np.int16)
    body = x[: len(x) - fade].copy()
    ramp = np.linspace(0.0, 1.0, fade)
    body[:fade] = body[:fade] * ramp + x[len(x) - fade :] * (1 - ramp)
    return np.clip(body, -32768, 32767).astype(np.int16)


def club_bed(path: Path, rate: int) -> Samples:
    """The club's own WAV as the bed, at the speaker's rate, brought to the
    bed's level. At most MAX_BED_S long (it is looped): a longer one is
    refused from its header, never read into memory."""
    if path.exists() and (why := regular_fault(path)) is not None:  # a FIFO would hang the box's start
        raise PackError(f"[ambience].file: {path}: {why}")
    try:
        samples, _ = read_wav(path, max_seconds=MAX_BED_S, to=rate)  # resampled as it is read
    except SoundFileError as exc:
        raise PackError(f"[ambience].file: {exc}") from None
    if len(samples) < rate:
        raise PackError(f"[ambience].file: {path}: короче секунды; нужна петля в несколько секунд")
    return _loop(_at_level(samples.astype(np.float64), BED_RMS_DBFS), rate)


def scaled(bed: Samples, volume: float) -> Samples:
    """The bed at the config's volume (0 … 1)."""
    return (bed.astype(np.float64) * volume).astype(np.int16)
