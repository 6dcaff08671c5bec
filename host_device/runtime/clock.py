"""One clock for the whole runtime, and the schedule of what happens when.

The runtime never reads time by itself: it asks the scheduler, which runs on
virtual time in tests and simulations (jumping from one due event to the
next, so a whole game takes milliseconds) or on the real clock (sleeping
until the next event, waking early for input from the table).
"""

from __future__ import annotations

import heapq
import itertools
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


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
    ) -> None:
        """Follow the real clock (``speed`` times faster) until no event is
        left. Between events it waits on ``inbox`` (presses, intents from the
        table's threads), so an input is handled the moment it arrives, with
        the scheduler's ``now`` set to its real time. ``tick`` runs at every
        turn (at least every 50 ms), paused or not."""
        wall0, virt0 = time.monotonic(), self.now
        while not stop() and (t := self.next_time()) is not None:
            tick()
            if self._paused_at is not None:  # the clock stands still; input or a tick may resume it
                wait = 0.05
                wall0, virt0 = time.monotonic(), self.now  # so that it goes on from here
            else:
                wait = (t - virt0) / speed - (time.monotonic() - wall0)
                if wait <= 0:
                    self.run_due(t)
                    if inbox is None or inbox.empty():
                        continue
                    wait = 0.0  # events are due one after another: input must not starve behind them
            if inbox is None:
                time.sleep(min(wait, 0.05))
                continue
            try:
                item = inbox.get(timeout=min(wait, 0.05)) if wait > 0 else inbox.get_nowait()
            except queue.Empty:
                continue
            paused = self._paused_at is not None
            if not paused:
                self.now = max(self.now, virt0 + (time.monotonic() - wall0) * speed)
            on_input(item)
            if paused and self._paused_at is None:  # resumed: the clock goes on from here
                wall0, virt0 = time.monotonic(), self.now
            # otherwise the clock keeps its reading: the time the input took is not lost from it
