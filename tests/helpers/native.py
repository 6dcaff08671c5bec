"""A Python package whose C library cannot be loaded, as on a fresh arm64 box:
a stand-in package, first on the path, whose import raises the loader's
``OSError`` (vosk imports ``libvosk.so`` through cffi when it is imported)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# what `import vosk` said on a Debian 12 arm64 root without libatomic1 (issue 24)
VOSK_ON_ARM64 = (
    "cannot load library '/root/mafia/.venv/lib/python3.11/site-packages/vosk/libvosk.so': "
    "libatomic.so.1: cannot open shared object file: No such file or directory"
)
VOSK_LINE = (
    "cannot load libvosk.so (vosk, for speech recognition): it needs libatomic.so.1, which is not "
    "installed; install the Debian package libatomic1: sudo apt-get install libatomic1"
)
# what sounddevice says when libportaudio2 is there but the ALSA library it needs is not
PORTAUDIO_WITHOUT_ALSA = (
    "cannot load library 'libportaudio.so.2': libasound.so.2: cannot open shared object file: "
    "No such file or directory"
)
PORTAUDIO_LINE = (
    "cannot load libportaudio.so.2 (sounddevice, for sound in and out): it needs libasound.so.2, which "
    "is not installed; install the Debian package libasound2: sudo apt-get install libasound2"
)


def stand_in(folder: Path, module: str, message: str) -> Path:
    """A folder holding a package ``module`` whose import raises OSError(message)."""
    package = folder / "stand-ins" / module
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text(f"raise OSError({message!r})\n", encoding="utf-8")
    return package.parent


def cannot_load(monkeypatch: pytest.MonkeyPatch, folder: Path, module: str, message: str) -> None:
    """From now on in this test, ``import module`` raises the loader's OSError,
    here and in the processes it starts (the speech model's decoder)."""
    monkeypatch.delitem(sys.modules, module, raising=False)
    where = str(stand_in(folder, module, message))
    monkeypatch.syspath_prepend(where)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [where, os.environ.get("PYTHONPATH")])))


def fake_model(folder: Path) -> Path:
    """A folder that looks like a vosk model (vosk fails before reading it)."""
    for part in ("am/final.mdl", "conf/model.conf"):
        (folder / "model" / part).parent.mkdir(parents=True, exist_ok=True)
        (folder / "model" / part).write_text("", encoding="utf-8")
    return folder / "model"
