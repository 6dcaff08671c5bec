"""Speech synthesis with pyttsx3 and espeak-ng (one clip a call)."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path
from typing import Any

from host_device.base.sound import Samples, read_wav
from voices.errors import AudioUnavailable, VoiceError

DEFAULT_VOICE = "zle/ru"
DEFAULT_RATE = 165  # words per minute: a calm, clear host


class Synthesiser:
    """Renders text to samples with pyttsx3's espeak driver.

    Each text is one ``save_to_file`` + ``runAndWait`` (pyttsx3's ``say``
    shells out to ``aplay`` and is never used).
    """

    def __init__(self, voice: str = DEFAULT_VOICE, rate: int = DEFAULT_RATE) -> None:
        self.voice = voice
        self.rate = rate
        self._engine = _init_engine()
        ids = [v.id for v in self._engine.getProperty("voices")]
        if voice not in ids:
            near = [v for v in ids if v.split("/")[-1].startswith(voice.split("/")[-1][:2])][:5]
            raise VoiceError(f"voice {voice!r} is not known to espeak-ng; try: {', '.join(near) or ids[0]}")
        self._engine.setProperty("voice", voice)
        self._engine.setProperty("rate", rate)
        self._dir = tempfile.TemporaryDirectory(prefix="host-device-tts-")

    def render(self, text: str) -> tuple[Samples, int]:
        path = Path(self._dir.name) / "clip.wav"
        with contextlib.redirect_stdout(io.StringIO()):  # pyttsx3 prints "Audio saved to ..."
            self._engine.save_to_file(text, str(path))
            self._engine.runAndWait()
        return read_wav(path)

    def close(self) -> None:
        self._dir.cleanup()


def _init_engine() -> Any:
    try:
        import pyttsx3

        return pyttsx3.init("espeak")
    except (OSError, RuntimeError, ImportError) as exc:
        raise AudioUnavailable(
            f"speech synthesis is unavailable ({exc}); install the Debian package espeak-ng "
            "(sudo apt-get install espeak-ng)"
        ) from None
