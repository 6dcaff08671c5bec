"""Speech synthesis with pyttsx3 and espeak-ng (one clip a call).

pyttsx3 is the interface: each text is one ``save_to_file`` + ``runAndWait``
(its ``say`` shells out to ``aplay`` and is never used). ``runAndWait`` may
return before espeak-ng's last callback has written the clip, so the clip is
read only once the file is complete (:mod:`voices.clipwait`). Where the
driver writes nothing in time, or silence, the text is rendered by
espeak-ng's own command line with the same voice and rate (22050 Hz mono
16-bit, as the driver writes), and so is every later clip of that
synthesiser: a driver that failed once is not waited for again.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from host_device.base.errors import SoundFileError
from host_device.base.native import load_message
from host_device.base.sound import Samples, read_wav
from voices.audio import trim
from voices.clipwait import Clock, Sleep, wait_until_complete
from voices.errors import AudioUnavailable, VoiceError

DEFAULT_VOICE = "zle/ru"
DEFAULT_RATE = 165  # words per minute: a calm, clear host
CLIP_TIMEOUT_S = 10.0  # the longest a clip is waited for (espeak-ng renders one in ~10 ms here)
ESPEAK_COMMAND = ("espeak-ng",)
COMMAND_TIMEOUT_S = 60.0


class Driver(Protocol):
    """What the synthesiser uses of a pyttsx3 engine."""

    def getProperty(self, name: str) -> Any: ...
    def setProperty(self, name: str, value: Any) -> None: ...
    def save_to_file(self, text: str, filename: str) -> None: ...
    def runAndWait(self) -> None: ...


class Synthesiser:
    """Renders text to samples: pyttsx3's espeak driver, espeak-ng's command
    where the driver fails. :attr:`way` says which was used."""

    def __init__(
        self,
        voice: str = DEFAULT_VOICE,
        rate: int = DEFAULT_RATE,
        *,
        engine_factory: Callable[[], Driver] | None = None,
        command: Sequence[str] = ESPEAK_COMMAND,
        timeout_s: float = CLIP_TIMEOUT_S,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.voice = voice
        self.rate = rate
        self._engine = (engine_factory or _init_engine)()
        ids = [v.id for v in self._engine.getProperty("voices")]
        if voice not in ids:
            near = [v for v in ids if v.split("/")[-1].startswith(voice.split("/")[-1][:2])][:5]
            raise VoiceError(f"voice {voice!r} is not known to espeak-ng; try: {', '.join(near) or ids[0]}")
        self._engine.setProperty("voice", voice)
        self._engine.setProperty("rate", rate)
        self._command = tuple(command)
        self._timeout_s = timeout_s
        self._clock = clock
        self._sleep = sleep
        self._dir = tempfile.TemporaryDirectory(prefix="host-device-tts-", ignore_cleanup_errors=True)
        self._names = itertools.count()
        self._driver_failed: str | None = None  # why the driver is no longer used

    @property
    def way(self) -> str:
        """Which way the clips were rendered, in one line."""
        settings = f"голос {self.voice}, {self.rate} слов в минуту"
        if self._driver_failed is None:
            return f"клипы озвучены pyttsx3 через espeak-ng ({settings})"
        return f"клипы озвучены командой espeak-ng ({settings}): pyttsx3 {self._driver_failed}"

    def render(self, text: str) -> tuple[Samples, int]:
        if self._driver_failed is None:
            clip = self._by_driver(text)
            if clip is not None:
                return clip
        return self._by_command(text)

    def _clip_path(self) -> Path:
        """A new file for every clip: a late write can never be taken for the next clip."""
        return Path(self._dir.name) / f"clip-{next(self._names)}.wav"

    def _by_driver(self, text: str) -> tuple[Samples, int] | None:
        path = self._clip_path()
        # pyttsx3 prints "Audio saved to ..." from espeak-ng's thread, maybe after runAndWait
        with contextlib.redirect_stdout(io.StringIO()):
            self._engine.save_to_file(text, str(path))
            self._engine.runAndWait()
            complete = wait_until_complete(
                path, timeout_s=self._timeout_s, clock=self._clock, sleep=self._sleep
            )
        if not complete:
            self._driver_failed = f"не записал целого клипа «{text}» за {self._timeout_s:g} с"
            return None
        samples, rate = read_wav(path)
        path.unlink(missing_ok=True)
        if len(trim(samples, rate)) == 0:
            self._driver_failed = f"озвучил «{text}» тишиной"
            return None
        return samples, rate

    def _by_command(self, text: str) -> tuple[Samples, int]:
        path = self._clip_path()
        argv = [*self._command, "-v", self.voice, "-s", str(self.rate), "-w", str(path), "--stdin"]
        try:
            done = subprocess.run(
                argv, input=text.encode("utf-8"), capture_output=True, timeout=COMMAND_TIMEOUT_S
            )
        except FileNotFoundError:
            raise AudioUnavailable(
                f"{self._command[0]} is not installed; install the Debian package espeak-ng "
                "(sudo apt-get install espeak-ng)"
            ) from None
        except subprocess.TimeoutExpired:
            raise VoiceError(f"{' '.join(argv)}: no clip of {text!r} in {COMMAND_TIMEOUT_S:g} s") from None
        if done.returncode != 0:
            why = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
            raise VoiceError(f"{' '.join(argv)}: {why}")
        try:
            return read_wav(path)
        except SoundFileError as exc:
            raise VoiceError(f"espeak-ng wrote no usable clip of {text!r}: {exc}") from None
        finally:
            path.unlink(missing_ok=True)

    def close(self) -> None:
        self._dir.cleanup()


def _init_engine() -> Driver:
    try:
        import pyttsx3

        engine: Driver = pyttsx3.init("espeak")
        return engine
    except (OSError, RuntimeError, ImportError) as exc:  # libespeak-ng.so.1 that cannot load
        raise AudioUnavailable(load_message("pyttsx3", exc)) from None
