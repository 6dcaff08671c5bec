"""``host-device doctor``: everything the box needs, checked, and what to fix.

Each check prints one line («ок», «ИСПРАВИТЬ» with what to do, or
«пропущено» with why); the command ends with «всё в порядке» and exit 0 (a
skipped check is not a failure), or with the list of what to fix and exit 1.
With ``--auto`` nobody is needed: the mock panel presses its own buttons (as
``hardware test --auto``).
"""

from __future__ import annotations

import importlib
import queue
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.events import HardwareEvent
from hardware.factory import make_panel
from host_device.base.errors import HostDeviceError
from host_device.base.native import NATIVE, NativeLibraryError, import_native
from host_device.base.text import shorten
from host_device.config import load_config
from host_device.session.options import DeviceOptions

PACKAGES = (
    "numpy",
    "vosk",
    "sounddevice",
    "gpiozero",
    "num2words",
    "pymorphy3",
    "starlette",
    "uvicorn",
    "piper",
)
OK, FIX, SKIPPED = "ок", "ИСПРАВИТЬ", "пропущено"
MIN_FREE_MB = 200  # the store writes a few kB a game; this leaves room for years and the system


class Doctor:
    def __init__(self, out: Callable[[str], None]) -> None:
        self.out = out
        self.problems: list[str] = []
        self.skipped: list[str] = []

    def ok(self, text: str) -> None:
        self.out(f"  {OK:<10} {text}")

    def fix(self, text: str, how: str) -> None:
        self.out(f"  {FIX:<10} {text}: {how}")
        self.problems.append(f"{text}: {how}")

    def skip(self, what: str, why: str) -> None:
        """A check not made (by choice, or as it cannot be): said, and not a failure."""
        self.out(f"  {SKIPPED:<10} {what}: {why}")
        self.skipped.append(what)

    def check(self, name: str, fn: Callable[[], None]) -> None:
        """One check; an unexpected error in it is a problem to fix, not a traceback."""
        try:
            fn()
        except HostDeviceError as exc:
            self.fix(name, str(exc))
        except Exception as exc:
            self.fix(name, f"{type(exc).__name__}: {exc}")


def python_and_packages(doctor: Doctor) -> None:
    version = ".".join(map(str, sys.version_info[:3]))
    doctor.ok(f"Python {version}")  # an older one cannot run this at all (pyproject: 3.11 or newer)
    missing, broken = [], []
    for name in PACKAGES:
        try:
            import_native(name) if name in NATIVE else importlib.import_module(name)
        except NativeLibraryError as exc:  # installed, but a C library it loads is not: the real cause
            broken.append(name)
            doctor.fix(name, str(exc))
        except Exception:
            missing.append(name)
    if missing:
        doctor.fix(
            f"не установлены пакеты: {', '.join(missing)}", "запустите ./run один раз: он их установит"
        )
    elif not broken:
        doctor.ok(f"пакеты: {', '.join(PACKAGES)}")
    if shutil.which("espeak-ng") is None:
        doctor.fix("нет espeak-ng", "sudo apt-get install espeak-ng (встроенный голос говорит им)")


def voice_pack(doctor: Doctor) -> Any:
    """The voice that speaks (voices/installed.py): its pack, built where out of date, and why it
    speaks; a voice chosen that cannot speak is a fix, and the next one speaks for the checks
    that follow."""
    from voices import rhvoice
    from voices.catalogue import russian
    from voices.installed import BUILTIN, current, in_use, pack_of

    catalogue = russian()
    name = in_use()
    try:
        pack_of(name, catalogue)
    except HostDeviceError as exc:
        again = (
            f"RHVoice: sudo apt install --reinstall {rhvoice.PACKAGES}"
            if name.startswith(rhvoice.PREFIX)
            else "установите его снова (host-device voices install ФАЙЛ.onnx)"
        )
        other = f"или выберите другой: host-device voices use {BUILTIN}"
        doctor.fix(f"голос {name} не звучит ({exc})", f"{again} {other}")
    voice = current(catalogue)
    pack = voice.pack
    missing = [key for key in catalogue.clips() if key not in pack.clips]
    if missing:
        doctor.fix(f"голос: не хватает записей ({len(missing)})", "host-device voices build")
    else:
        doctor.ok(f"{voice.line()}; записей {len(pack.clips)}, {pack.sample_rate} Гц")
    return catalogue, pack


def speech_model(doctor: Doctor, path: Path | None) -> None:
    from host_device.listening.speech_model import ModelMissing, SpeechModel, find_model
    from host_device.listening.vocabulary import cannot_hear

    try:
        model = SpeechModel(find_model(path))
    except ModelMissing as exc:
        doctor.fix("модель речи", str(exc))
        return
    except NativeLibraryError:  # said once, with its fix, among the packages
        doctor.skip("модель речи", "vosk не может загрузить свою библиотеку (как исправить — выше)")
        return
    cannot = cannot_hear(model)
    if cannot:
        doctor.fix(
            f"модель речи {model.path.name}: не услышит {shorten('; '.join(cannot), 200)}",
            "установите русскую: host-device model install (vosk-model-small-ru-0.22)",
        )
    else:
        doctor.ok(f"модель речи {model.path.name}: знает все слова, которые слушает игра")


def disk(doctor: Doctor, store: Path) -> None:
    where = store if store.exists() else next(p for p in store.parents if p.exists())
    free_mb = shutil.disk_usage(where).free // 2**20
    if free_mb < MIN_FREE_MB:
        doctor.fix(
            f"свободно {free_mb} МБ для записей игр ({where})", f"освободите не меньше {MIN_FREE_MB} МБ"
        )
    else:
        doctor.ok(f"свободно {free_mb} МБ для записей игр ({store})")


def service_state(doctor: Doctor) -> None:
    from host_device.appliance.service import STATES, state

    word = state()
    if word == STATES["failed"]:
        doctor.fix("служба упала", "host-device service status (последние строки её журнала скажут почему)")
    else:
        doctor.ok(f"служба: {word}")


def checkup(devices: DeviceOptions, seats: int, auto: bool, speech: bool = True) -> int:
    """``doctor``: every check, each with its fix (``auto``: the mock panel presses its own buttons;
    ``speech``: the table plays with speech recognition, so its model is checked)."""
    from host_device.appliance.selftest import SelfTest, keys_need_a_terminal
    from host_device.sound.announcer import Announcer
    from host_device.store.db import default_store_path

    def out(text: str) -> None:
        print(text, flush=True)

    panel_kind = "mock" if auto else devices.panel
    if panel_kind == "keyboard":
        keys_need_a_terminal()  # before the checks: without one, no key could ever be pressed
    doctor = Doctor(out)
    out("host-device doctor")
    doctor.check("Python", lambda: python_and_packages(doctor))
    found: dict[str, Any] = {}
    doctor.check("голос", lambda: found.update(voice=voice_pack(doctor)))
    if not speech:
        doctor.skip("модель речи", "--no-model (выдвижения вводит или нажимает ведущий)")
    else:
        doctor.check("модель речи", lambda: speech_model(doctor, devices.model))
    doctor.check("диск", lambda: disk(doctor, devices.store or default_store_path()))
    doctor.check("служба", lambda: service_state(doctor))
    try:
        config = load_config(devices.config)
        pinmap = config.pinmap(seats)
    except HostDeviceError as exc:
        doctor.fix("выводы", str(exc))
        return finish(doctor)
    doctor.ok(f"выводы: {seats} мест и три кнопки ведущего, каждый вывод по одному разу")
    if "voice" not in found:
        return finish(doctor)
    catalogue, pack = found["voice"]
    events: queue.Queue[HardwareEvent] = queue.Queue()
    try:
        panel = make_panel(panel_kind, pinmap, time.monotonic, events)
    except HostDeviceError as exc:
        doctor.fix("пульт", str(exc))
        return finish(doctor)
    try:
        try:
            microphone, speaker = config.open_audio(devices.audio, events, pack.sample_rate, devices.wav)
        except HostDeviceError as exc:
            doctor.fix("звук", str(exc))
            return finish(doctor)
        try:
            announcer = Announcer(catalogue, pack, speaker)
            test = SelfTest(
                panel,
                microphone,
                announcer.beep,
                sys.stdout,
                auto=auto,
                step_s=0.02 if auto else 0.3,
                press_wait_s=2 if auto else 60,
                mic_s=1,
                sound=devices.audio != "null",
            )
            test.print = lambda text: out(f"       {text}")  # type: ignore[method-assign]
            test.buttons()
            if devices.audio == "null":
                doctor.skip("звук", "--audio null (проверить: --audio device)")
            else:
                test.microphone_level()
                tone = announcer.beep()
                if tone.wait(5):
                    out(f"       динамик: проверочный тон прозвучал ({tone.seconds:.2f} с)")
                else:
                    test.failures.append("проверочный тон не доиграл")
            for failure in test.failures:
                doctor.fix(
                    failure, "сверьте проводку с рисунком: host-device hardware wiring --to wiring.svg"
                )
            if not test.failures:
                doctor.ok(
                    "кнопки отвечают" if devices.audio == "null" else "кнопки, микрофон и динамик отвечают"
                )
        finally:
            speaker.close()
    finally:
        panel.close()
    return finish(doctor)


def finish(doctor: Doctor) -> int:
    if doctor.problems:
        print(f"нужно исправить ({len(doctor.problems)}):", flush=True)
        for problem in doctor.problems:
            print(f"  - {problem}", flush=True)
        return 1
    skipped = f" (пропущено: {', '.join(doctor.skipped)})" if doctor.skipped else ""
    print(f"всё в порядке{skipped}", flush=True)
    return 0
