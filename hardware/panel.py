"""The panel: a button and an LED per seat, and the host buttons.

Edges arrive on gpiozero's threads (or the keyboard's); :class:`EdgeFilter`
stamps them with the runtime's clock, drops contact bounce, guards against a
stuck button, and puts events on one thread-safe queue for the runtime.
"""

from __future__ import annotations

import queue
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from hardware.events import ButtonReleased, Clock, HardwareEvent, Held, Key, Press, Release, StuckButton


@dataclass(frozen=True)
class LedPattern:
    kind: Literal["off", "on", "blink", "pulse"]
    on_s: float = 0.25
    off_s: float = 0.25


OFF = LedPattern("off")
ON = LedPattern("on")
BLINK = LedPattern("blink")
PULSE = LedPattern("pulse", 0.6, 0.6)
FAST = LedPattern("blink", 0.08, 0.08)
FLASH = LedPattern("blink", 0.1, 0.7)  # short flashes, long pauses
SLOW = LedPattern("blink", 1.0, 1.0)

# The one LED vocabulary: the names the runtime and its effects use (an
# LED's state in the timeline, runtime/signals.py) and what each looks like.
PATTERNS: dict[str, LedPattern] = {
    "off": OFF,
    "on": ON,
    "blink": BLINK,
    "fast": FAST,
    "pulse": PULSE,
    "flash": FLASH,
    "slow": SLOW,
}
PATTERN_WORDS = {  # each in words, as a player's card and the keyboard panel's legend say it
    "off": "не горит",
    "on": "горит ровно",
    "pulse": "медленно пульсирует",
    "blink": "мигает",
    "fast": "часто мигает",
    "flash": "короткие вспышки",
    "slow": "медленно мигает",
}


@dataclass
class _Button:
    last_edge: float | None = None
    down_since: float | None = None
    stuck: bool = False
    held: bool = False  # this press's hold is reported


HOLD_MARGIN_S = 5.0  # a host button counts as stuck this long after its longest hold


class EdgeFilter:
    """Turns raw edges into presses: the first edge is the press's time; an
    edge within ``debounce_s`` of the previous edge of the same button is
    bounce; a button down longer than ``stuck_after_s`` is reported once and
    its edges ignored until it is released."""

    def __init__(
        self,
        keys: Iterable[Key],
        clock: Clock,
        events: queue.Queue[HardwareEvent],
        debounce_s: float,
        stuck_after_s: float,
        holds: Mapping[Key, float] | None = None,
    ) -> None:
        self.clock = clock
        self.events = events
        self.debounce_s = debounce_s
        self.stuck_after_s = stuck_after_s
        self.holds = dict(holds or {})
        self._buttons = {key: _Button() for key in keys}
        self._lock = threading.Lock()

    def edge(self, key: Key, pressed: bool, at: float | None = None) -> None:
        now = self.clock() if at is None else at
        with self._lock:
            button = self._buttons[key]
            bounce = button.last_edge is not None and now - button.last_edge < self.debounce_s
            button.last_edge = now
            if not pressed:
                was_down = button.down_since is not None and not button.stuck
                button.down_since = None
                if button.stuck:
                    button.stuck = False
                    self.events.put(ButtonReleased(key=key, at=now))
                elif was_down and key in self.holds:
                    self.events.put(Release(key=key, at=now))
                return
            if button.stuck or button.down_since is not None:
                return
            button.down_since, button.held = now, False
            if not bounce:
                self.events.put(Press(key=key, at=now))

    def held(self, key: Key) -> None:
        """A button found down at start: it counts as held from now, not as a press."""
        with self._lock:
            self._buttons[key].down_since = self.clock()
            self._buttons[key].held = True  # not a hold: nobody pressed it

    def poll(self) -> None:
        """Report holds, and buttons held too long (the runtime calls this regularly)."""
        now = self.clock()
        with self._lock:
            for key, button in self._buttons.items():
                since = button.down_since
                down = -1.0 if since is None else now - since
                hold = self.holds.get(key)
                if since is not None and hold is not None and down >= hold and not button.held:
                    button.held = True
                    self.events.put(Held(key=key, seconds=hold, at=since + hold))
                limit = self.stuck_after_s if hold is None else max(self.stuck_after_s, hold + HOLD_MARGIN_S)
                held = down >= limit
                if held and not button.stuck:
                    button.stuck = True
                    self.events.put(StuckButton(key=key, at=now))


class Panel(ABC):
    """What every panel offers the runtime."""

    seats: int
    events: queue.Queue[HardwareEvent]
    filter: EdgeFilter

    @abstractmethod
    def set_led(self, seat: int, pattern: LedPattern) -> None:
        """Show ``pattern`` on the seat's LED."""

    def all_leds(self, pattern: LedPattern) -> None:
        for seat in range(1, self.seats + 1):
            self.set_led(seat, pattern)

    def poll(self) -> None:
        self.filter.poll()

    def close(self) -> None:  # noqa: B027 - a panel with nothing of its own to release (the phones') keeps it
        """Release the panel's pins or terminal."""


def apply_pattern(led: Any, pattern: LedPattern, pwm: bool) -> None:
    """Show a pattern on a gpiozero LED or PWMLED."""
    if pattern.kind == "off":
        led.off()
    elif pattern.kind == "on":
        led.on()
    elif pattern.kind == "pulse" and pwm:
        led.pulse(fade_in_time=pattern.on_s, fade_out_time=pattern.off_s)
    else:  # blink, or pulse without PWM
        led.blink(on_time=pattern.on_s, off_time=pattern.off_s)
