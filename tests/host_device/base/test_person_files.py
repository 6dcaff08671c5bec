"""Every file a person gives the box is read within limits (issue 46 item 4): a FIFO, a device
or a huge file is one line at once, never a hang, a MemoryError or a traceback — the config,
a scoring table, a patterns file, a script, a catalogue, a model test's expected answers."""

import os
import signal
from pathlib import Path

import pytest

from host_device.base.errors import HostDeviceError


def config(path: Path) -> None:
    from host_device.config import load_config

    load_config(path)


def table(path: Path) -> None:
    from host_device.club.scoring import load_table

    load_table(path)


def patterns(path: Path) -> None:
    from host_device.listening.intents import load_patterns

    load_patterns(path)


def script(path: Path) -> None:
    from host_device.scripts.script import load_script

    load_script(path)


def catalogue(path: Path) -> None:
    from voices.catalogue import load_catalogue

    load_catalogue(path)


def expected(path: Path) -> None:
    from host_device.listening.model_test import read_expected

    read_expected(path.parent)


READERS = [config, table, patterns, script, catalogue, expected]


def hostile(tmp_path: Path, kind: str, name: str) -> Path:
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        with path.open("wb") as out:  # past every limit (the largest is 2 MB)
            out.truncate(64 * 1024 * 1024)
    return path


@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_a_hostile_file_is_one_error_at_once(tmp_path, reader, kind):
    path = hostile(tmp_path, kind, "expected.tsv" if reader is expected else "f.toml")

    def hung(*_):
        raise TimeoutError(f"{reader.__name__} hung on a {kind}")

    signal.signal(signal.SIGALRM, hung)
    signal.alarm(3)
    try:
        with pytest.raises(HostDeviceError) as caught:
            reader(path)
    finally:
        signal.alarm(0)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("reader", [patterns, catalogue], ids=lambda r: r.__name__)
def test_toml_nested_too_deep_is_one_error(tmp_path, reader):
    path = tmp_path / "f.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(HostDeviceError):
        reader(path)
