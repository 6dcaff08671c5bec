"""The vosk speech model: where it lives, installing it, checking it, loading it.

The model is a directory (am/, conf/, graph/ ...). It is installed once, by
``host-device model install``, into the data directory; nothing downloads it
at run time. ``$HOST_DEVICE_MODEL`` or ``--model`` point elsewhere.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from host_device.base.download import Pin
from host_device.base.download import download as fetch
from host_device.base.errors import HostDeviceError, os_reason
from host_device.base.native import import_native
from host_device.base.paths import data_dir

DEFAULT_MODEL = "vosk-model-small-ru-0.22"
REQUIRED = ("am/final.mdl", "conf/model.conf")


class ModelMissing(HostDeviceError, FileNotFoundError):
    """No usable speech model (the message says how to install one)."""


class ModelInstallError(HostDeviceError, RuntimeError):
    pass


class ModelCannotHear(ModelInstallError):
    """A model that loads but cannot hear some of the game's words: not installed without --force."""


def models_dir() -> Path:
    return data_dir() / "models"


def default_model_path() -> Path:
    if os.environ.get("HOST_DEVICE_MODEL"):
        return Path(os.environ["HOST_DEVICE_MODEL"])
    return models_dir() / DEFAULT_MODEL


def is_model_dir(path: Path) -> bool:
    return all((path / part).is_file() for part in REQUIRED)


def find_model(path: Path | None = None) -> Path:
    path = path or default_model_path()
    if not is_model_dir(path):
        raise ModelMissing(
            f"нет модели речи в {path}; установите её: host-device model install "
            "(или: host-device model install --from ZIP_OR_DIR)"
        )
    return path


def pin(name: str = DEFAULT_MODEL) -> Pin:
    source = resources.files("host_device.listening") / "data" / "models.toml"
    data = tomllib.loads(source.read_text("utf-8"))
    entry = data[name]
    return Pin(name, entry["url"], entry.get("sha256", ""), int(entry.get("size", 0)))


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# ---------------------------------------------------------------- installing


def _model_root(tree: Path) -> Path:
    """The model directory inside an unpacked archive or a given directory."""
    if is_model_dir(tree):
        return tree
    for child in sorted(tree.iterdir()):
        if child.is_dir() and is_model_dir(child):
            return child
    raise ModelInstallError(
        f"{tree}: это не модель vosk (нет {' и '.join(REQUIRED)} ни в ней, ни уровнем ниже)"
    )


def _unzip(archive: Path, into: Path) -> None:
    try:
        with zipfile.ZipFile(archive) as z:
            bad = z.testzip()
            if bad is not None:
                raise ModelInstallError(f"{archive}: {bad} испорчен (не сходится CRC)")
            if not z.namelist():
                raise ModelInstallError(f"{archive}: архив пуст")
            for member in z.namelist():
                if member.startswith("/") or ".." in Path(member).parts:
                    raise ModelInstallError(f"{archive}: опасный путь {member!r} в архиве")
            z.extractall(into)
    except zipfile.BadZipFile as exc:
        raise ModelInstallError(f"{archive}: это не zip-архив ({exc})") from None


def download(url: str, to: Path, expected: Pin | None, progress: Callable[[str], None]) -> str:
    """The archive at ``url``, checked against its pin (host_device/base/download.py)."""
    offline = "host-device model install --from FILE.zip"
    return fetch(url, to, expected, progress, offline=offline, error=ModelInstallError)


def install(
    source: Path | None = None,
    target: Path | None = None,
    url: str | None = None,
    check: Callable[[Path], Any] | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> Path:
    """Install a model from a local zip or directory, or download the pinned
    archive; the new model replaces the old one only once it is complete
    (unpacked beside it, then renamed into place)."""
    target = target or default_model_path()
    _check_target(target)
    try:
        return _install(source, target, url, check, progress)
    except HostDeviceError:
        raise
    except OSError as exc:
        raise ModelInstallError(f"{target}: сюда модель не установить: {os_reason(exc)}") from None


def _check_target(target: Path) -> None:
    """Install never deletes what it did not install: the target is new, empty, or a vosk model."""
    if target.is_file():
        raise ModelInstallError(f"{target}: это файл; --to — папка для модели")
    for parent in target.parents:
        if parent.exists() and not parent.is_dir():
            raise ModelInstallError(f"{target}: {parent} — файл, а не папка")
    if target.is_dir() and any(target.iterdir()) and not is_model_dir(target):
        raise ModelInstallError(
            f"{target}: в папке другие файлы (не модель vosk); "
            "дайте новую или пустую папку: ради модели папка никогда не очищается"
        )


def _install(
    source: Path | None,
    target: Path,
    url: str | None,
    check: Callable[[Path], Any] | None,
    progress: Callable[[str], None],
) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".installing-", dir=target.parent) as tmp:
        work = Path(tmp)
        if source is None:
            archive = work / "model.zip"
            pinned = pin() if url is None else None
            digest = download(url or pin().url, archive, pinned, progress)
            progress(f"sha256 {digest}")
            source = archive
        if source.is_dir():
            root = _model_root(source)
            progress(f"копирую {root}")
            staged = work / "model"
            shutil.copytree(root, staged)
        elif source.is_file():
            progress(f"распаковываю {source}")
            _unzip(source, work / "unpacked")
            staged = _model_root(work / "unpacked")
        else:
            raise ModelInstallError(f"{source}: нет такого файла или папки")
        if check is not None:
            check(staged)  # a trial load: a model that does not load is not installed
        old = target.with_name(target.name + ".old")
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
        staged.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    return target


# ---------------------------------------------------------------- loading


class SpeechModel:
    """One vosk.Model, loaded once and shared by every recogniser."""

    def __init__(self, path: Path) -> None:
        self.path = find_model(path)  # a missing model is named before vosk is loaded
        vosk = import_native("vosk")  # libvosk.so that cannot load: one line naming the fix
        vosk.SetLogLevel(-1)
        self._vosk = vosk
        try:
            self.model = vosk.Model(str(self.path))
        except Exception as exc:  # vosk raises a bare Exception when Kaldi cannot read the files
            raise ModelMissing(f"{self.path}: модель речи не загрузилась ({exc})") from None

    def close(self) -> None:
        """Nothing to end: the model lives in this process (a DecoderProcess ends its child)."""

    def knows(self, word: str) -> bool:
        return bool(self.model.vosk_model_find_word(word) >= 0)

    def unknown_words(self, words: Iterable[str]) -> list[str]:
        return sorted({w for w in words if not self.knows(w)})

    def recogniser(
        self, rate: int = 16000, grammar: list[str] | None = None, partial_words: bool = False
    ) -> Any:
        """A recogniser with word times and confidences in final results.
        ``partial_words``: in partial results too — they then come from the
        incrementally finalised lattice, in bursts about 1.8 s apart; without
        them a partial result is the best path's text, updated every block."""
        import json

        if grammar is None:
            rec = self._vosk.KaldiRecognizer(self.model, rate)
        else:
            rec = self._vosk.KaldiRecognizer(self.model, rate, json.dumps(grammar, ensure_ascii=False))
        rec.SetWords(True)
        rec.SetPartialWords(partial_words)
        return rec
