"""A seat's phone came, went or came back: told as any notice; on the
console one line a seat, and the ones of arrivals go when the next day
begins, as do the lines of the names picked (:meth:`PhoneNotices.passing`).
At night in host mode they wait for the morning: a phone that comes back
while a role is woken would show who woke."""

from __future__ import annotations

from collections.abc import Callable

from engine import State
from engine.steps import NIGHT
from host_device.screens.views import Console
from host_device.web.inputs import WebNotice


class PhoneNotices:
    def __init__(
        self,
        notice: Callable[[str, str], None],
        console: Console | None,
        hosted: bool,  # host mode: the device hosts, and the night hides who wakes
        state: Callable[[], State],
    ) -> None:
        self.notice, self.console, self.hosted, self.state = notice, console, hosted, state
        self.going: dict[str, int] = {}  # the console's notices that go when a day after this one begins
        self.held: dict[int, WebNotice] = {}  # host mode at night: each seat's last phone notice
        self.cleared_day = 0

    def tell(self, item: WebNotice) -> None:
        if self.hosted and item.seat is not None and self.state().phase in NIGHT:
            self.held[item.seat] = item
            return
        self.notice(item.text, item.russian)
        if self.console is None or not self.hosted or item.seat is None:
            return
        mine = f"место {item.seat}: "
        notices = self.console.notices
        self.console.notices = [n for n in notices[:-1] if not n.startswith(mine)] + notices[-1:]
        if not item.lasting:
            self.going[item.russian] = self.state().day

    def passing(self, text: str, russian: str) -> None:
        """A notice of the seating (a name picked, refused): on the console until the next day begins."""
        self.notice(text, russian)
        if self.console is not None and self.hosted:
            self.going[russian] = self.state().day

    def step_began(self) -> None:
        """A day begins: arrivals and names told before it are old news; what the night held is told."""
        s = self.state()
        if self.console is not None and s.day > self.cleared_day:
            self.cleared_day = s.day
            old = {text for text, day in self.going.items() if day < s.day}
            self.console.notices = [n for n in self.console.notices if n not in old]
            self.going = {text: day for text, day in self.going.items() if day >= s.day}
        if (not self.hosted or s.phase not in NIGHT) and self.held:
            held, self.held = self.held, {}
            for item in held.values():
                self.tell(item)
