"""The panel on the Pi's GPIO (gpiozero), or on gpiozero's mock pins."""

from __future__ import annotations

import logging
import queue
import warnings
from pathlib import Path
from typing import Any

from hardware.events import HOLDS, Clock, HardwareEvent, Key
from hardware.panel import EdgeFilter, LedPattern, Panel, apply_pattern
from hardware.pinmap import PinMap
from host_device.base.errors import HostDeviceError
from host_device.base.native import NativeLibraryError, import_native, load_message


class NoGpio(HostDeviceError, RuntimeError):
    """No GPIO on this machine (or no access to it)."""


PI_MODEL = Path("/proc/device-tree/model")


def on_a_pi() -> bool:
    try:
        return "Raspberry Pi" in PI_MODEL.read_text(errors="replace")
    except OSError:
        return False


def _no_gpio(exc: BaseException) -> str:
    """One line for gpiozero finding no pin factory: lgpio that cannot load
    (named with its package) where it is the cause, else the general reason."""
    try:
        import_native("lgpio")
    except NativeLibraryError as native:  # installed, but its library does not load
        return f"нет GPIO: {native}"
    except ImportError as missing:
        if on_a_pi():
            return f"нет GPIO: {load_message('lgpio', missing)}"
    logging.getLogger(__name__).debug("gpiozero: %s", exc)  # its words, for developers (HOST_DEVICE_DEBUG=1)
    return (
        "нет GPIO: это не Raspberry Pi, или нет библиотеки GPIO или доступа к /dev/gpiochip*; "
        "попробовать без кнопок стола, с клавиатуры: --panel keyboard"
    )


def mock_pin_factory() -> Any:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


class GpioPanel(Panel):
    def __init__(
        self,
        pinmap: PinMap,
        clock: Clock,
        events: queue.Queue[HardwareEvent] | None = None,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero.exc import BadPinFactory, PinFactoryFallback

        self.seats = pinmap.seat_count
        self.events = events if events is not None else queue.Queue()
        keys = pinmap.button_pins()
        self.filter = EdgeFilter(
            keys, clock, self.events, pinmap.debounce_ms / 1000, pinmap.stuck_after_s, holds=HOLDS
        )
        self.buttons: dict[Key, Any] = {}
        self.leds: dict[int, Any] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)  # the one error line below says it all
            try:
                self._open(keys, pinmap, pin_factory)
            except BadPinFactory as exc:
                self.close()
                raise NoGpio(_no_gpio(exc)) from None

    def _open(self, keys: dict[Key, int], pinmap: PinMap, pin_factory: Any) -> None:
        from gpiozero import LED, PWMLED, Button
        from gpiozero.exc import GPIOZeroError

        for key, pin in keys.items():
            button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            button.when_pressed = self._callback(key, True)
            button.when_released = self._callback(key, False)
            if button.is_pressed:
                self.filter.held(key)
            self.buttons[key] = button
        for seat, pin in pinmap.led_pins().items():
            try:
                self.leds[seat] = PWMLED(pin, pin_factory=pin_factory)
            except GPIOZeroError:  # no PWM on this pin: plain on/off
                self.leds[seat] = LED(pin, pin_factory=pin_factory)

    def _callback(self, key: Key, pressed: bool) -> Any:
        def callback() -> None:
            self.filter.edge(key, pressed)

        return callback

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        led = self.leds[seat]
        apply_pattern(led, pattern, pwm=hasattr(led, "pulse"))

    def close(self) -> None:
        for device in [*self.buttons.values(), *self.leds.values()]:
            device.close()
