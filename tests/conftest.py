"""Test-wide set-up: a private HOME whose .asoundrc makes the default ALSA
device a null sink for playback and a file for capture (MIC_RAW, the samples
of MIC_WAV), so sounddevice streams really run with no sound card; and a
private data directory for voice packs."""

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest

_HOME = Path(tempfile.mkdtemp(prefix="host-device-test-home-"))
MIC_WAV = _HOME / "speech.wav"
MIC_RAW = _HOME / "speech.raw"
_t = np.arange(16000 * 2) / 16000
_signal = (np.sin(2 * np.pi * 440 * _t) * 6000 * np.minimum(1, _t * 4)).astype("<i2")
_signal[:16] = np.arange(16)  # a recognisable start
MIC_RAW.write_bytes(_signal.tobytes())
(_HOME / ".asoundrc").write_text(
    f"""
pcm.nullsink {{ type null }}
pcm.micfile {{ type file slave.pcm "nullsink" file "/dev/null" infile "{MIC_RAW}" format "raw" }}
pcm.!default {{ type asym playback.pcm "plug:nullsink" capture.pcm "micfile" }}
""",
    encoding="utf-8",
)
os.environ["HOME"] = str(_HOME)  # before anything imports sounddevice (PortAudio reads ALSA's config then)
os.environ["HOST_DEVICE_DATA"] = str(_HOME / "data")
os.environ.pop("HOST_DEVICE_CONFIG", None)


def _write_mic_wav():
    from voices.audio import write_wav

    write_wav(MIC_WAV, _signal.astype(np.int16), 16000)


_write_mic_wav()


@pytest.fixture(scope="session")
def catalogue():
    from voices.catalogue import russian

    return russian()


@pytest.fixture(scope="session")
def builtin_pack(catalogue):
    """The real built-in pack, rendered once by espeak-ng for the whole run."""
    from voices.pack import build_builtin, builtin_pack_dir, load_pack
    from voices.render import DEFAULT_RATE, DEFAULT_VOICE

    build_builtin(builtin_pack_dir(), catalogue, DEFAULT_VOICE, DEFAULT_RATE)
    return load_pack(builtin_pack_dir(), catalogue)
