"""``host-device hardware test``: every LED, every button, the microphone's
level and a test phrase, with a report of what was seen.

With ``--auto`` no person is needed: on the mock panel the test presses every
button itself, and the waits are short (this is how CI runs it).
"""

from __future__ import annotations

import math
import queue
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from hardware.events import HardwareEvent, Press
from hardware.factory import make_panel
from hardware.microphone import Microphone
from hardware.panel import OFF, ON, Panel
from host_device.appliance.wiring import HOST_NAMES
from host_device.base.errors import HostDeviceError
from host_device.config import load_config
from host_device.session.options import DeviceOptions


class NoTerminal(HostDeviceError, RuntimeError):
    pass


def keys_need_a_terminal() -> None:
    """The keyboard panel's keys are read from a terminal: without one, no press could ever come."""
    if not sys.stdin.isatty():
        raise NoTerminal(
            "--panel keyboard: клавиши пульта читаются с терминала, а ввод сейчас не терминал; "
            "запустите в терминале, или без людей: --auto"
        )


def level_dbfs(samples: bytes) -> float:
    x = np.frombuffer(samples, dtype="<i2").astype(np.float64)
    if len(x) == 0 or not np.any(x):
        return -math.inf
    return float(20 * math.log10(math.sqrt(float(np.mean(x**2))) / 32768))


class SelfTest:
    def __init__(
        self,
        panel: Panel,
        microphone: Microphone,
        say: Callable[[], Any],
        out: TextIO,
        auto: bool,
        step_s: float,
        press_wait_s: float,
        mic_s: float,
        sound: bool = True,
    ) -> None:
        self.panel, self.microphone, self.say, self.out = panel, microphone, say, out
        self.auto, self.step_s, self.press_wait_s, self.mic_s = auto, step_s, press_wait_s, mic_s
        self.sound = sound  # False with --audio null: the sound checks are skipped, not failed
        self.failures: list[str] = []

    def print(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def leds(self) -> None:
        self.print(f"огоньки: зажигаю места 1…{self.panel.seats} по очереди")
        for seat in range(1, self.panel.seats + 1):
            self.panel.set_led(seat, ON)
            time.sleep(self.step_s)
            self.panel.set_led(seat, OFF)

    def buttons(self) -> None:
        keys: list[Any] = [*range(1, self.panel.seats + 1), "next", "pause", "undo"]
        self.print(
            f"кнопки: нажмите каждую: места 1…{self.panel.seats}, затем {', '.join(HOST_NAMES.values())}"
        )
        if self.auto and hasattr(self.panel, "buttons"):
            for key in keys:  # the mock pins stand in for the person
                pin = self.panel.buttons[key].pin
                pin.drive_low()
                pin.drive_high()
        seen: set[Any] = set()
        deadline = time.monotonic() + self.press_wait_s
        while seen != set(keys) and time.monotonic() < deadline:
            try:
                event: HardwareEvent = self.panel.events.get(timeout=0.05)
            except queue.Empty:
                continue
            if isinstance(event, Press) and event.key not in seen:
                seen.add(event.key)
                if isinstance(event.key, int):
                    self.panel.set_led(event.key, ON)
        self.panel.all_leds(OFF)
        missing = [HOST_NAMES.get(k, str(k)) for k in keys if k not in seen]
        self.print(
            f"кнопки: замечено {len(seen)} из {len(keys)}"
            + (f"; не замечены: {', '.join(missing)}" if missing else "")
        )
        if missing:
            self.failures.append(f"не замечены кнопки: {', '.join(missing)}")

    def microphone_level(self) -> None:
        self.print(f"микрофон: уровень за {self.mic_s:g} с")
        self.microphone.start()
        levels: list[float] = []
        deadline = time.monotonic() + self.mic_s
        shown = 0.0
        try:
            while time.monotonic() < deadline:
                try:
                    block = self.microphone.blocks.get(timeout=0.05)
                except queue.Empty:
                    continue
                levels.append(level_dbfs(block.samples))
                if time.monotonic() - shown >= 0.5:  # a level twice a second, however fast blocks come
                    shown = time.monotonic()
                    db = levels[-1]
                    bar = "#" * max(0, int((db + 60) / 3)) if db > -60 else ""
                    self.print(f"  {db:6.1f} dBFS {bar}" if db > -math.inf else "  тишина")
        finally:
            self.microphone.stop()
        if not levels:
            self.print("микрофон: звук не пришёл")
            self.failures.append("от микрофона нет звука")
        else:
            loudest = max(levels)
            overflows = self.microphone.overflows
            self.print(
                f"микрофон: блоков {len(levels)}, громче всего {loudest:.1f} dBFS, переполнений {overflows}"
            )

    def speaker(self) -> None:
        self.print("динамик: звучит «Проверка звука. Раз, два, три.»")
        playback = self.say()
        if not playback.wait(15):
            self.failures.append("проверочная фраза не доиграла")
        else:
            self.print(f"динамик: фраза прозвучала ({playback.seconds:.1f} с)")

    def run(self) -> bool:
        self.leds()
        self.buttons()
        if self.sound:
            self.microphone_level()
            self.speaker()
        else:
            self.print("микрофон: пропущено (--audio null)")
            self.print("динамик: пропущено (--audio null)")
        skipped = "" if self.sound else " (звук пропущен: --audio null)"
        self.print(
            "проверка: "
            + ("всё в порядке" + skipped if not self.failures else "НЕПОЛАДКИ: " + "; ".join(self.failures))
        )
        return not self.failures


def hardware_test(devices: DeviceOptions, seats: int, auto: bool) -> int:
    """``hardware test``: each LED, each button, the microphone and the speaker, one by one."""
    from host_device.sound.announcer import Announcer
    from voices.catalogue import russian
    from voices.installed import voice_in_use

    config = load_config(devices.config)
    pinmap = config.pinmap(seats)
    if devices.panel == "keyboard":
        keys_need_a_terminal()
    events: queue.Queue[HardwareEvent] = queue.Queue()
    catalogue = russian()
    pack = voice_in_use(catalogue)  # the voice chosen (voices use), else the built-in
    panel = make_panel(devices.panel, pinmap, time.monotonic, events)
    try:
        microphone, speaker = config.open_audio(devices.audio, events, pack.sample_rate, devices.wav)
        try:
            announcer = Announcer(catalogue, pack, speaker)
            fast = auto
            test = SelfTest(
                panel,
                microphone,
                lambda: announcer.say("sound_check"),
                _stdout(),
                auto=auto,
                step_s=0.02 if fast else 0.4,
                press_wait_s=2 if fast else 60,
                mic_s=1 if fast else 5,
                sound=devices.audio != "null",
            )
            return 0 if test.run() else 1
        finally:
            speaker.close()
    finally:
        panel.close()


def _stdout() -> TextIO:
    return sys.stdout
