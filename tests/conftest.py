"""Test-wide set-up: a private HOME whose .asoundrc makes the default ALSA
device a null sink (so sounddevice streams really run, with no sound card),
and a private data directory for voice packs."""

import os
import tempfile
from pathlib import Path

import pytest

_HOME = Path(tempfile.mkdtemp(prefix="host-device-test-home-"))
(_HOME / ".asoundrc").write_text(
    """
pcm.nullsink { type null }
pcm.!default { type plug slave.pcm "nullsink" }
ctl.!default { type hw card 0 }
""",
    encoding="utf-8",
)
os.environ["HOME"] = str(_HOME)  # before anything imports sounddevice (PortAudio reads ALSA's config then)
os.environ["HOST_DEVICE_DATA"] = str(_HOME / "data")


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
