"""Installing a Piper voice into the data folder (``voices install``), like the speech model
(host_device/listening/speech_model.py): from a file (a USB stick), or on a box with a network
from a pinned address (data/voices.toml) checked by its sha256; nothing downloads at run time.
It is staged beside its place, read, tried (it must load and say a word) and only then moved in.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from host_device.base.download import Pin, download, sha256_of
from host_device.base.errors import os_reason
from host_device.base.files import write_text
from voices.audio import trim
from voices.errors import VoiceError
from voices.installed import BUILTIN, INSTALLED, Installed, VoiceInstallError, pins, voices_dir
from voices.piper import PiperSynthesiser, VoiceInfo, settings_of, voice_info
from voices.rhvoice import PREFIX as RHVOICE

TRIAL = "Проверка голоса."
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}$")
OFFLINE = "host-device voices install /media/usb/ИМЯ.onnx (ИМЯ.onnx.json — рядом)"


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
    if not _NAME.match(info.name) or info.name == BUILTIN or info.name.startswith(RHVOICE):
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
