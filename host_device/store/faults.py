"""The store's errors; what goes wrong with a store on disk, said in a few
words; and a damaged store moved aside without losing a byte of it."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from host_device.base.errors import HostDeviceError, os_reason

SIDE_FILES = ("-wal", "-shm")  # SQLite's write-ahead log and its index: part of the store


class StoreError(HostDeviceError, RuntimeError):
    pass


class UnknownGame(StoreError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"игры {game_id} нет в хранилище; см.: host-device games list")

    def __str__(self) -> str:
        return str(self.args[0])


class DamagedGame(StoreError):
    """One game's rows do not read back; the store's other games are unaffected."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"игра {game_id} повреждена: {reason}")


class UnknownPlayer(StoreError, LookupError):
    def __str__(self) -> str:
        return str(self.args[0])


class AmbiguousPlayer(UnknownPlayer):
    """A name (or nickname) several entries of the roster have."""


# SQLite's primary result codes (sqlite_errorname without an extended suffix) -> the cause in words
CAUSES = {
    "SQLITE_FULL": "диск заполнен; освободите место",
    "SQLITE_BUSY": "занято другой программой (не запущен ли второй host-device?)",
    "SQLITE_LOCKED": "занято другой программой (не запущен ли второй host-device?)",
    "SQLITE_READONLY": "только для чтения (в файл, его папку или на диск нельзя писать)",
    "SQLITE_CANTOPEN": "файл не открыть (в его папку нельзя писать, или нет прав)",
    "SQLITE_PERM": "нет прав",
    "SQLITE_AUTH": "нет прав",
    "SQLITE_IOERR": "ошибка диска",
    "SQLITE_NOTADB": "это не база данных",
    "SQLITE_CORRUPT": "повреждено",
    "SQLITE_TOOBIG": "слишком большая запись",
}


def _primary(exc: BaseException) -> str:
    name = str(getattr(exc, "sqlite_errorname", ""))
    return next((code for code in CAUSES if name == code or name.startswith(code + "_")), name)


def cause_of(exc: BaseException, path: Path | None = None) -> str:
    """The cause of an SQLite error in a few words, with SQLite's own. A disk
    error where the disk has no room left is said to be a full disk (SQLite
    reports a -shm it cannot grow as an I/O error)."""
    primary = _primary(exc)
    if path is not None and primary in ("SQLITE_IOERR", "SQLITE_CANTOPEN") and disk_full(path):
        primary = "SQLITE_FULL"
    words = CAUSES.get(primary)
    return f"{words} ({exc})" if words else str(exc)


def disk_full(path: Path, room: int = 64 * 1024) -> bool:
    """Less than ``room`` bytes free on the disk that holds ``path`` (or would)."""
    for folder in (path, *path.parents):
        if folder.exists():
            try:
                st = os.statvfs(folder)
            except OSError:
                return False
            return st.f_bavail * st.f_frsize < room
    return False


def is_corrupt(exc: BaseException) -> bool:
    """Only what SQLite calls corruption: never a full disk, a lock or a permission."""
    return _primary(exc) in ("SQLITE_NOTADB", "SQLITE_CORRUPT")


MAGIC = b"SQLite format 3\x00"


def header_damage(path: Path) -> str | None:
    """What is wrong with a store file's header, read before SQLite opens it:
    SQLite deletes a -wal that lies beside a file whose header does not say
    "write-ahead log" (a damaged header, or an empty file), and the -wal holds
    the last committed inputs. None for a sound header or a new, empty store."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except FileNotFoundError:
        return None
    except OSError:
        return None  # SQLite will name the cause (permissions) when it opens the file
    has_wal = _with(path, "-wal").exists()
    if not header:
        return "пустой, а рядом лежит -wal" if has_wal else None
    if len(header) < 100 or header[:16] != MAGIC:
        return "это не база данных (повреждён заголовок)"
    if has_wal and header[18:20] != b"\x02\x02":
        return "повреждён заголовок (в нём нет write-ahead log, а рядом лежит -wal)"
    return None


def _with(path: Path, suffix: str) -> Path:
    return Path(f"{path}{suffix}")


def _free_name(path: Path, label: str) -> Path:
    """``PATH.LABEL-DATE`` (then ``-2``, ``-3`` …): no file of that name, nor its side files, exists."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        name = f"{path.name}.{label}-{stamp}" + (f"-{n}" if n > 1 else "")
        aside = path.with_name(name)
        if not any(_with(aside, s).exists() for s in ("", *SIDE_FILES)):
            return aside
        n += 1


def _move(src: Path, dst: Path) -> None:
    """Rename without ever replacing a file (a link, then the old name removed)."""
    try:
        os.link(src, dst)
    except FileExistsError:
        raise StoreError(f"{dst}: уже есть; {src} оставлен на месте") from None
    except OSError:  # a file system without hard links
        if dst.exists():
            raise StoreError(f"{dst}: уже есть; {src} оставлен на месте") from None
        os.rename(src, dst)
        return
    os.unlink(src)


def move_aside(path: Path, label: str = "corrupt") -> Path:
    """Move a damaged store with its -wal and -shm to a new name beside it; returns that name."""
    aside = _free_name(path, label)
    try:
        for suffix in ("", *SIDE_FILES):
            if _with(path, suffix).exists():
                _move(_with(path, suffix), _with(aside, suffix))
    except OSError as exc:
        raise StoreError(f"{path}: повреждено, и его не отложить в сторону: {os_reason(exc)}") from None
    return aside


def orphans(path: Path) -> Path | None:
    """A -wal or -shm with no store beside it (a crash while moving a store
    aside) is moved aside too, so that a new store never reads it."""
    if not any(_with(path, s).exists() for s in SIDE_FILES):
        return None
    return move_aside(path, "orphan")
