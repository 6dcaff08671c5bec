"""Waiting for a WAV file that another thread or process is still writing.

pyttsx3's espeak driver writes its clip from espeak-ng's synthesis thread,
and ``runAndWait`` may return before it has (on a slow CPU it always does):
the file is then missing, or there but half written. This module says when
such a file is complete, from the outside, without trusting the writer.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable
from pathlib import Path

POLL_S = 0.01  # how often the file is looked at

Clock = Callable[[], float]
Sleep = Callable[[float], None]


def declared_complete(path: Path) -> bool:
    """Whether ``path`` is a whole RIFF/WAVE file by its own header.

    True when the file starts with ``RIFF`` .. ``WAVE``, its RIFF size is the
    file's size less 8, a ``fmt `` chunk comes before the ``data`` chunk, and
    the data chunk's size is exactly the bytes that follow its header (the
    last chunk of the file, as every writer here leaves it). A file still
    being written fails one of these: too short for its header, or holding
    fewer (a header written first with the final sizes: Python's ``wave``
    given all frames at once, as pyttsx3 does) or more (a placeholder size
    patched at the end: ``wave`` streaming, ``espeak-ng -w``) bytes than it
    declares.
    """
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return False
    if struct.unpack_from("<I", data, 4)[0] != len(data) - 8:
        return False
    offset, seen_fmt = 12, False
    while offset + 8 <= len(data):
        chunk, size = data[offset : offset + 4], struct.unpack_from("<I", data, offset + 4)[0]
        body = offset + 8
        if chunk == b"data":
            return seen_fmt and body + size == len(data)
        seen_fmt = seen_fmt or chunk == b"fmt "
        offset = body + size + size % 2  # chunks are padded to an even length
    return False


def wait_until_complete(
    path: Path,
    *,
    timeout_s: float,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
    poll_s: float = POLL_S,
) -> bool:
    """Wait, at most ``timeout_s`` on ``clock``, until ``path`` is complete.

    Complete means :func:`declared_complete` *and* the same size and
    modification time at two looks ``poll_s`` apart. The header alone can be
    fooled by a writer that patches it after each block (``wave`` called
    block by block): between two blocks the file looks whole. A file whose
    header matches its bytes and that has stopped changing for a poll is the
    best the outside can know; pyttsx3 and espeak-ng write a clip in one go,
    so for them it is exact. False when the time runs out first: the caller
    never reads the file then.
    """
    deadline = clock() + timeout_s
    last: tuple[int, int] | None = None
    while True:
        seen = _stamp(path) if declared_complete(path) else None
        if seen is not None and seen == last:
            return True
        last = seen
        if clock() >= deadline:
            return False
        sleep(poll_s)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns
