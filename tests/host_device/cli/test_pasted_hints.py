"""Every command the box prints for a person to paste quotes what it names for the shell
(issue 46 item 2): a path or a name with «'», «;», «$(…)» pasted back runs nothing and
arrives whole. The tournament's hints: tests/host_device/tournament/test_hints.py."""

import shlex
from pathlib import Path

import pytest

from host_device.listening.model_test import ModelTestError, read_expected
from host_device.session.demo import result_lines

HOSTILE = ["кубок'; touch MARKER; echo '", "a b$(touch MARKER)", "x`touch MARKER`"]


def pasted(line: str, command: str) -> list[str]:
    """The words the shell would give host-device for the hint ``command …`` in ``line``."""
    start = line.index(command)
    end = line.rstrip().rfind(")") if line.rstrip().endswith(")") else len(line)
    return shlex.split(line[start:end].rstrip("`"))


@pytest.mark.parametrize("name", HOSTILE)
def test_the_demos_hint_names_its_script_whole(name):
    lines = result_lines({"ignored": [1], "forbidden": [], "winner": None, "days": 1}, Path(name))
    words = pasted(lines[-1], "host-device simulate")
    assert words == ["host-device", "simulate", name]


@pytest.mark.parametrize("name", HOSTILE)
def test_model_tests_hint_names_its_folder_whole(tmp_path, name):
    folder = tmp_path / name
    with pytest.raises(ModelTestError) as caught:
        read_expected(folder)
    line = str(caught.value)
    start = line.index("host-device model record")
    assert shlex.split(line[start:].rstrip("`")) == ["host-device", "model", "record", str(folder)]
