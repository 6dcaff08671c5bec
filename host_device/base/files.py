"""Files written whole or not at all, and small files read without ever
blocking or growing."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary name beside ``path`` to write to; it replaces ``path``
    only once the block ends normally, and is removed otherwise (an error,
    Ctrl-C), so that a reader never sees a half-written file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path: Path, text: str) -> None:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def read_small(path: Path, limit: int) -> bytes:
    """A small regular file's bytes. A FIFO (which would block), a device
    (``/dev/zero``, which never ends), a folder, or a file over ``limit``
    bytes is an OSError whose ``strerror`` says why, and nothing more of it is read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "не обычный файл", str(path))
        data = b""
        while len(data) <= limit and (chunk := os.read(fd, limit + 1 - len(data))):
            data += chunk
        if len(data) > limit:
            raise OSError(errno.EFBIG, f"больше {limit} байт", str(path))
        return data
    finally:
        os.close(fd)
