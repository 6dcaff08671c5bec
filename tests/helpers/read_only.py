"""A folder that cannot be written, for tests run as root (who ignores
chmod): every write under it at the os level (open for writing, mkdir,
unlink, rename, replace) raises the errno given, as a read-only or full
disk does, and is kept in ``attempts``."""

import builtins
import errno
import io
import os
from pathlib import Path

WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class ReadOnly:
    def __init__(self, monkeypatch, folder: Path, code: int = errno.EROFS) -> None:
        self.folder = Path(os.path.realpath(folder))
        self.code = code
        self.attempts: list[str] = []
        for name in ("mkdir", "unlink", "rmdir"):
            monkeypatch.setattr(os, name, self._refusing(getattr(os, name), 1))
        for name in ("rename", "replace"):
            monkeypatch.setattr(os, name, self._refusing(getattr(os, name), 2))
        real_open, real_io_open = os.open, io.open

        def os_open(path, flags, *args, **kwargs):
            if flags & WRITING:
                self._check(path)
            return real_open(path, flags, *args, **kwargs)

        def open_(path, mode="r", *args, **kwargs):
            if isinstance(path, (str, bytes, os.PathLike)) and set(mode) & set("wax+"):
                self._check(path)
            return real_io_open(path, mode, *args, **kwargs)

        monkeypatch.setattr(os, "open", os_open)
        monkeypatch.setattr(io, "open", open_)
        monkeypatch.setattr(builtins, "open", open_)

    def _check(self, path) -> None:
        full = Path(os.path.realpath(os.fsdecode(path)))
        if full == self.folder or self.folder in full.parents:
            self.attempts.append(str(full))
            raise OSError(self.code, os.strerror(self.code), str(full))

    def _refusing(self, real, paths: int):
        def refusing(*args, **kwargs):
            for path in args[:paths]:
                self._check(path)
            return real(*args, **kwargs)

        return refusing
