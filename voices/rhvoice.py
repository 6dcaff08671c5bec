"""RHVoice: the built-in Russian voice where it is installed (Debian's rhvoice-russian).

Where it is looked for: the system (Debian's packages librhvoice5 and rhvoice-russian:
``/usr/lib/TRIPLET/libRHVoice.so.5``, ``/usr/share/RHVoice``), or, where HOST_DEVICE_RHVOICE is
set, only the folder it names: a root into which those packages were unpacked (``./run
rhvoice-debs``: the tests and the arm64 check); set and empty, nowhere (espeak-ng speaks).

It is driven through its C library (ctypes: RHVoice.h's ``RHVoice_new_tts_engine``,
``RHVoice_new_message``, ``RHVoice_speak``), one message a clip, with a configuration of our own
(a temporary folder, never /etc/RHVoice) that turns on RHVoice's stress mark: «+» before the
stressed vowel, the catalogue's own mark (``[spoken]``, voices/stress.py). A voice speaks at 24 kHz;
its pack is held at PACK_RATE like every other.
"""

from __future__ import annotations

import ctypes
import gzip
import os
import platform
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from host_device.base.sound import Samples
from host_device.base.text import one_line
from voices.catalogue import Catalogue
from voices.errors import AudioUnavailable, VoiceError
from voices.pack import BuildReport, build_with

ENV = "HOST_DEVICE_RHVOICE"
SYSTEM = Path("/")  # where Debian's packages put it
DEFAULT_VOICE = "aleksandr-hq"  # CC-BY-SA-4.0: a club may play with it for money, naming its authors
PREFIX = "rhvoice-"  # a voice's name on the box: rhvoice-aleksandr-hq
LIBRARY, CORE = "libRHVoice.so.5", "libRHVoice_core.so.7"
PACKAGES = "librhvoice5 rhvoice-russian"
COPYRIGHT = "usr/share/doc/rhvoice-russian/copyright"
CONFIG = "stress_marker=+\n"  # RHVoice.conf: «+» before a vowel stresses it (Russian and Ukrainian only)
TRIPLETS = {
    "x86_64": "x86_64-linux-gnu",
    "aarch64": "aarch64-linux-gnu",
    "armv7l": "arm-linux-gnueabihf",
    "armv6l": "arm-linux-gnueabihf",
}
ENABLE = (
    "sudo apt install librhvoice5 rhvoice-russian (они в разделе «non-free»: в Raspberry Pi OS он включён, "
    "в Debian допишите «non-free» к строке «Components:» в /etc/apt/sources.list.d/debian.sources "
    "и выполните sudo apt update), затем ./run"
)


@dataclass(frozen=True)
class Licence:
    name: str  # as Debian's copyright file spells it: CC-BY-SA-4.0
    commercial: bool
    authors: str = ""

    def said(self) -> str:
        """The licence and what it allows a club, in Russian."""
        if not self.commercial:
            return f"{self.name}: только некоммерческие игры"
        named = f", с указанием авторов ({self.authors})" if self.authors else ""
        return f"{self.name}: можно и в платных играх{named}"


def licences() -> dict[str, Licence]:
    """The Russian voices' licences (data/rhvoice.toml), by the voice's folder name."""
    data = tomllib.loads((resources.files("voices") / "data" / "rhvoice.toml").read_text("utf-8"))
    return {n: Licence(e["licence"], bool(e["commercial"]), e.get("authors", "")) for n, e in data.items()}


@dataclass(frozen=True)
class RHVoiceHome:
    """Where RHVoice is: its library and its data, under ``root`` (``/`` for the system's)."""

    root: Path
    library: Path
    data: Path

    @property
    def system(self) -> bool:
        return self.root == SYSTEM

    @property
    def where(self) -> str:
        """Where it was found, in a few Russian words."""
        return "системные пакеты" if self.system else f"{ENV}={self.root}"

    @property
    def version(self) -> str:
        """Debian's version of the packages (the changelog's first line), or «?»."""
        try:
            with gzip.open(self.root / "usr/share/doc/rhvoice-russian/changelog.Debian.gz", "rt") as f:
                head = f.readline()
            return head.split("(", 1)[1].split(")", 1)[0]
        except (OSError, IndexError, EOFError, UnicodeDecodeError):
            return "?"

    def _info(self, voice: str) -> dict[str, str]:
        """A voice's voice.info (name=…, language=…, gender=…), empty where it does not read."""
        try:
            text = (self.data / "voices" / voice / "voice.info").read_text("utf-8", "replace")
        except OSError:
            return {}
        pairs = (line.partition("=") for line in text.splitlines())
        return {key.strip(): value.strip() for key, _, value in pairs}

    def voices(self) -> list[str]:
        """The Russian voices installed, by their folder names (aleksandr-hq, anna, …)."""
        folders = sorted(p.name for p in (self.data / "voices").glob("*") if p.is_dir())
        return [v for v in folders if self._info(v).get("language") == "Russian"]

    def gender(self, voice: str) -> str:
        """«мужской» or «женский», as the voice's voice.info says."""
        return {"male": "мужской", "female": "женский"}.get(self._info(voice).get("gender", ""), "?")

    def licence(self, voice: str) -> str:
        """The voice's licence in Russian, or where to read it."""
        known = licences().get(voice)
        return known.said() if known else f"лицензия — в {self.root / COPYRIGHT}"


def find(environ: Mapping[str, str] = os.environ) -> RHVoiceHome | None:
    """RHVoice with at least one Russian voice: in HOST_DEVICE_RHVOICE's folder where it is set,
    else in the system; None where there is none."""
    given = environ.get(ENV)
    if given == "":
        return None
    root = Path(given) if given is not None else SYSTEM
    triplet = TRIPLETS.get(platform.machine(), "")
    candidates = [root / "usr/lib" / triplet / LIBRARY] if triplet else []
    candidates += sorted((root / "usr/lib").glob(f"*/{LIBRARY}"))
    library = next((c for c in candidates if c.is_file() and (c.parent / CORE).is_file()), None)
    if library is None:
        return None
    home = RHVoiceHome(root, library, root / "usr/share/RHVoice")
    if not (home.data / "languages/Russian").is_dir() or not home.voices():
        return None
    return home


def missing(environ: Mapping[str, str] = os.environ) -> str:
    """Why no RHVoice is found, and how to get it, in one Russian line."""
    given = environ.get(ENV)
    if given == "":
        return f"RHVoice выключен ({ENV} пуста)"
    if given is not None:
        return f"в папке {given} ({ENV}) нет RHVoice с русским голосом; её наполняет ./run rhvoice-debs"
    return f"RHVoice не установлен; чтобы говорил он: {ENABLE}"


# ------------------------------------------------------------ the library (RHVoice.h)

_SampleRate = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
_Speech = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_uint, ctypes.c_void_p)


class _Callbacks(ctypes.Structure):
    _fields_ = [
        ("set_sample_rate", _SampleRate),
        ("play_speech", _Speech),
        *((name, ctypes.c_void_p) for name in ("process_mark", "word_starts", "word_ends")),
        *((name, ctypes.c_void_p) for name in ("sentence_starts", "sentence_ends", "play_audio", "done")),
    ]


class _InitParams(ctypes.Structure):
    _fields_ = [
        ("data_path", ctypes.c_char_p),
        ("config_path", ctypes.c_char_p),
        ("resource_paths", ctypes.c_void_p),
        ("callbacks", _Callbacks),
        ("options", ctypes.c_uint),
    ]


class _VoiceInfo(ctypes.Structure):
    _fields_ = [
        ("language", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("gender", ctypes.c_int),
        ("country", ctypes.c_char_p),
    ]


class _SynthParams(ctypes.Structure):
    _fields_ = [
        ("voice_profile", ctypes.c_char_p),
        *((name, ctypes.c_double) for name in ("absolute_rate", "absolute_pitch", "absolute_volume")),
        *((name, ctypes.c_double) for name in ("relative_rate", "relative_pitch", "relative_volume")),
        ("punctuation_mode", ctypes.c_int),
        ("punctuation_list", ctypes.c_char_p),
        ("capitals_mode", ctypes.c_int),
        ("flags", ctypes.c_int),
    ]


_LOADED: dict[Path, Any] = {}


def _library(home: RHVoiceHome) -> Any:
    """RHVoice's C library, loaded once (its core first, so that it is found beside it)."""
    if home.library not in _LOADED:
        try:
            ctypes.CDLL(str(home.library.parent / CORE), mode=ctypes.RTLD_GLOBAL)
            lib = ctypes.CDLL(str(home.library))
        except OSError as exc:  # a library it needs is missing (libsonic0 comes with espeak-ng)
            raise AudioUnavailable(
                f"RHVoice не загрузился ({home.library}): {one_line(str(exc), 200)}; "
                f"переустановите: sudo apt install --reinstall {PACKAGES} libsonic0"
            ) from None
        lib.RHVoice_new_tts_engine.restype = ctypes.c_void_p
        lib.RHVoice_new_tts_engine.argtypes = [ctypes.POINTER(_InitParams)]
        lib.RHVoice_delete_tts_engine.argtypes = [ctypes.c_void_p]
        lib.RHVoice_get_number_of_voices.argtypes = [ctypes.c_void_p]
        lib.RHVoice_get_voices.restype = ctypes.POINTER(_VoiceInfo)
        lib.RHVoice_get_voices.argtypes = [ctypes.c_void_p]
        lib.RHVoice_new_message.restype = ctypes.c_void_p
        lib.RHVoice_new_message.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.POINTER(_SynthParams),
            ctypes.c_void_p,
        ]
        lib.RHVoice_speak.argtypes = [ctypes.c_void_p]
        lib.RHVoice_delete_message.argtypes = [ctypes.c_void_p]
        lib.RHVoice_get_version.restype = ctypes.c_char_p
        _LOADED[home.library] = lib
    return _LOADED[home.library]


class RHVoiceSynthesiser:
    """Renders text to samples with one RHVoice voice; the engine starts on the first clip (a pack
    that is up to date starts nothing)."""

    def __init__(self, voice: str, home: RHVoiceHome) -> None:
        have = home.voices()
        if voice not in have:
            raise VoiceError(f"голоса RHVoice {voice!r} нет ({home.where}); есть: {', '.join(have)}")
        self.voice, self.home = voice, home
        self._lib: Any = None
        self._engine: int | None = None
        self._profile = b""
        self._rate = 0
        self._chunks: list[Samples] = []
        self._config: tempfile.TemporaryDirectory[str] | None = None
        # the callbacks live as long as the engine (ctypes frees a callback that nothing holds)
        self._callbacks = _Callbacks(_SampleRate(self._set_rate), _Speech(self._speech))

    @property
    def way(self) -> str:
        return f"клипы озвучены RHVoice (голос {self.voice}, {self.home.version}; {self.home.where})"

    def _set_rate(self, rate: int, _: object) -> int:
        self._rate = rate
        return 1

    def _speech(self, samples: Any, count: int, _: object) -> int:
        self._chunks.append(np.ctypeslib.as_array(samples, (count,)).astype(np.int16))
        return 1

    def _start(self) -> tuple[Any, int]:
        if self._engine is None:
            self._lib = _library(self.home)
            self._config = tempfile.TemporaryDirectory(prefix="host-device-rhvoice-")
            Path(self._config.name, "RHVoice.conf").write_text(CONFIG, encoding="utf-8")
            params = _InitParams(
                str(self.home.data).encode(), self._config.name.encode(), None, self._callbacks, 0
            )
            engine = self._lib.RHVoice_new_tts_engine(ctypes.byref(params))
            if not engine:
                raise VoiceError(f"RHVoice ({self.home.where}) не запустился: его данные в {self.home.data}")
            self._engine = engine
            voices = self._lib.RHVoice_get_voices(engine)
            names = [voices[i].name for i in range(self._lib.RHVoice_get_number_of_voices(engine))]
            self._profile = next((n for n in names if n.decode().lower() == self.voice), b"")
            if not self._profile:
                raise VoiceError(f"RHVoice не знает голоса {self.voice} ({self.home.data})")
        return self._lib, self._engine

    def render(self, text: str) -> tuple[Samples, int]:
        lib, engine = self._start()
        params = _SynthParams(self._profile, 0, 0, 0, 1, 1, 1, 0, None, 0, 0)
        data = text.encode("utf-8")
        self._chunks = []
        message = lib.RHVoice_new_message(engine, data, len(data), 0, ctypes.byref(params), None)
        if not message:
            raise VoiceError(f"RHVoice не принял текст {text!r}")
        try:
            if not lib.RHVoice_speak(message):
                raise VoiceError(f"RHVoice не озвучил {text!r}")
        finally:
            lib.RHVoice_delete_message(message)
        samples = np.concatenate(self._chunks) if self._chunks else np.zeros(0, dtype=np.int16)
        return samples, self._rate

    def close(self) -> None:
        if self._engine is not None:
            self._lib.RHVoice_delete_tts_engine(self._engine)
            self._engine = None
        if self._config is not None:
            self._config.cleanup()
            self._config = None


def build_rhvoice(
    directory: Path,
    catalogue: Catalogue,
    voice: str,
    home: RHVoiceHome,
    *,
    own: bool = False,
) -> BuildReport:
    """Render the catalogue with an RHVoice voice into ``directory``, each clip from its [spoken]
    text where it has one (RHVoice reads its «+» marks); clips whose text and voice have not changed
    are kept. Says once, on stderr, how the clips were rendered; ``own``: the box's own folder."""
    from voices.piper import PACK_RATE

    synth = RHVoiceSynthesiser(voice, home)
    source = {"kind": "rhvoice", "voice": voice, "version": home.version}
    return build_with(
        directory, catalogue, synth, name=PREFIX + voice, source=source, rate=PACK_RATE, own=own
    )
