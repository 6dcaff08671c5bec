"""The test machine's sound, set up once before anything imports sounddevice:
a private HOME whose .asoundrc makes the default ALSA device a null sink for
playback and a file for capture (MIC_RAW, the samples of MIC_WAV), so
sounddevice streams really run with no sound card; and a private data
directory for voice packs."""

import os
import tempfile
from pathlib import Path

import numpy as np

_HOME = Path(tempfile.mkdtemp(prefix="host-device-test-home-"))
MIC_WAV = _HOME / "speech.wav"
MIC_RAW = _HOME / "speech.raw"
KOREAN_SPEECH = "안녕하세요 하나 둘 셋 감사합니다"  # for the stand-in (Korean) speech model


def _speech_at_16k() -> np.ndarray:
    """Real speech for the microphone: espeak-ng's Korean voice, at 16 kHz, with
    half a second of silence before and a second after."""
    import subprocess

    from hardware.microphone import to_rate
    from host_device.base.sound import read_wav

    wav = _HOME / "espeak.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), KOREAN_SPEECH], check=True)
    samples, rate = read_wav(wav)
    speech = np.frombuffer(to_rate(samples, rate), dtype="<i2")
    return np.concatenate([np.zeros(8000, "<i2"), speech, np.zeros(16000, "<i2")]).astype("<i2")


_signal = _speech_at_16k()
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
os.environ["HOST_DEVICE_RHVOICE"] = ""  # no RHVoice unless a test names its copy: espeak-ng by default
os.environ.pop("HOST_DEVICE_CONFIG", None)


def _write_mic_wav():
    from host_device.base.sound import write_wav

    write_wav(MIC_WAV, _signal.astype(np.int16), 16000)


_write_mic_wav()
