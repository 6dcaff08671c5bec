"""The native libraries the product loads, the Debian package that brings each,
and a failed load said in one line.

vosk (the ``libvosk.so`` in its wheel), sounddevice (PortAudio) and pyttsx3
(espeak-ng) load C libraries when they are imported or started. A library
that is missing, or that needs one that is missing (vosk's arm builds need
``libatomic.so.1``), makes the loader (cffi or ctypes) raise an ``OSError``;
:func:`load_message` turns it into one line: the library that failed, the
missing dependency the loader named, the Debian package that brings it and
the ``apt-get`` line. ``./run`` installs these packages (a test checks that
it names every one below).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from types import ModuleType

from host_device.base.errors import HostDeviceError


class NativeLibraryError(HostDeviceError, ImportError):
    """A Python package is installed but the C library it loads cannot be loaded."""


@dataclass(frozen=True)
class Native:
    module: str  # the Python package that loads the library
    library: str  # the shared library it loads
    package: str  # the Debian package that brings it; "" when the Python wheel carries it
    purpose: str


NATIVE = {
    "vosk": Native("vosk", "libvosk.so", "", "speech recognition"),
    "sounddevice": Native("sounddevice", "libportaudio.so.2", "libportaudio2", "sound in and out"),
    "pyttsx3": Native("pyttsx3", "libespeak-ng.so.1", "libespeak-ng1", "speech synthesis"),
    # piper-tts's wheel carries its espeak-ng; onnxruntime's wheel carries its library (which needs
    # libstdc++.so.6, as vosk's does)
    "piper": Native("piper", "onnxruntime_pybind11_state.so", "", "neural voices (Piper)"),
    # gpiozero drives a Pi's pins through lgpio, which Raspberry Pi OS and Debian package
    # (python3-lgpio, seen by the venv through --system-site-packages on a Pi)
    "lgpio": Native("lgpio", "liblgpio.so.1", "python3-lgpio", "the GPIO pins"),
}

# What those libraries need in turn (readelf -d: vosk's aarch64 and armv7l
# wheels need libatomic.so.1, its x86_64 wheel does not), by the Debian
# package that brings each.
DEPENDENCIES = {
    "libatomic.so.1": "libatomic1",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
    "libasound.so.2": "libasound2",
    "libjack.so.0": "libjack-jackd2-0",
    "libpcaudio.so.0": "libpcaudio0",
    "libsonic.so.0": "libsonic0",
}

_NOT_FOUND = re.compile(r"([^\s:'\"]+\.so(?:\.\d+)*): cannot open shared object file")
_BROKEN = re.compile(r"invalid ELF header|file too short|wrong ELF class|ELF load command|not a dynamic")
_CFFI_PREFIX = re.compile(r"^cannot load library '[^']*': ")
_CFFI_SUFFIX = re.compile(r"\.? Additionally, ctypes\.util\.find_library\(\).*$")


def debian_package(library: str) -> str:
    """The Debian package that brings a shared library ("" when not known here)."""
    for native in NATIVE.values():
        if native.library == library:
            return native.package
    return DEPENDENCIES.get(library, "")


def _install(package: str) -> str:
    return f"install the Debian package {package}: sudo apt-get install {package}"


def load_message(module: str, exc: BaseException) -> str:
    """One line for a failed import or start of ``module`` (a key of :data:`NATIVE`):
    what failed to load, why, and the command that fixes it."""
    native = NATIVE[module]
    if isinstance(exc, ModuleNotFoundError):
        if native.package.startswith("python3-"):  # Debian's, not PyPI's
            fix = f"{_install(native.package)}, then rm -rf .venv && ./run"
            return f"the Python package {module} ({native.purpose}) is not installed; {fix}"
        return f"the Python package {module} is not installed: run ./run once, it installs it"
    text = " ".join(str(exc).split())
    head = f"cannot load {native.library} ({module}, for {native.purpose})"
    missing = [PurePosixPath(name).name for name in _NOT_FOUND.findall(text)]
    needed = [name for name in missing if name != native.library]
    if needed:
        lib = needed[0]
        package = debian_package(lib)
        fix = _install(package) if package else f"find the package that brings it: apt-file search {lib}"
        return f"{head}: it needs {lib}, which is not installed; {fix}"
    reason = _CFFI_SUFFIX.sub("", _CFFI_PREFIX.sub("", text)) or type(exc).__name__
    if len(reason) > 160:
        reason = reason[:159] + "…"
    if not native.package:  # the wheel's own file: reinstall the Python packages
        return f"{head}: {reason}; reinstall the Python packages: rm -rf .venv && ./run"
    if _BROKEN.search(text):
        return f"{head}: {reason}; reinstall it: sudo apt-get install --reinstall {native.package}"
    return f"{head}: {reason}; {_install(native.package)}"


def load_error(module: str, exc: BaseException) -> NativeLibraryError:
    """The error to raise, ``from None``, where ``module`` failed to load its library."""
    return NativeLibraryError(load_message(module, exc))


def import_native(module: str) -> ModuleType:
    """Import ``module`` (a key of :data:`NATIVE`); a library it cannot load is a
    :class:`NativeLibraryError` in one line, not an ``OSError`` with a traceback."""
    try:
        return importlib.import_module(module)
    except OSError as exc:
        raise load_error(module, exc) from None
