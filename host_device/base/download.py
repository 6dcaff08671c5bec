"""Downloading a pinned file: what the device installs on an explicit command
(the speech model, a voice), never at run time.

A :class:`Pin` is a file's address and, where known, its sha256 and size; a
download that does not match them is refused, naming what was expected.
"""

from __future__ import annotations

import hashlib
import shutil
import socket
import ssl
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from host_device.base.errors import HostDeviceError, os_reason


class DownloadError(HostDeviceError, RuntimeError):
    pass


@dataclass(frozen=True)
class Pin:
    name: str
    url: str
    sha256: str  # "" where it was not known when the pin was written
    size: int  # 0 where it was not known


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(
    url: str,
    to: Path,
    expected: Pin | None,
    progress: Callable[[str], None],
    *,
    offline: str,
    error: type[Exception] = DownloadError,
) -> str:
    """``url`` saved to ``to``, checked against ``expected``; its sha256.
    ``offline`` is the command that installs the same thing from a file (said
    when the download fails); ``error`` the error class raised."""
    progress(f"скачиваю {url}")
    try:
        with urllib.request.urlopen(url, timeout=60) as response, to.open("wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
    except OSError as exc:
        raise error(
            f"не удалось скачать {url}: {network_reason(exc)}; на устройстве без интернета скопируйте файл "
            f"и установите его: {offline}"
        ) from None
    digest = sha256_of(to)
    if expected is not None and expected.size and to.stat().st_size != expected.size:
        raise error(f"{url}: {to.stat().st_size} байт, ожидалось {expected.size}; ничего не установлено")
    if expected is not None and expected.sha256 and digest != expected.sha256:
        raise error(
            f"{url}: sha256 {digest}, ожидался {expected.sha256} (файл испорчен или подменён); "
            "ничего не установлено"
        )
    return digest


def network_reason(exc: OSError) -> str:
    """Why a download failed, in Russian: urllib's own words («<urlopen error [Errno -2] Name or
    service not known>») are English."""
    if isinstance(exc, urllib.error.HTTPError):
        return f"сервер ответил {exc.code}"
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, socket.gaierror):
        return "нет сети или имя сервера не находится"
    if isinstance(reason, TimeoutError):
        return "сервер не ответил вовремя"
    if isinstance(reason, ConnectionRefusedError):
        return "сервер не принимает соединений"
    if isinstance(reason, ConnectionError):
        return "соединение оборвалось"
    if isinstance(reason, ssl.SSLError):
        return "защищённое соединение не установилось (сертификат или время на устройстве)"
    if isinstance(reason, OSError) and reason.errno:
        return os_reason(reason)
    return "ошибка сети"
