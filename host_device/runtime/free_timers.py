"""The host's free timers (assist mode): a timer on demand, outside the
game's steps, and the menu of them his key «t» offers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host_device.runtime.clock import Scheduled, Scheduler, time_left
from host_device.runtime.timeline import Entry, FreeTimerStarted, Tone

AGREEMENT = "договорка"  # the menu's label of the agreement minute


def timer_menu(agreement_s: int, extra: tuple[int, ...]) -> list[tuple[str, int]]:
    """(label, seconds) of each free timer: 60 s, 30 s, the agreement minute, then the club's own."""
    return [("60 с", 60), ("30 с", 30), (AGREEMENT, agreement_s), *((f"{s} с", s) for s in extra)]


class FreeTimer:
    """One free timer at a time: announced, the tone ten seconds before the
    end (for more than ten seconds), then «Время!»."""

    def __init__(
        self,
        sched: Scheduler,
        say: Callable[..., float],
        speaking_until: Callable[[], float],
        note: Callable[[Entry], Any],
        warn_s: Callable[[], float],  # the runtime's settings, read when a timer starts
    ) -> None:
        self.sched, self._say, self._speaking_until, self._note = sched, say, speaking_until, note
        self.warn_s = warn_s
        self.running: tuple[float, int] | None = None  # (start, seconds)
        self._scheduled: tuple[Scheduled, ...] = ()

    def start(self, length: int, phrase: str = "timer", **slots: Any) -> None:
        self.stop()
        self._say(phrase, **slots)
        start = self._speaking_until()
        self.running = (start, length)
        self._note(FreeTimerStarted(t=start, seconds=length))
        warn = self.warn_s()
        tone = (self.sched.at(start + length - warn, self._tone),) if length > warn else ()
        self._scheduled = (*tone, self.sched.at(start + length, self._up))

    def stop(self) -> bool:
        """Stop it; whether one was running."""
        running = self.running is not None
        for item in self._scheduled:
            item.cancel()
        self._scheduled, self.running = (), None
        return running

    def left(self) -> float | None:
        """Seconds left now (all of them before it starts); None without one."""
        return None if self.running is None else time_left(self.sched.now, *self.running)

    def shift(self, seconds: float) -> None:
        """The game was paused this long: the timer's start moves with the schedule."""
        if self.running is not None:
            self.running = (self.running[0] + seconds, self.running[1])

    def _tone(self) -> None:
        self._note(Tone(t=self.sched.now))

    def _up(self) -> None:
        self._scheduled, self.running = (), None
        self._say("time_up")
