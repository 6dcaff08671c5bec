"""Small files read without ever blocking or growing (host_device/base/files.py read_small)."""

import errno
import os

import pytest

from host_device.base.files import read_small


def test_a_small_regular_file_is_read_up_to_its_limit(tmp_path):
    path = tmp_path / "box.json"
    path.write_bytes(b"x" * 16)
    assert read_small(path, 16) == b"x" * 16
    with pytest.raises(OSError) as over:
        read_small(path, 15)
    assert over.value.errno == errno.EFBIG and over.value.strerror == "больше 15 байт"


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_what_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    path = tmp_path / "box.json"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: an ordinary open would wait for one
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with pytest.raises(OSError) as refused:
        read_small(path, 4096)
    assert refused.value.strerror in ("не обычный файл", "Is a directory")
