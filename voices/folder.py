"""A pack is a folder of its own: what its manifest names stays inside it.

A clip's key is a file's name (``clips/KEY.wav``) and a clip's file is
``clips/NAME``: no ``/`` or ``\\``, no control character, no dot first (``..``,
a hidden file). A clip is read only if it is a regular file (never a FIFO,
which would block, or a device, which never ends) of at most MAX_CLIP_BYTES,
whose real path, links followed, lies in the pack's own ``clips/``. The small
files a person hands the box (a manifest, a voice's .onnx.json) are read
with :func:`host_device.base.files.read_small` and parsed within limits.
"""

from __future__ import annotations

import json
import os
import stat
import unicodedata
from pathlib import Path
from typing import Any

from host_device.base.errors import os_reason
from host_device.base.files import read_small
from host_device.base.sound import MAX_RATE
from host_device.base.text import shorten

CLIPS = "clips"
MAX_CLIP_SECONDS = 20.0  # the longest sentence is ~6 s; a recorded clip at most 10 s
MAX_CLIP_BYTES = int(MAX_CLIP_SECONDS * MAX_RATE * 2) + 4096  # that long at the highest rate, and a header
MAX_NAME_BYTES = 250  # a file name, with .wav, within the usual 255


def name_fault(name: object) -> str | None:
    """Why ``name`` cannot be one file's name inside a folder, in Russian; None when it can."""
    if not isinstance(name, str) or not name:
        return "пустое или не строка"
    if "/" in name or "\\" in name:
        return "в нём «/» или «\\»"
    if name.startswith("."):
        return "точка в начале"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in name):
        return "в нём управляющий знак"
    if len(name.encode("utf-8")) + len(".wav") > MAX_NAME_BYTES:
        return "слишком длинное"
    return None


def file_fault(file: object) -> str | None:
    """Why a manifest's ``file`` is not ``clips/NAME``, in Russian; None when it is."""
    if not isinstance(file, str):
        return "не строка"
    folder, sep, name = file.partition("/")
    if folder != CLIPS or not sep:
        return "не в папке clips/ набора"
    why = name_fault(name)
    return f"имя файла: {why}" if why else None


def said(value: object) -> str:
    """A value from a person's file, quoted and cut short, for a message."""
    return repr(shorten(value, 80))


def clip_fault(directory: Path, file: str) -> str | None:
    """Why the clip ``directory/file`` (a file that :func:`file_fault` passed) is not read,
    in Russian; None when it may be: a regular file of at most MAX_CLIP_BYTES whose real
    path lies in the pack's own clips/. Only looked at, never opened."""
    path = directory / file
    try:
        inside = directory.resolve() / CLIPS
        if not path.resolve().is_relative_to(inside):
            return "ссылка за пределы папки clips/ набора"
        info = path.stat()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of links
        return f"не удалось прочитать: {os_reason(exc)}"
    if not stat.S_ISREG(info.st_mode):
        return "не обычный файл (канал, устройство или папка)"
    if info.st_size > MAX_CLIP_BYTES:
        return f"больше {MAX_CLIP_BYTES // 1_000_000} МБ"
    return None


def regular_fault(path: Path) -> str | None:
    """Why ``path`` is not a regular file to read (looked at, never opened), in Russian."""
    try:
        info = path.stat()
    except OSError as exc:
        return os_reason(exc)
    return None if stat.S_ISREG(info.st_mode) else "не обычный файл (канал, устройство или папка)"


def read_json(path: Path, limit: int) -> Any:
    """A person's small JSON file: at most ``limit`` bytes of a regular file, parsed within
    Python's nesting limit. Raises OSError (why in its ``strerror``), ValueError for text
    that is not JSON (nesting too deep included), UnicodeDecodeError for bytes that are not UTF-8."""
    data = read_small(path, limit)
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError("вложенность слишком глубокая") from None


def folder_is_empty(directory: Path) -> bool:
    with os.scandir(directory) as entries:
        return next(entries, None) is None
