"""Files written whole or not at all, and small files read without ever
blocking or growing: what the box reads from a person (a seating file, a
voice's description, box.json) goes through :func:`read_small`, and JSON
through :func:`read_json`, so that a FIFO, ``/dev/zero``, a huge file or a
nesting too deep is one clear refusal, never a hang, a MemoryError or a
RecursionError."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


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


def read_text(path: Path, limit: int) -> str:
    """A small regular file's UTF-8 text (a config, a table, a script): :func:`read_small`'s
    limits; bytes that are not UTF-8 are a UnicodeDecodeError, as ``Path.read_text``'s."""
    return read_small(path, limit).decode("utf-8")


def parsed_json(data: bytes) -> Any:
    """JSON from a person's bytes, parsed within limits. Bytes that are not UTF-8 or not JSON,
    a nesting too deep to parse (a RecursionError), a number of thousands of digits, or a string
    with a lone surrogate (``"\\ud800"``: valid JSON that no file, terminal or database can
    take) are a ValueError whose text says which, in Russian."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("не UTF-8") from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("вложено слишком глубоко") from None
    except ValueError:
        raise ValueError("не JSON") from None
    if not _whole_text(value):
        raise ValueError("в строке одиночный суррогат (не символ Юникода)")
    return value


def read_json(path: Path, limit: int) -> Any:
    """A small regular file's JSON (:func:`read_small`, :func:`parsed_json`): an OSError when the
    file cannot be had, a ValueError when it is not JSON within limits."""
    return parsed_json(read_small(path, limit))


def _whole_text(value: Any) -> bool:
    """No string in ``value`` (keys included) holds a lone surrogate; walked without recursion."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True
