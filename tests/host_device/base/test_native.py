"""host_device/base/native.py: a C library that cannot be loaded is one line
naming it, the missing dependency, the Debian package and the apt-get fix;
and ./run installs every package named here, per architecture."""

import ctypes
import ctypes.util
import subprocess
import sysconfig
from pathlib import Path

import cffi
import pytest

from host_device.base.errors import HostDeviceError
from host_device.base.native import NATIVE, NativeLibraryError, import_native, load_message
from tests.helpers.native import (
    PORTAUDIO_LINE,
    PORTAUDIO_WITHOUT_ALSA,
    VOSK_LINE,
    VOSK_ON_ARM64,
    cannot_load,
)
from tests.helpers.paths import ROOT


def loader_error(load):
    with pytest.raises(OSError) as caught:
        load()
    return caught.value


def test_vosk_on_arm64_without_libatomic_names_the_package_and_the_fix():
    assert load_message("vosk", OSError(VOSK_ON_ARM64)) == VOSK_LINE


def test_portaudio_missing_a_library_it_needs_names_that_library():
    assert load_message("sounddevice", OSError(PORTAUDIO_WITHOUT_ALSA)) == PORTAUDIO_LINE


def test_portaudio_not_installed_names_its_own_package():
    line = load_message("sounddevice", OSError("PortAudio library not found"))
    assert line == (
        "cannot load libportaudio.so.2 (sounddevice, for sound in and out): PortAudio library not found; "
        "install the Debian package libportaudio2: sudo apt-get install libportaudio2"
    )


def test_espeak_that_pyttsx3_cannot_find_names_libespeak_ng1():
    exc = RuntimeError("This means you probably do not have eSpeak or eSpeak-ng installed!")
    line = load_message("pyttsx3", exc)
    assert line.startswith("cannot load libespeak-ng.so.1 (pyttsx3, for speech synthesis): ")
    assert line.endswith("sudo apt-get install libespeak-ng1")


def test_a_real_loader_error_for_a_missing_dependency(tmp_path):
    """A real PortAudio whose needed ALSA library is renamed to one no machine has:
    cffi's own message, with the dependency it could not find."""
    found = ctypes.util.find_library("portaudio")
    assert found, "libportaudio2 is installed by ./run"
    real = Path("/usr/lib", sysconfig.get_config_var("MULTIARCH") or "", found)
    data = real.read_bytes()
    assert b"libasound.so.2\0" in data
    copy = tmp_path / "libportaudio.so.2"
    copy.write_bytes(data.replace(b"libasound.so.2\0", b"libabsent.so.2\0"))
    exc = loader_error(lambda: cffi.FFI().dlopen(str(copy)))
    line = load_message("sounddevice", exc)
    assert line == (
        "cannot load libportaudio.so.2 (sounddevice, for sound in and out): it needs libabsent.so.2, "
        "which is not installed; find the package that brings it: apt-file search libabsent.so.2"
    )


def test_a_real_loader_error_for_a_file_that_is_not_a_library(tmp_path):
    broken = tmp_path / "libvosk.so"
    broken.write_bytes(b"\x7fELF but not really a library, cut short")
    for load in (lambda: ctypes.CDLL(str(broken)), lambda: cffi.FFI().dlopen(str(broken))):
        line = load_message("vosk", loader_error(load))
        assert line.startswith("cannot load libvosk.so (vosk, for speech recognition): ")
        assert f"{broken}: " in line and "Additionally" not in line and "\n" not in line
        assert line.endswith("; reinstall the Python packages: rm -rf .venv && ./run")
    line = load_message("sounddevice", loader_error(lambda: ctypes.CDLL(str(broken))))
    assert line.endswith("; reinstall it: sudo apt-get install --reinstall libportaudio2")


def test_the_wheels_own_library_gone(tmp_path):
    gone = tmp_path / "vosk" / "libvosk.so"
    line = load_message("vosk", loader_error(lambda: cffi.FFI().dlopen(str(gone))))
    assert "cannot open shared object file" in line and "which is not installed" not in line
    assert line.endswith("reinstall the Python packages: rm -rf .venv && ./run")


def test_a_package_not_installed_at_all_is_not_a_library_problem():
    line = load_message("vosk", ModuleNotFoundError("No module named 'vosk'"))
    assert line == "the Python package vosk is not installed: run ./run once, it installs it"


def test_import_native_turns_the_loaders_oserror_into_one_project_error(tmp_path, monkeypatch):
    cannot_load(monkeypatch, tmp_path, "vosk", VOSK_ON_ARM64)
    with pytest.raises(NativeLibraryError) as caught:
        import_native("vosk")
    assert isinstance(caught.value, HostDeviceError) and isinstance(caught.value, ImportError)
    assert str(caught.value) == VOSK_LINE
    assert caught.value.__suppress_context__  # raised from None: no chained traceback


# ------------------------------------------------------------ ./run's packages


def native_debs(arch, on_pi="false"):
    """The packages ./run's own native_debs function names for an architecture."""
    run = (ROOT / "run").read_text(encoding="utf-8")
    start = run.index("native_debs() {")
    function = run[start : run.index("\n}\n", start) + 3]
    done = subprocess.run(
        ["bash", "-c", f'{function}native_debs "$@"', "run", arch, on_pi],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def test_run_uses_its_package_function():
    run = (ROOT / "run").read_text(encoding="utf-8")
    assert '$(native_debs "$(dpkg --print-architecture)" "$on_pi")' in run


@pytest.mark.parametrize("arch", ["arm64", "armhf"])
def test_run_installs_libatomic_where_vosks_arm_wheels_need_it(arch):
    assert "libatomic1" in native_debs(arch)


def test_run_does_not_install_libatomic_on_x86():
    assert "libatomic1" not in native_debs("amd64")


@pytest.mark.parametrize("arch", ["amd64", "arm64", "armhf"])
def test_run_installs_every_library_the_product_loads(arch):
    debs = native_debs(arch)
    assert {n.package for n in NATIVE.values() if n.package and n.module != "lgpio"} <= set(debs)
    assert {"espeak-ng", "libstdc++6"} <= set(debs)  # the voice's data and command; libvosk.so's C++
    assert NATIVE["lgpio"].package not in debs  # the pins' library: on a Pi only
    assert NATIVE["lgpio"].package in native_debs(arch, "true")
