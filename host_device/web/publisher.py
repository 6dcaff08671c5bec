"""What the pages read, taken on the runtime's thread: the last public state
snapshot and the private views (the host's console's, each seat's); the
public events and the changed views are fanned out to the sockets' queues on
the server's loop. The server never reads the game while it changes.

The snapshot holds the step timer's deadline on the device's clock (the one
the scheduler follows, at its speed): the state served reads that clock, so
its ``time_left`` is the time left when it is served, not when the last
event came."""

from __future__ import annotations

import asyncio
import json
import queue
from dataclasses import dataclass, field
from typing import Any

from host_device.config import StreamSettings
from host_device.runtime.clock import REAL, Clock
from host_device.screens.public import Event, PublicStream, public_state
from host_device.screens.views import DARK, Console, console_view, seat_view
from host_device.web.access import Access
from host_device.web.console_powers import console_now, refusal

QUEUE_LIMIT = 1000  # events waiting for one slow socket; past it the socket is closed (it reconnects)
REPLACED = "\x00replaced"  # to a seat's socket whose seat another phone took
CONSOLE = "host"  # the console's connections: its view without the seats' LEDs
WHOLE = "host:whole"  # the console's connections whose «Весь стол» switch is on: every seat's LED


@dataclass
class Private:
    """The private pages' side: who may use them, the host's console, and
    the runtime's inbox that their inputs go into (like the panel's); the
    stream overlay's settings (:mod:`host_device.web.overlay`)."""

    access: Access
    console: Console
    inbox: queue.Queue[Any]
    stream: StreamSettings = field(default_factory=StreamSettings)  # [stream]: the broadcast overlay


class Publisher:
    """What the pages read: the last public state snapshot and the private
    views (the console's, each seat's), all taken on the runtime's thread;
    the public events and changed views are fanned out to the sockets."""

    def __init__(
        self, stream: PublicStream, speed: float = 1.0, private: Private | None = None, clock: Clock = REAL
    ) -> None:
        self.stream = stream
        self.speed = speed
        self.private = private
        self.clock = clock  # the wall clock the scheduler follows (run_real's)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watchers: dict[str, set[asyncio.Queue[str | None]]] = {}  # channel -> its sockets' queues
        self.phones: dict[int, asyncio.Queue[str | None]] = {}  # the one phone of each seat
        self.phones_seen: set[int] = set()  # seats whose phone has been here (server's loop)
        self.online: frozenset[int] = frozenset()  # the seats with a phone now: read on any thread
        self.waiting: str | None = None  # «Ждём телефоны: …» before the deal (the session's)
        self.hushed: frozenset[int] | None = None  # at night (host mode): the phones the console saw last
        self.views: dict[str, str] = {}  # channel ("host", "seat:4") -> its last view
        self._public = self._snapshot()
        stream.listeners.append(self.publish)
        self._due = False
        self._roster: tuple[Any, str] = (None, "[]")  # the roster list last written out, and its JSON
        if private is not None:  # every change the runtime makes: an LED, a step, a message
            stream.runtime.recorders.append(lambda entry: self._changed())
            stream.runtime.observers.append(lambda outputs: self._changed())
        self.refresh()

    def _snapshot(self) -> tuple[dict[str, Any], float | None, float | None]:
        """On the runtime's thread: the public state, the step timer's time
        left now and its deadline on the device's clock (None while paused:
        the time left stands still)."""
        rt = self.stream.runtime
        state = {**public_state(self.stream), "speed": self.speed, "phones_wait": self.waiting}
        state["whole_on"] = bool(self.watchers.get(WHOLE))  # a console sees (and presses) every seat
        left = rt.time_left()
        if left is None or rt.timer is None or rt.sched.paused:
            return state, left, None
        start, seconds, _ = rt.timer
        return state, left, self.clock.now() + (start + seconds - rt.sched.now) / self.speed

    @property
    def state(self) -> str:
        """The public state as served now (any thread): ``time_left`` read
        off the device's clock against the deadline (all of the timer's
        seconds until it starts), with ``deadline`` and ``now`` on that clock."""
        state, left, deadline = self._public
        now = self.clock.now()
        if left is not None and deadline is not None:
            left = min(left, max(0.0, (deadline - now) * self.speed))
        return json.dumps(
            {
                **state,
                "time_left": None if left is None else round(left, 1),
                "deadline": None if deadline is None else round(deadline, 3),
                "now": round(now, 3),
            },
            ensure_ascii=False,
        )

    def wait_line(self, text: str | None) -> None:
        """On the runtime's thread: the deal's «Ждём телефоны» line (None: gone), to the table pages."""
        self.waiting = text
        self._public = self._snapshot()
        self._send("public", json.dumps({"type": "phones_wait", "text": text}, ensure_ascii=False))

    def publish(self, event: Event) -> None:
        """On the runtime's thread: a new snapshot, and the event to every public socket."""
        self._public = self._snapshot()
        self._send("public", json.dumps(event, ensure_ascii=False))
        if event.get("type") == "window" and self.private is not None:
            self._changed()  # a phone in the vote shows its window open or closed

    def _changed(self) -> None:
        """The runtime is changing something: the views are taken once it has
        finished (the next turn of its scheduler), never half-way through."""
        if not self._due:
            self._due = True
            sched = self.stream.runtime.sched
            sched.at(sched.now, self.refresh)

    def after_input(self) -> None:
        """An input was handled: what it changed reaches the console and the
        phones at once, by the refresh already due this turn if there is one
        (a paused clock runs none: then here)."""
        if self.stream.runtime.sched.paused or not self._due:
            self.refresh()

    def tick(self) -> None:
        """Every turn of the runtime's loop: a change made while the clock
        stands still (a full store paused it) is sent now, not at the resume."""
        if self._due and self.stream.runtime.sched.paused:
            self.refresh()

    def refresh(self) -> None:
        """On the runtime's thread: the private views taken again; a changed one is sent."""
        self._due = False
        if self.private is None:
            return
        rt, console = self.stream.runtime, self.private.console
        views = {CONSOLE: console_view(console)}
        if console.whole_table:
            views[WHOLE] = console_view(console, leds=True)
        extra_open = refusal("extra", None, console_now(console)) is None  # the seat grid's ± offered
        for view in views.values():
            view["extra_open"] = extra_open
        seats = {
            f"seat:{seat}": seat_view(rt, seat, console.seating, console.phones)
            for seat in self.private.access.seats
        }
        texts = {channel: self._text(view) for channel, view in {**views, **seats}.items()}
        changed = {channel for channel, text in texts.items() if self.views.get(channel) != text}
        if rt.game.phase in DARK and changed & seats.keys():
            # at the deal and at night every phone is sent its view at the same moments: a phone
            # sent something (a role, a check's answer) when the others are not would show who woke
            changed |= seats.keys()
        for channel in texts:
            if channel in changed:
                self.views[channel] = texts[channel]
                self._send(channel, texts[channel])

    def _text(self, view: dict[str, Any]) -> str:
        """A view as its socket is sent it; the club's roster (the same in every view) written out once."""
        roster = view.pop("roster", None)
        text = json.dumps({"type": "view", **view, "speed": self.speed}, ensure_ascii=False)
        if roster is None:
            return text
        if self._roster[0] is not roster:
            self._roster = (roster, json.dumps(roster, ensure_ascii=False))
        return f'{text[:-1]}, "roster": {self._roster[1]}}}'

    def put(self, item: Any) -> None:
        """An input from a page, into the runtime's inbox (any thread)."""
        assert self.private is not None
        self.private.inbox.put(item)

    def _send(self, channel: str, text: str) -> None:
        loop = self.loop
        if loop is not None and self.watchers.get(channel):
            loop.call_soon_threadsafe(self.fan_out, channel, text)

    def fan_out(self, channel: str, text: str) -> None:
        queues = self.watchers.get(channel, set())
        for queue_ in list(queues):
            if queue_.qsize() >= QUEUE_LIMIT:
                queue_.put_nowait(None)  # too slow: closed, and it reconnects
                queues.discard(queue_)
            else:
                queue_.put_nowait(text)

    def watch(self, channel: str) -> asyncio.Queue[str | None]:
        """On the server's loop: a socket's queue for a channel."""
        queue_: asyncio.Queue[str | None] = asyncio.Queue()
        self.watchers.setdefault(channel, set()).add(queue_)
        return queue_

    def unwatch(self, channel: str, queue_: asyncio.Queue[str | None]) -> None:
        self.watchers.get(channel, set()).discard(queue_)

    def switch_whole(self, queue_: asyncio.Queue[str | None], on: bool) -> None:
        """On the server's loop: a console connection's «Весь стол» switch. Its
        queue moves to the view with every seat's LED (or back), and is sent
        that view at once; no other connection's view changes."""
        old, new = (CONSOLE, WHOLE) if on else (WHOLE, CONSOLE)
        if queue_ in self.watchers.get(new, set()):
            return
        self.unwatch(old, queue_)
        self.watchers.setdefault(new, set()).add(queue_)
        queue_.put_nowait(self.views.get(new, "{}"))

    def shows_whole(self, queue_: asyncio.Queue[str | None]) -> bool:
        """Whether this console connection's «Весь стол» switch is on."""
        return queue_ in self.watchers.get(WHOLE, set())

    def console_here(self) -> bool:
        """Whether a console (or a table page opened with the host's token) is connected now (any thread)."""
        return bool(self.watchers.get(CONSOLE)) or bool(self.watchers.get(WHOLE))

    def unwatch_console(self, queue_: asyncio.Queue[str | None]) -> None:
        self.unwatch(CONSOLE, queue_)
        self.unwatch(WHOLE, queue_)

    def tell_console(self, text: str) -> None:
        """On the server's loop: a message to every console connection, its switch on or off."""
        self.fan_out(CONSOLE, text)
        self.fan_out(WHOLE, text)

    def phones_text(self) -> str:
        """The console's list of the seats played with phones, which of them have one now,
        and each seat's link (its path with its token: the console shows it as text beside
        the QR code, to send by messenger or open on a laptop)."""
        tokens = self.private.access.seats if self.private is not None else {}
        shown = self.phones if self.hushed is None else self.hushed
        links = {str(seat): f"/seat/{seat}?t={token}" for seat, token in sorted(tokens.items())}
        return json.dumps(
            {"type": "phones", "seats": sorted(tokens), "connected": sorted(shown), "links": links}
        )

    def hush(self, on: bool) -> None:
        """On the runtime's thread: from the night's first step to the morning
        in host mode the console's list of phones stands still (a phone woken
        to press at night would show who woke); it is brought up to date after."""
        if on and self.hushed is None:
            self.hushed = self.online
        elif not on and self.hushed is not None:
            self.hushed = None
            text = self.phones_text()
            self._send(CONSOLE, text)
            self._send(WHOLE, text)
