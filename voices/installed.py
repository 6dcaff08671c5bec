"""The voices a box has, which one speaks and why, and its pack.

    DATA/voices/builtin/                 espeak-ng's pack: the voice «builtin», there on every box
    DATA/voices/rhvoice-NAME/            the pack of RHVoice's voice NAME (voices/rhvoice.py)
    DATA/voices/NAME/NAME.onnx, .json    a Piper voice (voices/piper_install.py), its pack beside it
    DATA/voices/NAME/installed.json      the Piper voice file's sha256 and where it came from
    DATA/voices/in-use.json              {"voice": NAME}: the voice chosen (voices use, the box's menu)

Which voice speaks (:func:`current`): the one chosen; where none is, the default one, RHVoice's
aleksandr-hq where RHVoice is installed (its licence allows a club's paid games), else espeak-ng;
a voice that cannot speak is said once and the next of those speaks. Nothing downloads at run time.
"""

from __future__ import annotations

import json
import logging
import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from host_device.base.download import Pin
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import write_text
from host_device.base.paths import data_dir
from host_device.base.text import one_line
from voices import rhvoice
from voices.catalogue import Catalogue
from voices.folder import read_json
from voices.pack import BUILTIN_NAME, Pack, ensure_builtin, inspect_pack, load_pack
from voices.piper import VoiceInfo, build_piper, voice_info
from voices.render import DEFAULT_RATE, DEFAULT_VOICE

log = logging.getLogger(__name__)

BUILTIN = BUILTIN_NAME  # espeak-ng's voice, as `voices use` takes it: there on every box
IN_USE = "in-use.json"
INSTALLED = "installed.json"
CHOSEN = "выбран (host-device voices use или меню коробки)"
ESPEAK_SAID = f"espeak-ng, голос {DEFAULT_VOICE}, {DEFAULT_RATE} слов в минуту"


class VoiceInstallError(HostDeviceError, RuntimeError):
    pass


@dataclass(frozen=True)
class Installed:
    name: str
    model: Path
    info: VoiceInfo
    sha256: str

    @property
    def directory(self) -> Path:
        return self.model.parent


@dataclass(frozen=True)
class VoicePin:
    pin: Pin
    licence: str


def voices_dir() -> Path:
    return data_dir() / "voices"


def pins() -> dict[str, VoicePin]:
    """The Russian voices ``voices install NAME`` can download."""
    data = tomllib.loads((resources.files("voices") / "data" / "voices.toml").read_text("utf-8"))
    return {
        name: VoicePin(Pin(name, e["url"], e.get("sha256", ""), int(e.get("size", 0))), e["licence"])
        for name, e in data.items()
    }


def installed() -> list[Installed]:
    """Every voice installed in the data folder whose files read, by name."""
    home = voices_dir()
    found = []
    for folder in sorted(home.iterdir()) if home.is_dir() else []:
        model = folder / f"{folder.name}.onnx"
        try:
            record = read_json(folder / INSTALLED, 4096)
            found.append(Installed(folder.name, model, voice_info(model), str(record["sha256"])))
        except (OSError, ValueError, KeyError, TypeError, HostDeviceError):
            continue  # not a voice's folder (the built-in pack), or one that is no longer whole
    return found


def find(name: str) -> Installed:
    for voice in installed():
        if voice.name == name:
            return voice
    have = ", ".join(offered())
    raise VoiceInstallError(f"голос {name!r} не установлен; есть: {have} (список: host-device voices list)")


# ------------------------------------------------------------ the voice in use


def chosen() -> str | None:
    """The voice in-use.json names, None where none is chosen (or the file is bad: said)."""
    path = voices_dir() / IN_USE
    try:
        name = read_json(path, 4096)["voice"]
        if not isinstance(name, str):
            raise TypeError("voice is not a name")
        return name
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s: не выбор голоса (%s); говорит голос по умолчанию", path, one_line(str(exc), 120))
        return None


def default_voice() -> tuple[str, str]:
    """The voice that speaks where none is chosen, and why, in Russian: RHVoice's default voice
    where RHVoice is installed (another of its voices if that one is not), else espeak-ng."""
    home = rhvoice.find()
    if home is None:
        return BUILTIN, f"голос по умолчанию: {rhvoice.missing()}"
    have, free = home.voices(), rhvoice.licences()
    paid = [v for v in [rhvoice.DEFAULT_VOICE, *have] if v in have and v in free and free[v].commercial]
    voice = (paid or have)[0]
    why = f"голос по умолчанию: RHVoice установлен ({home.where}, {home.version})"
    return rhvoice.PREFIX + voice, why


def in_use() -> str:
    """The voice that speaks, as chosen or by default (nothing is rendered or checked)."""
    return chosen() or default_voice()[0]


def describe(name: str) -> str:
    """A voice in a few Russian words, with its licence where one is known: «rhvoice-anna (RHVoice,
    женский; LGPL-2.1+: можно и в платных играх)»."""
    if name == BUILTIN:
        return f"{BUILTIN} ({ESPEAK_SAID})"
    if name.startswith(rhvoice.PREFIX):
        home, voice = rhvoice.find(), name.removeprefix(rhvoice.PREFIX)
        if home is None:
            return f"{name} (RHVoice не найден)"
        return f"{name} (RHVoice, {home.gender(voice)}; {home.licence(voice)})"
    pin = pins().get(name)
    return f"{name} (Piper" + (f"; лицензия данных: {pin.licence})" if pin else ")")


def use(name: str) -> None:
    """Make ``name`` (espeak-ng's builtin, an RHVoice voice or an installed Piper voice) the one in use."""
    if name.startswith(rhvoice.PREFIX):
        rhvoice_voice(name)
    elif name != BUILTIN:
        find(name)
    try:
        voices_dir().mkdir(parents=True, exist_ok=True)
        write_text(voices_dir() / IN_USE, json.dumps({"voice": name}))
    except OSError as exc:
        why = os_reason(exc)
        raise VoiceInstallError(f"{voices_dir() / IN_USE}: не сохранить выбор голоса: {why}") from None


def rhvoice_voice(name: str) -> tuple[rhvoice.RHVoiceHome, str]:
    """Where RHVoice is and the voice ``rhvoice-NAME`` names; a VoiceInstallError where either is not."""
    home, voice = rhvoice.find(), name.removeprefix(rhvoice.PREFIX)
    if home is None:
        raise VoiceInstallError(f"голоса {name} нет: {rhvoice.missing()}")
    if voice not in home.voices():
        have = ", ".join(rhvoice.PREFIX + v for v in home.voices())
        raise VoiceInstallError(f"голоса {name} нет в RHVoice ({home.where}); есть: {have}")
    return home, voice


def pack_of(name: str, catalogue: Catalogue) -> Pack:
    """The pack of a voice, its clips rendered first where missing or out of date."""
    if name == BUILTIN:
        return ensure_builtin(catalogue)
    if name.startswith(rhvoice.PREFIX):
        home, voice = rhvoice_voice(name)
        directory = voices_dir() / name
        if not (directory / "manifest.json").exists():  # its first build: a minute on a Pi, said before
            print(f"голос {name}: озвучиваю фразы (один раз; на Raspberry Pi — до минуты)", file=sys.stderr)
        report = rhvoice.build_rhvoice(directory, catalogue, voice, home, own=True)
    else:
        piper = find(name)
        directory = piper.directory
        report = build_piper(directory, catalogue, piper.model, sha256=piper.sha256, own=True)
    if report.rendered:
        print(f"голос {name}: озвучено записей {len(report.rendered)}", flush=True)
    return load_pack(directory, catalogue)


def ready_pack(name: str, catalogue: Catalogue) -> Pack | None:
    """The voice's pack if it is complete and up to date (nothing is rendered), else None."""
    try:
        report, pack = inspect_pack(voices_dir() / name, catalogue)
    except HostDeviceError:
        return None
    return pack if report.complete and not report.changed else None


def offered() -> list[str]:
    """Every voice the box has, whether its pack is ready or not: espeak-ng's, RHVoice's, Piper's."""
    home = rhvoice.find()
    found = [rhvoice.PREFIX + v for v in home.voices()] if home else []
    return [*found, BUILTIN, *(v.name for v in installed())]


@dataclass(frozen=True)
class Speaking:
    name: str  # the voice that speaks
    pack: Pack
    why: str  # why this one, in Russian

    def line(self) -> str:
        """Which voice speaks and why, in one Russian line (run, demo, doctor)."""
        return f"голос {describe(self.name)} — {self.why}"


def current(catalogue: Catalogue) -> Speaking:
    """The voice that speaks, its pack (rendered where out of date) and why: the one chosen,
    else the default one, else espeak-ng's; one that cannot speak (removed, broken, a library
    that does not load) is one warning, and the next speaks."""
    picked = chosen()
    default, why_default = default_voice()
    candidates: dict[str, str] = {picked: CHOSEN} if picked else {}
    for name, why in ((default, why_default), (BUILTIN, "")):
        candidates.setdefault(name, why)
    failed: list[str] = []
    for name, why in candidates.items():
        try:
            pack = pack_of(name, catalogue)
        except HostDeviceError as exc:
            if name == BUILTIN:
                raise
            failed.append(f"голос {name} не звучит ({one_line(str(exc), 200)})")
            log.warning("%s; говорит другой", failed[-1])
            continue
        return Speaking(name, pack, "; ".join([*failed, why] if why else failed))
    raise AssertionError("the built-in voice either speaks or raises")


def speaking(catalogue: Catalogue) -> tuple[str, Pack]:
    """The voice that speaks and its pack (:func:`current`)."""
    now = current(catalogue)
    return now.name, now.pack


def voice_in_use(catalogue: Catalogue) -> Pack:
    """The pack of the voice that speaks (:func:`current`)."""
    return current(catalogue).pack
