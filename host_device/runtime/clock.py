"""One clock for the whole runtime, and the schedule of what happens when.

The runtime never reads time by itself: it asks the scheduler, which runs on
virtual time in tests and simulations (jumping from one due event to the
next, so a whole game takes milliseconds) or follows a wall clock (waiting
until the next event, waking early for input from the table). The wall clock
is an object: :class:`RealClock` in a game, :class:`VirtualClock` in tests
of the real loop (trio's ``MockClock`` with autojump: its time moves only
while the loop waits, and then at once by the whole wait).
"""

from __future__ import annotations

import heapq
import itertools
import math
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

TURN_S = 0.05  # the real loop turns at least this often (wall time), paused or not


class Clock(Protocol):
    """A wall clock for :meth:`Scheduler.run_real`."""

    def now(self) -> float: ...

    def wait(self, inbox: queue.Queue[Any] | None, timeout: float) -> Any:
        """The next input from ``inbox`` within ``timeout`` seconds (at once
        when ``timeout`` is 0), or None when none came; without an inbox,
        just let ``timeout`` pass."""
        ...


class RealClock:
    """The machine's monotonic clock; a wait blocks on the inbox."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, inbox: queue.Queue[Any] | None, timeout: float) -> Any:
        if inbox is None:
            time.sleep(max(0.0, timeout))
            return None
        try:
            return inbox.get(timeout=timeout) if timeout > 0 else inbox.get_nowait()
        except queue.Empty:
            return None


REAL = RealClock()


class VirtualClock:
    """Wall time for tests: a wait takes what is in the inbox at once, or
    else moves the clock by its whole timeout without sleeping. What the
    table does is cued: :meth:`when` puts inputs into the inbox the first
    time the loop waits with a condition true (no thread, no race).
    ``limit``: a wait past this time raises TimeoutError (a cue that never
    comes fails the test instead of hanging it)."""

    def __init__(self, start: float = 0.0, limit: float = 24 * 3600.0) -> None:
        self.t = start
        self.limit = limit
        self._cues: list[tuple[Callable[[], bool], tuple[Any, ...], bool]] = []

    def now(self) -> float:
        return self.t

    def when(self, condition: Callable[[], bool], *items: Any, repeat: bool = False) -> None:
        """Put ``items`` into the inbox once ``condition()`` holds at a wait
        (an item that is a function is called then, e.g. to stamp the time);
        ``repeat``: at every such wait, not just the first."""
        self._cues.append((condition, items, repeat))

    def wait(self, inbox: queue.Queue[Any] | None, timeout: float) -> Any:
        if inbox is not None:
            for cue in list(self._cues):
                condition, items, repeat = cue
                if condition():
                    if not repeat:
                        self._cues.remove(cue)
                    for item in items:
                        inbox.put(item() if callable(item) else item)
            if not inbox.empty():
                return inbox.get_nowait()
        if timeout > 0:  # at least one step of the float: a wait too short to add must still pass
            self.t = max(self.t + timeout, math.nextafter(self.t, math.inf))
        if self.t > self.limit:
            raise TimeoutError(f"the virtual clock passed {self.limit:g} s with nothing to do")
        return None


@dataclass(order=True)
class Scheduled:
    t: float
    seq: int
    fn: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class Scheduler:
    def __init__(self, start: float = 0.0) -> None:
        self.now = start
        self._queue: list[Scheduled] = []
        self._seq = itertools.count()
        self._paused_at: float | None = None

    def at(self, t: float, fn: Callable[[], None]) -> Scheduled:
        item = Scheduled(max(t, self.now), next(self._seq), fn)
        heapq.heappush(self._queue, item)
        return item

    def after(self, seconds: float, fn: Callable[[], None]) -> Scheduled:
        return self.at(self.now + seconds, fn)

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def pause(self) -> None:
        """Freeze every scheduled event where it is."""
        if self._paused_at is None:
            self._paused_at = self.now

    def resume(self, now: float | None = None) -> float:
        """Go on: every frozen event moves by the time spent paused; returns that time."""
        if self._paused_at is None:
            return 0.0
        now = self.now if now is None else now
        shift = now - self._paused_at
        self._paused_at = None
        for item in self._queue:
            item.t += shift
        heapq.heapify(self._queue)
        self.now = now
        return shift

    def clear(self) -> None:
        """Drop everything still scheduled."""
        self._queue.clear()

    def next_time(self) -> float | None:
        while self._queue and self._queue[0].cancelled:
            heapq.heappop(self._queue)
        return self._queue[0].t if self._queue else None

    def run_due(self, until: float) -> None:
        """Run every event due at or before ``until``, in time order."""
        while True:
            t = self.next_time()
            if t is None or t > until or self._paused_at is not None:
                self.now = max(self.now, until)
                return
            item = heapq.heappop(self._queue)
            self.now = item.t
            item.fn()

    def run_virtual(self, limit: float = 24 * 3600.0) -> None:
        """Jump from event to event until none is left (or ``limit`` of virtual time, or a pause)."""
        while (t := self.next_time()) is not None and t <= limit and self._paused_at is None:
            self.run_due(t)

    def run_real(
        self,
        speed: float = 1.0,
        stop: Callable[[], bool] = lambda: False,
        inbox: queue.Queue[Any] | None = None,
        on_input: Callable[[Any], None] = lambda item: None,
        tick: Callable[[], None] = lambda: None,
        clock: Clock = REAL,
    ) -> None:
        """Follow the wall ``clock`` (``speed`` times faster) until no event
        is left. Between events it waits on ``inbox`` (presses, intents from
        the table's threads), so an input is handled the moment it arrives,
        with the scheduler's ``now`` set to its wall time. ``tick`` runs at
        every turn (at least every TURN_S), paused or not."""
        wall0, virt0 = clock.now(), self.now
        while not stop() and (t := self.next_time()) is not None:
            tick()
            if self._paused_at is not None:  # the clock stands still; input or a tick may resume it
                wait = TURN_S
                wall0, virt0 = clock.now(), self.now  # so that it goes on from here
            else:
                wait = (t - virt0) / speed - (clock.now() - wall0)
                if wait <= 0:
                    self.run_due(t)
                    if inbox is None or inbox.empty():
                        continue
                    wait = 0.0  # events are due one after another: input must not starve behind them
            item = clock.wait(inbox, min(wait, TURN_S))
            if item is None:
                continue
            if self._paused_at is None:
                # a loaded machine wakes the loop late: what was due by the moment the input was made
                # has happened first (a vote window it came after is closed), what was due after it not yet
                wall = clock.now()
                self.run_due(virt0 + (min(wall, made_at(item, wall)) - wall0) * speed)
                if self._paused_at is None:
                    self.now = max(self.now, virt0 + (wall - wall0) * speed)
            paused = self._paused_at is not None
            on_input(item)
            if paused and self._paused_at is None:  # resumed: the clock goes on from here
                wall0, virt0 = clock.now(), self.now
            # otherwise the clock keeps its reading: the time the input took is not lost from it


def made_at(item: Any, default: float) -> float:
    """The wall time an input was made (its ``at``, a host key's press's), or ``default``."""
    at = getattr(item, "at", None)
    if at is None:
        at = getattr(getattr(item, "press", None), "at", None)
    return at if isinstance(at, (int, float)) and not isinstance(at, bool) else default


def time_left(now: float, start: float, seconds: float) -> float:
    """Seconds left at ``now`` on a timer of ``seconds`` from ``start``: all of them before it starts."""
    return float(seconds) if now < start else max(0.0, start + seconds - now)
