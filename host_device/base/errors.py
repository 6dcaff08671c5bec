"""The project's one root error type.

Every error the device raises on purpose derives from :class:`HostDeviceError`
and also from the builtin that fits it, so callers may catch either.
"""

from __future__ import annotations

import errno
import re


class HostDeviceError(Exception):
    """Root of every error the project raises on purpose."""


class SoundFileError(HostDeviceError, ValueError):
    """A sound file that cannot be read or is not mono 16-bit WAV."""


OS_REASONS = {
    errno.ENOENT: "нет такого файла или папки",
    errno.EACCES: "нет прав",
    errno.EPERM: "нет прав",
    errno.EISDIR: "это папка",
    errno.ENOTDIR: "в пути не папка",
    errno.ENOSPC: "на диске нет места",
    errno.EROFS: "диск только для чтения",
    errno.EEXIST: "уже есть",
    errno.ENAMETOOLONG: "слишком длинное имя",
    errno.EIO: "ошибка диска",
}


def os_reason(exc: BaseException) -> str:
    """Why the system refused, in Russian (its own ``strerror`` is English)."""
    if isinstance(exc, OSError):
        return OS_REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    return str(exc)


def toml_place(exc: ValueError) -> str:
    """Where tomllib found the error, in Russian (its own words are English)."""
    found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    return f" в строке {found[1]}, столбце {found[2]}" if found else ""
