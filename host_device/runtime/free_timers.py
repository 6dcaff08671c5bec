"""The host's free timers (assist mode): a timer on demand, outside the
game's steps, and the menu of them his key «t» offers."""

from __future__ import annotations

from typing import Any

from host_device.runtime.clock import Scheduled, time_left
from host_device.runtime.engine_inputs import EngineInputs

AGREEMENT = "договорка"  # the menu's label of the agreement minute


def timer_menu(agreement_s: int, extra: tuple[int, ...]) -> list[tuple[str, int]]:
    """(label, seconds) of each free timer: 60 s, 30 s, the agreement minute, then the club's own."""
    return [("60 с", 60), ("30 с", 30), (AGREEMENT, agreement_s), *((f"{s} с", s) for s in extra)]


class FreeTimers(EngineInputs):
    free: tuple[float, int] | None = None  # the running free timer: (start, seconds)
    _free: tuple[Scheduled, ...] = ()

    def start_free_timer(self, length: int, phrase: str = "timer", **slots: Any) -> None:
        """A timer on demand: announced, the tone ten seconds before the end
        (for more than ten seconds), then «Время!»."""
        self.stop_free_timer()
        self.say(phrase, **slots)
        start = self.speaking_until
        self.free = (start, length)
        self.record("free_timer", t=start, seconds=length)
        warn = self.settings.warn_s
        tone = (self.sched.at(start + length - warn, self._free_tone),) if length > warn else ()
        self._free = (*tone, self.sched.at(start + length, self._free_up))

    def stop_free_timer(self) -> bool:
        running = self.free is not None
        for item in self._free:
            item.cancel()
        self._free, self.free = (), None
        return running

    def free_time_left(self) -> float | None:
        """Seconds left now on the free timer (all of them before it starts); None without one."""
        return None if self.free is None else time_left(self.sched.now, *self.free)

    def resume_clock(self, now: float | None = None) -> float:
        shift = super().resume_clock(now)
        if self.free is not None:
            self.free = (self.free[0] + shift, self.free[1])
        return shift

    def _free_tone(self) -> None:
        self.record("tone")

    def _free_up(self) -> None:
        self._free, self.free = (), None
        self.say("time_up")
