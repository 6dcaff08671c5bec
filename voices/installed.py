"""The voices a box has: the built-in one (espeak-ng) and the Piper voices
installed into the data folder; which one is in use; its pack.

    DATA/voices/builtin/                 the built-in pack (espeak-ng)
    DATA/voices/NAME/NAME.onnx, .json    an installed Piper voice, and beside it its pack
    DATA/voices/NAME/installed.json      the voice file's sha256 and where it came from
    DATA/voices/in-use.json              {"voice": NAME}; none: the built-in voice

A voice is installed like the speech model (host_device/listening/speech_model.py):
``voices install`` from a file (a USB stick), or on a box with a network from
a pinned address (data/voices.toml) checked by its sha256; nothing downloads
at run time. It is staged beside its place, read, tried (it must load and say
a word) and only then moved in.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from host_device.base.download import Pin, download, sha256_of
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.files import write_text
from host_device.base.paths import data_dir
from host_device.base.text import one_line
from voices.audio import trim
from voices.catalogue import Catalogue
from voices.errors import VoiceError
from voices.folder import read_json
from voices.pack import BUILTIN_NAME, Pack, ensure_builtin, inspect_pack, load_pack
from voices.piper import PiperSynthesiser, VoiceInfo, build_piper, settings_of, voice_info

log = logging.getLogger(__name__)

BUILTIN = BUILTIN_NAME  # the built-in voice's name, as `voices use` takes it
IN_USE = "in-use.json"
INSTALLED = "installed.json"
TRIAL = "Проверка голоса."
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}$")
OFFLINE = "host-device voices install /media/usb/ИМЯ.onnx (ИМЯ.onnx.json — рядом)"


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
    have = ", ".join([BUILTIN] + [v.name for v in installed()])
    raise VoiceInstallError(f"голос {name!r} не установлен; есть: {have} (список: host-device voices list)")


# ------------------------------------------------------------ the voice in use


def in_use() -> str:
    """The voice in use: in-use.json's, or the built-in one (none chosen, or a bad file, said)."""
    path = voices_dir() / IN_USE
    try:
        name = read_json(path, 4096)["voice"]
        if not isinstance(name, str):
            raise TypeError("voice is not a name")
        return name
    except FileNotFoundError:
        return BUILTIN
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s: не выбор голоса (%s); говорит встроенный голос", path, one_line(str(exc), 120))
        return BUILTIN


def use(name: str) -> None:
    """Make ``name`` (an installed voice or the built-in one) the voice in use."""
    if name != BUILTIN:
        find(name)
    try:
        voices_dir().mkdir(parents=True, exist_ok=True)
        write_text(voices_dir() / IN_USE, json.dumps({"voice": name}))
    except OSError as exc:
        why = os_reason(exc)
        raise VoiceInstallError(f"{voices_dir() / IN_USE}: не сохранить выбор голоса: {why}") from None


def pack_of(name: str, catalogue: Catalogue) -> Pack:
    """The pack of a voice, its clips rendered first where missing or out of date."""
    if name == BUILTIN:
        return ensure_builtin(catalogue)
    voice = find(name)
    report = build_piper(voice.directory, catalogue, voice.model, sha256=voice.sha256, own=True)
    if report.rendered:
        print(f"голос {name}: озвучено записей {len(report.rendered)}", flush=True)
    return load_pack(voice.directory, catalogue)


def ready_pack(name: str, catalogue: Catalogue) -> Pack | None:
    """The voice's pack if it is complete and up to date (nothing is rendered), else None."""
    try:
        report, pack = inspect_pack(voices_dir() / name, catalogue)
    except HostDeviceError:
        return None
    return pack if report.complete and not report.changed else None


def speaking(catalogue: Catalogue) -> tuple[str, Pack]:
    """The voice in use and its pack; the built-in one, with a warning, where that voice
    cannot speak (removed, broken, piper-tts that does not load)."""
    name = in_use()
    if name != BUILTIN:
        try:
            return name, pack_of(name, catalogue)
        except HostDeviceError as exc:
            log.warning("голос %s не звучит (%s); говорит встроенный голос", name, one_line(str(exc), 200))
    return BUILTIN, ensure_builtin(catalogue)


def voice_in_use(catalogue: Catalogue) -> Pack:
    """The pack of the voice in use (:func:`speaking`)."""
    return speaking(catalogue)[1]


# ------------------------------------------------------------ installing


def install(
    source: str,
    *,
    force: bool = False,
    sha256: str = "",
    progress: Callable[[str], None] = lambda _: None,
) -> Installed:
    """Install a Piper voice from a file (its .onnx.json beside it), a folder holding one,
    a pinned name (data/voices.toml) or an address (checked against ``sha256`` when given);
    it replaces a voice of the same name."""
    home = voices_dir()
    try:
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".installing-", dir=home) as tmp:
            staged = _fetch(source, Path(tmp), force, sha256, progress)
            return _place(staged, source, force, progress)
    except OSError as exc:
        raise VoiceInstallError(f"{home}: сюда голос не установить: {os_reason(exc)}") from None


def _russian(info: VoiceInfo, source: str, force: bool) -> None:
    if not info.russian and not force:
        raise VoiceInstallError(
            f"{source}: голос {info.name} не русский ({info.language or info.espeak}), а фразы русские; "
            f"русские: {', '.join(pins())}; установить этот всё равно: --force"
        )


def _fetch(source: str, work: Path, force: bool, sha256: str, progress: Callable[[str], None]) -> Path:
    """The voice's two files copied or downloaded into ``work``; the .onnx's path."""
    pinned = pins().get(source)
    if pinned is not None or source.startswith(("http://", "https://")):
        url = pinned.pin.url if pinned else source
        name = url.split("?")[0].rsplit("/", 1)[-1]
        if not name.endswith(".onnx"):
            raise VoiceInstallError(f"{source}: адрес голоса Piper кончается на .onnx")
        if pinned is None and not sha256:
            raise VoiceInstallError(
                f"{source}: голос по адресу ставится только с его sha256 (--sha256 HEX); "
                f"русские голоса по имени: {', '.join(pins())}"
            )
        model = work / name
        expected = pinned.pin if pinned else Pin(name, url, sha256.lower(), 0)
        digest = download(url, model, expected, progress, offline=OFFLINE, error=VoiceInstallError)
        progress(f"sha256 {digest}")
        download(url + ".json", settings_of(model), None, progress, offline=OFFLINE, error=VoiceInstallError)
        return model
    path = Path(source)
    if path.is_dir():
        models = sorted(path.glob("*.onnx"))
        if len(models) != 1:
            some = ", ".join(m.name for m in models) or "ни одного"
            raise VoiceInstallError(f"{path}: файлов .onnx {len(models)} ({some}); укажите файл голоса")
        path = models[0]
    elif not path.exists():
        raise VoiceInstallError(
            f"{source}: нет такого файла, папки или голоса; русские голоса: {', '.join(pins())}"
        )
    _russian(voice_info(path), source, force)  # a file that is no voice is named before 60 MB are copied
    if sha256 and sha256_of(path) != sha256.lower():
        raise VoiceInstallError(
            f"{path}: sha256 {sha256_of(path)}, ожидалась {sha256.lower()}; не установлен"
        )
    progress(f"копирую {path}")
    shutil.copyfile(path, work / path.name)
    shutil.copyfile(settings_of(path), settings_of(work / path.name))
    return work / path.name


def _place(staged: Path, source: str, force: bool, progress: Callable[[str], None]) -> Installed:
    info = voice_info(staged)
    if not _NAME.match(info.name) or info.name == BUILTIN:
        raise VoiceInstallError(
            f"{staged.name}: такое имя голосу не годится; переименуйте оба файла (латиница, цифры, _-.)"
        )
    _russian(info, source, force)
    try:
        samples, rate = PiperSynthesiser(staged).render(TRIAL)  # a voice that does not load is not installed
    except VoiceError as exc:  # named as the club named it, not by its staging copy
        raise VoiceInstallError(str(exc).replace(str(staged), source)) from None
    if not len(trim(samples, rate)):
        raise VoiceInstallError(f"{source}: голос {info.name} сказал «{TRIAL}» тишиной; не установлен")
    target = voices_dir() / info.name
    if target.exists() and not (target / staged.name).exists() and any(target.iterdir()):
        raise VoiceInstallError(f"{target}: там другие файлы, не голос {info.name}; папка не очищается")
    digest = sha256_of(staged)
    target.mkdir(exist_ok=True)
    (target / INSTALLED).unlink(missing_ok=True)  # not a voice until its files are all in place
    staged.replace(target / staged.name)
    settings_of(staged).replace(settings_of(target / staged.name))
    write_text(target / INSTALLED, json.dumps({"sha256": digest, "from": source}, ensure_ascii=False))
    progress(f"голос {info.name} установлен в {target}")
    return Installed(info.name, target / staged.name, info, digest)
