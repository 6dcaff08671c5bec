"""Small files read without ever blocking or growing (host_device/base/files.py read_small)."""

import errno
import os
import time

import pytest

from host_device.base.files import parsed_json, read_json, read_small


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


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"[" * 200_000 + b"]" * 200_000, "вложено слишком глубоко"),
        (b'{"name": "\\ud800"}', "одиночный суррогат"),
        (b'[{"\\udfff": 1}]', "одиночный суррогат"),
        (b"1" * 5000, "не JSON"),
        (b"{\xff}", "не UTF-8"),
        (b"{oops", "не JSON"),
    ],
)
def test_json_beyond_its_limits_is_a_value_error_at_once(tmp_path, data, reason):
    path = tmp_path / "seating.json"
    path.write_bytes(data)
    started = time.monotonic()
    with pytest.raises(ValueError, match=reason):
        read_json(path, 1 << 20)
    assert time.monotonic() - started < 1


def test_json_within_its_limits_is_read(tmp_path):
    path = tmp_path / "seating.json"
    path.write_text('{"игрок": "Анна \\ud83d\\ude00", "rows": [[[1]]]}', "utf-8")
    assert read_json(path, 4096) == {"игрок": "Анна 😀", "rows": [[[1]]]}
    assert parsed_json(b"[" * 500 + b"]" * 500) is not None
