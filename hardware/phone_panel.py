"""``--panel web``: no buttons or LEDs on the table; every seat's button and
LED is a phone's page (``/seat/N``) and the host's keys are his console
(``/host``). The pages read the runtime's LEDs and put their presses in the
runtime's inbox themselves, so this panel has nothing to drive."""

from __future__ import annotations

import queue

from hardware.events import HardwareEvent
from hardware.panel import LedPattern, Panel


class PhonePanel(Panel):
    def __init__(self, seats: int, events: queue.Queue[HardwareEvent]) -> None:
        self.seats = seats
        self.events = events

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        pass  # the seat's page shows the runtime's LED

    def poll(self) -> None:
        pass  # a phone's button cannot stick
