"""What the pages' server allows one client: how long it may take to ask,
how many connections it may hold (the public page's share smaller than the
whole, so that strangers cannot lock out the console and the phones), how
large a socket's message may be, how fast a phone may press, and how often
a seat's phone coming and going is told.

The numbers are :class:`Limits` (a test makes them small); the connections
are counted by :mod:`host_device.web.guard`, the presses and the notices here."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    head_timeout_s: float = 10.0  # a request must be read (and answered) within this of the connection
    keep_alive_s: int = 5  # an idle connection after its answer (uvicorn's timeout_keep_alive)
    head_bytes: int = 8192  # a request's head beyond this is refused (h11, and websockets' own line limit)
    ws_ping_interval_s: float = 20.0  # a socket's ping ...
    ws_ping_timeout_s: float = 20.0  # ... and the pong it waits for before it closes the socket
    ws_message_bytes: int = 4096  # a socket's message beyond this closes the socket (1009)
    connections: int = 200  # open at once, at most (fewer when the descriptor limit is low)
    backlog: int = 64  # connections the kernel holds until accepted (and accepted in one turn of the loop)
    public: int = 150  # of them without a token (waiting, public pages): the first to be refused
    presses_per_s: float = 5.0  # a phone's presses beyond a human's pace ...
    press_burst: int = 10  # ... (after a burst of this many) are dropped and counted
    name_every_s: float = 1.0  # a seat's own name at most this often, whatever its connections
    notice_every_s: float = 5.0  # a seat's phone coming and going told at most this often (the rest counted)
    phone_silent_s: float = 2.0  # a seat's phone heard nothing from this long is lost: its socket is closed
    phone_check_s: float = 0.25  # how often a phone's silence is looked at
    accept_error_every_s: float = 60.0  # "too many open files" said at most once in this time
    clock: Callable[[], float] = time.monotonic


LIMITS = Limits()  # the box's


class Presses:
    """One phone's presses at a human's pace (a token bucket): beyond it they
    are dropped and counted, said once when the dropping starts and once,
    with the count, when the phone's socket closes."""

    def __init__(self, limits: Limits, who: str) -> None:
        self.limits = limits
        self.who = who
        self.tokens = float(limits.press_burst)
        self.at = limits.clock()
        self.dropped = 0

    def allow(self, now: float) -> bool:
        rate, burst = self.limits.presses_per_s, self.limits.press_burst
        self.tokens = min(float(burst), self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        if not self.dropped:
            log.warning("%s: нажатия чаще %g в секунду отброшены", self.who, rate)
        self.dropped += 1
        return False

    def report(self) -> None:
        if self.dropped:
            log.warning(
                "%s: отброшено нажатий: %d (чаще %g в секунду)",
                self.who,
                self.dropped,
                self.limits.presses_per_s,
            )


class Throttle:
    """Each seat's notices (its phone came, went, came back) told at most once
    in ``every_s``: those in between are held, and the last of them is told
    with the count of those held when the time is up, so that the last word
    (here, or lost) is always told — a phone reconnecting in a loop makes one
    line every few seconds, not thousands. ``tell`` is given the notice and
    how many came since the last one told (itself included). On the server's
    loop."""

    def __init__(self, every_s: float, clock: Callable[[], float], tell: Callable[[Any, int], None]) -> None:
        self.every_s, self.clock, self.tell = every_s, clock, tell
        self.told: dict[int, float] = {}  # seat -> when it was last told
        self.held: dict[
            int, tuple[Any, int]
        ] = {}  # seat -> its latest notice not told, and how many were held

    def __call__(self, seat: int, notice: Any, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        if now - self.told.get(seat, -self.every_s) >= self.every_s:
            skipped = self.held.pop(seat, (None, 0))[1]
            self.told[seat] = now
            self.tell(notice, skipped + 1)
            return
        if seat not in self.held:
            asyncio.get_running_loop().call_later(self.told[seat] + self.every_s - now, self._flush, seat)
        self.held[seat] = (notice, self.held.get(seat, (None, 0))[1] + 1)

    def _flush(self, seat: int) -> None:
        if seat not in self.held:
            return
        wait = self.told[seat] + self.every_s - self.clock()
        if wait > 0:  # told since by a notice that came when it was due: the held one waits on
            asyncio.get_running_loop().call_later(wait, self._flush, seat)
            return
        notice, count = self.held.pop(seat)
        self.told[seat] = self.clock()
        self.tell(notice, count)
